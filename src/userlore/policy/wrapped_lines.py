"""A value broken over lines, read as one line (issue 29).

A pasted form or a screenshot's text puts a value where the layout put it: an id's groups on
two lines ("SIN 130 876" / "543"), a label on one line and its value on the next
("CURP:" / "GODE561231HDFRRN09", "RG" / "12.345.678-9"), a balance between its label and its
unit ("可用余额" / "12,706.33" / "元"). Every rule reads one line at a time, so each of these
passed. :func:`wrapped_view` joins such lines with a space (same length, so spans still map)
and the floor runs its rules on the view too; other line breaks stay.
"""

from __future__ import annotations

import re
from typing import Final

_LINE_BREAK = re.compile(r"[ \t]*\r?\n[ \t]*")
_SENTENCE_END = re.compile(r"[.!?。！？]$")
# A line that ends on a bare group of digits ("130 876"), and a value that opens a line.
_DIGIT_GROUP_END = re.compile(r"(?:^|\s)\d{1,8}$")
_VALUE_START = re.compile(r"[A-Za-z]{0,4}\d|[^\w\s]{1,3}\s?\d")  # "X123…", "£1,206.40"
_CELLS = re.compile(r"[,;\t|]")
_DIGIT = re.compile(r"\d")
# A short label: a few words, or a CJK label, with no sentence in it ("RG", "Available balance",
# "身份证号：", "運転免許証の番号は").
_LABEL_MAX: Final = 40
_LABEL_WORDS: Final = 4
_UNIT_MAX: Final = 5


def _joins(prev: str, nxt: str) -> bool:
    """Whether the line ``prev`` and the line ``nxt`` (stripped) hold one value."""
    if not prev or not nxt or _SENTENCE_END.search(prev):
        return False
    if _DIGIT_GROUP_END.search(prev) and nxt[0].isdigit():
        return True  # an id's groups split over lines
    if prev[-1].isdigit() and len(nxt) <= _UNIT_MAX and not any(c.isdigit() for c in nxt):
        return True  # an amount, then its unit alone on the next line
    if _CELLS.search(prev):
        return False  # a table's row: its next row is another record
    is_label = prev.endswith((":", "：")) or (
        len(prev) <= _LABEL_MAX and len(prev.split()) <= _LABEL_WORDS
    )
    return is_label and _VALUE_START.match(nxt) is not None


def wrapped_view(t: str) -> str:
    """``t`` with the line breaks inside a value (see the module docstring) made spaces."""
    if "\n" not in t or not _DIGIT.search(t):
        return t
    out: list[str] | None = None
    for m in _LINE_BREAK.finditer(t):
        line_start = t.rfind("\n", 0, m.start()) + 1
        line_end = t.find("\n", m.end())
        prev = t[line_start : m.start()].strip()
        nxt = t[m.end() : len(t) if line_end < 0 else line_end].strip()
        if _joins(prev, nxt):
            if out is None:
                out = list(t)
            for i in range(m.start(), m.end()):
                out[i] = " "
    return t if out is None else "".join(out)
