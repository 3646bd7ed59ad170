"""The policy half of ``govern``: what a candidate may become, decided from its text alone.

Producers may *claim* a sensitivity; the claim can only raise the outcome, never lower it. A
reviewer model that labels an API key "harmless" is overruled here, because this function runs its
own detectors over every text field of every candidate.
"""

from __future__ import annotations

from dataclasses import dataclass

from userlore.models import CandidateInput, Disclosure, Sensitivity
from userlore.policy.sensitivity import SensitivityLevel, classify

__all__ = ["POLICY_REV", "Assessment", "assess", "assess_text", "key_refusal"]

POLICY_REV = 2
"""Bump when the sensitivity rules change: the planner re-checks records older than this.

2: the floor reads the folded view of ``policy.normalize`` (lookalike letters, separator
variants) and counts group self-statements ("we are Catholics") for identity categories.
"""

_CLAIM_LEVELS = {
    "secret": SensitivityLevel.SECRET,
    "regulated": SensitivityLevel.REGULATED,
    "special": SensitivityLevel.SPECIAL,
    "special_category": SensitivityLevel.SPECIAL,
}


@dataclass(frozen=True, slots=True)
class Assessment:
    """Outcome of the policy check for one candidate or stored text.

    Attributes:
        refused: ``"secret"`` or ``"regulated"`` when the content may not be stored at all.
        sensitivity: Stored sensitivity when allowed.
        category: The special category (``health``...), when there is one.
        disclosure: ``ask_before_reference`` for special categories.
    """

    refused: str | None
    sensitivity: Sensitivity
    category: str | None
    disclosure: Disclosure


def assess_text(*texts: str | None, claim: str | None = None) -> Assessment:
    """Assess free text (and an optional producer claim) against the safety contract."""
    level = SensitivityLevel.NONE
    categories: list[str] = []
    for text in texts:
        if not text:
            continue
        report = classify(text)
        if _rank(report.level) > _rank(level):
            level = report.level
        categories.extend(sorted(report.categories))
    claimed = _CLAIM_LEVELS.get((claim or "").strip().lower())
    if claimed is not None and _rank(claimed) > _rank(level):
        level = claimed
    if level is SensitivityLevel.SECRET:
        return Assessment("secret", Sensitivity.NONE, None, Disclosure.NEVER)
    if level is SensitivityLevel.REGULATED:
        return Assessment("regulated", Sensitivity.NONE, None, Disclosure.NEVER)
    if level is SensitivityLevel.SPECIAL:
        category = categories[0] if categories else "unspecified"
        return Assessment(None, Sensitivity.SPECIAL, category, Disclosure.ASK_BEFORE_REFERENCE)
    return Assessment(None, Sensitivity.NONE, None, Disclosure.NORMAL)


def key_refusal(*keys: str | None) -> str | None:
    """Why an identifier-like field (a canonical key, a path) may not be stored, if it may not.

    Keys are not prose, but callers (a model choosing a ``BaseStore`` key, an agent naming a
    path) can still put a secret or a regulated identifier in one, so every finding counts except
    one: an IBAN read out of a lower-case run. Generated digests (``source/3fa9…``,
    ``config.payment_ref_ba57cce8…``) pass the IBAN checksum about 3 times in 100k; a real IBAN
    is written in capitals. Special-category words in a key do not gate it (the text does that).
    """
    refusal: str | None = None
    for key in keys:
        if not key:
            continue
        for f in classify(key).findings:
            if f.level is SensitivityLevel.SECRET:
                return "secret"
            if f.level is SensitivityLevel.REGULATED and not (
                f.rule == "iban" and not any(c.isupper() for c in key[f.start : f.end])
            ):
                refusal = "regulated"
    return refusal


def assess(candidate: CandidateInput) -> Assessment:
    """Assess a candidate: its text in full, its key and path as identifiers (see
    :func:`key_refusal`); the stricter of detector and claim wins."""
    result = assess_text(candidate.content, candidate.value, claim=candidate.sensitivity_claim)
    if result.refused is None:
        refused = key_refusal(candidate.canonical_key, candidate.path)
        if refused is not None:
            result = Assessment(refused, Sensitivity.NONE, None, Disclosure.NEVER)
    if result.refused is None and candidate.disclosure is Disclosure.NEVER:
        return Assessment(None, result.sensitivity, result.category, Disclosure.NEVER)
    if result.refused is None and candidate.disclosure is Disclosure.ASK_BEFORE_REFERENCE:
        return Assessment(
            None, result.sensitivity, result.category, Disclosure.ASK_BEFORE_REFERENCE
        )
    return result


_ORDER = {
    SensitivityLevel.NONE: 0,
    SensitivityLevel.SPECIAL: 1,
    SensitivityLevel.REGULATED: 2,
    SensitivityLevel.SECRET: 3,
}


def _rank(level: SensitivityLevel) -> int:
    return _ORDER[level]
