"""English self statements about a special category ("I have diabetes", "we are Muslim")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from userlore.policy.detectors.common import _Hit
from userlore.policy.detectors.special_vocab import (
    _BLIND_BETWEEN,
    _BLIND_NEXT_BAD,
    _BLOCK_AFTER,
    _BLOCK_BETWEEN,
    _CLAUSE_BREAK,
    _COPULA_PREFIX,
    _COPULA_WORDS,
    _EN_LEXICON,
    _EN_WORD,
    _GROUP_CATEGORIES,
    _GROUP_COPULA,
    _GROUP_MODS,
    _GROUP_NEXT_OK,
    _GROUP_SELF,
    _IDENT_MODIFIERS,
    _NEEDS_ARTICLE,
    _NEEDS_COPULA,
    _NEEDS_TAKE,
    _PRACTICE_VERBS,
    _PROVIDER_TERMS,
    _QUOTED_EXAMPLE,
    _RELIGION_FOOD,
    _RELIGION_MY_TERMS,
    _RELIGION_VERB_TERMS,
    _SELF,
    _TAKE_WORDS,
)
from userlore.policy.findings import _SPECIAL, _words


def _en_special(t: str, lowered: str) -> Iterator[_Hit]:
    if len(lowered) != len(t):
        return
    toks = [(m.group(0), m.start(), m.end()) for m in _EN_WORD.finditer(lowered)]
    n = len(toks)
    i = 0
    while i < n:
        entries = _EN_LEXICON.get(toks[i][0])
        plural = False
        if not entries and toks[i][0].endswith("s"):
            # "we are proud Catholics": plural identity words, for group statements only
            entries = [e for e in _EN_LEXICON.get(toks[i][0][:-1], ()) if e[2] == "ident"]
            plural = True
        if not entries:
            i += 1
            continue
        matched = None
        for words, category, kind in entries:
            k = len(words)
            got = tuple(w for w, _, _ in toks[i : i + k])
            if plural:
                got = (*got[:-1], got[-1][:-1])
            if got == words and _joined(t, toks, i, k):
                matched = (words, category, kind)
                break
        if matched is None:
            i += 1
            continue
        words, category, kind = matched
        k = len(words)
        hit = _self_statement(t, toks, i, k, category, kind, plural=plural)
        if hit is not None and _QUOTED_EXAMPLE.search(t, max(0, hit - 40), hit):
            hit = None  # translate 'I am a Muslim' into French: an example, not a disclosure
        if hit is not None:
            yield (_SPECIAL, category, hit, toks[i + k - 1][2], category)
        i += k


def _joined(t: str, toks: list[tuple[str, int, int]], i: int, k: int) -> bool:
    """The words of a multi-word term are adjacent (spaces or a hyphen between them)."""
    return all(t[toks[j][2] : toks[j + 1][1]] in (" ", "-") for j in range(i, i + k - 1))


def _self_statement(
    t: str,
    toks: list[tuple[str, int, int]],
    i: int,
    k: int,
    category: str,
    kind: str,
    *,
    plural: bool = False,
) -> int | None:
    """Start of the statement if the term at token ``i`` is said about the user, else None.

    ``plural`` marks an identity word in the plural ("Catholics"): only a group self-statement
    ("we are proud Catholics") makes that about the user.
    """
    term = " ".join(w for w, _, _ in toks[i : i + k])
    last = i + k - 1
    nxt = toks[last + 1][0] if last + 1 < len(toks) else ""
    same_clause = bool(nxt) and not _CLAUSE_BREAK.search(t, toks[last][2], toks[last + 1][1])
    religion_food = category == "religion" and nxt in _RELIGION_FOOD
    if same_clause and nxt.removesuffix("'s") in _BLOCK_AFTER and not religion_food:
        return None
    if term == "stroke" and nxt == "of":
        return None
    # "insulin for my daughter", "chemo meds for my dad": the term is someone else's (one
    # noun may sit between the term and its "for").
    prep = last + 1
    if (
        same_clause
        and nxt not in {"for", "of", "to"}
        and last + 2 < len(toks)
        and toks[last + 2][0] == "for"
        and not _CLAUSE_BREAK.search(t, toks[last][2], toks[last + 2][1])
    ):
        prep = last + 2
    if same_clause and toks[prep][0] in {"for", "of", "to"} and prep + 1 < len(toks):
        after = toks[prep + 1][0]
        third = after
        if after in {"my", "his", "her", "their", "our", "the"} and prep + 2 < len(toks):
            third = toks[prep + 2][0]
        if third.removesuffix("'s") in _BLOCK_BETWEEN and third not in {"about", "what"}:
            return None
    if kind == "ident":
        window_start = max(0, toks[i][1] - 80)
        cm = None if plural else _COPULA_PREFIX.search(t, window_start, toks[i][1])
        group = False
        if cm is None and category in _GROUP_CATEGORIES:
            cm = _GROUP_COPULA.search(t, window_start, toks[i][1])
            group = cm is not None
            if group and same_clause and nxt not in _GROUP_NEXT_OK:
                return None  # "we're a Catholic school": an institution, not the user
        if cm is None:
            return None if plural else _labelled_identity(t, toks, i)
        mods = cm.group("mods").lower().replace("-", " ").split()
        if any(m not in _IDENT_MODIFIERS and not (group and m in _GROUP_MODS) for m in mods):
            return None
        if term in _NEEDS_ARTICLE and not (
            {"a", "an", "politically", "socially", "fiscally", "very", "deeply"} & set(mods)
        ):
            return None
        if term in {"bi", "trans"} and nxt in {"weekly", "annual", "monthly", "fat", "atlantic"}:
            return None
        start = cm.start()
        while start < toks[i][1] and not t[start].isalnum():
            start += 1
        return start
    # Walk back to the nearest self subject within the clause.
    subject = None
    j = i - 1
    while j >= 0 and i - j <= 8:
        if _CLAUSE_BREAK.search(t, toks[j][2], toks[j + 1][1]):
            break
        word = toks[j][0]
        if word in _SELF and not (word == "i" and j > 0 and toks[j - 1][0] == "type"):
            subject = j
            break
        if word in _GROUP_SELF and category == "religion":
            subject = j  # "we go to church": only a practice verb makes it count (below)
            break
        j -= 1
    if subject is None:
        return _subjectless(t, toks, i, j, kind) if kind == "cond" else None
    between = [w.removesuffix("'s") for w, _, _ in toks[subject + 1 : i]]
    if any(w in _BLOCK_BETWEEN for w in between):
        return None
    subj_word = toks[subject][0]
    copula = subj_word in {"i'm", "im"} or any(w in _COPULA_WORDS for w in between)
    if kind == "poss":
        if subj_word not in {"my", "user's"} or len(between) > 2:
            return None
        return toks[subject][1]
    if category == "religion":
        if (
            term == "pray"
            and nxt in _PRAY_HOPE
            and (nxt != "the" or last + 2 >= len(toks) or toks[last + 2][0] not in _PRAYERS)
        ):
            return None  # "I pray the build passes": a hope, not a practice
        group = subj_word in _GROUP_SELF
        direct_my = subj_word == "my" and not between and term in _RELIGION_MY_TERMS
        verb_term = term in _RELIGION_VERB_TERMS and len(between) <= 3 and not group
        if not (direct_my or verb_term or _PRACTICE_VERBS.search(t, toks[subject][1], toks[i][1])):
            return None
    if term in _NEEDS_TAKE and (not between or between[-1] not in _TAKE_WORDS):
        return None
    if term in _NEEDS_COPULA and not copula:
        return None
    if term in {"blind", "colorblind"} and (
        not set(between) <= _BLIND_BETWEEN or (same_clause and nxt in _BLIND_NEXT_BAD)
    ):
        return None
    if term in _PROVIDER_TERMS and copula and set(between) <= {"a", "an", "am", "was"}:
        return None  # "I'm a therapist": an occupation, not a disclosure
    return toks[subject][1]


_PRAY_HOPE: Final = _words("that the it this we you they he she everything nothing all our my")
_PRAYERS: Final = _words("rosary psalms angelus salah salat namaz liturgy hours")
_SUBJECTLESS_START: Final = _words(
    """
    has had takes took been diagnosed suffers lives struggles deals recovering started uses
    needs allergic intolerant currently is was gets got on prescribed wears sees attends
    """
)
_NOT_ABOUT_USER: Final = _words("you your we our it its anyone anybody someone people one")
_STRONG_IDENTITY_MODS: Final = _words(
    """
    practicing practising devout observant openly lifelong life-long registered card-carrying
    staunch committed proud out
    """
)


def _subjectless(t: str, toks: list[tuple[str, int, int]], i: int, j: int, kind: str) -> int | None:
    """Terse record style, "Has type 2 diabetes" / "Allergic to shellfish": the user is implied.

    ``j`` is the token before the clause (or -1). Questions and general statements ("Taking
    metformin can cause...") are not records about the user, so only a clause that opens with a
    finite verb or participle of the known list and has no other subject counts.
    """
    first = j + 1
    if first > i or i - first > 5 or kind != "cond":
        return None
    if toks[first][0] not in _SUBJECTLESS_START and first != i:
        return None
    if first == i and toks[i][0] not in {"allergic", "intolerant", "pregnant", "diabetic"}:
        return None
    words = [w.removesuffix("'s") for w, _, _ in toks[first:i]]
    if any(w in _BLOCK_BETWEEN or w in _NOT_ABOUT_USER for w in words):
        return None
    end = _CLAUSE_BREAK.search(t, toks[i][2])
    if end is not None and t[end.start()] == "?":
        return None
    return toks[first][1]


def _labelled_identity(t: str, toks: list[tuple[str, int, int]], i: int) -> int | None:
    """ "Practicing Muslim, no pork": a clause made of strong modifiers and the identity word."""
    j = i - 1
    while j >= 0 and i - j <= 3 and not _CLAUSE_BREAK.search(t, toks[j][2], toks[j + 1][1]):
        j -= 1
    mods = [w for w, _, _ in toks[j + 1 : i]]
    if mods and all(m in _IDENT_MODIFIERS for m in mods) and _STRONG_IDENTITY_MODS & set(mods):
        return toks[j + 1][1]
    return None
