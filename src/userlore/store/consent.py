"""Consent for special categories: recorded, revocable, and read on every plan."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, bindparam, select
from sqlalchemy.orm import Session

from userlore.models import RecordState, RecordView, consent_category
from userlore.store.driver import fetch_all
from userlore.store.schema import ConsentGrant, MemoryRecord
from userlore.store.traces import TraceLog
from userlore.store.views import record_view
from userlore.validation import validate_scope

__all__ = ["ConsentLedger", "ConsentPeriod"]


@dataclass(frozen=True, slots=True)
class ConsentPeriod:
    """One grant of a category, open until ``revoked_at``."""

    category: str
    granted_at: datetime
    revoked_at: datetime | None


# Built once: the read path asks for every plan, and building the statement cost more than
# running it.
_CONSENTED = select(ConsentGrant.category).where(
    ConsentGrant.scope == bindparam("scope"), ConsentGrant.revoked_at.is_(None)
)


class ConsentLedger(TraceLog):
    """Grants and revocations of special-category consent, each traced."""

    def grant_consent(self, scope: str, category: str) -> None:
        """Allow records of a special category into context (recorded, revocable)."""
        validate_scope(scope)
        category = consent_category(category)
        with self.transaction(scope) as session:
            if category in self.consents_in(session, scope):
                return
            now = self.clock()
            session.add(
                ConsentGrant(scope=scope, category=category, granted_at=now, revoked_at=None)
            )
            self.trace(
                session, scope, "consent", reason_code="granted", payload={"category": category}
            )

    def revoke_consent(self, scope: str, category: str) -> None:
        """Withdraw consent; records of that category leave context at the next plan."""
        validate_scope(scope)
        category = consent_category(category)
        with self.transaction(scope) as session:
            now = self.clock()
            for grant in session.scalars(
                select(ConsentGrant).where(
                    ConsentGrant.scope == scope,
                    ConsentGrant.category == category,
                    ConsentGrant.revoked_at.is_(None),
                )
            ):
                grant.revoked_at = now
            self.trace(
                session, scope, "consent", reason_code="revoked", payload={"category": category}
            )

    def consented(self, scope: str) -> frozenset[str]:
        with self.transaction(scope) as session:
            return self.consents_in(session, scope)

    def consents_in(self, session: Session | Connection, scope: str) -> frozenset[str]:
        if isinstance(session, Connection):  # the read path: through the driver on SQLite
            return frozenset(row[0] for row in fetch_all(session, _CONSENTED, {"scope": scope}))
        return frozenset(session.scalars(_CONSENTED, {"scope": scope}))

    def consent_history(self, scope: str) -> list[ConsentPeriod]:
        """Every grant of the scope, oldest first (revocation closes a period, never deletes)."""
        validate_scope(scope)
        stmt = (
            select(ConsentGrant)
            .where(ConsentGrant.scope == scope)
            .order_by(ConsentGrant.granted_at, ConsentGrant.id)
        )
        with self.transaction(scope) as session:
            return [
                ConsentPeriod(g.category, g.granted_at, g.revoked_at) for g in session.scalars(stmt)
            ]

    def gated_records(self, scope: str, limit: int) -> list[RecordView]:
        """The newest records of the scope that carry a special category (deleted ones aside)."""
        validate_scope(scope)
        stmt = (
            select(MemoryRecord)
            .where(
                MemoryRecord.scope == scope,
                MemoryRecord.sensitivity_category.is_not(None),
                MemoryRecord.state != RecordState.DELETED.value,
            )
            .order_by(MemoryRecord.seq.desc())
            .limit(limit)
        )
        with self.transaction(scope) as session:
            return [record_view(r) for r in session.scalars(stmt)]
