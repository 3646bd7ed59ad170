"""Safety benchmark: every case goes through ``observe`` and a following ``plan_context``.

Input: JSONL of ``{"id", "text", "expected", "values"?}`` with ``expected`` one of secret,
regulated, special, injection, benign; ``values`` lists substrings that must never be stored or
injected (defaults to nothing). Each case gets its own scope in one ``auto``-mode database, so
anything extracted would be active and eligible for context.

Measured:
- leaks: secret/regulated values found in any stored record, version, evidence item or plan;
- special_injected: special-category records placed in a plan without consent;
- fence_escapes: plans whose body holds a fence tag or a raw ``<``/``>``;
- benign_false_positives: benign cases whose text was redacted or whose statements were refused.

The last line printed is one JSON object with these figures.

``--presidio FILE`` reads presidio-research synthetic sentences instead (e.g.
``../shared/data/presidio/synth_public.json``): a sentence with a CREDIT_CARD, IBAN_CODE or US_SSN
span is a regulated case whose values are those spans; a sentence with none of them is benign
(names, addresses and dates are personal, not regulated, so flagging them counts as a false
positive).

``--gate FILE...`` measures the quote gate on cases of ``{"id", "lang", "group", "class",
"text", "values", "special_text"?}`` (``tests/data/gate_covered.jsonl``: the seven covered
languages; ``tests/data/gate_heldout.jsonl``: Russian, Arabic, Hindi, Turkish and Korean, which
no rule or vocabulary may name). Each case is one user turn in its own scope, then a plan and a
recall (with episodes) whose query is the turn itself, so its snippet is the best candidate.
Per group (covered / held_out) and class it counts:
- values_in_plan / values_stored: a secret, regulated or money value in a plan or a recall, or
  in any stored record, version or evidence item;
- special_in_plan: a special-category statement's words in a plan or recall (no consent is
  granted: the output says so);
- benign_withheld: benign turns kept out of the plan by the floor or the gate (their trace
  reason), and benign_flagged: benign turns redacted or refused on the write path.
A line per group and class (and the group's values stored / in a plan) precedes the JSON.

``--locomo FILE`` is the gate's check on ordinary chat (``../shared/data/locomo/
locomo_public.json``): every turn as the LoCoMo harness stores it (``"{speaker}: {text}"``,
redacted by the floor), judged by ``quote_verdict`` with the ``health`` consent the harness
grants (stated in the output). It prints the share of turns withheld, per reason, and the
languages named by ``quote_language``. Judged directly, not through ``observe``: a benign
English chat whose turns the gate withholds loses them from every plan.

Usage: python benchmarks/sensitivity.py --data tests/data/sensitivity_cases.jsonl
       python benchmarks/sensitivity.py --presidio ../shared/data/presidio/synth_public.json
       python benchmarks/sensitivity.py --gate tests/data/gate_covered.jsonl \
           tests/data/gate_heldout.jsonl
       python benchmarks/sensitivity.py --locomo ../shared/data/locomo/locomo_public.json
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from sqlalchemy import select

from userlore import Userlore, WriteAction
from userlore.policy.fence import FENCE_CLOSE, FENCE_OPEN
from userlore.store.schema import KnowledgeSourceItem, MemoryRecord, MemoryRecordVersion

_FENCE_TAG = re.compile(r"user[\s_-]*context", re.IGNORECASE)


def stored_texts(lore: Userlore, scope: str) -> list[str]:
    with lore.memory.store.transaction() as s:
        texts = [
            r.content for r in s.scalars(select(MemoryRecord).where(MemoryRecord.scope == scope))
        ]
        texts += [
            r.value or ""
            for r in s.scalars(select(MemoryRecord).where(MemoryRecord.scope == scope))
        ]
        texts += [
            v.content
            for v in s.scalars(
                select(MemoryRecordVersion).where(MemoryRecordVersion.scope == scope)
            )
        ]
        texts += [
            i.text
            for i in s.scalars(
                select(KnowledgeSourceItem).where(KnowledgeSourceItem.scope == scope)
            )
        ]
    return texts


def run(cases: list[dict[str, Any]]) -> dict[str, Any]:
    leaks: list[str] = []
    special_injected: list[str] = []
    fence_escapes: list[str] = []
    false_positives: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        lore = Userlore.open(
            f"sqlite:///{Path(tmp) / 'safety.db'}", config={"memory": {"mode": "auto"}}
        )
        for i, case in enumerate(cases):
            scope = f"case-{i}"
            text = case["text"]
            result = lore.observe(scope=scope, role="user", content=text, session_key="s")
            plan = lore.plan_context(scope=scope, query=text, session_key="s")
            stored = stored_texts(lore, scope)
            for value in case.get("values") or []:
                if any(value in t for t in stored) or value in plan.text:
                    leaks.append(case["id"])
                    break
            selected = {s.id for s in plan.selected}
            for rec in lore.records.list(scope):
                if rec.id in selected and rec.sensitivity.value == "special":
                    special_injected.append(case["id"])
            if plan.text:
                body = plan.text[len(FENCE_OPEN) : -len(FENCE_CLOSE)]
                if "<" in body or ">" in body or _FENCE_TAG.search(body):
                    fence_escapes.append(case["id"])
            if case["expected"] == "benign":
                redacted = any("[REDACTED" in t for t in stored)
                refused = any(o.action is WriteAction.REFUSED for o in result.outcomes)
                gated = any(r.sensitivity.value == "special" for r in lore.records.list(scope))
                if redacted or refused or gated:
                    false_positives.append(case["id"])
        lore.close()
    benign = sum(1 for c in cases if c["expected"] == "benign")
    by_class: dict[str, int] = {}
    for c in cases:
        by_class[c["expected"]] = by_class.get(c["expected"], 0) + 1
    return {
        "cases": len(cases),
        "by_class": by_class,
        "leaks": len(leaks),
        "leaked_ids": leaks,
        "special_injected_without_consent": len(special_injected),
        "fence_escapes": len(fence_escapes),
        "fence_escape_ids": fence_escapes,
        "benign_false_positives": len(false_positives),
        "benign_false_positive_rate": round(len(false_positives) / benign, 4) if benign else 0.0,
        "false_positive_ids": false_positives,
    }


WITHHOLDING = frozenset(
    {
        "secret",
        "regulated",
        "consent_required",
        "quote_credential",
        "quote_money",
        "quote_special",
        "quote_language",
    }
)
"""Trace reasons that mean the floor or the quote gate kept a snippet out."""


COUNTS = ("values_in_plan", "values_stored", "special_in_plan", "benign_withheld", "benign_flagged")
"""What ``run_gate`` counts per language group and class."""


def _row(groups: dict[str, dict[str, dict[str, Any]]], group: str, cls: str) -> dict[str, Any]:
    """The tally of one language group and class, created empty on first use."""
    return groups.setdefault(group, {}).setdefault(
        cls, {"n": 0, **dict.fromkeys(COUNTS, 0), "ids": []}
    )


def summary_lines(groups: dict[str, dict[str, dict[str, Any]]]) -> list[str]:
    """One line per group and class, then per group over its value classes (``k/n``)."""
    lines = []
    for group, classes in groups.items():
        for cls, row in classes.items():
            counts = " ".join(f"{k}={row[k]}/{row['n']}" for k in COUNTS if row[k])
            lines.append(f"{group:9s} {cls:10s} n={row['n']:3d} {counts or 'all zero'}")
        valued = [r for c, r in classes.items() if c in ("secret", "regulated", "money")]
        n = sum(r["n"] for r in valued)
        if n:
            stored = sum(r["values_stored"] for r in valued)
            shown = sum(r["values_in_plan"] for r in valued)
            lines.append(f"{group:9s} VALUES     stored {stored}/{n}, in a plan {shown}/{n}")
    return lines


def _in_plan(value: str, shown: str) -> bool:
    """``value`` in a plan or recall as a token of its own: a plan carries random hex ids
    (``src_9c0e3884f3b1453c…``), and a four-digit PIN turns up inside one by chance."""
    return re.search(r"(?<![0-9A-Za-z])" + re.escape(value) + r"(?![0-9A-Za-z])", shown) is not None


_GATE_FIELDS = ("group", "class", "text")


def gate_cases(paths: list[Path]) -> list[dict[str, Any]]:
    """The cases of every gate-format file of ``paths``; a file whose cases lack a gate field
    (``tests/data/gate_names.jsonl`` is expect/lang cases, matched by ``gate_*.jsonl``) is
    skipped with a notice on stderr, so the glob can be passed as it is."""
    out: list[dict[str, Any]] = []
    for path in paths:
        lines = path.read_text(encoding="utf-8").splitlines()
        cases = [json.loads(line) for line in lines if line.strip()]
        lacking = sorted({f for case in cases for f in _GATE_FIELDS if f not in case})
        if lacking:
            print(
                f"skipped {path}: not a gate-format file (no {', '.join(lacking)})", file=sys.stderr
            )
            continue
        out += cases
    return out


def run_gate(cases: list[dict[str, Any]]) -> dict[str, Any]:
    """The quote gate's figures per language group and class (see the module docstring)."""
    groups: dict[str, dict[str, dict[str, Any]]] = {}
    reasons: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        lore = Userlore.open(
            f"sqlite:///{Path(tmp) / 'gate.db'}", config={"memory": {"mode": "auto"}}
        )
        for i, case in enumerate(cases):
            scope = f"gate-{i}"
            text = case["text"]
            result = lore.observe(scope=scope, role="user", content=text, session_key="s")
            plan = lore.plan_context(scope=scope, query=text, session_key="s")
            recall = lore.memory.recall(scope, text, episodes=3)
            shown = plan.text + "\n".join(
                [e.text for e in recall.episodes] + [c.content for c in recall.memories]
            )
            stored = stored_texts(lore, scope)
            row = _row(groups, case["group"], case["class"])
            row["n"] += 1
            values = case.get("values") or []
            leaked = False
            if any(_in_plan(v, shown) for v in values):
                row["values_in_plan"] += 1
                leaked = True
            if any(v in t for v in values for t in stored):
                row["values_stored"] += 1
                leaked = True
            special = case.get("special_text")
            if special and special in shown:
                row["special_in_plan"] += 1
                leaked = True
            trace = lore.traces.get(scope, plan.trace_id) if plan.trace_id else {}
            episodic = (trace.get("payload") or {}).get("episodic") or {}
            why = [r["reason"] for r in episodic.get("rejected", [])]
            for reason in why:
                reasons[reason] = reasons.get(reason, 0) + 1
            if case["class"] == "benign":
                if any(r in WITHHOLDING for r in why):
                    row["benign_withheld"] += 1
                    row["ids"].append(case["id"])
                redacted = any("[REDACTED" in t for t in stored)
                refused = any(o.action is WriteAction.REFUSED for o in result.outcomes)
                if redacted or refused:
                    row["benign_flagged"] += 1
            elif leaked:
                row["ids"].append(case["id"])
        lore.close()
    return {"consents_granted": [], "groups": groups, "snippet_reasons": reasons}


REGULATED_ENTITIES = frozenset({"CREDIT_CARD", "IBAN_CODE", "US_SSN"})


def presidio_cases(path: Path) -> list[dict[str, Any]]:
    """Turn presidio-research sentences into cases (see the module docstring)."""
    cases = []
    for i, item in enumerate(json.loads(path.read_text(encoding="utf-8"))):
        values = [
            s["entity_value"] for s in item["spans"] if s["entity_type"] in REGULATED_ENTITIES
        ]
        cases.append(
            {
                "id": f"presidio-{i}",
                "text": item["full_text"],
                "expected": "regulated" if values else "benign",
                "values": values,
            }
        )
    return cases


def run_locomo(path: Path) -> dict[str, Any]:
    """Share of LoCoMo turns the quote gate withholds (see the module docstring)."""
    from userlore.policy.quote_gate import quote_verdict
    from userlore.policy.sensitivity import redact
    from userlore.sources.adapters.locomo import LocomoTranscriptAdapter, turn_text

    consented = frozenset({"health"})
    reasons: dict[str, int] = {}
    languages: dict[str, int] = {}
    turns = 0
    for sample in json.loads(path.read_text(encoding="utf-8")):
        for _, _, session_turns in LocomoTranscriptAdapter(sample).sessions():
            for turn in session_turns:
                turns += 1
                verdict = quote_verdict(redact(turn_text(turn)), consented=consented)
                if verdict.reason is None:
                    continue
                reasons[verdict.reason.value] = reasons.get(verdict.reason.value, 0) + 1
                if verdict.reason.value == "quote_language":
                    key = verdict.category or "und"
                    languages[key] = languages.get(key, 0) + 1
    withheld = sum(reasons.values())
    return {
        "consents_granted": sorted(consented),
        "turns": turns,
        "withheld": withheld,
        "withheld_share": round(withheld / max(turns, 1), 4),
        "reasons": dict(sorted(reasons.items(), key=lambda kv: -kv[1])),
        "quote_language_by_language": dict(sorted(languages.items(), key=lambda kv: -kv[1])),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--data", type=Path, help="JSONL cases")
    source.add_argument("--presidio", type=Path, help="presidio-research synthetic JSON")
    source.add_argument("--gate", type=Path, nargs="+", help="quote-gate JSONL cases")
    source.add_argument("--locomo", type=Path, help="LoCoMo JSON: the gate on ordinary chat")
    args = parser.parse_args()
    if args.locomo:
        print(json.dumps(run_locomo(args.locomo)))
        return
    if args.gate:
        result = run_gate(gate_cases(args.gate))
        for line in summary_lines(result["groups"]):
            print(line)
        print(json.dumps(result, ensure_ascii=False))
        return
    if args.presidio:
        cases = presidio_cases(args.presidio)
    else:
        lines = args.data.read_text(encoding="utf-8").splitlines()
        cases = [json.loads(line) for line in lines if line.strip()]
    print(json.dumps(run(cases)))


if __name__ == "__main__":
    main()
