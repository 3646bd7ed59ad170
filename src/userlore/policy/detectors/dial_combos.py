"""A lock's combination told as dial turns or after a combination word (issue 29, blindfix8a).

``lock_codes`` reads a run of four digits or more after a lockable thing. blind8 told a safe's
combination the way a dial is turned ("Tresor im Keller: erst 3 mal links auf 17, dann rechts
auf 42, Kombi also 17-42-08") and a Chinese safe as "左转到22，右转到19，再左转到61": numbers of
two digits each, or a run far from the thing's name. Two rules, on a text that names a lockable
thing (``policy/data/lock_cues.yaml``):

- two or more numbers, each right after a turn ("left", "rechts auf", "左转到"), are the
  combination's parts;
- three or four single digits right after the thing ("密码锁是 3-3-7") are its dials;
- numbers in three groups or more ("17-42-08", "12 36 08") or a run of four digits or more
  right after a combination word ("Kombi", "combinación", "組み合わせ") are the combination.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit
from userlore.policy.detectors.lock_codes import lock_cues
from userlore.policy.findings import _SECRET
from userlore.policy.spoken import word_amount

__all__ = ["dial_combos", "turned_words"]

# A dial's number (0-99), up to 14 characters after the turn ("links auf 17", "左转到22").
# A count of turns before it is no part of the combination ("右に3回回して２５", "3 mal links auf
# 17", "three times", "twice"): it is skipped.
_TURN_NUMBER = re.compile(
    r"[^\d.!?。\n]{0,14}?(?:(?:\d\s*(?:回|圈|周|x\b)|(?:\d|\b[^\W\d_]{3,6})\s*"
    r"(?:mal|times|fois|veces|vezes)\b)[^\d.!?。\n]{0,14}?)?(?<!\d)(\d{1,2})"
    r"(?![\d:.,]\d|\d|\s*[回圈周次]|(?:st|nd|rd|th|e|er|ème|º|ª|°)\b)"
)
# A dial's number said as one word right after the turn ("derecha cuarenta", "rechts auf
# vierzig", "à droite trente-deux"): the spoken view reads runs of two number words or more.
_TURN_WORD = re.compile(
    r"[\s,:]{0,3}(?:(?:a|à|auf|en|to|on|para|até|hasta|bis|jusqu'à|sur)\s+)?"
    r"([^\W\d_]+(?:-[^\W\d_]+)*)"
)
# A dial's number in CJK numerals after the turn ("右转到八", "左に八"), past a count of turns
# ("左转三圈到二十七"); it must end at a pause, so "左转到八号楼" or "左转到二环" is a street.
_TURN_CJK = re.compile(
    r"(?:[^\d。！？\n，,、]{0,3}?[一二两三四五六七八九十\d]{1,2}\s*[回圈周次]"
    r"[^\d。！？\n，,、]{0,5}?)?[到至\s]?\s*([〇零一二三四五六七八九十]{1,3})"
    r"(?=[\s，,、。；;.！!？?）)]|$|再|然后|最后|就)"
)
# The word right before a turn's number, whole ("jusqu'à" is a turn's "up to", no place's "à").
_PLACE_BEFORE = re.compile(r"((?:[^\W\d_]+['’])?[^\W\d_]+)\s*$")
_TIMES = re.compile(r"\s*(?:veces|vez|times|once|twice|mal|fois|vezes)\b")
# Groups of one to three digits (three or more groups), or one run of four to eight.
_COMBO = re.compile(r"(?<![\w.,:/-])(?:\d{1,3}(?:[ \-./]\d{1,3}){2,5}|\d{4,8})(?![\w]|[.,:/-]\d)")
_COMBO_AFTER = 30
# Three or four single digits dashed or spaced right after the thing and its verb or colon
# ("行李箱的密码锁是 3-3-7", "padlock: 4 0 9"): a luggage or bike lock's dials.
_DIALS = re.compile(
    r"\s*(?:[:：=]|is|es|ist|est|é|是|は|が)?\s*(\d(?:[ \-.]\d){2,3})(?![\d\w]|[ \-.]\d)"
)


@functools.cache
def _marked() -> re.Pattern[str]:
    """A turn's mark right before its number ("L 38", "左38", "R24"): ``turn_marks``."""
    # Not ``flat``: it lower-cases, and a Latin mark is a capital ("L", never "l").
    by_language = data_yaml("lock_cues.yaml")["turn_marks"]
    marks = sorted({str(m) for words in by_language.values() for m in words})
    latin = "|".join(re.escape(m) for m in marks if m.isascii())
    cjk = "".join(m for m in marks if not m.isascii())
    return re.compile(
        rf"(?:(?<![\w'’])({latin})\s?|([{cjk}])[转轉に]?\s?)(\d{{1,2}})(?![\d:.,]\d|\d|[A-Za-z])"
    )


def _marked_turns(t: str) -> list[tuple[int, int]]:
    """The numbers of marked turns of two kinds ("L 38 R 12 L 7", "左38 右12"), else none."""
    found = list(_marked().finditer(t))
    kinds = {m.group(1) or m.group(2) for m in found}
    # Three Latin marks: two are a gamepad's buttons ("R2 and L1"); 左/右 glued to a number
    # name no button.
    least = 3 if any(m.group(1) for m in found) else 2
    if len(found) < least or len(kinds) < 2:
        return []
    return [m.span(3) for m in found]


def dial_combos(t: str, lowered: str) -> Iterator[_Hit]:
    """Secret hits for a combination told as turns or after a combination word."""
    c = lock_cues()
    if not c.may_name_a_thing(lowered):
        return
    if c.things.search(lowered) is None:
        return
    for m in c.things.finditer(lowered):
        dials = _DIALS.match(t, m.end())
        if dials is not None:
            yield (_SECRET, "lock_dials", *dials.span(1), None)
    turned = []
    for m in c.turns.finditer(lowered):
        n = _TURN_NUMBER.match(t, m.end())
        before = _PLACE_BEFORE.search(lowered, m.end(), n.start(1)) if n is not None else None
        if before is not None and before.group(1) in c.places:
            continue  # "à gauche au 38": a street's number (blindfix22a)
        if n is not None:
            turned.append(n.span(1))
            continue
        n = None if t.isascii() else _TURN_CJK.match(t, m.end())
        if n is not None:  # "右转到八": one numeral after its turn (blind15)
            turned.append(n.span(1))
            continue
        w = _TURN_WORD.match(lowered, m.end())  # "derecha cuarenta", "links zwölf" (blind12)
        if (
            w is not None
            and word_amount(w.group(1), 0) is not None
            and _TIMES.match(lowered, w.end()) is None  # "derecha dos veces": a count of turns
        ):
            turned.append(w.span(1))
    if len(turned) < 2:
        turned = _marked_turns(t)  # "L 38 R 12 L 7", "左38 右12 左7" (blindfix22a)
    if len(turned) >= 2:
        for s, e in turned:
            yield (_SECRET, "lock_dials", s, e, None)
    for m in c.combination.finditer(lowered):
        for run in _COMBO.finditer(t, m.end()):
            if run.start() <= m.end() + _COMBO_AFTER:
                yield (_SECRET, "lock_dials", run.start(), run.end(), None)
            break


def turned_words(lowered: str) -> bool:
    """A cheap prefilter for a text with no digit: two turns (``lock_cues.yaml``'s words, the
    ones :func:`dial_combos` reads); only then may its dial numbers be words ("derecha
    cuarenta, izquierda doce")."""
    found = lock_cues().turns.finditer(lowered)
    return next(found, None) is not None and next(found, None) is not None
