"""Producers (b) signatures, (c) behavioural heuristics, (d) reviewer facets."""

from __future__ import annotations

import json
import mailbox
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage

from userlore import Userlore
from userlore.extract.reviewer import LLMReviewer
from userlore.learning import CueFamily, FacetClass, FacetState
from userlore.learning.producers import (
    ReviewerFacetProducer,
    TurnHeuristics,
    consume_mbox_signatures,
    parse_signature,
    signature_candidates,
)

Make = Callable[..., Userlore]
T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)

SENT = """From: Sanil Jain <sanil@vezures.xyz>
To: bob@example.com

Hi Bob, the draft is attached.

Best,
Sanil Jain
Staff Engineer, Vezures
+1 415 555 0100 | PST
"""


# -- (b) signatures -------------------------------------------------------------------------


def test_parse_signature_after_a_valediction() -> None:
    assert parse_signature(SENT) == {
        "name": "Sanil Jain",
        "role": "staff engineer",
        "employer": "Vezures",
        "timezone": "PST",
    }


def test_parse_signature_after_a_delimiter() -> None:
    text = "See you Monday.\n-- \nAda Lovelace\nCTO at Analytical Engines Ltd\nhttps://ae.example\n"
    assert parse_signature(text) == {
        "name": "Ada Lovelace",
        "role": "cto",
        "employer": "Analytical Engines Ltd",
    }


def test_no_signature_no_guess() -> None:
    assert parse_signature("Ada Lovelace wrote the first program.\nShe was brilliant.") == {}
    assert parse_signature("") == {}


def test_signatures_of_other_senders_are_ignored() -> None:
    received = SENT.replace("sanil@vezures.xyz", "someone@else.org")
    assert signature_candidates("u1", received, own_addresses=["sanil@vezures.xyz"]) == []
    mine = signature_candidates("u1", SENT, own_addresses=["Sanil@Vezures.xyz"])
    assert {(c.key, c.value) for c in mine} == {
        ("name", "Sanil Jain"),
        ("role", "staff engineer"),
        ("employer", "Vezures"),
        ("timezone", "PST"),
    }
    assert all(c.cue_family is CueFamily.STRUCTURAL for c in mine)
    assert all(c.facet_class is FacetClass.IDENTITY for c in mine)


def test_two_signed_emails_make_an_active_identity(make_lore: Make) -> None:
    lore = make_lore("auto")
    lore.facets.cache.submit(signature_candidates("u1", SENT))  # 0.9 × ln 2 ≈ 0.62: candidate
    assert lore.facets.get("u1", "identity", "name").state is FacetState.CANDIDATE
    second = SENT.replace("the draft is attached", "here are the numbers")
    lore.facets.cache.submit(signature_candidates("u1", second))  # 2 × 0.9 × ln 3 ≈ 1.98
    facet = lore.facets.get("u1", "identity", "name")
    assert facet.state is FacetState.ACTIVE and facet.cue_families == (CueFamily.STRUCTURAL,)
    about = next(a for a in lore.facets.about("u1") if a["key"] == "name")
    assert any("Sanil Jain" in e["text"] for e in about["evidence"])


def _mbox(path: Path, bodies: list[tuple[str, str]]) -> None:
    box = mailbox.mbox(path)
    for i, (sender, body) in enumerate(bodies):
        msg = EmailMessage()
        msg["From"] = sender
        msg["To"] = "bob@example.com"
        msg["Subject"] = f"note {i}"
        msg["Message-ID"] = f"<m{i}@example.com>"
        msg["Date"] = "Mon, 05 Jan 2026 09:00:00 +0000"
        msg.set_content(body)
        box.add(msg)
    box.flush()
    box.close()


def test_mbox_source_feeds_signatures_once(make_lore: Make, tmp_path: Path) -> None:
    from userlore.sources.adapters import MboxAdapter

    lore = make_lore(
        "auto", memory={"mode": "auto", "sources": ["session", "curated", "connected"]}
    )
    body = "Numbers attached.\n\nThanks,\nSanil Jain\nStaff Engineer, Vezures\n"
    path = tmp_path / "mail.mbox"
    _mbox(
        path,
        [
            ("Sanil Jain <sanil@vezures.xyz>", body),
            ("Sanil Jain <sanil@vezures.xyz>", body.replace("Numbers", "Slides")),
            ("Bob <bob@example.com>", "Sure.\n\nCheers,\nBob Smith\nCEO, Other Corp\n"),
        ],
    )
    lore.sources.ingest("u1", MboxAdapter(path), synthesize=False)
    n = consume_mbox_signatures(
        lore.facets.cache, lore.sources, "u1", own_addresses=["sanil@vezures.xyz"]
    )
    assert n == 6  # name, role, employer from each of the user's two emails; Bob's ignored
    assert lore.facets.get("u1", "identity", "employer").value == "Vezures"
    assert lore.facets.get("u1", "identity", "name").state is FacetState.ACTIVE
    assert (
        consume_mbox_signatures(
            lore.facets.cache, lore.sources, "u1", own_addresses=["sanil@vezures.xyz"]
        )
        == 0
    )  # the watermark moved: nothing is read twice
    names = [f.value for f in lore.facets.list("u1", "identity")]
    assert "Bob Smith" not in names


def test_connected_signatures_need_connected_sources_enabled(make_lore: Make) -> None:
    lore = make_lore("auto")  # sources: session, curated
    item = lore.observe("u1", "user", SENT)
    assert item.source_item_id is not None
    candidates = signature_candidates("u1", SENT, source_item_id=item.source_item_id)
    lore.facets.cache.config = lore.facets.cache.config.model_copy(update={"event_driven": False})
    lore.facets.cache.submit(candidates)
    assert lore.facets.cache.rebuild("u1")[0].refused == len(candidates)


# -- (c) heuristics -------------------------------------------------------------------------


def test_length_ratio_needs_a_repeated_request() -> None:
    h = TurnHeuristics(clock=lambda: T0)
    assert h.observe("u1", "assistant", "A very long answer. " * 20) == []
    assert h.observe("u1", "user", "That's too long, make it shorter.") == []
    out = h.observe("u1", "user", "Again, please be more concise.")
    assert [(c.key, c.value, c.cue_family) for c in out] == [
        ("verbosity", "terse", CueFamily.BEHAVIORAL)
    ] * 2
    assert [(c.key, c.value) for c in h.observe("u1", "user", "Shorter please.")] == [
        ("verbosity", "terse")
    ]
    other = TurnHeuristics(clock=lambda: T0)
    other.observe("u2", "user", "Could you go into more detail?")
    assert [c.value for c in other.observe("u2", "user", "Please elaborate.")] == ["detailed"] * 2


def test_signals_outside_the_window_do_not_repeat() -> None:
    h = TurnHeuristics(window_turns=3, clock=lambda: T0)
    h.observe("u1", "user", "Too long.")
    for i in range(3):
        h.observe("u1", "user", f"unrelated question {i}")
    assert h.observe("u1", "user", "Too long again.") == []


def test_edit_window_reads_what_the_edit_removed() -> None:
    h = TurnHeuristics(clock=lambda: T0)
    reply = (
        "Sure! Here is the plan 🚀\n"
        "- build the parser\n- write the tests\n- ship the release\n"
        "Let me know if you need anything else, happy to help with the rollout too!"
    )
    h.observe("u1", "assistant", reply, at=T0)
    edited = "Here is the plan: build the parser, write the tests, ship the release."
    # a paste-back is only an edit while it is close to the reply
    assert not h.edits.is_edit(reply, "Completely unrelated message about the weather today")
    changes = h.edits.changes(reply, edited)
    assert set(changes) == {
        ("emoji", "skip"),
        ("format", "prose"),
        ("preamble", "skip"),
        ("verbosity", "terse"),
    }
    out = h.observe_edit("u1", reply, edited, at=T0 + timedelta(minutes=2))
    assert {(c.key, c.value) for c in out} == set(changes)
    assert all(c.facet_class is FacetClass.STYLE for c in out)


def test_edit_pasted_back_within_the_window_counts() -> None:
    h = TurnHeuristics(clock=lambda: T0)
    reply = "Certainly! 😀 The answer is to restart the server and clear the cache first."
    h.observe("u1", "assistant", reply, at=T0)
    late = h.observe(
        "u1",
        "user",
        "The answer is to restart the server and clear the cache first.",
        at=T0 + timedelta(hours=2),
    )
    assert late == []
    h.observe("u1", "assistant", reply, at=T0)
    soon = h.observe(
        "u1",
        "user",
        "The answer is to restart the server and clear the cache first.",
        at=T0 + timedelta(minutes=1),
    )
    assert {(c.key, c.value) for c in soon} == {("emoji", "skip"), ("preamble", "skip")}


def test_correction_repeat_emits_tooling_and_veto() -> None:
    h = TurnHeuristics(clock=lambda: T0)
    assert h.observe("u1", "user", "No, use pnpm not npm.") == []
    out = h.observe("u1", "user", "I said pnpm, not npm!")
    got = {(c.facet_class.value, c.key, c.value) for c in out}
    assert got == {("tooling", "package_manager", "pnpm"), ("veto", "npm", "banned")}
    assert len(out) == 4  # both turns are evidence
    # a correction that names no known tool is not a veto
    assert h.observe("u1", "user", "No, not that one.") == []
    assert h.observe("u1", "user", "No, not that one!") == []


def test_heuristics_feed_the_cache(make_lore: Make) -> None:
    lore = make_lore("auto")
    h = TurnHeuristics(sink=lore.facets.cache.submit, clock=lambda: T0)
    for text in ("Too long.", "Shorter, please.", "Still too long — be concise."):
        result = lore.observe("u1", "user", text)
        h.observe("u1", "user", text, source_item_id=result.source_item_id)
    facet = lore.facets.get("u1", "style", "verbosity")
    assert facet.value == "terse" and facet.state is FacetState.ACTIVE
    assert CueFamily.BEHAVIORAL in facet.cue_families


def test_rolling_state_is_bounded() -> None:
    h = TurnHeuristics(max_scopes=2, clock=lambda: T0)
    h.observe("a", "user", "Too long.")
    h.observe("b", "user", "Too long.")
    h.observe("c", "user", "Too long.")  # "a" is forgotten
    assert h.observe("a", "user", "Too long.") == []
    assert len(h.observe("c", "user", "Too long.")) == 2


# -- (d) reviewer facets --------------------------------------------------------------------


def _reviewer(payload: dict[str, object]) -> LLMReviewer:
    model = GenericFakeChatModel(messages=iter([AIMessage(content=json.dumps(payload))]))
    return LLMReviewer(model)


def test_reviewer_facets_become_behavioral_candidates(make_lore: Make) -> None:
    proposal = {
        "candidates": [
            {
                "kind": "style",
                "content": "The user prefers terse answers.",
                "canonical_key": "style/verbosity",
                "value": "terse",
                "confidence": 0.9,
                "sensitivity": "none",
                "evidence": "keep it short",
            },
            {
                "kind": "tooling",
                "content": "The user uses uv.",
                "canonical_key": "tooling/package_manager",
                "value": "uv",
                "confidence": 0.8,
                "sensitivity": "none",
                "evidence": "something the user never said",
            },
            {
                "kind": "goal",
                "content": "The user wants to learn Rust.",
                "canonical_key": None,
                "value": None,
                "confidence": 0.8,
                "sensitivity": "none",
                "evidence": "learn Rust",
            },
            {
                "kind": "workspace_fact",
                "content": "The repo uses GitHub Actions.",
                "canonical_key": None,
                "value": None,
                "confidence": 0.7,
                "sensitivity": "none",
                "evidence": "GitHub Actions",
            },
            {
                "kind": "identity",
                "content": "The user is diabetic.",
                "canonical_key": "identity/condition",
                "value": "diabetes",
                "confidence": 0.7,
                "sensitivity": "special",
                "evidence": "my diabetes",
            },
        ]
    }
    messages = [
        ("user", "Please keep it short. I want to learn Rust; CI is on GitHub Actions."),
        ("assistant", "Noted."),
        ("user", "Also my diabetes makes late meetings hard."),
    ]
    result = ReviewerFacetProducer(_reviewer(proposal)).propose("u1", messages)
    assert result.report.status == "ok" and result.report.dropped == 1  # the made-up quote
    assert [(c.key, c.value, c.cue_family) for c in result.facets] == [
        ("verbosity", "terse", CueFamily.BEHAVIORAL)
    ]
    assert result.facets[0].evidence.kind == "review"
    assert result.facets[0].evidence.text == messages[0][1]
    assert result.rejected == 1  # a goal without key or value cannot be a facet
    # the workspace fact and the sensitive proposal are left to the normal governed write
    assert [c.kind for c in result.others] == ["workspace_fact", "identity"]
    lore = make_lore("auto")
    lore.facets.cache.submit(result.facets)
    facet = lore.facets.get("u1", "style", "verbosity")
    assert facet.state is FacetState.CANDIDATE  # one behavioural cue must accumulate
    assert lore.facets.about("u1") == []
