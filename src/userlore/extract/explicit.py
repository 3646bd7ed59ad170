"""Deterministic extraction of explicit statements from one user turn, in English and Chinese.

Seed 000 has the understanding service pick up explicit instructions *immediately*, without a
model call; seed 002 names the facet classes they feed (style, identity, tooling, veto, goal,
channel). This module is that producer, and it is deliberately narrow: it reports only what the
user plainly said about themselves or about how the assistant should behave, with the user's own
clause as the receipt. Inference, paraphrase and implied preferences are left to the LLM
reviewer, whose candidates pass through the same governed write.

How it works. The turn is cut into sentences and clauses. Each clause gets flags (question,
hypothetical, reported speech, one-off request, standing marker, hedge, durability). Then small
per-facet pattern tables are tried in a fixed order. Every pattern is anchored on a first-person
subject ("I", "my", "我") or on an imperative addressed to the assistant, so a sentence about
somebody else ("my wife prefers tea") never matches, and a negated or past-tense verb
("I don't use vim anymore", "I no longer live in Berlin") breaks the anchor instead of being
read as a positive.

Keys produced:

- ``style/verbosity`` terse|detailed, ``style/format`` bullets|numbered|prose|tables|
  code_first|checklist|json|… (an open set folded to canonical values, ``vocab/formats.py``),
  ``style/language`` <english name of the language>, ``style/preamble`` skip,
  ``style/emoji`` skip|use;
- ``identity/name|timezone|role|employer|location|pronouns`` with the stated value;
- ``tooling/package_manager|editor|lang|framework|runtime|os|shell|test_runner`` with a canonical
  tool id (``pnpm``, ``neovim``, ``vscode``), plus ``tooling/database`` and ``tooling/cloud``
  ("we use Postgres", "we deploy on AWS");
- ``veto/<slug>`` banned; ``preference/<slug>`` like|dislike|avoid; ``goal/<slug>`` with the
  goal phrase; ``instruction/<slug>`` with the instruction text; ``channel/preference``;
- ``note/<special category>/<digest>``: a first-person health, religion, orientation, ethnicity,
  political, union or biometric fact ("I have type 2 diabetes", "我是穆斯林"), stored by the
  governed write as ``ask_before_reference`` and planned only with consent (``match_special``).

Self-corrections ("actually, not X, Y", "no, I meant …", "不是X，是Y", "我说错了…") are read as
the user means them (``corrective.py``): the markers and the rejected alternative are blanked
before the matchers run, and a corrective segment that names only a value is read as that value.

Never extracted: questions, hypotheticals and conditionals, quoted or reported speech, other
people's facts, negated or past facts, one-off task requests, and any non-``user`` turn.

Memory types: instructions, style and tooling are ``procedural`` (they change *how* the assistant
works for this user: format, language, which package manager to type); identity is ``identity``;
preferences, vetoes, goals and channels are ``semantic`` facts about the user.
"""

from __future__ import annotations

from userlore.extract.clauses import _Clause, _clauses
from userlore.extract.corrective import bare_statements, blank
from userlore.extract.cues import _DEICTIC_GOAL, _SWITCH
from userlore.extract.lexical import (
    _CONF_HEDGED,
    _IMPORTANCE,
    _MAX_STATEMENTS,
    _MEMORY_TYPE,
    _STANDING_BONUS,
    _normalize,
    _rx,
)
from userlore.extract.match_directives import (
    _match_goal,
    _match_instruction,
    _match_tooling,
    _match_veto,
)
from userlore.extract.match_identity import _Hit, _match_channel, _match_identity
from userlore.extract.match_preference import _match_preference, _match_style
from userlore.extract.match_special import _match_special
from userlore.extract.match_style import _directive
from userlore.extract.statement import Statement

__all__ = ["Statement", "extract_statements"]


# --------------------------------------------------------------------------------------------
# Assembly
# --------------------------------------------------------------------------------------------


def _clause_hits(c: _Clause) -> list[_Hit]:
    """The facet matchers in priority order; the generic instruction is the fallback."""
    if c.reported_self:
        return _match_special(c)  # someone's words about the user: a fact, never a wish
    directive, verb = _directive(c)
    hits = _match_identity(c) + _match_channel(c)
    hits += _match_preference(c) if not hits else []
    style = _match_style(c, directive, verb)
    hits += style
    if not style:
        hits += _match_veto(c, directive)
    if not any(h.key.startswith("channel/") for h in hits):
        hits += [h for h in _match_tooling(c, directive) if h.key not in {x.key for x in hits}]
    if not hits:
        hits = _match_goal(c)
    if not hits:
        hits = _match_instruction(c, directive)
    if not hits:
        # A clause another matcher read is gated by its own content; this one would be lost.
        hits = _match_special(c)
    if c.task:  # a request for one deliverable: its wishes end with the task
        hits = [h for h in hits if not h.key.startswith(("instruction/", "style/"))]
    return hits


# Trimmed off the receipt: a leading conjunction or list marker is not part of the statement.
_CONTENT_LEAD = _rx(
    r"(?:(?:and|but|so|also|plus|但是|不过|而且|并且|可是|所以)\b\s*|[-*\u2022]\s+|\d{1,2}[.)]\s+)+"
)


def _statement(c: _Clause, hit: _Hit, original: str) -> Statement:
    kind = hit.key.split("/", 1)[0]
    confidence = min(hit.confidence, _CONF_HEDGED) if c.hedged else hit.confidence
    importance = _IMPORTANCE[kind]
    if c.standing and kind in {"instruction", "style", "veto"}:
        importance += _STANDING_BONUS
    durability = c.durability
    if kind == "goal" and durability == "durable" and _DEICTIC_GOAL.search(hit.value or ""):
        durability = "session"  # "I'm trying to fix this bug" is about the task at hand
    start, end = c.start, c.end
    content = original[start:end]
    lead = _CONTENT_LEAD.match(content)
    if lead and lead.end() < len(content):
        start += lead.end()
        content = original[start:end]
    return Statement(
        kind=kind,
        canonical_key=hit.key,
        value=hit.value,
        content=content,
        memory_type=_MEMORY_TYPE[kind],
        confidence=round(confidence, 2),
        importance=round(importance, 2),
        durability=durability,
        span=(start, end),
    )


def _unquote_whole(norm: str) -> str:
    """A turn that is one quoted statement ("\"I avoid X.\"") is the user's, not a quotation."""
    stripped = norm.strip()
    if len(stripped) > 2 and stripped[0] == stripped[-1] == '"' and stripped.count('"') == 2:
        start = norm.index('"')
        end = norm.rindex('"')
        return norm[:start] + " " + norm[start + 1 : end] + " " + norm[end + 1 :]
    return norm


# One value per key and turn for facets that hold one value (a user has one name, one
# verbosity); tooling, preferences and vetoes may legitimately name several things.
_SINGLE_VALUED = ("identity/", "style/", "channel/")


def extract_statements(text: str, *, role: str = "user") -> list[Statement]:
    """Extract the explicit statements of one conversation turn.

    Only the user's own turns are read (``role == "user"``): the assistant paraphrasing the
    user is not evidence. The result is deterministic, ordered by position, and holds at most
    one statement per ``(canonical_key, value)``.

    Args:
        text: The raw turn text.
        role: Speaker role of the turn; anything but ``"user"`` yields ``[]``.

    Returns:
        Statements whose ``span`` indexes ``content`` exactly in ``text``.
    """
    if role != "user" or not text or not text.strip():
        return []
    norm = _unquote_whole(_normalize(text))
    blanked = blank(norm)
    switch = blanked.marked or blanked.corrective or bool(_SWITCH.search(norm))
    out = _read(blanked.text, text, switch=switch)
    if blanked.corrective and len(out) < _MAX_STATEMENTS:
        bare = bare_statements(text, blanked, out, extract_statements)
        taken = {(s.canonical_key, s.value) for s in out}
        taken |= {
            (s.canonical_key, None) for s in out if s.canonical_key.startswith(_SINGLE_VALUED)
        }
        for st in bare:
            if (st.canonical_key, st.value) in taken or (st.canonical_key, None) in taken:
                continue
            out.append(st)
            taken.add((st.canonical_key, st.value))
            if st.canonical_key.startswith(_SINGLE_VALUED):
                taken.add((st.canonical_key, None))
        out.sort(key=lambda s: s.span)
    return out[:_MAX_STATEMENTS]


def _read(norm: str, text: str, *, switch: bool) -> list[Statement]:
    """The statements of a normalized turn, clause by clause (``text`` gives the receipts)."""
    out: list[Statement] = []
    seen: set[tuple[str, str | None]] = set()
    for clause in _clauses(norm, switch=switch):
        for hit in _clause_hits(clause):
            single = hit.key.startswith(_SINGLE_VALUED)
            if (hit.key, hit.value) in seen or (single and (hit.key, None) in seen):
                continue
            seen.add((hit.key, hit.value))
            if single:
                seen.add((hit.key, None))
            out.append(_statement(clause, hit, text))
            if len(out) >= _MAX_STATEMENTS:
                return out
    return out
