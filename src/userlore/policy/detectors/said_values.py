"""Values said otherwise: spelled, given in pieces, typed in groups, named in slang (issue 29).

blind7, a set written without reading the rules, put six covered values in a plan; each was a
value said in a way no rule read (blindfix7). Four classes, one detector each, all fed by
``policy/data/said_values.yaml`` and ``policy/data/spelling.yaml`` so a language is added as
data:

- :func:`spelled_values`: a run spelled with a spelling alphabet, letter names, the NATO
  alphabet or kana digits (:mod:`userlore.policy.spelling`) beside a credential cue is the
  value itself: nobody spells a sentence.
- :func:`pieces`: a credential given in pieces ("starts with gatito and then 77Azul",
  "fängt mit Sonnen an, dann 2024xy", "先是xiaomao然后是8866"): the pieces are redacted, not
  the connective words, and a connective another rule took for the value is given back.
- :func:`grouped_ids`: a national identifier typed in groups ("79 306 452 335") that its
  country's python-stdnum scheme validates once the separators are gone, beside an id word.
- :func:`money_words`: the user's own money with a currency in words or slang ("zwölftausend
  Euro", "980 balles", "三百蚊") in a clause that makes it theirs.
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from userlore.policy.cue_data import CueAlternation, alternation, cues
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit, blanked, has_digit
from userlore.policy.detectors.money import (
    _MONEY_NOUNS,
    _clause,
    _others_money,
    _personal,
)
from userlore.policy.detectors.own_sums import own_sums
from userlore.policy.findings import _REGULATED, _SECRET
from userlore.policy.first_person import first_person
from userlore.policy.literal_gate import GatedPattern, LiteralGate

if TYPE_CHECKING:
    from userlore.policy.spoken import Spoken

__all__ = [
    "drop_connectives",
    "grouped_ids",
    "money_words",
    "pieces",
    "said_values",
    "spelled_values",
]

# Chinese and Japanese numerals read digit by digit ("四八二〇", "幺九八三"), no unit.
_CJK_DIGITS = re.compile(r"[〇零O一二三四五六七八九幺两]+")
_CJK_CHAR = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")


@dataclass(frozen=True, slots=True)
class _Data:
    start: re.Pattern[str]
    next: re.Pattern[str]
    connective: re.Pattern[str]
    connective_words: frozenset[str]
    fillers: frozenset[str]
    not_values: frozenset[str]
    id_cues: CueAlternation
    units: CueAlternation
    cjk_amount: re.Pattern[str]
    context: CueAlternation
    first_verbs: CueAlternation
    credential: CueAlternation
    unit_words: LiteralGate
    notes: GatedPattern
    cue_words: LiteralGate
    next_words: LiteralGate
    not_kinds: frozenset[str]  # words after "de" that name no kind of thing


_KATAKANA_END = re.compile(r"[\u30a1-\u30fa\u30fc]$")
_NO_KATAKANA: Final = r"(?![\u30a1-\u30fa\u30fc])"


@functools.cache
def _data() -> _Data:
    raw: dict[str, Any] = data_yaml("said_values.yaml")
    start = [str(t) for terms in raw["pieces"]["start"].values() for t in terms]
    nxt = [str(t) for terms in raw["pieces"]["next"].values() for t in terms]
    money = raw["money"]
    # A katakana unit ("マン") is none at the start of a longer katakana word ("マンション").
    cjk_units = "|".join(
        re.escape(str(u)) + (_NO_KATAKANA if _KATAKANA_END.search(str(u)) else "")
        for u in money["cjk_units"]
    )
    return _Data(
        start=re.compile(alternation(start, escape=False)),
        next=re.compile(alternation(nxt, escape=False)),
        connective=re.compile(rf"(?:{alternation(start + nxt, escape=False)})[\s,:]*"),
        connective_words=frozenset(
            w for term in start + nxt for w in re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)?", term)
        ),
        fillers=frozenset(str(f).strip().casefold() for f in raw["pieces"]["fillers"]),
        not_values=frozenset(str(w).casefold() for w in raw["pieces"]["not_values"]),
        id_cues=CueAlternation([str(c) for c in raw["id_cues"]]),
        units=CueAlternation([str(u) for u in money["units"]]),
        cjk_amount=re.compile(  # "5,000円" whole, not its "000円"
            rf"[0-9一二三四五六七八九十百千万两〇零]+(?:[,，][0-9]{{3}})*(?:{cjk_units})"
            # Digits, a space, then the unit ("18.8 万", "800 美刀", "5 千刀"; blindfix19b).
            rf"|[0-9]+(?:[,，][0-9]{{3}})*(?:[.．][0-9]+)?[ \u00a0][一二三四五六七八九十百千万两]*"
            rf"(?:{cjk_units})"
        ),
        context=CueAlternation([str(c) for c in (*money["context"], *money["paid_to_me"])]),
        first_verbs=CueAlternation([str(v) for v in (*money["first_verbs"], *money["paid_to_me"])]),
        credential=CueAlternation([str(c) for c in raw["pieces"]["cues"]]),
        unit_words=LiteralGate(str(u) for u in money["units"]),
        notes=GatedPattern(
            re.compile(
                "|".join(
                    rf"(?<![\w']){n}(?![\w'])" if lang != "ja" else str(n)
                    for lang, forms in money["notes"].items()
                    for n in forms
                )
            )
        ),
        cue_words=LiteralGate(str(c) for c in raw["pieces"]["cues"]),
        not_kinds=frozenset(str(w) for w in money["not_kinds"]),
        next_words=LiteralGate(
            w for term in nxt for w in re.findall(r"[^\W\d_]{3,}|[\u3040-\u9fff]+", term)
        ),
    )


_WINDOW_BEFORE: Final = 40
_WINDOW_AFTER: Final = 80


def _credential_windows(lowered: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each credential cue of ``policy/data/quote_cues.yaml`` and of the
    short forms ``said_values.yaml`` adds ("pw", "mdp")."""
    d = _data()
    extra = (
        [m.span() for m in d.credential.finditer(lowered)] if d.cue_words.search(lowered) else []
    )
    return extra + [m.span() for m in cues().credential_cues(lowered)]


# -- spelled runs --------------------------------------------------------------------------------


def spelled_values(t: str, lowered: str) -> Iterator[_Hit]:
    """A run spelled on purpose (an alphabet, letter names, NATO, kana digits, four or more
    CJK numerals read digit by digit) beside a credential cue, or beside a word that makes it
    a code ("金庫の番号", "router"), is the value."""
    from userlore.policy.spelling import spelled_cues, spelling_spans
    from userlore.policy.spoken import _cjk_runs

    if len(lowered) != len(t):
        return
    runs = [(r[0], r[1]) for r in spelling_spans(t, lowered)]
    if not t.isascii():
        runs += [
            (start, end) for start, end, digits in _cjk_digit_groups(t, _cjk_runs(t)) if digits >= 4
        ]
    if not runs:
        return
    anchors = _credential_windows(lowered)
    anchors += [m.span() for m in spelled_cues().finditer(lowered)]
    for start, end in runs:
        if any(start - _WINDOW_AFTER <= e and s <= end + _WINDOW_BEFORE for s, e in anchors):
            yield (_SECRET, "spelled_credential", start, end, None)


_GROUP_GAP: Final = re.compile(r"[ \u3000\-‐‑–—_·.]{1,3}")


def _cjk_digit_groups(t: str, runs: list[Spoken]) -> Iterator[tuple[int, int, int]]:
    """``(start, end, digits)`` of each run of CJK numerals read digit by digit, groups said
    with a dash word or a bare separator between them made one ("八八，杠，六二零一",
    "八八六二-零一"): each group alone may be too short to be a code, the value is the whole."""
    from userlore.policy.spoken import _dash_gap

    groups: list[tuple[int, int, int]] = []
    for s in runs:
        if not _CJK_DIGITS.fullmatch(t, s.start, s.end):
            continue
        gap = (groups[-1][1], s.start) if groups else None
        if gap and (_dash_gap().fullmatch(t, *gap) or _GROUP_GAP.fullmatch(t, *gap)):
            start, _, digits = groups[-1]
            groups[-1] = (start, s.end, digits + s.end - s.start)
        else:
            groups.append((s.start, s.end, s.end - s.start))
    yield from groups


# -- values in pieces ----------------------------------------------------------------------------

_MARKER = re.compile(r"\[REDACTED:[\w-]+\]")
_LATIN_PIECE = re.compile(r"[^\s,;。、，．()（）\"{}\[\]\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]+")
_KANA_PIECE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]+?(?=[でをとがは、。，,\s]|$)")
_SKIP = re.compile(r"[\s,:：、，]*")
_FILLER_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")
_COPULA = re.compile(r"[\s:：]*(?:は|是|:|：|is|es|ist|est|é|c'est|lautet|è)?[\s:：]*")


def _piece_at(
    t: str, pos: int, fillers: frozenset[str], *, skip: bool = True
) -> tuple[int, int] | None:
    """The token that starts a piece at ``pos`` (fillers and punctuation skipped; with
    ``skip`` off, a filler there means there is no piece: "la contraseña del correo")."""
    for _ in range(4):
        pos = _SKIP.match(t, pos).end()  # type: ignore[union-attr]
        word = _FILLER_WORD.match(t, pos)
        if word is None or word.group(0).casefold() not in fillers:
            break
        if not skip:
            return None
        pos = word.end()
    if pos < len(t) and _CJK_CHAR.match(t, pos):
        kana = _KANA_PIECE.match(t, pos)
        if kana is None or kana.end() - pos > 12:
            return None
        return kana.span()
    m = _LATIN_PIECE.match(t, pos)
    if m is None:
        return None
    end = m.end()
    while end > m.start() and t[end - 1] in ".:":
        end -= 1
    return (m.start(), end) if end > m.start() else None


_BEFORE = re.compile(r"([^\s,;。、，．()（）]+)[\s,;、，]*$")


def _piece_before(t: str, lo: int, pos: int, fillers: frozenset[str]) -> tuple[int, int] | None:
    """The token just before ``pos`` (after ``lo``), past joining words ("Manzana y luego")."""
    for _ in range(3):
        m = _BEFORE.search(t, lo, pos)
        if m is None:
            return None
        if m.group(1).casefold() not in fillers:
            end = m.end(1)
            while end > m.start(1) and t[end - 1] in ".:":
                end -= 1
            return (m.start(1), end) if end > m.start(1) else None
        pos = m.start(1)
    return None


def _valued(piece: str) -> bool:
    """A piece that is no word of a sentence: it has a digit, a symbol or a case change."""
    if any(ch.isdigit() for ch in piece):
        return True
    if any(not ch.isalnum() for ch in piece.strip("!?")):
        return True
    return any(ch.isupper() for ch in piece[1:]) and any(ch.islower() for ch in piece)


def pieces(t: str, lowered: str) -> Iterator[_Hit]:
    """A credential given in two or more pieces after its cue: the pieces (not the words that
    join them) are the value, once one of them is value-like (a digit, a symbol)."""
    if len(lowered) != len(t):
        return
    d = _data()
    if not (cues().credential_words.search(lowered) or d.cue_words.search(lowered)):
        return  # no credential cue
    if not d.next_words.search(lowered):
        return  # no word that joins a second piece
    if "[REDACTED:password_in_pieces]" in t:
        return  # the pieces are taken: a second pass would take the words beside them
    if "[REDACTED:" in t:  # a marker is no piece, and its rule name is no cue
        t = _MARKER.sub(blanked, t)
        lowered = t.lower()
    for _, cue_end in _credential_windows(lowered):
        region_end = min(len(t), cue_end + 2 * _WINDOW_AFTER)
        joins = list(d.next.finditer(lowered, cue_end, region_end))
        if not joins:
            continue
        starts = list(d.start.finditer(lowered, cue_end, joins[0].start()))
        spans: list[tuple[int, int]] = []
        if not starts:
            head = _COPULA.match(lowered, cue_end)
            first = _piece_at(t, head.end() if head else cue_end, d.fillers, skip=False)
            if first is None:
                first = _piece_before(t, cue_end, joins[0].start(), d.fillers)
            if first is not None and first[1] <= joins[0].start():
                spans.append(first)
        for m in [*starts, *joins]:
            found = _piece_at(t, m.end(), d.fillers)
            if found is not None and not any(s < found[1] and found[0] < e for s, e in spans):
                spans.append(found)
        spans = [
            (s, e)
            for s, e in spans
            if any(ch.isalnum() for ch in t[s:e])  # "token=" (a placeholder masked after it)
            and lowered[s:e].strip("!?") not in d.not_values
            and lowered[s:e] not in d.fillers
            and not d.connective.fullmatch(lowered, s, e)
        ]
        if len(spans) >= 2 and any(_valued(t[s:e]) for s, e in spans):
            for s, e in spans:
                yield (_SECRET, "password_in_pieces", s, e, None)


def drop_connectives(t: str, hits: list[_Hit]) -> list[_Hit]:
    """``hits`` without a password rule's hit that is only a connective word ("empieza",
    "luego", "começa") when the pieces rule named the value: the redaction takes the pieces."""
    if "[REDACTED:password_in_pieces]" not in t and not any(
        h[1] == "password_in_pieces" for h in hits
    ):
        return hits
    d = _data()
    return [
        h
        for h in hits
        if h[1] == "password_in_pieces"
        or not (h[0] is _SECRET and t[h[2] : h[3]].strip(" ,:").casefold() in d.connective_words)
    ]


# -- national identifiers in groups ---------------------------------------------------------------

_GROUPED = re.compile(
    r"(?<![\w.\-/])\d{1,6}(?:[ .\-/]\d{1,8}){1,6}(?:[ .\-]?[A-Za-z](?![\w]))?(?![\w])"
)
# The seven countries' schemes, by the length of the joined value (python-stdnum validates).
_SCHEMES: Final = {
    8: ("stdnum.es.dni",),
    9: ("stdnum.pt.nif",),
    10: ("stdnum.gb.nhs",),
    11: ("stdnum.de.idnr", "stdnum.br.cpf"),
    12: ("stdnum.jp.in_",),
    15: ("stdnum.fr.nir",),
    17: ("stdnum.cn.ric",),
    18: ("stdnum.cn.ric",),
}


def _valid(value: str) -> bool:
    digits = sum(ch.isdigit() for ch in value)
    for name in _SCHEMES.get(digits, ()):
        if name == "stdnum.es.dni" and not value[-1:].isalpha():
            continue
        if name != "stdnum.es.dni" and value[-1:].isalpha() and name != "stdnum.cn.ric":
            continue
        try:
            if importlib.import_module(name).is_valid(value):
                return True
        except Exception:  # a scheme that cannot read the value does not vouch
            continue
    return False


def grouped_ids(t: str, lowered: str) -> Iterator[_Hit]:
    """Digits in groups beside an id word that a national scheme validates once joined."""
    d = _data()
    for m in _GROUPED.finditer(t):
        joined = re.sub(r"[ .\-/]", "", m.group(0))
        if len(joined) < 8 or not d.id_cues.search(lowered, max(0, m.start() - 60), m.start()):
            continue
        if _valid(joined.upper()):
            yield (_REGULATED, "grouped_national_id", m.start(), m.end(), "government_id")


# -- money in words and slang --------------------------------------------------------------------

_NUMBER_BEFORE = re.compile(r"(\d(?:[\d.,'’\u00a0 ]*\d)?)\s?(?:k|mil|mille|tausend)?\s*$")
_GERMAN_NUMBER = re.compile(
    r"(?:ein|eine|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|elf|zwölf|zwanzig|dreißig"
    r"|vierzig|fünfzig|sechzig|siebzig|achtzig|neunzig|hundert|tausend|und|zehn|sech|sieb"
    r"|million|millionen)+"
)
_WORD_BEFORE = re.compile(r"([^\W\d_]+)[\s-]*$")
_JOINERS = frozenset({"and", "y", "e", "et"})


@functools.cache
def _number_words() -> frozenset[str]:
    from userlore.policy.spoken import _ALL_WORDS

    return frozenset(_ALL_WORDS) - {"oh", "meia", "niner", "double", "triple"}


def _amount_start(t: str, lowered: str, unit_start: int) -> int | None:
    """Where the number said before a currency word starts, or None when there is none."""
    head = lowered[max(0, unit_start - 60) : unit_start]
    offset = unit_start - len(head)
    digits = _NUMBER_BEFORE.search(head)
    if digits is not None and digits.group(1):
        return offset + digits.start(1)
    head = re.sub(r"\s+de\s*$", " ", head)
    words = _number_words()
    start: int | None = None
    end = len(head)
    while True:
        m = _WORD_BEFORE.search(head, 0, end)
        if m is None:
            break
        word = m.group(1)
        if word in words or (_GERMAN_NUMBER.fullmatch(word) and len(word) > 4):
            start = offset + m.start(1)
            end = m.start(1)
            continue
        if start is not None and word in _JOINERS:
            # "a hundred and twenty K": the joiner inside a number said in words (blindfix24c)
            before = _WORD_BEFORE.search(head, 0, m.start(1))
            if before is not None and before.group(1) in words:
                end = m.start(1)
                continue
        break
    return start


# A slang unit that is also a thing's name, then what kind of thing ("balles de tennis", "paus
# de canela", "contos de Machado", "bucks of deer"): a count (blindfix23b), unless the kind is
# money's ("3000 balles de dettes") or the clause has a money context ("recebo 2 mil pila de
# bolsa", "40 patates de côté").
# A word of three letters or fewer there is an article or a possessive ("45 balles de mon
# salaire"), no kind.
_OF_A_KIND = re.compile(r"\s*(?:de|d'|of|da|do|di|von)\s*([^\W\d_]{4,})")


def _things_counted(lowered: str, end: int, d: _Data) -> bool:
    m = _OF_A_KIND.match(lowered, end)
    if m is None:
        return False
    kind = m.group(1)
    return (
        _MONEY_NOUNS.search(kind) is None
        and kind not in d.not_kinds
        and kind not in d.unit_words.words  # "2 palos de pesos": money in money
    )


def money_words(t: str, lowered: str) -> Iterator[_Hit]:
    """The user's own money said with a currency word or slang ("zwölftausend Euro", "980
    balles", "dos mil pavos", "三百蚊"), in a clause that makes it the user's."""
    d = _data()
    spans: list[tuple[int, int]] = []
    notes = list(d.notes.finditer(lowered)) if len(lowered) == len(t) else []
    if (
        not notes
        and not d.unit_words.search(lowered)
        and (t.isascii() or not d.cjk_amount.search(t))
    ):
        return
    c = cues()
    for m in d.units.finditer(lowered):
        if _things_counted(lowered, m.end(), d) and not d.context.search(
            _clause(t, m.start(), m.end()).casefold()
        ):
            continue  # "607 balles de tennis", "10 paus de canela": things, not money
        start = _amount_start(t, lowered, m.start())
        if start is not None:
            spans.append((start, m.end()))
    # A note or a sum by its name alone ("nen Fuffi", "a tenner"), a number word before it
    # taken with it ("zwei Fuffis").
    # Notes counted by their face ("諭吉が2枚") are a sum by themselves, the subject left out
    # (as Japanese does): the user's unless the clause is someone else's.
    counted = set()
    for m in notes:
        start = _amount_start(t, lowered, m.start())
        spans.append((m.start() if start is None else start, m.end()))
        if _CJK_CHAR.match(t, m.start()):
            counted.add(spans[-1])
    if not t.isascii():
        spans.extend(m.span() for m in d.cjk_amount.finditer(t))
    for s, e in spans:
        clause = _clause(t, s, e)
        if _others_money(clause, c):
            continue
        first = first_person().speaker.search(clause) is not None
        first = first or d.first_verbs.search(clause.casefold()) is not None
        context = d.context.search(clause.casefold()) is not None
        # Money received counts as a context ("my severance … forty-two grand"; blindfix24c).
        context = context or own_sums().receipts.search(clause.casefold()) is not None
        cjk_context = context and _CJK_CHAR.search(clause) is not None
        if (
            (first and (context or _MONEY_NOUNS.search(clause)))
            or cjk_context
            or (s, e) in counted
            or _personal(clause)
        ):
            yield (_REGULATED, "financial_figure", s, e, "financial")


def said_values(t: str, lowered: str) -> Iterator[_Hit]:
    """Every hit of the four rules above, for the floor's detector pass."""
    yield from spelled_values(t, lowered)
    yield from pieces(t, lowered)
    if has_digit(t):
        yield from grouped_ids(t, lowered)
    yield from money_words(t, lowered)
