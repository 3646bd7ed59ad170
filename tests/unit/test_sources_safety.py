"""A mailbox holding an API key and a card number: neither value is stored or injected anywhere."""

from __future__ import annotations

import mailbox
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path

from sqlalchemy import text

from userlore import Userlore
from userlore.sources.adapters import MboxAdapter

API_KEY = "sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78St90"
AWS_KEY = "AKIAIOSFODNN7EXAMPLF"
CARD = "4539 1488 0343 6467"
FORBIDDEN = (API_KEY, AWS_KEY, CARD, CARD.replace(" ", ""), "Ab12Cd34Ef56Gh78", "4539148803436467")


def _mail(subject: str, body: str, msg_id: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = "Ops Bot <ops@example.org>"
    msg["To"] = "me@example.org"
    msg["Subject"] = subject
    msg["Date"] = "Wed, 05 Mar 2025 08:00:00 +0000"
    msg["Message-ID"] = msg_id
    msg.set_content(body)
    return msg


def test_mailbox_secrets_never_reach_records_evidence_or_plans(
    make_lore: Callable[..., Userlore], tmp_path: Path
) -> None:
    path = tmp_path / "takeout.mbox"
    box = mailbox.mbox(path)
    for msg in (
        _mail(
            "Staging credentials",
            f"The deploy key for staging is {API_KEY} (rotate monthly).",
            "<key@x>",
        ),
        _mail(
            f"Card {CARD} on file",
            f"Please charge card {CARD} for the staging servers.",
            "<card@x>",
        ),
        _mail("AWS access", f"Use access key id {AWS_KEY} for the staging bucket.", "<aws@x>"),
        _mail("Staging plan", "Staging servers move to the new region on Friday.", "<plan@x>"),
    ):
        box.add(msg)
    box.flush()
    box.close()

    lore = make_lore(memory={"mode": "auto", "sources": ["session", "curated", "connected"]})
    report = lore.sources.ingest("u1", MboxAdapter(path))
    assert report.counts.added == 4 and report.counts.blocked == 3
    assert report.synthesis is not None
    assert report.synthesis.created == 1 and report.synthesis.skipped == 3

    plans = [
        lore.plan_context("u1", query)
        for query in (
            "staging deploy key credentials",
            "card staging servers charge",
            "AWS access key staging bucket",
            "staging",
        )
    ]
    for plan in plans:
        for value in FORBIDDEN:
            assert value not in plan.text
    assert any("new region" in plan.text for plan in plans)  # the clean message is usable

    for rec in lore.records.list("u1", limit=1000):
        blob = f"{rec.content} {rec.value} {rec.canonical_key}"
        for ev in lore.records.evidence("u1", rec.id):
            blob += f" {ev['text']}"
        assert not any(value in blob for value in FORBIDDEN)

    # and nowhere in the database: items, titles, metadata, ledger, runs, traces, the index
    with lore.store.engine.connect() as conn:
        tables = [
            name
            for (name,) in conn.execute(text("SELECT name FROM sqlite_master WHERE type = 'table'"))
        ]
        assert "knowledge_source_items" in tables and "memory_records_fts" in tables
        for table in tables:
            for row in conn.execute(text(f'SELECT * FROM "{table}"')):
                dumped = " ".join(str(v) for v in row)
                for value in FORBIDDEN:
                    assert value not in dumped, f"{table} holds a secret"
    items = {i.external_id: i for i in lore.sources.items("u1")}
    assert items["key@x"].blocked and "[REDACTED" in items["key@x"].text
    assert items["card@x"].title is not None and "[REDACTED" in items["card@x"].title
    assert not items["plan@x"].blocked
