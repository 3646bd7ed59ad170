"""Values that stand in for a real one: environment references (and code reading one:
blind17), all-zero forms, masks (alone or with a visible tail), a log's request ids, a schema's
column sizes (issue 29, blindfix10c).

blind10 withheld or flagged 7 of 77 benign turns over them, and fresh text the same class more
(``tests/data/benign_docs_classes.jsonl``): ``curl -H "Authorization: Bearer $GITHUB_TOKEN"``
read as a token after "Bearer", ``{"cpf": "000.000.000-00"}`` read as a CPF, the tail of
``XXXX-XXXXXX-X3613`` read as a card's identifier, ``IBAN DE•• •••• … 31`` as an IBAN near a
value, ``request_id=<uuid>`` as a key, ``id_card CHAR(18)`` as an ID number near its cue. These
spans join ``public_material``'s: blanked before any rule reads the text.

Recall first: an environment reference is a name (upper-case letters joined by ``_``, no digit),
never a value a user could have typed as a password; an all-zero form holds no other digit; a
mask keeps at most four digits visible; a UUID is blanked only after a log's own id key, never
after a credential's ("my Heroku API key is <uuid>" stays caught).
"""

from __future__ import annotations

import functools
import re
from typing import Any

from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.benign_shapes import with_key
from userlore.policy.detectors.common import _UUID as _UUID_SHAPE
from userlore.policy.literal_gate import GatedPattern

__all__ = ["stand_in_spans"]

# ``$GITHUB_TOKEN``, ``${GH_TOKEN}`` (public_material has it), ``%API_KEY%``, ``$env:API_KEY``:
# a shell's reference to a variable. A name of one part needs a credential word for its end
# (``$TOKEN``), so ``$Sunshine1`` or ``$ABCDEF`` typed as a password is never one.
_ENV_REF = re.compile(
    r"(?<![\w$%])(?:\$(?:env:)?|%)"
    r"(?P<name>[A-Z][A-Z]*(?:_[A-Z]+)+|TOKEN|API_?KEY|PASSWORD|SECRET|PASS|PWD)"
    r"(?:%|(?![\w%]))"
)
# Code that reads a setting from the environment by its name (``os.environ['SECRET']``,
# ``os.getenv("API_TOKEN")``, ``process.env.DB_PASS``, ``ENV.fetch('KEY')``): a name, no value;
# a default given in the call is one, so the call holds the name alone (blind17).
_ENV_READ = re.compile(
    r"(?<![\w.])(?:os\.environ(?:\.get)?|os\.getenv|getenv|System\.getenv|ENV(?:\.fetch)?"
    r"|(?:std::)?env::var|Deno\.env\.get|os\.Getenv)\s?[\[(]\s?(?P<q>[\"'])[A-Za-z_][A-Za-z0-9_]{0,60}(?P=q)\s?[\])]"
    r"|(?<![\w.])process\.env\.[A-Za-z_][A-Za-z0-9_]{0,60}(?![\w(])"
)
# A form whose every digit is zero, grouped as an ID is printed ("000.000.000-00",
# "00.000.000/0000-00", "000-00-0000", "00000000-X"): nothing else but separators and a
# check letter, and no part of a longer run ("6222 0000 0000 0000 001" is a card).
_ZERO_FORM = re.compile(
    r"(?<![\w.,/-])(?<!\d )(?:0{2,4}(?:[./ -]0{1,4}){2,6}|0{8,}-?[A-Z])(?![\w/-]|[., ]\d)"
)
# What a form or a log masks with: bullets, dots, circles, asterisks (full-width too).
_MASK_CHARS = "•*·●○◦∙＊"
# A masked number with its tail: mask groups of X or of mask characters (a country code may
# lead an IBAN's), then at most four visible digits ("XXXX-XXXXXX-X3613", "DE•• •••• •••• 31",
# "***.***.*93-10"). The tail may be split where the printed groups split ("DE89 **** … **30
# 00"). A mask alone is one too (パスワードは「********」のように伏せ字で表示されます).
_MASKED = re.compile(
    r"(?<![\w•*·●])(?:[A-Z]{2}(?:\d{2})?[ \t]?)?"
    rf"(?:[xX]{{2,}}|[{_MASK_CHARS}]{{2,}})(?:[ \t.\-/]?(?:[xX]{{1,}}|[{_MASK_CHARS}]{{1,}}))*"
    rf"(?:[ \t.\-/]?[xX{_MASK_CHARS}]*\d{{1,4}}(?:[.\- ]\d{{1,2}})?)?(?![\w•*·●])"
)
# The ideographic zero written as a mask, as Japanese and Chinese write a blank ("伏せ字の〇〇〇〇",
# "用〇〇〇〇代替"; blindfix21a): three or more alone, no Han numeral, digit or date unit beside
# them ("二〇〇〇年" is a year).
_HAN_NUMERALS = "0-9〇零一二三四五六七八九十百千万萬億亿两兩"
_ZERO_MASK = re.compile(rf"(?<![{_HAN_NUMERALS}])〇{{3,}}(?![{_HAN_NUMERALS}年月日号號時点])")
# Two of the same mask character, or four of any: the cheap test before the pattern.
_MASK_HINT = GatedPattern(
    re.compile("|".join(re.escape(c * 2) for c in f"Xx{_MASK_CHARS}") + f"|[{_MASK_CHARS}]{{4}}")
)
# A UUID (any version), as a log prints it.
_UUID = re.compile(rf"(?<![0-9A-Za-z-]){_UUID_SHAPE.pattern}(?![0-9A-Za-z-])")
# A JSON string's key right before its value ("cpf": "…): the pair goes together, or the key
# left behind reads as a cue before the next quoted string ("nome": "Fulano").
_JSON_KEY = re.compile(r"\"[\w.\-]{1,40}\"\s?:\s?\"$")
# What may stand between a log's id key and its value: quotes, brackets, a sign, a copula.
_KEY_TAIL = re.compile(
    r"(?:\s+(?:is|was|ist|war|es|era|est|était|é|foi)\s+|\s?是\s?|\s?は\s?"
    r"|[\s\"'\[\]{}<>()=:：]{0,4})$"
)
# A column's declaration in a schema, its name with it ("id_card CHAR(18) NOT NULL",
# "VARCHAR(34)", "NUMERIC(11)"): a size and a name, no value.
_COLUMN_SIZE = re.compile(
    r"(?<![\w])(?:[a-z_][a-z0-9_]{0,40}\s+)?(?:(?:var)?n?char(?:acter)?(?:\s+varying)?"
    r"|numeric|decimal|number|int|bigint|varbinary|binary)\s?\(\s?\d{1,4}(?:\s?,\s?\d{1,3})?\s?\)(?:\s+not\s+null)?",
    re.IGNORECASE,
)


# Every column type holds one of these, right before its "(": the cheap test first.
_COLUMN_HINT = re.compile(r"(?i)(?:char|ter|ric|mal|ber|int|ary|ing)\s?\(")


@functools.cache
def _log_keys() -> re.Pattern[str]:
    raw: dict[str, Any] = data_yaml("stand_ins.yaml")
    keys = sorted((str(k).casefold() for k in raw["log_id_keys"]), key=len, reverse=True)
    body = "|".join(r"[-_ ]?".join(map(re.escape, k.split())) for k in keys)
    return re.compile(rf"(?<![a-z])(?:{body})$")


def stand_in_spans(text: str) -> list[tuple[int, int]]:
    """Spans of ``text`` holding a stand-in value (see the module docstring)."""
    spans: list[tuple[int, int]] = []
    if "$" in text or "%" in text:
        spans.extend(with_key(text, *m.span()) for m in _ENV_REF.finditer(text))
    if "env" in text or "ENV" in text:
        spans.extend(with_key(text, *m.span()) for m in _ENV_READ.finditer(text))
    if "000" in text:
        spans.extend(_with_json_key(text, *m.span()) for m in _ZERO_FORM.finditer(text))
    if _MASK_HINT.search(text) is not None:
        spans.extend(_with_json_key(text, *m.span()) for m in _MASKED.finditer(text))
    if "〇〇〇" in text:
        spans.extend(m.span() for m in _ZERO_MASK.finditer(text))
    if text.count("-") >= 4:
        for m in _UUID.finditer(text):
            lo = max(0, m.start() - 40)
            tail = _KEY_TAIL.search(text.casefold(), lo, m.start())
            key = _log_keys().search(text.casefold(), lo, tail.start()) if tail else None
            if key is not None:
                spans.append((key.start(), m.end()))
    if "(" in text and _COLUMN_HINT.search(text) is not None:
        spans.extend(m.span() for m in _COLUMN_SIZE.finditer(text))
    return spans


def _with_json_key(text: str, start: int, end: int) -> tuple[int, int]:
    """The span widened to its key: a JSON pair's (``"cpf": "…"``, to the closing quote), else
    the ``key=`` or ``key:`` written right before it."""
    key = _JSON_KEY.search(text, max(0, start - 46), start)
    if key is not None and text[end : end + 1] == '"':
        return key.start(), end + 1
    return with_key(text, start, end)
