"""Producer (b): identity from email signatures (Structural cue).

A signature is read from the last lines of an email the *user* sent (a signature in a received
email describes somebody else, so the sender is checked against the user's own addresses when a
``From:`` line is present). The block starts after a ``-- `` delimiter or a valediction
("Best,", "Thanks,", "Regards,"...) within the last eight non-empty lines; without either, the
email yields nothing (precision over recall). From it come ``identity/name``, ``identity/role``,
``identity/employer`` and ``identity/timezone``; phone numbers, addresses and links are ignored.

The mbox adapter (:class:`userlore.sources.adapters.MboxAdapter`) stores each message's text with
everything after a ``--`` delimiter removed, so on ingested mail only valediction-style
signatures survive; :func:`signature_candidates` also accepts raw email text, where both work.
:func:`consume_mbox_signatures` follows the change ledger of a scope's mbox sources with its own
watermark, so each message is read once.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence
from datetime import datetime
from email.utils import getaddresses
from typing import TYPE_CHECKING

from userlore.learning.facets import CueFamily, EvidenceRef, FacetClass, LearningCandidate
from userlore.models import Producer

if TYPE_CHECKING:
    from userlore.learning.cache import FacetCache
    from userlore.sources.service import KnowledgeSources

__all__ = ["SIGNATURE_LINES", "consume_mbox_signatures", "parse_signature", "signature_candidates"]

log = logging.getLogger("userlore.learning.extract.signature")

SIGNATURE_LINES = 8
_CONFIDENCE = 0.75

_DELIMITER = re.compile(r"^--\s?$")
_VALEDICTION = re.compile(
    r"^(?:best(?:\s+(?:regards|wishes))?|kind\s+regards|warm(?:est)?\s+regards|regards|"
    r"many\s+thanks|thanks(?:\s+(?:again|so\s+much))?|thank\s+you|cheers|sincerely|"
    r"yours(?:\s+(?:truly|sincerely))?|all\s+the\s+best|talk\s+soon|take\s+care|warmly|"
    r"respectfully|with\s+thanks|br|thx)[\s,.!—-]*$",
    re.IGNORECASE,
)
_NAME = re.compile(r"^(?:[A-Z][a-zA-Z'’\-]+\.?)(?:\s+[A-Z][a-zA-Z'’\-]*\.?){0,3}$")
_NOT_NAME = frozenset(
    {"sent", "from", "my", "iphone", "android", "phone", "mobile", "device", "confidential"}
    | {"thanks", "best", "regards", "cheers", "the", "a", "an", "this", "that"}
)
_ROLE_WORDS = (
    r"engineer|developer|programmer|manager|director|designer|founder|co-?founder|ceo|cto|cfo|"
    r"coo|cmo|cio|vp|vice\s+president|president|head\s+of\s+\w+|lead|architect|scientist|"
    r"analyst|consultant|researcher|professor|lecturer|student|officer|specialist|"
    r"administrator|editor|writer|journalist|lawyer|attorney|partner|associate|intern|"
    r"recruiter|advocate|owner|principal|chair|coordinator|strategist|producer|teacher|"
    r"nurse|physician|doctor|accountant|economist|sre|devops"
)
_ROLE = re.compile(rf"\b(?:{_ROLE_WORDS})\b", re.IGNORECASE)
_ROLE_SPLIT = re.compile(r"\s+(?:at|@)\s+|\s*[,|·•]\s*|\s+[—–-]\s+")
_COMPANY = re.compile(
    r"\b(?:inc|llc|ltd|limited|gmbh|corp|corporation|co|plc|ag|sa|s\.a|bv|b\.v|oy|ab|srl|"
    r"pty|labs|technologies|systems|group|university|institute)\.?$",
    re.IGNORECASE,
)
_TIMEZONE = re.compile(
    r"\b(?:(?:UTC|GMT)\s?[+-−]\s?\d{1,2}(?::?\d{2})?|PST|PDT|EST|EDT|CST|CDT|MST|MDT|AKST|HST|"
    r"CET|CEST|EET|EEST|WET|WEST|BST|IST|JST|KST|SGT|HKT|AEST|AEDT|ACST|AWST|NZST|NZDT)\b"
)
_SKIP = re.compile(
    r"https?://|www\.|@[\w-]+\.|\+?\d[\d\s().-]{6,}\d|\b(?:tel|phone|mobile|cell|fax|m|t)\s*[:.]",
    re.IGNORECASE,
)
_FROM = re.compile(r"^From:\s*(?P<value>.+)$", re.MULTILINE)


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.replace("\r\n", "\n").split("\n")]


def _block(text: str) -> list[str]:
    """The signature lines: after a ``--`` delimiter or a valediction in the last lines."""
    lines = _lines(text)
    for i in range(len(lines) - 1, -1, -1):
        if _DELIMITER.match(lines[i]):
            return [x for x in lines[i + 1 :] if x][:SIGNATURE_LINES]
    tail = [x for x in lines if x][-SIGNATURE_LINES:]
    for i, line in enumerate(tail):
        if _VALEDICTION.match(line):
            return tail[i + 1 :]
    return []


def parse_signature(text: str) -> dict[str, str]:
    """Identity fields found in the signature of ``text`` (``{key: value}``, possibly empty)."""
    found: dict[str, str] = {}
    for line in _block(text):
        if len(line) > 120:
            continue
        tz = _TIMEZONE.search(line)
        if tz and "timezone" not in found:
            found["timezone"] = re.sub(r"\s+", "", tz.group()).replace("−", "-").upper()
        if _SKIP.search(line):
            continue
        if not found and _NAME.match(line):
            words = line.lower().replace(".", "").split()
            if not any(w in _NOT_NAME for w in words) and not _ROLE.search(line):
                found["name"] = line
                continue
        if "role" not in found and _ROLE.search(line):
            parts = [p.strip() for p in _ROLE_SPLIT.split(line) if p.strip()]
            role = next((p for p in parts if _ROLE.search(p)), None)
            if role and len(role.split()) <= 6:
                found["role"] = role.lower()
                rest = [p for p in parts if p is not role and not _TIMEZONE.fullmatch(p)]
                if rest and "employer" not in found and len(rest[0].split()) <= 6:
                    found["employer"] = rest[0]
            continue
        if "employer" not in found and _COMPANY.search(line) and len(line.split()) <= 6:
            found["employer"] = line
    return found


def _sender_matches(text: str, own_addresses: Iterable[str] | None) -> bool:
    if own_addresses is None:
        return True
    own = {a.strip().lower() for a in own_addresses if a and a.strip()}
    m = _FROM.search(text[:2_000])
    if m is None:
        return True  # no header: the caller says the text is the user's own
    senders = {addr.lower() for _, addr in getaddresses([m.group("value")]) if addr}
    return bool(senders & own)


def signature_candidates(
    scope: str,
    text: str,
    *,
    source_item_id: str | None = None,
    own_addresses: Iterable[str] | None = None,
    observed_at: datetime | None = None,
) -> list[LearningCandidate]:
    """Identity candidates from one email the user sent.

    Args:
        scope: Whose identity it is.
        text: The email (headers optional; a ``From:`` line is checked against
            ``own_addresses``).
        source_item_id: The stored source item of the email, used as evidence; without it the
            email text itself becomes the (redacted) evidence.
        own_addresses: The user's addresses; an email from anyone else yields nothing.
        observed_at: When the email was written.
    """
    if not text or not _sender_matches(text, own_addresses):
        return []
    fields = parse_signature(text)
    if not fields:
        return []
    evidence = EvidenceRef(
        "email_message",
        source_item_id=source_item_id,
        text=None if source_item_id else text,
    )
    log.debug("[learning::extract::signature] %d identity field(s) found", len(fields))
    return [
        LearningCandidate(
            scope=scope,
            facet_class=FacetClass.IDENTITY,
            key=key,
            value=value,
            cue_family=CueFamily.STRUCTURAL,
            evidence=evidence,
            initial_confidence=_CONFIDENCE,
            observed_at=observed_at,
            producer=Producer.SOURCE if source_item_id else Producer.FACET,
        )
        for key, value in fields.items()
    ]


def consume_mbox_signatures(
    cache: FacetCache,
    sources: KnowledgeSources,
    scope: str,
    *,
    own_addresses: Sequence[str],
    consumer: str = "learning.signature",
    limit: int = 1000,
) -> int:
    """Feed the signatures of newly ingested mbox messages to the cache.

    Reads the scope's change ledger after this consumer's watermark, keeps added or modified
    items of ``mbox:`` sources sent from ``own_addresses``, submits their candidates, then
    advances the watermark. Returns the number of candidates submitted.
    """
    changes = sources.pending_changes(scope, consumer, limit=limit)
    candidates: list[LearningCandidate] = []
    for change in changes:
        if change.change_type == "deleted" or not change.source_instance_id.startswith("mbox:"):
            continue
        try:
            item = sources.item(scope, change.source_item_id)
        except LookupError:
            continue
        if item.deleted_at is not None:
            continue
        candidates.extend(
            signature_candidates(
                scope,
                item.text,
                source_item_id=item.id,
                own_addresses=own_addresses,
                observed_at=item.occurred_at,
            )
        )
    if candidates:
        cache.submit(candidates)
    if changes:
        sources.advance_watermark(scope, consumer, changes[-1].sequence)
    return len(candidates)
