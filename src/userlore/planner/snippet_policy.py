"""Which source items a plan may quote: the policy filter and the quote gate over a snippet.

:func:`refusal` is the one verdict both :func:`~userlore.planner.episodic.search_snippets` (a
read) and :func:`~userlore.planner.episodic.withheld` (what a raw-turn baseline must leave out)
give an item: gone with a record that is not live (:func:`withdrawals`), refused when written,
today's sensitivity verdict through the policy filter, then the quote gate on the words quoted.
:func:`quotable_part` is what may still be quoted of a turn withheld for a special category:
the sentences the question names that state none, away from those that do.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, bindparam, select

from userlore.models import Disclosure, RecordState, Rejection, Sensitivity, UserState
from userlore.planner.sentences import holds_term, joined, term_stems
from userlore.policy.detectors.special_lang import special_cues
from userlore.policy.filter import REASONS, RejectionReason, rejection_reason
from userlore.policy.govern import POLICY_REV, Assessment, assess_text
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.word_lists import MIN_LETTERS
from userlore.store.schema import MemoryEvidence, MemoryRecord
from userlore.store.sentences import split_turn

__all__ = ["PARTIAL_REASONS", "quotable_part", "quoted_body", "refusal", "screen", "withdrawals"]


@dataclass(frozen=True, slots=True)
class _SnippetFields:
    """A source item as the policy filter's input, with today's verdict on its text."""

    scope: str
    content: str
    valid_from: datetime | None
    state: str = RecordState.ACTIVE.value
    user_state: str = UserState.AUTO.value
    valid_until: datetime | None = None
    disclosure: str = Disclosure.NORMAL.value
    sensitivity: str = Sensitivity.NONE.value
    sensitivity_category: str | None = None
    policy_rev: int = POLICY_REV  # assessed just now with today's rules (``_assessed``)
    value: str | None = None


_WITHDRAWN = (
    # An item stays out while a record drawn from it is not live: pending review or rejected
    # (confirmWrite keeps it out of context until approved), superseded, forgotten, deleted or
    # expired (a TTL or a stated "until Friday" that has passed).
    select(
        MemoryEvidence.source_item_id,
        MemoryRecord.state,
        MemoryRecord.user_state,
        MemoryRecord.valid_until,
    )
    .join(
        MemoryRecord,
        (MemoryRecord.scope == MemoryEvidence.scope)
        & (MemoryRecord.id == MemoryEvidence.record_id),
    )
    .where(
        MemoryEvidence.scope == bindparam("scope"),
        MemoryEvidence.source_item_id.in_(bindparam("ids", expanding=True)),
        (MemoryRecord.user_state == UserState.FORGOTTEN.value)
        | (MemoryRecord.state != RecordState.ACTIVE.value)
        | (MemoryRecord.valid_until <= bindparam("now")),
    )
)


def withdrawals(
    conn: Connection, scope: str, item_ids: Sequence[str], now: datetime
) -> dict[str, RejectionReason]:
    """The items of ``item_ids`` that stay out with a record drawn from them, and why."""
    out: dict[str, RejectionReason] = {}
    for item_id, state, user_state, valid_until in conn.execute(
        _WITHDRAWN, {"scope": scope, "ids": list(item_ids), "now": now}
    ):
        expired = valid_until is not None and state == RecordState.ACTIVE.value
        out[item_id] = _withdrawal(state, user_state, out.get(item_id), expired=expired)
    return out


def refusal(
    row: Any,
    scope: str,
    now: datetime,
    consented: frozenset[str],
    withdrawn: dict[str, RejectionReason],
    quote_uncovered: bool,
) -> Rejection | None:
    """Why an item may not be quoted: the policy filter first, then (its words quoted verbatim)
    the quote gate; ``None`` when it may."""
    reason = _reason(row, scope, now, consented, withdrawn)
    if reason is not None:
        return Rejection(row.id, reason)
    verdict = quote_verdict(
        quoted_body(row.title, row.text), consented=consented, quote_uncovered=quote_uncovered
    )
    if verdict.reason is not None:
        return Rejection(row.id, verdict.reason, verdict.category)
    return None


def screen(
    row: Any,
    query: str | None,
    scope: str,
    now: datetime,
    consented: frozenset[str],
    withdrawn: dict[str, RejectionReason],
    quote_uncovered: bool,
) -> tuple[str | None, Rejection | None]:
    """What a plan may quote of an item for ``query``, and why not all of it.

    ``(text, None)``: the whole item; ``(part, rejection)``: the whole is withheld for a special
    category (the rejection names it) and ``part`` (:func:`quotable_part`) may be quoted;
    ``(None, rejection)``: nothing may.
    """
    rejection = refusal(row, scope, now, consented, withdrawn, quote_uncovered)
    if rejection is None:
        return quoted_body(row.title, row.text), None
    part = quotable_part(row, query, rejection, scope, now, consented, withdrawn, quote_uncovered)
    if part is not None and rejection.category is None:  # the policy filter names no category
        body = quoted_body(row.title, row.text)
        found = quote_verdict(body, consented=consented, quote_uncovered=quote_uncovered)
        rejection = Rejection(rejection.id, rejection.reason, found.category)
    return part, rejection


PARTIAL_REASONS = frozenset({RejectionReason.CONSENT_REQUIRED, RejectionReason.QUOTE_SPECIAL})
"""Withheld for a special category the user has not consented to: the only withheld turns
:func:`quotable_part` may quote a part of (never a secret, an identifier, money, a credential
cue or an unread language, which a cut could split)."""


def quotable_part(
    row: Any,
    query: str | None,
    rejection: Rejection,
    scope: str,
    now: datetime,
    consented: frozenset[str],
    withdrawn: dict[str, RejectionReason],
    quote_uncovered: bool,
) -> str | None:
    """The sentences of a turn withheld for a special category that may still be quoted.

    The gate judges the whole turn, so one sentence about the user's faith withholds the
    picnic beside it. This keeps the sentences the question names (``query``'s terms, as
    :func:`~userlore.planner.sentences.sentence_window` reads them) when each passes the gate
    alone and holds no special-category cue in any person (reported speech and "about someone
    else" clear nothing here), and no sentence beside it fails that (a neighbour may go on
    about it: "I have it too", "She said it was early", an implied subject; a short sentence
    after one that fails fails too: "Relapsing-remitting."). The cut is
    judged again as a whole, by the policy filter and the gate, as any quote is. ``None``
    when nothing of the turn may be quoted for this question.
    """
    if rejection.reason not in PARTIAL_REASONS or not query or row.id in withdrawn:
        return None
    stems = term_stems(query)
    if not stems or (row.meta or {}).get("refused"):
        return None
    head, sentences = split_turn(quoted_body(row.title, row.text))
    stating: list[bool] = []
    for sentence in sentences:
        verdict = quote_verdict(sentence, consented=consented, quote_uncovered=quote_uncovered)
        # A short sentence goes on with the one before it ("I have MS. Relapsing-remitting.").
        goes_on = bool(stating) and stating[-1] and _short(sentence)
        stating.append(not verdict.quotable or bool(special_cues(sentence) - consented) or goes_on)
    kept = [
        n
        for n, sentence in enumerate(sentences)
        if not any(stating[max(n - 1, 0) : n + 2]) and holds_term(sentence, stems)
    ]
    if not kept:
        return None
    cut = joined(head, sentences, kept)
    part = _Cut(row.id, row.scope, cut, None, row.meta, row.created_at, row.deleted_at)
    if refusal(part, scope, now, consented, withdrawn, quote_uncovered) is not None:
        return None
    return cut


def _short(sentence: str) -> bool:
    """A fragment ("Relapsing-remitting.", "Since March.", "系统性的。"): under two words'
    worth of letters (:data:`MIN_LETTERS`, a CJK character counting two: it carries about
    what two Latin letters do), or, written with spaces, fewer than three words."""
    letters = sum(2 if _CJK.match(ch) else 1 for ch in sentence if ch.isalpha())
    spaced = not _CJK.search(sentence)
    return letters < MIN_LETTERS or (spaced and len(sentence.split()) < 3)


_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


@dataclass(frozen=True, slots=True)
class _Cut:
    """A withheld turn's quotable part, as :func:`refusal` reads a source item's row."""

    id: str
    scope: str
    text: str
    title: str | None
    meta: dict[str, Any] | None
    created_at: datetime | None
    deleted_at: datetime | None


_WITHDRAWAL_ORDER = (
    RejectionReason.DELETED,
    RejectionReason.FORGOTTEN,
    RejectionReason.NOT_ACTIVE,
    RejectionReason.EXPIRED,
)


def _withdrawal(
    state: str, user_state: str, earlier: RejectionReason | None, *, expired: bool = False
) -> RejectionReason:
    """The reason a record that is not live gives its evidence item (the strongest of several)."""
    if state == RecordState.DELETED.value:
        reason = RejectionReason.DELETED
    elif user_state == UserState.FORGOTTEN.value:
        reason = RejectionReason.FORGOTTEN
    elif expired:
        reason = RejectionReason.EXPIRED
    else:
        reason = RejectionReason.NOT_ACTIVE
    if earlier is None:
        return reason
    return min(reason, earlier, key=_WITHDRAWAL_ORDER.index)


def quoted_body(title: str | None, body: str) -> str:
    """The words a snippet quotes: the title before the text, unless the text opens with it."""
    return f"{title}: {body}" if title and not body.startswith(title) else body


def _reason(
    row: Any,
    scope: str,
    now: datetime,
    consented: frozenset[str],
    withdrawn: dict[str, RejectionReason],
) -> RejectionReason | None:
    if row.deleted_at is not None:
        return RejectionReason.DELETED
    if row.id in withdrawn:
        return withdrawn[row.id]
    refused = (row.meta or {}).get("refused")
    if refused:
        # A statement of this turn was refused (understanding.record_turn): never quote it.
        return RejectionReason(refused[0]) if refused[0] in REASONS else RejectionReason.SECRET
    body = quoted_body(row.title, row.text)
    verdict = _assessed(body)
    if verdict.refused is not None:
        return RejectionReason(verdict.refused)
    fields = _SnippetFields(
        row.scope,
        body,
        row.created_at,
        disclosure=verdict.disclosure.value,
        sensitivity=verdict.sensitivity.value,
        sensitivity_category=verdict.category,
    )
    return rejection_reason(fields, scope=scope, now=now, consented=consented)


@functools.lru_cache(maxsize=8_192)
def _assessed(body: str) -> Assessment:
    """Today's sensitivity verdict on a snippet's text (the rules are fixed for a process, so
    a turn read by many plans is classified once)."""
    return assess_text(body)
