"""Regulated numbers by checksum: payment cards, IBANs, SSNs, CPFs, Chinese resident ids."""

from __future__ import annotations

import importlib
import itertools
import re
from collections.abc import Iterator
from typing import Any, Final

from stdnum import luhn as _luhn
from stdnum.cn import ric as _cn_ric

from userlore.policy.detectors.common import _Hit, _overlaps
from userlore.policy.findings import _REGULATED

# --------------------------------------------------------------------------------------------
# Regulated: payment cards, IBAN, national identifiers, bank accounts, financial figures
# --------------------------------------------------------------------------------------------

_DIGIT_GATE = re.compile(r"\d(?:\D{0,3}\d){5}")
_ANY_DIGIT = re.compile(r"\d")
# Separators are the ASCII ones: ``normalize.fold`` has turned every Unicode dash, space, slash,
# dot and underscore variant into one of ``DIGIT_SEPARATORS`` before any rule runs.
# ``_`` is a separator, not part of a word: "card_4111…" reads like "card 4111…".
# Tabs and one line break separate groups too; a CJK letter next to the number does not glue it
# to a word ("カード番号は4862-…です").
_CARD_CAND = re.compile(
    r"(?<![A-Za-z0-9]|[.,\-/])\d(?:(?:[ \-._/\t]{1,3}|[ \t]?\n[ \t]?)\d|\d){11,22}"
    r"(?![A-Za-z0-9])(?!\.\d)"
)
_SEP_RUN = re.compile(r"[ \-._/\t\n]+")
_CARD_NEG = re.compile(
    r"(?i)(?:tracking|track|order|invoice|isbn|issn|phone|tel|fax|mobile|imei|serial|ref"
    r"|reference|confirmation|booking|awb|parcel|shipment|ticket|case|订单|快递|单号|运单|电话"
    r"|手机|注文|追跡番号|お問い合わせ番号|伝票番号|bestell|sendungs|pedido|encomenda|rastreio"
    r"|commande|suivi|seguimiento)[^\n]{0,20}$"
)
_CARD_POS = re.compile(
    r"(?i)(?:card|visa|master ?card|amex|american express|discover|diners|jcb|maestro|unionpay"
    r"|卡号|银行卡|信用卡|借记卡|储蓄卡|tarjeta|karte|carte|cartão|kreditkarte)[^\n]{0,30}$"
)


def _card_prefix_ok(d: str) -> bool:
    n = len(d)
    two, four = int(d[:2]), int(d[:4])
    if d[0] == "4":
        return n in (13, 16, 19)
    if 51 <= two <= 55 or 2221 <= four <= 2720:
        return n == 16
    if two in (34, 37):
        return n == 15
    if two in (36, 38, 39) or 300 <= int(d[:3]) <= 305:
        return 14 <= n <= 19
    if four in (2131, 1800):
        return n == 15
    if two == 35:
        return 16 <= n <= 19
    if d[:2] in ("50", "56", "57", "58", "63", "67") or d[:4] in ("6304", "6759", "0604", "6390"):
        return 12 <= n <= 19
    if d[0] == "6":
        return 16 <= n <= 19
    return False


def card_number_ok(digits: str) -> bool:
    """A card's number: Luhn-valid, with a card network's prefix and length."""
    return _luhn.is_valid(digits) and _card_prefix_ok(digits)


def _cards(t: str, taken: list[tuple[int, int]]) -> Iterator[_Hit]:
    for m in _CARD_CAND.finditer(t):
        if _overlaps(m.start(), m.end(), taken):
            continue
        groups: list[tuple[int, int]] = []
        pos = m.start()
        for sep in _SEP_RUN.finditer(t, m.start(), m.end()):
            groups.append((pos, sep.start()))
            pos = sep.end()
        groups.append((pos, m.end()))
        numbers = [int(t[a:b]) for a, b in groups]
        if len(numbers) >= 4 and all(b - a == 1 for a, b in itertools.pairwise(numbers)):
            continue  # "1 2 3 … 13": counting, not a card
        before = t[max(0, m.start() - 40) : m.start()]
        positive = bool(_CARD_POS.search(before))
        if not positive and _CARD_NEG.search(before) and not _printed_card(t, groups):
            continue
        best: tuple[int, int] | None = None
        for i in range(len(groups)):
            digits = ""
            for j in range(i, min(len(groups), i + 8)):
                digits += t[groups[j][0] : groups[j][1]]
                if len(digits) > 19:
                    break
                if len(digits) < 12:
                    continue
                valid = card_number_ok(digits)
                if not valid and positive and 13 <= len(digits) <= 19:
                    valid = _luhn.is_valid(digits) or digits.startswith("62")
                span = (groups[i][0], groups[j][1])
                if valid and (best is None or span[1] - span[0] > best[1] - best[0]):
                    best = span
            if best is not None:
                break
        if best is not None and not positive and _dashed_slice(t, m.start(), m.end(), best):
            continue  # "250-3847192-0016473": a card's digits inside a longer dashed number
        if best is not None:
            yield (_REGULATED, "payment_card", best[0], best[1], "financial")


# How a card is printed: four-digit groups (Visa, Mastercard, Discover, JCB, UnionPay; a
# 19-digit card ends in three), Amex 4-6-5, Diners 4-6-4.
_PRINTED: Final = frozenset({(4, 4, 4, 4), (4, 4, 4, 4, 3), (4, 6, 5), (4, 6, 4)})


def _printed_card(t: str, groups: list[tuple[int, int]]) -> bool:
    """The whole number is a card as a card is printed: Luhn-valid, a card's IIN and length,
    grouped as above. A reference word before it ("the flight booking: 4485 6070 4645 7105",
    "注文: 4171-…") does not make it an order number: order and tracking numbers are not
    grouped so, and a card paid for the order is the user's (blindfix16a)."""
    if tuple(b - a for a, b in groups) not in _PRINTED:
        return False
    digits = "".join(t[a:b] for a, b in groups)
    return card_number_ok(digits)


def _dashed_slice(t: str, start: int, end: int, best: tuple[int, int]) -> bool:
    """The card-valid digits are part of a longer number joined by dashes (an order or
    reference number), not the whole of it, and not grouped as a card is printed (groups of
    four to six digits): "250-3847192-0016473" holds none, "12-4539-1488-0343-6467" one."""
    if best == (start, end):
        return False
    glued = (best[0] > start and t[best[0] - 1] == "-") or (best[1] < end and t[best[1]] == "-")
    groups = _SEP_RUN.split(t[best[0] : best[1]])
    return glued and not all(4 <= len(g) <= 6 for g in groups)


_ID_SEPARATORS = re.compile(r"[\s\-._/]")
# One separator between digit groups, with optional spaces around it ("234 / 56 / 7890").
_SEP = r"(?:\s?[\-._/]\s?|\s)"
_CN_RIC = re.compile(
    r"(?<![0-9A-Za-z])[1-9]\d{5}[ \-_.]?(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])"
    r"[ \-_.]?\d{3}[\dXx](?![0-9A-Za-z])"
)


def _cn_resident_ids(t: str) -> Iterator[_Hit]:
    for m in _CN_RIC.finditer(t):
        number = _ID_SEPARATORS.sub("", m.group(0)).upper()
        if _cn_ric.is_valid(number):
            yield (_REGULATED, "cn_resident_id", m.start(), m.end(), "government_id")


_IBAN_LENGTHS: Final = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22,
    "BI": 27, "BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DJ": 27,
    "DK": 18, "DO": 28, "EE": 20, "EG": 29, "ES": 24, "FI": 18, "FK": 18, "FO": 18, "FR": 27,
    "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28, "HR": 21, "HU": 28, "IE": 22,
    "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32,
    "LI": 21, "LT": 20, "LU": 20, "LV": 21, "LY": 25, "MC": 27, "MD": 24, "ME": 22, "MK": 19,
    "MN": 20, "MR": 27, "MT": 31, "MU": 30, "NI": 28, "NL": 18, "NO": 15, "OM": 23, "PK": 24,
    "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "RU": 33, "SA": 24, "SC": 31,
    "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "SO": 23, "ST": 25, "SV": 28, "TL": 23,
    "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20, "YE": 30,
}  # fmt: skip


def _iban_checksum_ok(compact: str) -> bool:
    """ISO 13616 mod-97 over the rearranged IBAN. National check digits inside the BBAN are not
    checked: a mistyped account is still an account, and the floor must not let it through."""
    if not compact.isalnum() or not compact[2:4].isdigit():
        return False
    rearranged = compact[4:] + compact[:4]
    return int("".join(str(int(c, 36)) for c in rearranged)) % 97 == 1


# Spaces or hyphens only (Unicode ones are folded to these): underscores and dots would make
# snake_case or dotted keys that start with a country code look like accounts.
_IBAN_CAND = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]{2}\d{2}(?:[ \-]?[A-Za-z0-9]){11,32}")
# Dots, underscores, slashes, tabs or a line break: taken only in groups of four with one
# separator throughout ("DE89.3704.0044…", "GB29_NWBK_…"), the way IBANs are printed, so a
# dotted or snake_case key that starts with a country code is not read as an account.
_IBAN_GROUPED = re.compile(
    r"(?<![A-Za-z0-9])[A-Za-z]{2}\d{2}(?P<sep>[ .\-_/\t]|\s?\n)[A-Za-z0-9]{4}"
    r"(?:(?:(?P=sep)|\s?\n\s?)[A-Za-z0-9]{4}){1,7}(?:(?:(?P=sep)|\s?\n\s?)[A-Za-z0-9]{1,3})?"
    r"(?![A-Za-z0-9])"
)


def _ibans(t: str) -> Iterator[_Hit]:
    for m in _IBAN_GROUPED.finditer(t):
        compact = "".join(c for c in m.group(0) if c.isalnum()).upper()
        if _IBAN_LENGTHS.get(compact[:2]) == len(compact) and _iban_checksum_ok(compact):
            yield (_REGULATED, "iban", m.start(), m.end(), "financial")
    for m in _IBAN_CAND.finditer(t):
        country = m.group(0)[:2].upper()
        length = _IBAN_LENGTHS.get(country)
        if length is None:
            continue
        positions = [i for i in range(m.start(), m.end()) if t[i].isalnum()]
        if len(positions) < length:
            continue
        compact = "".join(t[i] for i in positions[:length]).upper()
        end = positions[length - 1] + 1
        if end < len(t) and t[end].isalnum():
            continue  # the run goes on without a separator: not this IBAN
        if _iban_checksum_ok(compact):
            yield (_REGULATED, "iban", m.start(), end, "financial")


_SSN = re.compile(r"(?<![\w\-./])(\d{3})(\s?[\-._/]\s?|\s)(\d{2})\2(\d{4})(?![\w\-]|[./]\d)")


def _ssn_ok(area: str, group: str, serial: str) -> bool:
    return (
        area not in ("000", "666")
        and area[0] != "9"
        and group != "00"
        and serial != "0000"
        and f"{area}-{group}-{serial}" not in ("078-05-1120", "219-09-9999", "457-55-5462")
    )


_SSN_CONTEXT = re.compile(r"(?i)(?:ssn|social security|sozialversicherung|seguro social)")


def _ssns(t: str) -> Iterator[_Hit]:
    for m in _SSN.finditer(t):
        if m.group(2) != "-" and not _SSN_CONTEXT.search(t, max(0, m.start() - 40), m.start()):
            continue
        if _ssn_ok(m.group(1), m.group(3), m.group(4)):
            yield (_REGULATED, "us_ssn", m.start(), m.end(), "government_id")


_CPF = re.compile(r"(?<![\d.])\d{3}\.\d{3}\.\d{3}-\d{2}(?![\d])")


def _cpfs(t: str) -> Iterator[_Hit]:
    for m in _CPF.finditer(t):
        if _validate("br.cpf", m.group(0)):
            yield (_REGULATED, "br_cpf", m.start(), m.end(), "government_id")


_VALIDATORS: dict[str, Any] = {}


def _validate(module: str, value: str) -> bool:
    """``stdnum.<module>.is_valid``, importing the module on first use."""
    mod = _VALIDATORS.get(module)
    if mod is None:
        mod = importlib.import_module(f"stdnum.{module}")
        _VALIDATORS[module] = mod
    try:
        return bool(mod.is_valid(value))
    except Exception:
        return False


def _checksum_only(module: str, value: str) -> bool:
    """``value`` has ``stdnum.<module>``'s length and format and fails only its check digits:
    beside the identifier's own word it is that identifier still, mistyped or misremembered
    ("revenue.ie keeps rejecting 8264197TA as my PPS"; blindfix22b)."""
    from stdnum.exceptions import InvalidChecksum

    if _validate(module, value):
        return True
    try:
        _VALIDATORS[module].validate(value)
    except InvalidChecksum:
        return True
    except Exception:
        return False
    return True


# --------------------------------------------------------------------------------------------
# A card split by a filler word or a sentence ("4330 7666 y luego 1934 5142"), and a bank
# account stated beside its routing number
# --------------------------------------------------------------------------------------------

_DIGIT_GROUPS = re.compile(r"(?<![A-Za-z0-9])\d{2,}(?:[ \-]\d{2,})*(?![A-Za-z0-9])")
_FILLER_GAP = re.compile(r"[^\d]{1,24}")
_CARD_WORD = re.compile(
    r"(?i)card|visa|master ?card|amex|卡|tarjeta|karte|carte|cartão|cartao|カード"
)


def _split_cards(t: str, taken: list[tuple[int, int]]) -> Iterator[_Hit]:
    groups = list(_DIGIT_GROUPS.finditer(t))
    for i, first in enumerate(groups):
        if _overlaps(first.start(), first.end(), taken):
            continue
        if not _CARD_WORD.search(t, max(0, first.start() - 40), first.start()):
            continue
        digits = _SEP_RUN.sub("", first.group(0))
        prev = first
        for nxt in groups[i + 1 : i + 4]:
            if not _FILLER_GAP.fullmatch(t, prev.end(), nxt.start()):
                break
            prev = nxt
            digits += _SEP_RUN.sub("", nxt.group(0))
            if len(digits) > 19:
                break
            if len(digits) >= 13 and card_number_ok(digits):
                yield (_REGULATED, "payment_card", first.start(), nxt.end(), "financial")
                break


_NINE = re.compile(r"(?<![A-Za-z0-9])\d{9}(?![A-Za-z0-9])")
_ACCOUNT_RUN = re.compile(r"(?<![A-Za-z0-9])\d(?:[ \-]?\d){5,16}(?![A-Za-z0-9])")
_ACCOUNT_WORD = re.compile(
    r"(?i)account|acct|checking|savings|routing|\baba\b|cuenta|ruta|konto|compte|conta|账户|账号"
    r"|口座"
)


def _routing_accounts(t: str) -> Iterator[_Hit]:
    for m in _NINE.finditer(t):
        if not _validate("us.rtn", m.group(0)):
            continue
        lo, hi = max(0, m.start() - 40), min(len(t), m.end() + 40)
        if not _ACCOUNT_WORD.search(t, lo, hi):
            continue
        for acct in _ACCOUNT_RUN.finditer(t, lo, hi):
            if acct.start() >= m.end() or acct.end() <= m.start():
                yield (_REGULATED, "bank_account", acct.start(), acct.end(), "financial")
                yield (_REGULATED, "routing_number", m.start(), m.end(), "financial")
