"""Identity documents recognised by their own check digits, with or without a keyword.

A passport's machine-readable zone (ICAO 9303) and the check-lettered national ids of Singapore,
Hong Kong and Taiwan carry a checksum, so a value of the right shape whose checksum holds is an
identifier wherever it appears: the rule generalises to every country using the format instead
of to the phrases it was first seen in. Korean resident numbers are taken bare when written with
their hyphen (date and check digit validated by ``python-stdnum``); Japanese My Number and other
twelve-digit ids look like order numbers, so they need their keyword (see ``national_ids``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.detectors.common import _Hit
from userlore.policy.detectors.payment import _validate
from userlore.policy.findings import _REGULATED

# --------------------------------------------------------------------------------------------
# ICAO 9303 machine-readable zones
# --------------------------------------------------------------------------------------------

_MRZ_WEIGHTS: Final = (7, 3, 1)


def _mrz_value(c: str) -> int:
    if c == "<":
        return 0
    if c.isdigit():
        return int(c)
    return ord(c) - 55  # A=10 … Z=35


def _mrz_check(field: str, digit: str) -> bool:
    """The ICAO 9303 check digit: weights 7, 3, 1 over the field, modulo 10."""
    if not digit.isdigit():
        return digit == "<" and set(field) <= {"<"}
    total = sum(_mrz_value(c) * _MRZ_WEIGHTS[i % 3] for i, c in enumerate(field))
    return total % 10 == int(digit)


# TD3 (passport booklets) line 2: number, nationality, birth date, sex, expiry, personal number.
_TD3_LINE2 = re.compile(
    r"(?<![A-Z0-9<])(?P<num>[A-Z0-9<]{9})(?P<c1>\d)[A-Z<]{3}(?P<dob>\d{6})(?P<c2>\d)[MFX<]"
    r"(?P<exp>\d{6})(?P<c3>\d)(?P<pers>[A-Z0-9<]{14})(?P<c4>[\d<])(?P<c5>\d)(?![A-Z0-9<])"
)
# TD2 line 2 (36 characters) and TD1 line 1 (30 characters, ID cards): document number + check.
_TD2_LINE2 = re.compile(
    r"(?<![A-Z0-9<])(?P<num>[A-Z0-9<]{9})(?P<c1>\d)[A-Z<]{3}(?P<dob>\d{6})(?P<c2>\d)[MFX<]"
    r"(?P<exp>\d{6})(?P<c3>\d)[A-Z0-9<]{7}(?P<c5>\d)(?![A-Z0-9<])"
)
_TD1_LINE1 = re.compile(
    r"(?<![A-Z0-9<])[AIC][A-Z<][A-Z<]{3}(?P<num>[A-Z0-9<]{9})(?P<c1>\d)[A-Z0-9<]{15}"
    r"(?![A-Z0-9<])"
)


def _mrz(t: str) -> Iterator[_Hit]:
    for m in _TD3_LINE2.finditer(t):
        g = m.group
        if (
            _mrz_check(g("num"), g("c1"))
            and _mrz_check(g("dob"), g("c2"))
            and _mrz_check(g("exp"), g("c3"))
            and _mrz_check(g("pers"), g("c4"))
            and _mrz_check(
                g("num") + g("c1") + g("dob") + g("c2") + g("exp") + g("c3") + g("pers") + g("c4"),
                g("c5"),
            )
        ):
            yield (_REGULATED, "mrz", m.start(), m.end(), "government_id")
    for m in _TD2_LINE2.finditer(t):
        g = m.group
        if all(_mrz_check(g(f), g(c)) for f, c in (("num", "c1"), ("dob", "c2"), ("exp", "c3"))):
            yield (_REGULATED, "mrz", m.start(), m.end(), "government_id")
    for m in _TD1_LINE1.finditer(t):
        if any(c.isdigit() for c in m.group("num")) and _mrz_check(m.group("num"), m.group("c1")):
            yield (_REGULATED, "mrz", m.start(), m.end(), "government_id")


# --------------------------------------------------------------------------------------------
# Check-lettered national ids: Singapore NRIC/FIN, Hong Kong HKID, Taiwan national id
# --------------------------------------------------------------------------------------------

# Matched at a digit run found first (a cheap scan), so no pattern starts with a lookbehind.
_DIGIT_RUN = re.compile(r"\d{6,9}")
_AFTER = r"(?![A-Za-z0-9]|-[A-Za-z0-9])"
_SG = re.compile(r"(?P<p>[STFGMstfgm])(?P<d>\d{7})(?P<c>[A-Za-z])" + _AFTER)
_HK = re.compile(
    r"(?P<p>[A-Za-z]{1,2})(?P<d>\d{6})\s?(?:\((?P<c1>[\dAa])\)|(?P<c2>[\dAa]))" + _AFTER
)
_TW = re.compile(r"(?P<p>[A-Za-z])(?P<d>[12]\d{8})" + _AFTER)
_SG_TABLES: Final = {
    "S": (0, "JZIHGFEDCBA"),
    "T": (4, "JZIHGFEDCBA"),
    "F": (0, "XWUTRQPNMLK"),
    "G": (4, "XWUTRQPNMLK"),
    "M": (3, "XWUTRQPNJLK"),
}
_SG_WEIGHTS: Final = (2, 7, 6, 5, 4, 3, 2)
_HK = re.compile(
    r"(?<![A-Za-z0-9\-])(?P<p>[A-Za-z]{1,2})(?P<d>\d{6})\s?(?:\((?P<c1>[\dAa])\)|(?P<c2>[\dAa]))"
    + _AFTER
)
_TW = re.compile(r"(?<![A-Za-z0-9\-])(?P<p>[A-Za-z])(?P<d>[12]\d{8})" + _AFTER)
_TW_LETTERS: Final = "ABCDEFGHJKLMNPQRSTUVXYWZIO"  # area letters by code, A=10 … O=35
_KR_RRN = re.compile(r"(?<![\d\-])\d{6}-[1-8]\d{6}(?![\d\-])")
_ID_NEG_BEFORE = re.compile(
    r"(?i)(?:product|part|sku|model|serial|batch|lot|order|item|article|ref|reference|invoice"
    r"|ticket|booking|tracking)\s*(?:code|no\.?|number|#)?\s*(?:is|:|=)?\s*$"
)


def _sg_ok(prefix: str, digits: str, check: str) -> bool:
    offset, table = _SG_TABLES[prefix.upper()]
    total = sum(int(d) * w for d, w in zip(digits, _SG_WEIGHTS, strict=True)) + offset
    return bool(table[total % 11] == check.upper())


def _hk_ok(prefix: str, digits: str, check: str) -> bool:
    values = [ord(c) - 55 for c in prefix.upper()]
    if len(values) == 1:
        values.insert(0, 36)  # a one-letter HKID is weighted as if led by a space
    values += [int(d) for d in digits]
    total = sum(v * w for v, w in zip(values, range(9, 1, -1), strict=True))
    expected = (11 - total % 11) % 11
    return check.upper() == ("A" if expected == 10 else str(expected))


def _tw_ok(letter: str, digits: str) -> bool:
    n = 10 + _TW_LETTERS.index(letter.upper())
    values = [n // 10, n % 10, *(int(d) for d in digits)]
    total = sum(v * w for v, w in zip(values, (1, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1), strict=True))
    return total % 10 == 0


def _id_at(t: str, run: re.Match[str]) -> Iterator[tuple[str, re.Match[str]]]:
    """Check-lettered id shapes that start one or two letters before a digit run."""
    for pattern, rule, back in (
        (_SG, "sg_nric", 1),
        (_TW, "tw_id", 1),
        (_HK, "hk_id", 2),
        (_HK, "hk_id", 1),
    ):
        start = run.start() - back
        before = t[start - 1] if start > 0 else " "
        if start < 0 or (before.isascii() and before.isalnum()) or before == "-":
            continue
        m = pattern.match(t, start)
        if m is not None and m.start("d") == run.start():
            yield rule, m


def _check_lettered_ids(t: str) -> Iterator[_Hit]:
    for run in _DIGIT_RUN.finditer(t):
        for rule, m in _id_at(t, run):
            if _ID_NEG_BEFORE.search(t, max(0, m.start() - 30), m.start()):
                continue
            p, d = m.group("p"), m.group("d")
            if rule == "sg_nric":
                ok = _sg_ok(p, d, m.group("c"))
            elif rule == "hk_id":
                ok = _hk_ok(p, d, m.group("c1") or m.group("c2"))
            else:
                ok = _tw_ok(p, d)
            if ok:
                yield (_REGULATED, rule, m.start(), m.end(), "government_id")
                break
    if "-" in t:
        for m in _KR_RRN.finditer(t):
            if _validate("kr.rrn", m.group(0)):
                yield (_REGULATED, "kr_rrn", m.start(), m.end(), "government_id")
