"""Health and religion said by practice, which blind21 missed, by class (issue 29, blindfix21c).

Five classes, each with a first set written before the rules and a second written after them
(``tests/data/blindfix21c_<class>.jsonl`` and ``…2.jsonl``), over the seven covered languages
with benign twins (a relative's stroke, "the GI tract", an article about insulin prices, "what
is Jumu'ah", a colleague's rehab):

- conditions the vocabularies lacked, read by their medical word-building (an organ's combining
  form and a disease suffix: gastroparesis, Polyneuropathie, polyarthrite, 末梢神経障害, 胃轻瘫);
- a specialist of the speaker's own as the cue ("my GI", "meine Neurologin", 我的风湿科医生);
- event conditions (a stroke, AVC, infarto, 脳梗塞, 心梗) told with a possessive or the
  speaker's verb;
- a medication by its administering verb (self-injection: "je m'injecte", インスリン打って);
- an observance the user attends, asked of the user's own calendar ("block out Friday
  afternoons for Jumu'ah", "bloquea los miércoles para el culto").

First run on main: conditions 9/22, specialists 1/22, event conditions 5/22, medication verbs
20/22, observances 13/22 caught (benign 1/10, 0/10, 0/10, 2/10, 1/10 wrong); the second sets
at first sight: 9/10, 8/8, 8/8, 8/8, 7/8 (benign 0/5, 1/5, 0/5, 0/5, 0/5).
"""

from __future__ import annotations

import pytest

from tests.support import special_sets, value_sets
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import classify

SETS = tuple(
    f"blindfix21c_{name}{round_}.jsonl"
    for name in ("conditions", "specialists", "event_conditions", "medication_verbs", "observances")
    for round_ in ("", "2")
)
KNOWN = {
    # A cue after a determiner with no speaker is not cleared by the gate (fail closed), as on
    # main: a question about a public service's time.
    "observance-de-benign-001": "der Gottesdienst: a determiner, no speaker (as on main)",
    # (specialist_cue-de-benign-001, "verdient" read as ver.di, is quoted since blindfix22c:
    # "verdi" is read as a whole word, no compound head.)
}


test_every_item_of_the_family, test_known_misses = value_sets.set_tests(
    SETS, KNOWN, fails=special_sets.family_row_fails, by_family=True
)


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("my uncle's gastroparesis is getting worse", None),  # a relative's condition
        ("plan meals around my gastroparesis", "health"),
        ("the GI tract is about nine metres long", None),
        ("my GI said no raw veg", "health"),
        ("my sister is a rheumatologist", None),  # someone's profession
        ("my rheumatologist said swimming is best", "health"),
        ("mon grand-père a fait un AVC", None),
        ("depuis mon AVC je tape lentement", "health"),
        ("祖母が毎朝インスリンを打っている", None),
        ("毎朝インスリン打ってから出る", "health"),
        ("what is Jumu'ah?", None),
        ("block out Friday afternoons for Jumu'ah", "religion"),
        ("block out Friday afternoons for deep work", None),
        ("keep Saturday free for my cousin's church wedding", None),  # another's occasion
        ("block out an hour for mass spectrometry training", None),
        ("Meine Kollegin ist in der Reha", None),
        ("seit meiner Reha wegen Long Covid arbeite ich 20 Stunden", "health"),
    ],
)
def test_twins_differ_by_whose_practice(text: str, category: str | None) -> None:
    found = {f.category for f in classify(text).findings}
    assert (category in found) if category else not found
    if category:
        assert not quote_verdict(text).quotable
