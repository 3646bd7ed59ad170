"""What opens a lock, said with no PIN or code word: "the padlock opens with 4-1-8-2", "der
Tresor geht mit 2 7 7 4 auf", "スマホのロック解除は２４６８", "门禁是五三八一".

The credential words of ``quote_cues.yaml`` name the secret ("PIN", "code"); a combination,
a key-box code or a phone's unlock code is often told by naming the thing it opens instead, and
passed both the floor and the gate (issue 29, gate4). The cue here is the lockable thing plus
an opening verb or relation near a run of four digits or more (spaced, dashed or dotted; digits
said in words arrive as digits through the floor's spoken view). Two kinds of thing, from
``policy/data/lock_cues.yaml``:

- *objects* whose number is their code (a safe, a padlock, a key box, an alarm): a run after
  one is its code unless it says where the thing is, what it cost or weighs, or when;
- *devices* with numbers of their own (a phone, a door, a locker, a gate): only with an opening
  verb in the sentence, or with the digits said one by one ("gym locker is 3-1-7-9"), since
  "my phone is 0612 345 678" is a phone number and "gate 1204" a place.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass

from userlore.policy.cue_data import CueAlternation, cues, flat
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.clock_times import clock_time
from userlore.policy.detectors.common import _Hit, is_year
from userlore.policy.findings import _SECRET
from userlore.policy.literal_gate import LiteralGate

__all__ = ["LockCues", "lock_codes", "lock_cues"]

_AFTER = 50
# A run of 4–12 digits with single separators; "・" and "·" are how Japanese lists digits.
_RUN = re.compile(r"(?<![A-Za-z0-9_.,:/\-])\d(?:[ \-./・·]?\d){3,11}(?![A-Za-z0-9_]|[.,:/\-]\d)")
_TIME = re.compile(r"\d{1,2}[:.h]\d{2}")
_SINGLES = re.compile(r"\d(?:[ \-./・·]\d){3,}")
_SENTENCE_END = re.compile(r"[!?。！？\n;]|\.(?!\d)")
# The word just before a run; after a colon the run is a value, not a place ("de l'appart : …").
_WORD_BEFORE = re.compile(r"([^\W\d_]+|[\u3040-\u30ff\u4e00-\u9fff]+)[\s#]*$")
_WORD_AFTER = re.compile(r"\s*([^\W\d_]+|[\u3040-\u30ff\u4e00-\u9fff]{1,3})")
_CURRENCY = re.compile(r"[$€£¥￥₹]|r\$|\bus\$")


@dataclass(frozen=True, slots=True)
class LockCues:
    """``policy/data/lock_cues.yaml`` compiled once, for ``lock_codes`` and ``dial_combos``."""

    objects: CueAlternation
    devices: CueAlternation
    things: CueAlternation
    turns: CueAlternation
    combination: CueAlternation
    opening: CueAlternation
    doors: CueAlternation
    relations: frozenset[str]
    possessions: frozenset[str]
    adverbs: frozenset[str]
    places: frozenset[str]
    units: frozenset[str]
    literals: LiteralGate
    non_ascii: re.Pattern[str]

    def may_name_a_thing(self, lowered: str) -> bool:
        """A cheap exact prefilter: false only when no lockable thing's word is in the text."""
        if self.literals.search(lowered):
            return True
        return not lowered.isascii() and self.non_ascii.search(lowered) is not None


@functools.cache
def lock_cues() -> LockCues:
    data = data_yaml("lock_cues.yaml")
    things = flat(data["objects"]) + flat(data["devices"])
    return LockCues(
        # Each scan tries only the terms whose literal is in the text (the same matches; a
        # store key names a thing's word inside another and paid a whole alternation's scan).
        objects=CueAlternation(flat(data["objects"])),
        devices=CueAlternation(flat(data["devices"])),
        things=CueAlternation(things),
        turns=CueAlternation(flat(data["turns"])),
        combination=CueAlternation(flat(data["combination"])),
        opening=CueAlternation(flat(data["opening"])),
        doors=CueAlternation(flat(data["doors"])),
        relations=frozenset(flat(data["relations"])),
        possessions=frozenset(flat(data["possessions"])),
        adverbs=frozenset(flat(data["adverbs"])),
        places=frozenset(flat(data["places"])),
        units=frozenset(flat(data["units"])),
        # ASCII words behind the literal gate; the others (CJK ones of one character would
        # turn its shortcut off) as one pattern, which only a non-ASCII text can match.
        literals=LiteralGate(t.strip("*") for t in things if t.isascii()),
        non_ascii=re.compile("|".join(re.escape(t.strip("*")) for t in things if not t.isascii())),
    )


def lock_codes(t: str, lowered: str) -> Iterator[_Hit]:
    """Secret hits for the codes of lockable things in ``t`` (see the module docstring)."""
    if _RUN.search(t) is None and _THREE.search(t) is None:
        return  # no run of three digits: no code, whatever the words
    c = lock_cues()
    if not c.may_name_a_thing(lowered):
        return
    seen: set[int] = set()
    for pattern, is_object in ((c.objects, True), (c.devices, False)):
        for m in pattern.finditer(lowered):
            stop = _SENTENCE_END.search(t, m.end())
            sentence_end = stop.start() if stop else len(t)
            end = min(len(t), m.end() + _AFTER, sentence_end)
            sentence_start = _sentence_start(t, m.start())
            opened = c.opening.search(lowered, sentence_start, sentence_end)
            if is_object:
                yield from _three_digit_codes(t, lowered, m, end, c, seen)
            # Digits said one by one with an opening or setting verb are the code further on in
            # the sentence too ("Der Tresor … lässt sich nicht mehr öffnen, ich hab 2-5-8-0
            # eingestellt": blindfix18a).
            said_end = min(len(t), m.end() + _AFTER_SAID, sentence_end) if opened else end
            for run in _RUN.finditer(t, m.end(), said_end):
                if run.start() >= end and not _SINGLES.fullmatch(run.group(0)):
                    continue
                if run.start() in seen or not _is_code(t, lowered, run, c):
                    continue
                if not is_object and sum(ch.isdigit() for ch in run.group(0)) > _LONGEST_UNLOCK:
                    continue  # "el teléfono de Renfe es 912 320 320": the phone's own number
                if opened is None and not _related(t, lowered, m.end(), run.start(), c):
                    continue  # "Das Schloss Neuschwanstein hat 1869 angefangen"
                if (
                    not is_object
                    and opened is None
                    and not _SINGLES.fullmatch(run.group(0))
                    and not _door_code(lowered, m, run, c)
                ):
                    continue
                if is_year(run.group(0)) and not _SINGLES.fullmatch(run.group(0)):
                    before = _WORD_BEFORE.search(lowered, m.end(), run.start())
                    if opened is None or (before is not None and before.group(1) in c.places):
                        continue
                seen.add(run.start())
                yield (_SECRET, "lock_code", run.start(), run.end(), None)


_AFTER_SAID = 120
_LONGEST_UNLOCK = 8  # a phone's or a door's code; nine digits or more is its own number
# Three digits, bare or one by one: a padlock's or a luggage lock's dials (blindfix18a).
_THREE = re.compile(r"(?<![A-Za-z0-9_.,:/\-])\d(?:(?:, ?|[ \-])?\d){2}(?![A-Za-z0-9_]|[.,:/\-]\d)")


_SAID_THREE = re.compile(r"\d([ \-])\d\1\d")


def _three_digit_codes(
    t: str, lowered: str, thing: re.Match[str], end: int, c: LockCues, seen: set[int]
) -> Iterator[_Hit]:
    """Three digits stated as a lock object's code, in a sentence that says "code" or
    "combination" ("o código do cadeado da mochila é três, sete, zero", read as 370 in the
    spoken view; "the bike lock combo is 926"): three dials are a padlock's usual code. Stated
    as the thing's only (a copula or a colon just before them), never a price or a count."""
    sentence = lowered[_sentence_start(t, thing.start()) : end]
    coded = (
        cues().credential_scan.search(sentence) is not None
        or c.combination.search(sentence) is not None
    )
    # Or set with an opening or setting verb, said one by one ("Zahlenschloss am Spind: hab
    # 5-1-8 eingestellt", blind24): three dials' digits, whatever the relation.
    opened = c.opening.search(sentence) is not None
    if not coded and not opened:
        return
    for run in _THREE.finditer(t, thing.end(), end):
        if run.start() in seen:
            continue
        said = opened and _SAID_THREE.fullmatch(run.group(0)) is not None
        if not said and not (coded and _related(t, lowered, thing.end(), run.start(), c)):
            continue
        after = _WORD_AFTER.match(lowered, run.end())
        if after is not None and after.group(1) in c.units:
            continue
        if _CURRENCY.search(lowered[max(0, run.start() - 3) : run.end() + 3]) is not None:
            continue
        seen.add(run.start())
        yield (_SECRET, "lock_code", run.start(), run.end(), None)


def _sentence_start(t: str, pos: int) -> int:
    start = pos
    while start > 0 and not _SENTENCE_END.match(t, start - 1):
        start -= 1
    return start


_GAP_END = re.compile(r"[:：=]\s*$|^\s*$")


_GROUPED = re.compile(r"\d+(?:[ \-./・·]\d+)+")


def _related(t: str, lowered: str, lo: int, hi: int, c: LockCues) -> bool:
    """The run is stated as the thing's: nothing, a colon or "=" between them, or a copula or
    a combination word just before the run; an adverb between them changes neither ("the safe
    is now 27-14-63", "金庫は今 27-14-63"); "has" only before numbers in groups."""
    run_start = hi
    for _ in range(3):
        if _GAP_END.search(t[lo:hi]):
            return True
        before = _WORD_BEFORE.search(lowered, lo, hi)
        if before is None:
            return False
        word = before.group(1)
        if word in c.relations or any(word.endswith(r) for r in c.relations if not r.isascii()):
            return True
        if word in c.possessions and _GROUPED.match(t, run_start) is not None:
            return True
        adverb = _adverb_end(word, c)
        if adverb == 0:
            return False
        hi = before.start(1) + len(word) - adverb
    return False


def _adverb_end(word: str, c: LockCues) -> int:
    """How many of ``word``'s last characters are an adverb of time (the whole word in Latin
    script, a CJK run's end), 0 when none."""
    if word in c.adverbs:
        return len(word)
    return next((len(a) for a in c.adverbs if not a.isascii() and word.endswith(a)), 0)


_DOOR_CODE = re.compile(r"\d{5,8}")


def _door_code(lowered: str, thing: re.Match[str], run: re.Match[str], c: LockCues) -> bool:
    """The thing is a door or a gate and the run five to eight digits with no separator: its
    code, not its number (the relation is checked by the caller)."""
    if _DOOR_CODE.fullmatch(run.group(0)) is None:
        return False
    door = c.doors.search(lowered, thing.start(), thing.end())
    return door is not None and door.span() == thing.span()


def _is_code(t: str, lowered: str, run: re.Match[str], c: LockCues) -> bool:
    """Not a time, a price, a place or a count."""
    value = run.group(0)
    if _TIME.fullmatch(value) or sum(ch.isdigit() for ch in value) < 4:
        return False
    if clock_time(t, run.start(), run.end()):
        return False  # "set an alarm for 0630": a time (blindfix22a)
    before = _WORD_BEFORE.search(lowered, max(0, run.start() - 24), run.start())
    verb = c.opening.search(lowered, max(0, run.start() - 12), run.start())
    if before is not None and not (verb is not None and verb.end() >= before.end(1)):
        word = before.group(1)
        if word in c.places or any(word.endswith(p) for p in c.places if not p.isascii()):
            return False
    after = _WORD_AFTER.match(lowered, run.end())
    if after is not None:
        word = after.group(1)
        if word in c.units or any(word.startswith(u) for u in c.units if not u.isascii()):
            return False
    near = lowered[max(0, run.start() - 3) : run.end() + 3]
    return _CURRENCY.search(near) is None
