"""Benign twins of ids and money (issue 29): masked values with visible head or middle digits
("6222 **** **** 0417", "CPF ***.456.789-**") are no identifier, and an invoice's, a client's or
an order's number after its word ("facture n° FA-2024-0318, client 000742") is no amount. Any
mask character, any grouping, the seven covered languages; the values that are the user's
stay caught (the SECRETS table).

First run on main (bd98132): see docs/benchmarks.md (blindfix15a).
"""

from __future__ import annotations

import pytest

from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import classify

BENIGN = [
    "卡号已经打码了：6222 **** **** 0417，这样发截图安全吗",
    "my card shows as 4111 11** **** 1111 on the receipt",
    "the app shows card 5500 •••• •••• 0004, is that normal?",
    "Kartennummer 4000 12XX XXXX 0002 auf dem Beleg",
    "la tarjeta aparece como 4532 **** **** 7781",
    "la carte s'affiche 4970 •••• •••• 1234",
    "o cartão aparece 5162 **** **** 9013 no extrato",
    "カード番号は 4980 **** **** 5521 と表示されています",
    "CPF ***.456.789-** aparece mascarado no app, é normal?",
    "o CPF vem como 123.***.***-45 na nota",
    "DNI ****5678Z sale así en la factura",
    "mi cédula aparece como 12.***.**8-9",
    "Steuer-ID ** *** 456 789 steht so auf dem Brief",
    "numéro de sécu 1 ** ** ** *** 045 67 sur l'attestation",
    "身份证号显示为 110105********1234",
    "SSN ***-**-6789 on the form, fine?",
    "phone +49 *** *** 4512 on the invoice",
    "facture n° FA-2024-0318, client 000742",
    "invoice INV-2024-0097 for customer 004512",
    "Rechnung RE-2023-1184, Kundennummer 008812",
    "factura F-2024-0551, cliente 000318",
    pytest.param(
        "nota fiscal NF-2024-1203, cliente 002211",
        marks=pytest.mark.xfail(
            strict=True, reason="the registry walk validates 20241203 (as on main)"
        ),
    ),
    "facture 2024-0412, client n° 1187",
    "invoice no. 2024/0318, customer no. 7781",
    "la factura FAC-0042 del cliente 000911 ya está",
    "Rechnung Nr. 2024-118, Kunde 04412",
    "请把发票号 FP-2024-0318 和客户编号 000742 发我",
    "請求書番号 INV-2024-0318、顧客番号 000742",
    "order 2024-5513, invoice 2024-0318, client 00417",
    "ticket SR-2024-0091 for client 000215",
]

# Values that are the user's stay caught beside the masks and numbers.
SECRETS = [
    "my card is 4111 1111 1111 1111, not the masked 4111 **** **** 1111",
    "meu CPF é 529.982.247-25, o app mostra ***.982.247-**",
    "I invoiced the client 3,610 dollars, invoice INV-2024-0097",
    "facture n° FA-2024-0318 : j'ai facturé 2 400 € au client 000742",
]


@pytest.mark.parametrize("text", BENIGN)
def test_masked_or_reference_number_is_quoted(text: str) -> None:
    assert not classify(text).is_blocked
    assert quote_verdict(text).quotable


@pytest.mark.parametrize("text", SECRETS)
def test_the_users_value_beside_them_is_caught(text: str) -> None:
    assert classify(text).is_blocked
