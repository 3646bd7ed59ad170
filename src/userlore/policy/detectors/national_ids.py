"""Identifiers stated in context: a keyword, then within a short window, a valid value."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.detectors.common import _Hit, _is_placeholder
from userlore.policy.detectors.payment import (
    _CN_RIC,
    _ID_SEPARATORS,
    _SEP,
    _checksum_only,
    _ssn_ok,
    _validate,
)
from userlore.policy.findings import _REGULATED, _words

# Identifiers stated in context: a keyword, then within a short window a value of the right shape.
_ID_SPECS: Final = (
    # (group, keyword regex, value regex, validators or None, rule, category)
    (
        "passport",
        r"passport(?:\s*(?:number|no\.?|num|#))?|reisepass(?:nummer)?|passnummer|pasaporte"
        r"|passeport|passaporte|passaporto|paspoort(?:nummer)?|passnummer|pasaport|paszport|passi"
        r"|cestovní\s+pas|útlevél|pass(?:port)?\s*nr\.?|passport\s+id|旅券(?:番号)?|パスポート(?:番号)?|여권(?:번호)?|护照(?:号码|号)?|護照(?:號碼|號)?|港澳通行证|旅行证件",
        r"[A-Z]{1,2}\d{6,9}|\d{8,9}|[CFGHJKLMNPRTVWXYZ][CFGHJKLMNPRTVWXYZ0-9]{8}"
        r"|[A-Z0-9]{2,6}-[A-Z0-9]{2,7}|\d{3,5}(?: \d{1,5}){1,2}|[A-Z0-9]{6,10}",
        None,
        "passport_number",
        "government_id",
    ),
    (
        "de_svnr",
        r"sozialversicherungsnummer|rentenversicherungsnummer|versicherungsnummer|svnr|rvnr",
        r"\d{2}\s?\d{6}\s?[A-Za-z]\s?\d{2,3}",
        None,
        "de_social_insurance",
        "government_id",
    ),
    (
        "cvv",
        r"cvv2?|cvc2?|csc|card\s+security\s+code|security\s+code|安全码|cvv码",
        r"\d{3,4}",
        None,
        "card_security_code",
        "financial",
    ),
    (
        "ssn",
        r"ssn|social\s+security(?:\s+(?:number|no\.?|#))?|social(?=\s*(?:is|was|:|#|number))",
        rf"\d{{3}}{_SEP}?\d{{2}}{_SEP}?\d{{4}}",
        ("us.ssn",),
        "us_ssn",
        "government_id",
    ),
    (
        "itin",
        r"itin",
        rf"9\d{{2}}{_SEP}?\d{{2}}{_SEP}?\d{{4}}",
        ("us.itin",),
        "us_itin",
        "government_id",
    ),
    (
        "nino",
        r"national\s+insurance(?:\s+(?:number|no\.?))?|\bni\s+(?:number|no)|nino",
        r"[A-CEGHJ-PR-TW-Za-ceghj-pr-tw-z][A-CEGHJ-NPR-TW-Za-ceghj-npr-tw-z]\s?\d{2}\s?\d{2}"
        r"\s?\d{2}\s?[A-Da-d]",
        ("nino",),
        "uk_nino",
        "government_id",
    ),
    (
        "nhs",
        r"nhs\s+(?:number|no\.?)",
        rf"\d{{3}}{_SEP}?\d{{3}}{_SEP}?\d{{4}}",
        ("gb.nhs",),
        "uk_nhs",
        "government_id",
    ),
    (
        "es",
        r"dni|nie|nif|documento\s+nacional\s+de\s+identidad",
        r"[XYZxyz]?\d{7,8}[\- ]?[A-Za-z]",
        ("es.dni", "es.nie", "es.nif"),
        "es_dni",
        "government_id",
    ),
    (
        "de_tax",
        r"steuer-?id(?:entifikationsnummer)?|steuerliche\s+identifikationsnummer|idnr"
        r"|tax\s+id(?:entification)?(?:\s+(?:number|no\.?))?|\btin\b",
        rf"\d{{2}}{_SEP}?\d{{3}}{_SEP}?\d{{3}}{_SEP}?\d{{3}}|\d{{3}}{_SEP}?\d{{2}}{_SEP}?\d{{4}}"
        r"|\d{2}-\d{7}",
        ("de.idnr", "us.ssn", "us.itin", "us.ein"),
        "tax_id",
        "government_id",
    ),
    (
        "de_id",
        r"personalausweis(?:nummer)?|ausweisnummer|ausweis-?nr\.?",
        r"[CFGHJKLMNPRTVWXYZ0-9]{9,10}",
        None,
        "national_id",
        "government_id",
    ),
    (
        "aadhaar",
        r"aadhaar|aadhar|adhaar|uidai|आधार",
        rf"\d{{4}}{_SEP}?\d{{4}}{_SEP}?\d{{4}}",
        ("in_.aadhaar",),
        "in_aadhaar",
        "government_id",
    ),
    (
        # The Aadhaar Virtual ID: 16 digits, given beside the Aadhaar number or instead of it.
        "in_vid",
        r"vid|virtual\s+id",
        rf"\d{{4}}{_SEP}?\d{{4}}{_SEP}?\d{{4}}{_SEP}?\d{{4}}",
        None,  # beside its own word, a VID is a VID whatever its check digit
        "in_aadhaar_vid",
        "government_id",
    ),
    (
        "jp_mynumber",
        r"my\s*number(?:\s+card)?|individual\s+number|マイナンバー|個人番号",
        rf"\d{{4}}{_SEP}?\d{{4}}{_SEP}?\d{{4}}",
        ("jp.in_",),
        "jp_my_number",
        "government_id",
    ),
    (
        "kr_rrn",
        r"resident\s+registration\s+number|\brrn\b|주민등록번호|주민번호",
        r"\d{6}[\- ]?\d{7}",
        ("kr.rrn",),
        "kr_rrn",
        "government_id",
    ),
    (
        "pan",
        r"pan(?:\s*(?:card|number|no\.?))?"
        r"|permanent\s+account\s+number",
        r"[A-Za-z]{5}\d{4}[A-Za-z]",
        ("in_.pan",),
        "in_pan",
        "government_id",
    ),
    (
        "fr_nir",
        r"num[ée]ro\s+de\s+s[ée]curit[ée]\s+sociale|\bnir\b|carte\s+vitale|num[ée]ro\s+insee",
        r"[12]\s?\d{2}\s?\d{2}\s?(?:\d{2}|2[AB])\s?\d{3}\s?\d{3}\s?\d{2}",
        ("fr.nir",),
        "fr_nir",
        "government_id",
    ),
    (
        "it_cf",
        r"codice\s+fiscale",
        r"[A-Za-z]{6}\d{2}[A-Za-z]\d{2}[A-Za-z]\d{3}[A-Za-z]",
        ("it.codicefiscale",),
        "it_codice_fiscale",
        "government_id",
    ),
    (
        "ca_sin",
        r"social\s+insurance\s+number|sin",
        rf"\d{{3}}{_SEP}?\d{{3}}{_SEP}?\d{{3}}",
        None,  # beside its own words, a SIN that fails the check is still a SIN
        "ca_sin",
        "government_id",
    ),
    # gate4: identifiers with no check digit to try, or one the registry does not know, taken
    # by their format beside their own words.
    (
        "jp_license",
        r"運転免許証?(?:の)?(?:番号)?|免許証?(?:の)?(?:番号)?",
        r"\d(?:[ \-]?\d){11}",
        None,
        "jp_drivers_license",
        "government_id",
    ),
    (
        "br_rg",
        r"rg|registro\s+geral|carteira\s+de\s+identidade|c[ée]dula\s+de\s+identidade",
        r"\d{1,2}\.?\d{3}\.?\d{3}-?[\dXx]",
        None,
        "br_rg",
        "government_id",
    ),
    (
        "br_cnh",
        r"cnh|carteira\s+de\s+motorista|carteira\s+de\s+habilita[çc][ãa]o",
        r"\d{11}",
        None,
        "br_cnh",
        "government_id",
    ),
    (
        "es_nss",
        r"(?:n[uú]mero\s+(?:de\s+(?:la\s+)?)?)?seguridad\s+social|n[uú]mero\s+de\s+afiliaci[oó]n"
        r"|afiliaci[oó]n|nss|naf",
        r"\d{2}[/ \-]?\d{7,8}[/ \-]?\d{2}",
        None,
        "es_social_security",
        "government_id",
    ),
    (
        "mx_curp",
        r"curp",
        r"[A-Za-z]{4}\d{6}[HMhm][A-Za-z]{5}[A-Za-z0-9]\d",
        None,
        "mx_curp",
        "government_id",
    ),
    ("nl_bsn", r"bsn|burgerservicenummer", r"\d{9}", ("nl.bsn",), "nl_bsn", "government_id"),
    ("br_cpf", r"cpf", r"\d{3}\.?\d{3}\.?\d{3}-?\d{2}", ("br.cpf",), "br_cpf", "government_id"),
    (
        "cn_ric",
        r"身份证(?:号码|号)?|居民身份证|身份證(?:號碼|號)?|resident\s+id(?:entity)?(?:\s+(?:card|number))?"
        r"|chinese\s+id(?:\s+(?:card|number))?|id\s+card(?:\s+(?:number|no\.?))?",
        r"\d{17}[\dXx]|\d{15}",
        None,
        "cn_resident_id",
        "government_id",
    ),
    (
        "license",
        r"driver'?s?\s+licen[cs]e(?:\s+(?:number|no\.?|#))?|driving\s+licen[cs]e(?:\s+number)?"
        r"|licen[cs]e\s*(?:number|no\.?|#|nr\.?)|my\s+licen[cs]e|\bdl(?=\s*(?:is|:|#)\s)"
        r"|führerschein-?nr\.?|permis\s*(?:de\s+conduire\s*)?(?:n°|nº|no\.?|numéro)"
        r"|\bdl\s*(?:number|no\.?|#)|führerschein(?:nummer)?|permis\s+de\s+conduire"
        r"|licencia\s+de\s+conducir|驾驶证(?:号)?|驾照(?:号)?",
        r"[A-Za-z0-9\-]{5,18}",
        None,
        "drivers_license",
        "government_id",
    ),
    (
        "national",
        r"national\s+id(?:entity)?(?:\s+(?:card|number|no\.?))?|national\s+identification\s+number"
        r"|identity\s+(?:card\s+)?number|citizen\s+id|c[ée]dula|n[uú]mero\s+de\s+identidad"
        r"|carte\s+d'identit[ée]|personnummer|henkilötunnus|pesel|\bid\s+(?:number|no\.?)"
        r"|身份号码|证件号(?:码)?|medicare\s+(?:number|card|no\.?)|health\s+insurance\s+(?:number|id)"
        r"|医保卡号|社保卡号|社保号|krankenversichertennummer|versichertennummer",
        r"[A-Za-z0-9\-]{6,20}",
        None,
        "national_id",
        "government_id",
    ),
    (
        "card",
        r"card\s*(?:number|no\.?|#)|credit\s+card|debit\s+card|卡号|信用卡号?|银行卡号?"
        r"|kartennummer|num[ée]ro\s+de\s+carte|n[uú]mero\s+de\s+tarjeta",
        r"\d(?:[ \-._/]?\d){11,18}",
        None,
        "payment_card",
        "financial",
    ),
    (
        "routing",
        r"routing\s*(?:number|no\.?|#)?|aba\s*(?:routing\s*)?(?:number|no\.?|#)?",
        r"\d{9}",
        ("us.rtn",),
        "routing_number",
        "financial",
    ),
    (
        "bank",
        r"(?:bank\s+)?account\s*(?:number|no\.?|num|#)|bank\s+account|acct\.?\s*(?:number|no\.?|#)?"
        r"|(?:checking|savings)\s+account|sort\s*code|bsb(?:\s*number)?|kontonummer"
        r"|bankleitzahl|\bblz\b|n[uú]mero\s+de\s+cuenta|cuenta\s+bancaria|num[ée]ro\s+de\s+compte"
        r"|\brib\b|n[uú]mero\s+da\s+conta|conta\s+corrente|银行账号|银行帐号|账号|帳號|银行账户"
        r"|账户号码|帐户号码|开户账号",
        r"\d(?:[ \-._]?\d){5,19}",
        None,
        "bank_account",
        "financial",
    ),
)
# Gates: a word of the text (see ``_detect``) or, for CJK, a substring must be present.
_ID_GATE_WORDS: Final = _words(
    """
    passport reisepass reisepassnummer passnummer pasaporte passeport passaporte passaporto
    social sozialversicherungsnummer insurance documento steuer steuerid steueridentifikationsnummer
    steuerliche idnr tax ausweis personalausweis personalausweisnummer ausweisnummer ausweis
    aadhaar aadhar adhaar uidai vid virtual permanent sécurité securite vitale insee fiscale
    burgerservicenummer resident chinese driver driver's drivers driving führerschein
    führerscheinnummer permis licencia national identity identification citizen cédula cedula
    identidad identité personnummer henkilötunnus pesel medicare health versichertennummer
    krankenversichertennummer rentenversicherungsnummer versicherungsnummer svnr rvnr card karte
    kartennummer cvv cvv2 cvc cvc2 csc security carte license licence führerscheinnr permis
    tarjeta routing account acct checking
    savings sort konto kontonummer bankleitzahl cuenta compte conta ssn itin tin ni nino nhs dni
    nie nif pan nir sin bsn cpf dl aba bsb blz rib id number mynumber individual rrn
    registration paspoort paspoortnummer pasaport paszport passi pass
    rg registro identidade cnh motorista habilitação habilitacao seguridad afiliación afiliacion
    nss naf curp
    """
)
_ID_GATE_CJK = re.compile(
    r"免許|マイナンバー|パスポート|個人番号|주민|여권|旅券|安全码|护照|護照|通行证|旅行证件|身份|證|证件|驾驶|驾照|医保|社保|卡|账|帳|आधार"
)
_ID_KEYWORDS = re.compile(  # run on the lowercased text
    r"(?<![a-z])(?:" + "|".join(f"(?P<{g}>{kw})" for g, kw, *_ in _ID_SPECS) + r")(?![a-z])"
)
_UPPER_ONLY_KEYWORDS: Final = frozenset({"pan", "sin"})  # "PAN", "SIN"; not "pan", "sin"
_SHORT_CUE: Final = 4  # a cue this short names an id whatever its check only as an acronym
_ID_VALUES: Final = {
    g: (re.compile(r"(?<![A-Za-z0-9])(?:" + val + r")(?![A-Za-z0-9])"), vals, rule, cat)
    for g, _, val, vals, rule, cat in _ID_SPECS
}
_ID_NEG_BEFORE = re.compile(  # lowercased text
    r"(?:order|tracking|invoice|customer|employee|student|member|ticket|transaction|booking"
    r"|session|product|device|request|case|aws|account|user|github|app|client|game|steam)"
    r"[\s_\-]*$"
)
_ID_FILLER = re.compile(  # lowercased text
    r"(?:[\s:：#=.\-°º]|is|was|are|number|no|num|nr|ist|lautet|es|est|é|是|为|為|号码|号|は)*"
)
_NINO_BAD_PREFIX: Final = frozenset({"BG", "GB", "NK", "KN", "TN", "NT", "ZZ"})


# The German ID card's document number: nine characters of the ICAO alphabet without vowels.
_ICAO_ID = re.compile(r"[CFGHJKLMNPRTVWXYZ][CFGHJKLMNPRTVWXYZ0-9]{8}")


def _id_value_ok(
    group: str, value: str, validators: tuple[str, ...] | None, named: bool = True
) -> bool:
    compact = _ID_SEPARATORS.sub("", value).upper()
    if validators is None:
        digits = sum(c.isdigit() for c in compact)
        if group == "passport":
            return digits >= 5 or (digits >= 3 and len(compact) == 9)
        if group == "license" and len(compact) >= 8 and compact[0].isalpha():
            return digits >= 4 and not _is_placeholder(value)  # "WDL7Q2X93KP"
        if group == "de_id" and len(compact) == 9 and _ICAO_ID.fullmatch(compact):
            return digits >= 3  # the card's 9-character document number ("LFC4R7T19")
        if group in {"national", "license", "de_id"}:
            return digits >= 5 and not _is_placeholder(value)
        if group == "cn_ric":  # stated as an id: a mistyped check digit is still an id
            return len(compact) == 15 or _CN_RIC.fullmatch(compact) is not None
        return True
    if validators == ("nino",):
        return compact[:2] not in _NINO_BAD_PREFIX
    if group == "ssn":
        return len(compact) == 9 and _ssn_ok(compact[:3], compact[3:5], compact[5:])
    if any(_validate(v, compact) for v in validators):
        return True
    # The cue names the identifier: its shape is enough, a failing check digit no matter; but a
    # small letter after a space is the next word ("mi DNI es 48291037 y la letra es la F"). A
    # short cue names it only as an acronym (``named``): "run", "tin", "nie", "rib" are words.
    if not named or _NEXT_WORD.search(value):
        return False
    return any(_checksum_only(v, compact) for v in validators)


_NEXT_WORD = re.compile(r"\s[a-z]$")


def _contextual_ids(t: str, lowered: str) -> Iterator[_Hit]:
    for m in _ID_KEYWORDS.finditer(lowered):
        group = m.lastgroup or ""
        if m.group(0) in _UPPER_ONLY_KEYWORDS and not t[m.start() : m.end()].isupper():
            continue
        if group in {"national", "bank"} and _ID_NEG_BEFORE.search(
            lowered, max(0, m.start() - 24), m.start()
        ):
            continue
        value_re, validators, rule, category = _ID_VALUES[group]
        line_end = t.find("\n", m.end())
        limit = min(m.end() + 40, len(t) if line_end < 0 else line_end)
        filler = _ID_FILLER.match(lowered, m.end(), limit)
        start = filler.end() if filler else m.end()
        v = value_re.search(t, start, min(limit, start + 30))
        if v is None:
            continue
        word = t[m.start() : m.end()]
        named = len(word) > _SHORT_CUE or word.isupper()
        if not _id_value_ok(group, v.group(0), validators, named):
            continue
        level = _REGULATED
        yield (level, rule, v.start(), v.end(), category)


# A passport number further from its word than the filler allows ("my passport number, if you
# need it for the booking, is 533419872", "mein Pass hat die Nummer C01X00T47").
_PASSPORT_WIDE_KW = re.compile(  # lowercased text
    r"passport|reisepass|\bpass\b(?=[^.!?\n]{0,20}nummer)|passeport|pasaporte|passaporte"
    r"|passaporto|护照|護照|旅券|パスポート"
)
_PASSPORT_WIDE_VALUE = re.compile(
    r"(?<![A-Za-z0-9])(?:[A-Z]{1,2}\d{6,9}|\d{9}|[A-Z0-9]{9})(?![A-Za-z0-9])"
)


def _passports_wide(t: str, lowered: str) -> Iterator[_Hit]:
    for kw in _PASSPORT_WIDE_KW.finditer(lowered):
        end = min(len(t), kw.end() + 70)
        for v in _PASSPORT_WIDE_VALUE.finditer(t, kw.end(), end):
            value = v.group(0)
            if sum(c.isdigit() for c in value) >= 5 and not (
                value.isdigit() and value[:2] in ("19", "20") and len(value) < 9
            ):
                yield (_REGULATED, "passport_number", v.start(), v.end(), "government_id")
                break
