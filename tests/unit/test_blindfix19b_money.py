"""blind19's misses of the user's own money, each as a class (issue 29, blindfix19b).

Two classes, each with fresh items written before the rules changed and a second set written
after the first fix: money in slang currency words in the covered languages (``money_slang``:
"450 Ocken", "380 Tacken", "90 ronds", "70 pila", "800 美刀", with the first person said by a
verb alone, "hab … 60 Mücken ausgegeben", and a CJK unit after a space, "18.8 万"), and held-out
amounts with the Latin thousands or millions shorthand (``held_suffixed``: "450k", "1.2m" beside
another amount, "2,5M"), language-free. Twins: a topic, animals and balls named like the
slang, lengths, runs and screens. First runs and final rates: ``docs/benchmarks.md``, "Issue
29: blind19's own money (blindfix19b)".
"""

from __future__ import annotations

import pytest

from tests.support import value_sets
from tests.support.value_sets import Case
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import redact

SLANG = ("blindfix19b_slang.jsonl", "blindfix19b_slang2.jsonl")
HELD = ("blindfix19b_held_suffixed.jsonl", "blindfix19b_held_suffixed2.jsonl")

SLANG_KNOWN: dict[str, str] = {
    "bf19b-slang2-es-money-001": "'por media jornada' reads 'media' as an average",
    "bf19b-slang2-pt-money-003": "'minha mãe me empresta': read as the mother's money",
    "bf19b-slang2-ja-benign-001": "'興行収入' (box office) withheld by the gate: as on main",
}
HELD_KNOWN: dict[str, str] = {
    "bf19b-held-sw-money-002": "a lone '3.5m': a length too",
    "bf19b-held-tr-money-002": "'1.5m TL': 'TL' is no CLDR currency name or code",
    "bf19b-held2-yo-money-001": "'2.5m' and '4m' with no other amount: lengths too",
}
# Held-out near-misses the floor changes (withheld from quoting by design): a run or a count
# with a "k" is redacted as four digits are in text no rule reads ("I run 5k", "10k langkah");
# the Vietnamese one was redacted on main already.
HELD_BENIGN_REDACTED = {
    "bf19b-held-pcm-benign-001",
    "bf19b-held-id-benign-001",
    "bf19b-held-pl-benign-001",
    "bf19b-held-it-benign-001",
    "bf19b-held-vi-benign-001",
    "bf19b-held2-sw-benign-001",
    "bf19b-held2-nl-benign-001",
    "bf19b-held2-sv-benign-001",
}


def _held_fails(case: Case) -> bool:
    """Every value redacted; a benign row changed only if listed (held-out text is withheld
    from quoting by design)."""
    if case["class"] == "benign":
        changed = redact(str(case["text"])) != case["text"]
        return changed is not (str(case["id"]) in HELD_BENIGN_REDACTED)
    return value_sets.uncovered_fails(case) or quote_verdict(str(case["text"])).quotable


test_every_slang_item, test_known_slang_misses = value_sets.set_tests(SLANG, SLANG_KNOWN)
test_every_held_item, test_known_held_misses = value_sets.set_tests(
    HELD, HELD_KNOWN, fails=_held_fails
)


@pytest.mark.parametrize(
    ("text", "own"),
    [
        ("ich schulde meinem Kumpel noch 450 Ocken vom Urlaub", True),
        ("warum sagt man eigentlich Ocken zu Euro?", False),  # the word as a topic
        ("hab gestern 60 Mücken fürs Tanken ausgegeben", True),  # "hab": the first person
        ("im Keller waren bestimmt 20 Mäuse, wen ruf ich an?", False),  # mice
        ("我一个月就赚 800 美刀，在泰国够不够", True),
        ("这把刀 30 厘米长，适合切菜吗", False),  # a knife
    ],
)
def test_slang_twins_differ_by_what_is_counted(text: str, own: bool) -> None:
    assert (redact(text) != text) is own
    assert quote_verdict(text).quotable is not own


@pytest.mark.parametrize(
    ("text", "value", "redacted"),
    [
        ("Mshahara wangu ni 450k kwa mwezi, kodi ya nyumba 1.2m kwa mwaka", "1.2m", True),
        ("Mlima huu una urefu wa 1.2m tu kwenye picha hii ya ramani", "1.2m", False),  # a length
        ("Mkopo wangu wa gari umebaki 2,5M na riba ni kubwa", "2,5M", True),  # capital M
        ("TV 4K ni cantik gila, skrin dia besar", "4K", False),  # a screen
        ("Het filmpje had 3 views en de lens is 50mm", "50mm", False),
    ],
)
def test_held_out_shorthand_amounts(text: str, value: str, redacted: bool) -> None:
    assert (value not in redact(text)) is redacted
