"""Special categories stated without a category noun, in seven languages (issue 29, special4).

Six class families, each in en/zh/es/de/fr/ja/pt with third-party, topic and figure-of-speech
near-misses: recovery and sobriety, faiths named by community or practice, orientation and
gender identity without the noun, criminal matters, political opinion and union membership,
treatments and devices. ``tests/data/special/special4_a.jsonl`` was written before any rule change
(first run: the quote gate withheld 54 of 126 statements, 4 of 84 near-misses), ``special4_b``
after set A's fixes (first sight 59 of 126, 7 of 84 near-misses withheld), ``special4_c`` after
set B's (first sight 84 of 126, 2 of 84). The figures per class are in ``docs/benchmarks.md``
("Issue 29: special categories without a vocabulary term (special4)").

The question is the gate's (no consent granted): is the statement withheld, is the near-miss
quoted? With consent to every special category, no special category withholds it.
"""

from __future__ import annotations

import pytest

from tests.support import special_sets
from userlore.policy.detectors import special_lang, special_lang_vocab
from userlore.policy.detectors.special_lang_vocab import required_runs
from userlore.policy.quote_gate import quote_verdict

SETS = ("special4_a.jsonl", "special4_b.jsonl", "special4_c.jsonl")
EVERY_CATEGORY = special_sets.EVERY_CATEGORY

# Statements still quoted, by class (see docs/benchmarks.md for why each is hard):
KNOWN_MISSES: frozenset[str] = frozenset(
    {
        # Japanese: a third party anywhere in the sentence makes a pro-drop cue theirs.
        # ("弁護士からは罰金で済むだろうと言われた。" is withheld since blindfix24d: 罰金 is a
        # term, and the gate withholds a cue whoever owns it.)
        "妻には参政党に投票したことを言っていない。",
        # Radiotherapy in its colloquial short forms.
        "El oncólogo me dijo que la radio termina en mayo.",
        "L'oncologue m'a dit que mes rayons se terminent vendredi.",
        "主治医に放射線はあと五回と言われた。",
    }
)
# Near-misses still withheld: a determiner with no speaker is not cleared (fail closed).
KNOWN_WITHHELD: frozenset[str] = frozenset(
    {
        "The Kingdom Hall down the street is being renovated.",
        # "we" includes the speaker (blindfix11b): the same line with "I'm doing" is withheld on
        # main too; a sober-October fundraiser is a figure of speech no rule tells apart.
        "We're doing a sober October fundraiser at the office, just for fun.",
    }
)


ROWS = special_sets.load(SETS)


@pytest.mark.parametrize(("name", "row"), ROWS, ids=[str(r["id"]) for _, r in ROWS])
def test_statement_withheld_near_miss_quoted(name: str, row: special_sets.Row) -> None:
    special_sets.check(name, row, KNOWN_MISSES, KNOWN_WITHHELD)


def test_every_set_has_thirty_items_per_class_in_seven_languages() -> None:
    for name in SETS:
        rows = [r for n, r in ROWS if n == name]
        for cls in {str(r["class"]) for r in rows}:
            mine = [r for r in rows if r["class"] == cls]
            assert len(mine) >= 30, (name, cls)
            assert {r["lang"] for r in mine} == {"en", "zh", "es", "de", "fr", "ja", "pt"}
            assert any(r["expect"] is None for r in mine), (name, cls)


@pytest.mark.parametrize(
    ("text", "quotable"),
    [
        # A Japanese Latin-letter term reads only a sentence in Japanese script.
        ("J'ai lu un essai sur l'histoire des droits LGBT.", True),
        ("Bought AA batteries for the remote.", True),
        ("毎週木曜はAAのミーティングに行く。", False),
        # A letter made optional in a regex term does not hide the term from the prefilter.
        ("Sou eleitor do PT desde 2002.", False),
        ("J'ai été arrêté hier soir.", False),
        # Figures of speech and office votes stay quotable.
        ("I'm totally addicted to this new cooking show.", True),
        ("Doing dry January for the office challenge, mocktails only this month.", True),
        ("I voted on the office poll for the new coffee machine.", True),
        ("下个礼拜三我们开会。", True),
        ("我们公司的拉拉队比赛拿了第一。", True),
        ("Heute bleibt es den ganzen Tag trocken und sonnig.", True),
        ("Die Messe in Frankfurt war voll.", True),
    ],
)
def test_class_edges(text: str, quotable: bool) -> None:
    assert quote_verdict(text).quotable is quotable


@pytest.mark.parametrize(
    ("pattern", "runs"),
    [
        (r"canvass(?:ed|ing)?\s+for", {"canvass"}),  # "for" is no reason to try it
        (r"(?:i|since\s+i)\s+came\s+out(?!\s+(?:of|from))", {"came"}),
        (r"eleitora?\s+(?:do|da)\s+(?:pt|psol)", {"eleitor"}),  # "a" is optional
        (r"(?<!bebida\s)alcoh[óo]lic[oa]", {"alcoh"}),
        (r"vot(?:e|ed)\s+(?:for\s+)?(?:labour|tory)", {"labour", "tory"}),
        (r"[^\W\d_]+x", set()),  # nothing required: the caller falls back to every run
    ],
)
def test_required_runs(pattern: str, runs: set[str]) -> None:
    assert required_runs(pattern) == runs


def test_required_runs_open_every_term_the_union_opened(monkeypatch: pytest.MonkeyPatch) -> None:
    """The prefilter by required runs finds the same cues as the looser union of all runs."""
    texts = [str(r["text"]) for _, r in ROWS]

    def cues() -> list[object]:
        special_lang.languages.cache_clear()
        special_lang._run_heads.cache_clear()
        special_lang._any_run.cache_clear()
        return [[c[1:] for c in special_lang._cues(t)] for t in texts]

    try:
        tight = cues()
        monkeypatch.setattr(special_lang_vocab, "required_runs", lambda _p: frozenset())
        assert cues() == tight
    finally:
        monkeypatch.undo()
        cues()
