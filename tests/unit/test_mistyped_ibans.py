"""An IBAN-shaped value after its word is the user's account even when mistyped (issue 29):
"IBAN DE7050010517540123456789" (24 characters for a German IBAN, its check failing) was stored.
The class: a country code, two digits and ten to thirty letters and digits (grouped or not)
after "IBAN" in the seven covered languages, whether its length or checksum holds. Benign:
masked IBANs, docs placeholders, questions about the format, a country's IBAN length.

First run on main (bd98132): see docs/benchmarks.md (blindfix15a).
"""

from __future__ import annotations

import pytest

from userlore.policy.sensitivity import classify, redact

IBANS = [
    (
        "Bitte überweise die Kaution auf mein Konto:\nIBAN DE7050010517540123456789"
        "\nBIC COBADEFFXXX",
        "DE7050010517540123456789",
    ),
    ("meine IBAN ist DE12 5001 0517 5401 2345 67", "DE12 5001 0517 5401 2345 67"),
    ("IBAN: DE44500105175407324932 (hoffe, ich hab mich nicht vertippt)", "DE44500105175407324932"),
    ("my IBAN is GB33BUKB2020155555555", "GB33BUKB2020155555555"),
    ("send it to my IBAN GB29 NWBK 6016 1331 9268 1", "GB29 NWBK 6016 1331 9268 1"),
    ("IBAN FR7630006000011234567890188 pour le virement", "FR7630006000011234567890188"),
    ("mon IBAN c'est FR76 3000 4000 0312 3456 7890 14", "FR76 3000 4000 0312 3456 7890 14"),
    ("mi IBAN es ES9121000418450200051339", "ES9121000418450200051339"),
    ("el IBAN de mi cuenta: ES12 2100 0418 4502 0005 1332 1", "ES12 2100 0418 4502 0005 1332 1"),
    ("o meu IBAN é PT50000201231234567890155", "PT50000201231234567890155"),
    ("IBAN PT50 0002 0123 1234 5678 9015 4 para a renda", "PT50 0002 0123 1234 5678 9015 4"),
    ("我的IBAN是DE89370400440532013001，转账用", "DE89370400440532013001"),
    ("IBAN：FR1420041010050500013M02607", "FR1420041010050500013M02607"),
    ("IBANは DE89 3704 0044 0532 0130 01 です", "DE89 3704 0044 0532 0130 01"),
    ("振込先のIBAN：GB82WEST1234569876543", "GB82WEST1234569876543"),
    ("IBAN NL91ABNA041716430 für die Miete", "NL91ABNA041716430"),
    ("my IBAN NL91 ABNA 0417 1643 01 — is that right?", "NL91 ABNA 0417 1643 01"),
    ("IBAN IT60X054281110100000012345 per l'affitto, ok?", "IT60X054281110100000012345"),
    ("la mia IBAN è IT60 X054 2811 1010 0000 0123 45", "IT60 X054 2811 1010 0000 0123 45"),
    ("pay into IBAN BE68539007547035, thanks", "BE68539007547035"),
    ("IBAN-Nummer: AT61190430023457320", "AT61190430023457320"),
    ("IBAN CH9300762011623852958 für die Rechnung", "CH9300762011623852958"),
    ("numéro IBAN : BE71096123456768", "BE71096123456768"),
    (
        "el IBAN es ES76 2077 0024 0031 0257 5767 (me lo dio el banco)",
        "ES76 2077 0024 0031 0257 5767",
    ),
    ("IBAN de la cuenta: ES7620770024003102575767", "ES7620770024003102575767"),
    ("Minha conta na Europa, IBAN LU280019400644750001", "LU280019400644750001"),
    ("IBAN账号 DE89370400440532013099", "DE89370400440532013099"),
    ("IBAN DE89-3704-0044-0532-0130-99", "DE89-3704-0044-0532-0130-99"),
    ("IBAN für die Kaution DE50 1001 0010 0123 4567 890", "DE50 1001 0010 0123 4567 890"),
    ("iban fr76 3000 6000 0112 3456 7890 18x", "fr76 3000 6000 0112 3456 7890 18x"),
]

BENIGN = [
    "IBAN DE** **** **** **** **** 89, so zeigt es die App",
    "meine IBAN endet auf 3000, die App zeigt DE89 **** **** **** **** 00",
    "IBAN: DEXX XXXX XXXX XXXX XXXX XX is the placeholder in the form",
    pytest.param(
        "a German IBAN has 22 characters, DE plus 20",
        marks=pytest.mark.xfail(strict=True, reason="read as a password in pieces (as on main)"),
    ),
    "how is the IBAN check digit computed?",
    "IBAN DE00 0000 0000 0000 0000 00 is the example in the docs",
    "el IBAN español tiene 24 caracteres, ES y 22 dígitos",
    "l'IBAN français fait 27 caractères",
    pytest.param(
        "o IBAN português começa por PT50",
        marks=pytest.mark.xfail(strict=True, reason="a cued identifier (as on main)"),
    ),
    "IBAN的格式是国家代码加两位校验码",
    "IBANは何桁ですか？",
    "the IBAN field shows FR76 •••• •••• •••• •••• ••• 14",
    "IBAN ending in 4321, is that mine?",
    "IBAN: ES91 **** **** **** **** 1332",
    "what does the BIC COBADEFFXXX mean?",
    pytest.param(
        "IBAN-Rechner: DE plus Prüfziffer plus BLZ plus Kontonummer",
        marks=pytest.mark.xfail(strict=True, reason="read as a password in pieces (as on main)"),
    ),
    "the IBAN for the charity is on their website",
    "IBAN GB00 XXXX 0000 0000 0000 00 in the template",
]


@pytest.mark.parametrize(("text", "value"), IBANS)
def test_iban_after_its_word_is_redacted(text: str, value: str) -> None:
    assert value not in redact(text, classify(text))


@pytest.mark.parametrize("text", BENIGN)
def test_masked_or_asked_iban_is_not_flagged(text: str) -> None:
    assert not classify(text).is_blocked
