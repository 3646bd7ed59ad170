"""blind8's value classes (issue 29, blindfix8a), each as a class in the seven languages.

blind8, written without reading the rules, put seven covered values in a plan and stored twelve:
a password described then assembled, a safe's combination as dial turns, a space-grouped SSN
after "social", a ``requirepass=`` and a vendor token in pastes, the rent after a salary; and it
withheld benign value shapes (commit hashes, doc placeholders, masked logs, ports, default
logins from the docs). ``tests/data/blindfix8_values.jsonl`` holds fresh items of each class
(``family``), written before the rules of ``detectors/{assembled_values,dial_combos,
config_keys,social_ids,second_amounts,benign_shapes}.py``; each family is one test that lists
every failing item, checked as ``benchmarks/gate_classes.py`` scores it.
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, value_sets
from userlore.policy.detectors.benign_shapes import benign_spans
from userlore.policy.detectors.config_keys import setting_key
from userlore.policy.sensitivity import classify, redact

CASES = data_sets.rows("blindfix8_values.jsonl")
# The second set was written after the rules, scored once (first sight), then two misses fixed.
SECOND = data_sets.rows("blindfix8_values2.jsonl")
FAMILIES = sorted({str(c["family"]) for c in CASES})
# Benign rows the gate still withholds, by rules this round did not change: "combination" is a
# credential cue of quote_cues.yaml wherever it stands (a sports move, a colour scheme), and a
# question about an SSN's length names a digit beside "social security".
KNOWN: dict[str, set[str]] = {
    "combo": {"bf8-combo-en-005", "bf8-combo-en-006"},
    "spaced_id": {"bf8-spaced_id-en-008"},
}


# The second set's items still failing: a single-digit piece ("214 followed by 9"); and benign
# rows the gate withholds by rules this round did not change ("combination", "social security"
# beside a digit, "laut Doku: curl" read as Latin once the default login is blanked). Spanish
# "son" before the rent is read as "are" since blindfix9a; a listing's rent is no one's money
# to the gate since blindfix12b (``listings`` in ``quote_cues.yaml``). "the combination of
# rice and beans costs 4 dollars" is quoted since blindfix22b: an amount with its currency is no
# credential's value.
KNOWN_SECOND = {
    "bf8b-pieces-en-001",
    "bf8b-spaced_id-en-002",
    "bf8b-benign_shape-de-001",
}


@pytest.mark.parametrize("family", FAMILIES)
def test_every_item_of_the_family(family: str) -> None:
    cases = [c for c in CASES if c["family"] == family]
    assert set(value_sets.failures(cases)) == KNOWN.get(family, set())


def test_every_item_of_the_second_set() -> None:
    assert set(value_sets.failures(SECOND)) == KNOWN_SECOND


@pytest.mark.parametrize(
    "text",
    [
        # The context that blanks a benign shape never blanks a real value beside it.
        "commit 3f9a2c1 and my api key is sk_live_51Hx8Qm2Lp9Zt4Wv7Rn3Kb6Yc",
        "my real login, not the docs one: curl -u marc:Tr3s0r!bleu https://nas.local/api",
        "port: 5432 and DB_PASSWORD=Eichhorn#2211",
        "in the example config my actual password is PASSWORD=Sunflower!77",
    ],
)
def test_a_real_value_beside_a_benign_shape_is_redacted(text: str) -> None:
    assert classify(text).is_blocked


@pytest.mark.parametrize(
    ("text", "shape"),
    [
        ("git says HEAD is at 9c1d4e7, revert?", "9c1d4e7"),
        ("curl -u admin:admin http://localhost:15672", "admin:admin"),
        ("log: user=sam password=[FILTERED] ok", "[FILTERED]"),
        ("mysql_port: 3306", "3306"),
        ("max_password_age=90", "max_password_age=90"),
    ],
)
def test_a_benign_shape_is_blanked(text: str, shape: str) -> None:
    start = text.index(shape)
    assert any(s <= start and start + len(shape) <= e for s, e in benign_spans(text))


def test_a_hex_run_without_a_git_word_is_not_blanked() -> None:
    assert benign_spans("app_secret=9f8e7d6c5b4a39281706f5e4d3c2b1a0") == []


@pytest.mark.parametrize(
    ("key", "setting"),
    [
        ("password_min_length", True),
        ("token_ttl", True),
        ("secret_rotation_days", True),
        ("password_file", True),
        ("DB_PASSWORD", False),
        ("client_secret", False),
        ("requirepass", False),
        ("MP_ACCESS_TOKEN", False),
    ],
)
def test_a_setting_about_a_credential_is_told_from_one(key: str, setting: bool) -> None:
    assert setting_key(key) is setting


@pytest.mark.parametrize(
    ("text", "pieces", "kept"),
    [
        (
            "my gym app password is the word falcon then the number 2219",
            ("falcon", "2219"),
            ("the word", "then the number"),
        ),
        ("门禁密码：前四位是1987，后面再加上#66", ("1987", "#66"), ("前四位是", "后面再加上")),
    ],
)
def test_the_pieces_are_redacted_and_the_description_kept(
    text: str, pieces: tuple[str, ...], kept: tuple[str, ...]
) -> None:
    red = redact(text)
    assert not [p for p in pieces if p in red]
    assert all(k in red for k in kept)


@pytest.mark.parametrize(
    "line",
    [
        "900 for my rent, my sister pays 800",
        "1.200 de mi alquiler, mi hermana paga 700",
        "1200 for my mortgage; my brother pays 650",
    ],
)
def test_the_rent_of_a_line_pasted_three_times_is_redacted_in_every_copy(line: str) -> None:
    # A sentence read from the middle copy to the end also stands, unchanged, at the start: its
    # part of the sentence is found by its bounds, not by searching the text for its words.
    text = "\n".join([line] * 3)
    amount = line.split(" ", 1)[0]
    at = [n * (len(line) + 1) for n in range(3)]
    spans = {(f.start, f.end) for f in classify(text).findings}
    assert [(a, a + len(amount)) in spans for a in at] == [True] * 3
