"""The batch floor gives every put the verdict the single-item floor gives it (issue 30).

Bulk puts run :class:`~userlore.policy.govern.BatchFloor` (each distinct text classified once,
keys without the special rules) instead of :func:`~userlore.policy.govern.assess` per item; both
run here over every gate set, as the store builds its candidates, and must agree exactly.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from userlore.integrations.langgraph_store.namespaces import locate
from userlore.models import CandidateInput, Explicitness, MemoryType, Producer
from userlore.policy import govern
from userlore.policy.detectors.special_lang import languages
from userlore.policy.findings import _BLOCKING, SensitivityReport
from userlore.policy.govern import BatchFloor, assess, key_refusal
from userlore.policy.key_shapes import KeyShapes
from userlore.policy.sensitivity import classify

_DATA = Path(__file__).resolve().parents[1] / "data"
_GATES = sorted(_DATA.glob("gate_*.jsonl"))


def _texts() -> list[str]:
    out: list[str] = []
    for path in _GATES:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                case = json.loads(line)
                out.append(case["text"])
                out.extend(v for v in case.get("values") or [] if isinstance(v, str))
    return out


TEXTS = _texts()


def _candidate(text: str, key: str) -> CandidateInput:
    value = json.dumps({"text": text}, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return CandidateInput(
        kind="note",
        content=text,
        canonical_key=locate(("u1", "notes"), "u1", 0).store_key(key),
        value=value,
        memory_type=MemoryType.SEMANTIC,
        path="notes",
        explicitness=Explicitness.EXPLICIT,
        confidence=0.9,
        producer=Producer.TOOL,
        evidence_text=text,
    )


def test_gate_sets_are_there() -> None:
    assert len(_GATES) >= 5 and len(TEXTS) > 600


def test_batch_floor_matches_single_item_floor() -> None:
    # Keys both plain ("k17") and the case text itself (a secret or an id in a key), and
    # every text twice, so the memo answers half of the batch.
    candidates = [_candidate(t, f"k{n}") for n, t in enumerate(TEXTS)]
    candidates += [_candidate(t, t.replace("#", " ")[:200]) for t in TEXTS]
    floor = BatchFloor()
    batch = [floor.assess(c) for c in candidates]
    single = [assess(c) for c in candidates]
    assert batch == single
    warmed = BatchFloor()  # the store's order: every content, then every key (bulkput11)
    warmed.warm(candidates)
    classified = len(warmed._memo)
    assert [warmed.assess(c) for c in candidates] == single
    # Everything assess read was warmed (no new text), and more only where the content was
    # refused (its key, which assess then skips).
    assert len(warmed._memo) == classified and floor._memo.items() <= warmed._memo.items()
    refused = sum(v.refused is not None for v in single)
    special = sum(v.category is not None for v in single)
    assert refused > 400 and special > 50  # the sets exercise both verdicts


def test_only_clean_keys_are_held_across_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(govern, "_CLEAN_KEYS", set())
    monkeypatch.setattr(govern, "_KEY_SHAPES", KeyShapes())  # no shape settled by other tests
    read: list[str] = []

    def counted(text: str, *, special: bool = True) -> SensitivityReport:
        read.append(text)
        return classify(text, special=special)

    monkeypatch.setattr(govern, "classify", counted)
    clean = "store:notes#k17"
    flagged = next(t for t in TEXTS if classify(t, special=False).findings)
    for _ in range(2):  # two batches
        floor = BatchFloor()
        reports = [floor.classify(clean, special=False), floor.classify(flagged, special=False)]
        assert reports == [classify(clean, special=False), classify(flagged, special=False)]
        floor.classify(clean)  # a content: the special rules read it, never held
    # The second batch reads the flagged key and the content again, not the clean key.
    assert read == [clean, flagged, clean, flagged, clean]


def test_key_floor_without_special_rules_keeps_blocking_findings() -> None:
    for text in TEXTS:
        full = [f for f in classify(text).findings if f.level in _BLOCKING]
        assert list(classify(text, special=False).findings) == full, text
        assert key_refusal(text) == _full_key_refusal(text)


def _full_key_refusal(key: str) -> str | None:
    """:func:`key_refusal` as it read keys before (every rule run)."""
    refusal = None
    for f in classify(key).findings:
        if f.level.value == "secret":
            return "secret"
        if f.level.value == "regulated" and not (
            f.rule == "iban" and not any(c.isupper() for c in key[f.start : f.end])
        ):
            refusal = "regulated"
    return refusal


@pytest.mark.parametrize("lang", [x for x in languages() if x.ascii_terms is not None])
def test_ascii_terms_match_like_terms_on_ascii_text(lang) -> None:  # type: ignore[no-untyped-def]
    assert lang.terms is not None and lang.ascii_terms is not None
    ascii_texts = [t for t in TEXTS if t.isascii()] + ["I have HIV and ADHD", "brca1 lgbt hiv"]
    for text in ascii_texts:
        full = [(m.lastgroup, m.span()) for m in lang.terms.finditer(text)]
        fast = [(m.lastgroup, m.span()) for m in lang.ascii_terms.finditer(text)]
        assert fast == full, text


def test_literal_gates_answer_like_their_alternation() -> None:
    # Every gate the floor builds (found after classifying, so the lazily loaded ones exist),
    # asked about the gate texts, its own words, their prefixes and words run together.
    import gc

    from userlore.policy.cue_data import cues
    from userlore.policy.literal_gate import LiteralGate

    for text in TEXTS[:50]:
        classify(text)
        classify(text, special=False)
    gates = [g for g in gc.get_objects() if isinstance(g, LiteralGate)]
    assert len(gates) >= 10
    gates += [LiteralGate(["ab", "xyz"]), LiteralGate(["a.c", "x", "four"]), LiteralGate([])]
    gates += [LiteralGate(["ab", "abc", "b"]), LiteralGate(["", "q"]), LiteralGate(["(", "a|b"])]
    texts = [t.lower() for t in TEXTS] + [t.casefold() for t in TEXTS]
    texts += ["", "ab", "xy", "xyz", "abc", "four one", "a-c", "fo", "seven eight nine", "a|b"]
    hits = 0
    for gate in gates:
        words = list(gate.words)
        own = words + [w[:-1] for w in words] + [w[1:] for w in words]
        own += ["".join(words[i : i + 3]) for i in range(0, len(words), 3)]
        own += [f"x {w.upper()} y" for w in words[:50]]
        for text in texts + own:
            found = gate.search(text)
            assert found == (gate.pattern.search(text) is not None), (gate.pattern, text)
            hits += found
    assert hits > 1000  # both answers occur
    credential = cues().credential
    for text in texts:  # the gate in front of cued_values: no literal, no credential match
        if credential.search(text) is not None:
            assert cues().credential_words.search(text), text


def test_run_heads_find_what_the_run_finders_find() -> None:
    # _cues tries each language's run finder only where a head stands (issue 30, bulkput3):
    # the same runs as findall over the whole sentence, on every gate text and on texts
    # built to hold runs at the edges, overlapping and back to back.
    from userlore.policy.detectors.special_lang import _run_heads, _runs_found, languages

    heads = _run_heads()
    assert heads.n >= 2
    langs = [lang for lang in languages() if lang.run_finder is not None]
    runs = sorted({r for lang in langs for r in lang.run_terms})
    built = [runs[i] + runs[(i * 7) % len(runs)] for i in range(len(runs))]
    built += [" ".join(runs[i : i + 3]) + "x" for i in range(0, len(runs), 3)]
    texts = [t.casefold() for t in TEXTS] + built + ["", "a", "ab", "😀" + built[0] + "𝔡ia"]
    found = 0
    for text in texts:
        at = heads.at(text)
        for lang in langs:
            assert lang.run_finder is not None
            want = set(lang.run_finder.findall(text))
            assert _runs_found(lang, text, at) == want, (lang.code, text)
            found += bool(want)
    assert found > 100  # runs are found, not only ruled out


def test_couple_gates_open_wherever_the_partner_patterns_match() -> None:
    # _same_sex_couple asks a partner pattern of an ASCII text only where its gate's words
    # stand in the text's lower case (issue 30, floorcost14): every literal partner phrase, in
    # any case, inside words and beside punctuation, a regex phrase, and every gate text.
    from userlore.policy.detectors.special_lang import _every_couple_gate
    from userlore.policy.detectors.special_lang_vocab import _GENDERS

    data = Path(__file__).resolve().parents[2] / "src/userlore/policy/data/special"
    phrases = [
        p
        for path in sorted(data.glob("*.json"))
        for g in _GENDERS
        for p in json.loads(path.read_text("utf-8")).get("couple", {}).get(f"{g}_partner", [])
        if not p.startswith("re:")
    ]
    edges = (("", ""), ("So ", "'s car."), ("x", "y"), ("(", ")"))
    probes = [f"{pre}{p}{post}" for p in phrases for pre, post in edges]
    probes += [p.upper() for p in probes] + [p.title() for p in probes] + TEXTS
    probes += ["Ich wohne mit meinem\tMann zusammen.", "MIT MEINER FREUNDIN ZUSAMMEN"]
    matched = 0
    for lang in languages():
        assert len(lang.couple_gates) == len(lang.couple)
        for (partner, _), gate in zip(lang.couple, lang.couple_gates, strict=True):
            for text in (t for t in probes if t.isascii()):
                if partner.search(text) is not None:
                    matched += 1
                    assert gate is None or gate.search(text.lower()), (lang.code, text)
                    # floorcost16: the union of every gate opens where any does.
                    every = _every_couple_gate()
                    assert every is None or every.search(text.lower()), (lang.code, text)
    assert matched > 100  # the probes do hold partners


def test_the_value_json_is_still_judged_whole() -> None:
    # Why a put's value JSON is classified whole, not only as its leaves (issue 30, bulkput3):
    # wrapped as {"text": ...} this gate sentence reads differently to the language guard, and
    # the JSON yields a password its one leaf, the content, does not. Skipping the JSON would
    # let this put through.
    text = "Thanks for the ride, Emre. Şifrem Kedi1234 ama kimseye söyleme."
    candidate = _candidate(text, "k1")
    assert assess(dataclasses.replace(candidate, value=None)).refused is None
    assert BatchFloor().assess(candidate).refused == "secret"
