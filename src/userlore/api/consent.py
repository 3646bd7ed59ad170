"""``lore.consent``: which special categories (``health``...) may enter context."""

from __future__ import annotations

import builtins

from userlore.api.twins import twin
from userlore.models import ConsentCategory, RecordView, consent_category
from userlore.store.consent import ConsentPeriod
from userlore.store.governed import GovernedStore
from userlore.validation import int_field, validate_scope


class Consent:
    """Recorded, revocable consent per scope and category."""

    def __init__(self, store: GovernedStore) -> None:
        self._store = store

    def grant(self, scope: str, category: ConsentCategory | str) -> None:
        """Let records of a special category into context.

        Raises:
            InvalidInputError: ``category`` is not a :class:`ConsentCategory` (or its value).
        """
        validate_scope(scope)
        self._store.grant_consent(scope, consent_category(category))

    def revoke(self, scope: str, category: ConsentCategory | str) -> None:
        """Withdraw consent; the category's records leave context at the next plan."""
        validate_scope(scope)
        self._store.revoke_consent(scope, consent_category(category))

    def list(self, scope: str) -> frozenset[str]:
        """The categories the scope has consented to."""
        validate_scope(scope)
        return self._store.consented(scope)

    def history(self, scope: str) -> builtins.list[ConsentPeriod]:
        """Every grant period of the scope, oldest first (revoked ones keep their dates)."""
        validate_scope(scope)
        return self._store.consent_history(scope)

    def records(self, scope: str, *, limit: int = 500) -> builtins.list[RecordView]:
        """The scope's newest records that carry a special category: what consent governs."""
        validate_scope(scope)
        int_field(limit, "limit", lo=1, hi=10_000)
        return self._store.gated_records(scope, limit)

    agrant = twin(grant)
    arevoke = twin(revoke)
    alist = twin(list)
    ahistory = twin(history)
    arecords = twin(records)
