"""A key of a shape settled clean has no finding under the full floor (issue 30, put21).

:mod:`userlore.policy.key_shapes` answers a generated store key from its shape (its text with
the short digit runs taken out) once probes of that shape ran the full :func:`classify`. Here the
shape's answer is compared with the full floor's on keys of every kind a store meets: the
benchmarks' and LangGraph's suites' keys, generated ones (uuid4, ULIDs, ``doc-{i}``,
``user_{i}/note_{j}``, dates, slugs, hashes) and adversarial ones (every value and text of the
gate and blind sets in a key, under paths such as ``pin`` and ``cvv``); and two new detectors
show what the comparison sees: one that fires on a shape is caught by the probes, one that fires
on a single value is caught here.
"""

from __future__ import annotations

import hashlib
import json
import random
import uuid
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from userlore.integrations.langgraph_store.namespaces import locate
from userlore.models import CandidateInput, Explicitness, MemoryType, Producer
from userlore.policy import govern, sensitivity
from userlore.policy.detectors.common import _Hit
from userlore.policy.findings import SensitivityLevel
from userlore.policy.govern import BatchFloor, assess, keys_as_read
from userlore.policy.key_shapes import KeyShapes, key_shape, probe_keys
from userlore.policy.sensitivity import classify

_DATA = Path(__file__).resolve().parents[1] / "data"
_SETS = sorted(_DATA.glob("gate_*.jsonl")) + sorted(_DATA.glob("blind*_covered.jsonl"))
_PATHS = ("bulk", "pin", "cvv", "ssn", "card", "password", "notes")
_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def _store_key(path: str, key: str, position: int | None = 0) -> str:
    return locate((path,) if position is None else ("u1", path), "u1", position).store_key(key)


def _read(key: str) -> str:
    """``key`` as the floor reads it (:func:`~userlore.policy.govern.keys_as_read`)."""
    path = key[len("store:") :].split("#", 1)[0].split("@", 1)[0]
    read, _ = keys_as_read(key, path)
    assert read is not None
    return read


def _cases() -> Iterator[dict[str, object]]:
    for path in _SETS:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                yield json.loads(line)


def _benchmark_and_suite_keys(n: int) -> Iterator[str]:
    """``benchmarks/bulk_puts.py``'s and ``floor_worker.py``'s keys and the key shapes of
    LangGraph's store suites (``key{i}``, ``doc{i}``, ``id_{i:02d}``, ``test_<hex>`` paths)."""
    rng = random.Random(21)
    for i in range(n):
        yield f"store:notes#k{i}"  # bulk_puts.py and floor_worker.py: (user, "notes"), k{i}
        yield f"store:notes#m{i}"  # bulk_puts.py's key probe
        yield _store_key("test", f"key{i}")
        yield _store_key("test/documents", f"doc{i}", 1)
        yield _store_key("a", f"id_{i:02d}", None)
        yield f"store:test_{uuid.UUID(int=rng.getrandbits(128)).hex[:16]}#item{i % 50}"
    for i in range(20):
        yield f"store:warm#w{i}"


def _generated_keys(n: int) -> Iterator[str]:
    rng = random.Random(30)
    words = ("note", "draft", "my-first-note", "trip", "recipe", "meeting", "todo")
    for i in range(n):
        yield _store_key("bulk", str(uuid.UUID(int=rng.getrandbits(128), version=4)))
        yield _store_key("bulk", "".join(rng.choice(_CROCKFORD) for _ in range(26)))
        yield _store_key("bulk", f"doc-{i}")
        yield _store_key("users", f"user_{i % 997}/note_{rng.randrange(100000)}")
        day = f"{rng.randrange(1950, 2040)}-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}"
        yield _store_key("journal", rng.choice((day, day.replace("-", "/"), f"entry-{day}")))
        yield _store_key("posts", f"{rng.choice(words)}-{i % 300}")
        digest = hashlib.sha256(str(i).encode()).hexdigest()
        yield _store_key(
            "blobs", rng.choice((digest, digest[:12], hashlib.md5(digest.encode()).hexdigest()))
        )


def _adversarial_keys() -> Iterator[str]:
    """Every value of the gate and blind sets in a key, as it is and joined, under paths
    that name a secret; every case's text (its cue and its value) as a key."""
    for case in _cases():
        values = [v for v in case.get("values") or [] if isinstance(v, str)]  # type: ignore[attr-defined]
        for value in values:
            joined = "-".join(value.split())
            for path in _PATHS:
                yield _store_key(path, value)
                yield _store_key(path, f"{path}_{joined}")
        text = str(case["text"])
        yield _store_key("notes", text)
        yield _store_key("notes", "_".join(text.split())[:120])


def _verdicts(keys: Iterable[str]) -> dict[str, str | None]:
    return {k: govern._key_refusal((k,), classify) for k in keys}


def _shape_misses(keys: list[str], shapes: KeyShapes) -> list[str]:
    """Keys the shapes call clean that the full floor finds something in."""
    return [k for k in keys if shapes.clean(k) and classify(k, special=False).findings]


def test_shapes_hold_only_short_runs_apart() -> None:
    assert key_shape("store:bulk#k17") == (("store:bulk#k", ""), (2,))
    assert key_shape("store:users#user_3/note_7") == (("store:users#user_", "/note_", ""), (1, 1))
    for key in (
        "store:journal#2024-01-05",  # runs with only separators between
        "store:x#v1.2",
        "store:x#17-42-08",
        "store:x#k123456",  # a run long enough for an id
        "store:x#a1b2c3",  # three runs
        "store:x#1a2",  # one letter between
        "store:x#k١٢",  # not ASCII
        "store:notes#k",  # no digit: the full floor, once, then _CLEAN_KEYS
    ):
        assert key_shape(key) is None, key


def test_generated_ids_are_a_slot_where_their_digits_cannot_matter() -> None:
    uid = "3f2b8a1c-9d4e-4b7a-8c2d-1e5f6a7b8c9d"
    assert key_shape(f"store:notes / {uid}") == (("store:notes / ", ""), (-1,))
    assert key_shape(f"store:notes / {uid.replace('-', '')}") == (("store:notes / ", ""), (-2,))
    digest = "a3f1c2e4b5d6a7f8c9e0" * 2
    assert key_shape(f"store:blobs / {digest}") == (("store:blobs / ", ""), (-3,))
    assert key_shape("store:x / 01JEB4B17A5B9B64C82B2BCE1Z") == (("store:x / ", ""), (-5,))
    # Digits make no difference inside an id (the floor reads no value there): groups of
    # digits only side by side, a long run; the probes put such runs at the id's start.
    for uid in ("41111111-1111-4111-1111-111111111111", "3f2b8a1c-9d4e-4b7a-8c2d-123456789abc"):
        assert key_shape(f"store:x / {uid}") == (("store:x / ", ""), (-1,))
    for key in (
        "store:x / 3f2b8a1c-dead-4b7a-8c2d-1e5f6a7b8c9d",  # a group of letters only
        "store:x / 3F2B8A1C-9D4E-4B7A-8C2D-1E5F6A7B8C9D",  # not the canonical spelling
        "store:x / 3f2b8a1c9d4e4b7a",  # 16 hex digits are no id kind: their runs count
    ):
        assert key_shape(key) is None, key


def test_an_id_is_probed_at_random_ids_and_digit_groups() -> None:
    shape = key_shape("store:notes / 3f2b8a1c-9d4e-4b7a-8c2d-1e5f6a7b8c9d")
    assert shape is not None
    probes = [p.removeprefix("store:notes / ") for p in probe_keys(shape)]
    assert len(probes) >= 30
    assert all(key_shape(f"store:notes / {p}") == shape for p in probes)
    assert any(any(g.isdigit() for g in p.split("-")) for p in probes)
    assert any("2024" in p for p in probes) and any("0000" in p for p in probes)
    # Runs of digits only from the id's first character (where a hit would stand): a card's
    # 16 (Luhn-valid among them), 8, 12, the whole id.
    hexes = [p.replace("-", "") for p in probes]
    assert all(any(h[:n].isdigit() for h in hexes) for n in (8, 12, 16, 32))
    assert any(h.startswith("4111111111111111") for h in hexes)


def test_a_new_detector_on_ids_is_seen_by_their_probes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sensitivity, "_detect", _mutant("vault / "))  # fires on the path
    rng = random.Random(5)
    keys = [f"store:vault / {uuid.UUID(int=rng.getrandbits(128), version=4)}" for _ in range(50)]
    shapes = KeyShapes()
    shapes.settle(keys, classify)
    assert not any(shapes.clean(k) for k in keys)


def test_probes_read_short_runs_at_every_value() -> None:
    shape = key_shape("store:bulk#k17")
    assert shape is not None
    probes = probe_keys(shape, ["store:bulk#k17", "store:bulk#k42"])
    assert probes[:2] == ["store:bulk#k17", "store:bulk#k42"]
    assert {f"store:bulk#k{i:02d}" for i in range(100)} <= set(probes)
    four = key_shape("store:bulk#k1234")
    assert four is not None
    values = {p[-4:] for p in probe_keys(four)}
    assert {"0000", "1111", "1234", "1987", "2024"} <= values and len(values) >= 30


def test_a_shape_with_a_finding_is_left_to_the_full_floor() -> None:
    shapes = KeyShapes()
    keys = [f"store:bulk#{i}" for i in range(10, 40)]  # read whole, "bulk#17" is password-shaped
    shapes.settle(keys, classify)
    assert not any(shapes.clean(k) for k in keys)
    assert _verdicts(keys)["store:bulk#17"] == "secret"


def test_the_batch_floor_gives_the_full_verdicts_on_generated_keys(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shapes = KeyShapes()
    monkeypatch.setattr(govern, "_KEY_SHAPES", shapes)
    monkeypatch.setattr(govern, "_CLEAN_KEYS", set())
    keys = [*_benchmark_and_suite_keys(200), *_generated_keys(60), "store:bulk#17", "store:bulk#18"]
    candidates = [_candidate(k) for k in keys]
    floor = BatchFloor()
    floor.warm(candidates)
    assert [floor.assess(c) for c in candidates] == [assess(c) for c in candidates]
    assert sum(shapes.clean(k) for k in keys) > 900  # most answered by their shape


@pytest.mark.slow
def test_shapes_agree_with_the_full_floor_on_every_shaped_key_of_fifty_thousand() -> None:
    keys = list(
        dict.fromkeys(
            _read(k)  # what the floor reads of a store key
            for k in [
                *_benchmark_and_suite_keys(1500),
                *_generated_keys(1000),
                *_adversarial_keys(),
            ]
        )
    )
    assert len(keys) >= 50_000
    shapes = KeyShapes()
    shapes.settle(keys, classify)
    # Only a key with a shape can be answered by it: those are compared with the full floor
    # (a key with none always goes to the full floor, so reading it here would prove nothing).
    shaped = [k for k in keys if key_shape(k) is not None]
    by_shape = [k for k in shaped if shapes.clean(k)]
    assert len(by_shape) > 10_000  # not vacuous: most keys of a generator are answered so
    reports = {k: classify(k, special=False) for k in shaped}
    assert [k for k in by_shape if reports[k].findings] == []
    verdicts = {k: govern._key_refusal((k,), lambda t, **_: reports[t]) for k in shaped}
    assert sum(v is not None for v in verdicts.values()) > 500  # shaped keys the floor refuses


@pytest.mark.slow
@pytest.mark.parametrize(
    "head",
    ["store:bulk / k", "store:pin / ", "store:cvv / code", "store:users / user_"],
)
def test_every_value_of_up_to_four_digits(head: str) -> None:
    keys = [f"{head}{i:0{n}d}" for n in range(1, 5) for i in range(10**n)]
    shapes = KeyShapes()
    shapes.settle(keys, classify)
    assert _shape_misses(keys, shapes) == []


def _mutant(fires: str) -> object:
    """``sensitivity._detect`` with one more detector: a secret wherever ``fires`` stands."""
    detect = sensitivity._detect

    def mutated(t: str, special: bool = True) -> list[_Hit]:
        hits = detect(t, special)
        at = t.find(fires)
        if at >= 0:
            hits.append((SensitivityLevel.SECRET, "mutant", at, at + len(fires), None))
        return hits

    return mutated


def test_a_new_detector_on_a_shape_is_seen_by_its_probes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sensitivity, "_detect", _mutant("bulk / k"))  # the key as read
    shapes = KeyShapes()
    monkeypatch.setattr(govern, "_KEY_SHAPES", shapes)
    monkeypatch.setattr(govern, "_CLEAN_KEYS", set())
    keys = [f"store:bulk#k{i}" for i in range(1000, 1100)]
    candidates = [_candidate(k) for k in keys]
    floor = BatchFloor()
    floor.warm(candidates)
    assert not any(shapes.clean(_read(k)) for k in keys)
    assert all(floor.assess(c).refused == "secret" for c in candidates)


def test_a_new_detector_on_one_value_fails_the_comparison(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shape = key_shape("store:bulk#k4711")
    assert shape is not None and "store:bulk#k4711" not in probe_keys(shape)
    monkeypatch.setattr(sensitivity, "_detect", _mutant("k4711"))
    shapes = KeyShapes()
    keys = [f"store:bulk#k{i}" for i in range(4700, 4720)]
    shapes.settle(keys, classify)
    assert _shape_misses(keys, shapes) == ["store:bulk#k4711"]


def _candidate(key: str) -> CandidateInput:
    return CandidateInput(
        kind="note",
        content="Caroline likes the spring light",
        canonical_key=key,
        value='{"text":"Caroline likes the spring light"}',
        memory_type=MemoryType.SEMANTIC,
        path="bulk",
        explicitness=Explicitness.EXPLICIT,
        confidence=0.9,
        producer=Producer.TOOL,
        evidence_text="Caroline likes the spring light",
    )
