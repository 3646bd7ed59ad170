"""Special-category statements: a first-person health, belief or identity fact becomes a note.

The sensitivity floor already recognises "I have type 2 diabetes" or "我是穆斯林" as a statement
about the user (and leaves "I research diabetes" or "my dog has diabetes" alone), but no facet
matcher reads such a clause, so nothing was stored and the consent flow of the design never
started from conversation. This matcher turns such a clause into a ``note`` statement; the
governed write then stores it as ``ask_before_reference`` in its special category, and the read
path keeps it out of every plan until the user consents to that category.

The key holds a digest of the clause, not its words: a repeated statement reinforces its record,
and the key itself says nothing the category column does not already say.
"""

from __future__ import annotations

import hashlib

from userlore.extract.clauses import _Clause
from userlore.extract.lexical import _CONF_EXPLICIT, _CONF_WEAK
from userlore.extract.match_identity import _Hit
from userlore.policy.findings import SPECIAL_CATEGORIES, SensitivityLevel
from userlore.policy.sensitivity import classify

_PAST_IS_THE_FACT = frozenset({"criminal_record"})

SPECIAL_KIND = "note"
"""Record kind of a special-category statement: a fact about the user, not a facet to learn."""


def _match_special(c: _Clause) -> list[_Hit]:
    """A ``note/<category>/<digest>`` hit when the clause states a special category about the user.

    The clause splitter has already dropped questions, hypotheticals, quoted and reported
    speech; a past or negated clause ("I no longer smoke") is not a current fact and is skipped,
    except for a criminal record, which is a fact about the past ("我以前坐过牢").
    """
    report = classify(c.body)
    found = [
        f
        for f in report.findings
        if f.level is SensitivityLevel.SPECIAL
        and f.category in SPECIAL_CATEGORIES
        and (not c.past_or_negated or f.category in _PAST_IS_THE_FACT)
    ]
    if not found:
        return []
    category = min(found, key=lambda f: (f.start, f.category or "")).category or ""
    digest = hashlib.sha256(" ".join(c.body.lower().split()).encode("utf-8")).hexdigest()[:12]
    confidence = _CONF_WEAK if c.one_off else _CONF_EXPLICIT
    return [_Hit(f"{SPECIAL_KIND}/{category}/{digest}", None, confidence)]
