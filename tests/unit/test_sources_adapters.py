"""Each adapter against files in its real format, written by the test."""

from __future__ import annotations

import json
import mailbox
import os
import zipfile
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from langchain_core.document_loaders import BaseLoader
from langchain_core.documents import Document

from userlore import InvalidInputError, Userlore
from userlore.sources import SourceItem
from userlore.sources.adapters import (
    LangChainLoaderAdapter,
    LocomoTranscriptAdapter,
    MarkdownVaultAdapter,
    MboxAdapter,
    SlackExportAdapter,
    adapters_for_path,
)
from userlore.sources.adapters.locomo import parse_session_date

CONNECTED = ["session", "curated", "connected"]


@pytest.fixture
def connected(make_lore: Callable[..., Userlore]) -> Userlore:
    return make_lore(memory={"mode": "confirmWrite", "sources": CONNECTED})


def pulled(adapter: Any, cursor: str | None = None) -> tuple[list[SourceItem], Any]:
    result = adapter.pull(cursor)
    items = list(result.items)
    return items, result


def by_id(items: list[SourceItem]) -> dict[str, SourceItem]:
    return {i.external_id: i for i in items}


# -- Markdown vault -----------------------------------------------------------------------------


def write(path: Path, text: str, mtime: float | None = None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    if mtime is not None:
        os.utime(path, (mtime, mtime))


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    write(
        root / "projects" / "atlas" / "kickoff.md",
        "---\ntitle: Atlas kickoff\ndate: 2025-03-04\ntags: [atlas, planning]\n"
        "author: Dana\n---\n# Kickoff\nWe chose [[Postgres|PostgreSQL]] for [[Atlas]].\n"
        "![[diagram.png]]\n<!-- private aside -->\nDeadline is May.\n",
    )
    write(root / "daily" / "2025-03-05.md", "# Standup\nShipped the importer.\n", 1741170000)
    write(root / "ideas.txt", "Plain text idea: cache the embeddings.\n", 1741170000)
    write(root / ".obsidian" / "workspace.md", "# should be ignored\n")
    write(root / "empty.md", "---\ntitle: nothing here\n---\n\n")
    write(root / "broken.md", "---\ntitle: [unclosed\n---\nBody survives bad YAML.\n")
    (root / "image.png").write_bytes(b"\x89PNG")
    return root


def test_markdown_vault_items(vault: Path) -> None:
    adapter = MarkdownVaultAdapter(vault)
    items, result = pulled(adapter)
    got = by_id(items)
    assert set(got) == {
        "projects/atlas/kickoff.md",
        "daily/2025-03-05.md",
        "ideas.txt",
        "broken.md",
    }
    kickoff = got["projects/atlas/kickoff.md"]
    assert kickoff.title == "Atlas kickoff"
    assert kickoff.occurred_at == datetime(2025, 3, 4, tzinfo=UTC)
    assert "We chose PostgreSQL for Atlas." in kickoff.text
    assert "diagram" not in kickoff.text and "private aside" not in kickoff.text
    assert "title:" not in kickoff.text
    assert kickoff.meta == {
        "path": "projects/atlas/kickoff.md",
        "folder": "projects/atlas",
        "tags": "atlas, planning",
        "author": "Dana",
    }
    assert got["daily/2025-03-05.md"].title == "Standup"
    assert got["daily/2025-03-05.md"].occurred_at == datetime.fromtimestamp(1741170000, UTC)
    assert got["ideas.txt"].title == "ideas"
    assert got["broken.md"].text == "Body survives bad YAML."
    assert any("broken.md" in w for w in result.warnings)
    assert result.complete and "empty.md" in result.deleted


def test_markdown_vault_resync_reads_only_changes(vault: Path, connected: Userlore) -> None:
    adapter = MarkdownVaultAdapter(vault, label="Vault")
    first = connected.sources.ingest("u1", adapter)
    assert first.counts.added == 4
    again = connected.sources.ingest("u1", adapter)
    assert again.counts.seen == 0 and again.counts.changed == 0  # the cursor skipped every file
    write(vault / "ideas.txt", "Plain text idea: cache the embeddings in Redis.\n", 1741180000)
    (vault / "daily" / "2025-03-05.md").unlink()
    write(vault / "projects" / "new.md", "# New\nA new note.\n")
    delta = connected.sources.ingest("u1", adapter)
    assert (delta.counts.seen, delta.counts.added, delta.counts.modified, delta.counts.deleted) == (
        2,
        1,
        1,
        1,
    )
    facts = {
        r.content.split("\n")[0]: r for r in connected.records.list("u1", kind="workspace_fact")
    }
    assert "ideas" in facts and facts["ideas"].version == 2
    assert "Redis" in facts["ideas"].content


def test_markdown_vault_needs_a_folder(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError):
        MarkdownVaultAdapter(tmp_path / "missing")
    (tmp_path / "file.md").write_text("x")
    with pytest.raises(InvalidInputError):
        MarkdownVaultAdapter(tmp_path / "file.md")


# -- mbox (Gmail Takeout) -----------------------------------------------------------------------


def message(
    subject: str,
    body: str,
    *,
    msg_id: str | None,
    date: str = "Tue, 04 Mar 2025 10:15:00 +0100",
    html: str | None = None,
    attachment: bytes | None = None,
    labels: str | None = None,
) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = "Dana Scully <dana@example.org>"
    msg["To"] = "me@example.org"
    msg["Subject"] = subject
    msg["Date"] = date
    if msg_id:
        msg["Message-ID"] = msg_id
    if labels:
        msg["X-Gmail-Labels"] = labels
        msg["X-GM-THRID"] = "1789"
    msg.set_content(body)
    if html:
        msg.add_alternative(html, subtype="html")
    if attachment:
        msg.add_attachment(attachment, maintype="application", subtype="pdf", filename="q1.pdf")
    return msg


def write_mbox(path: Path, messages: list[EmailMessage]) -> None:
    if path.exists():
        path.unlink()
    box = mailbox.mbox(path)
    box.lock()
    try:
        for msg in messages:
            box.add(msg)
        box.flush()
    finally:
        box.unlock()
        box.close()


@pytest.fixture
def mails() -> list[EmailMessage]:
    return [
        message(
            "Quarterly numbers",
            "Revenue grew 12% in Q1.\n\nOn Mon, Bob wrote:\n> old text\n"
            "> more old text\n\n-- \nDana, CFO",
            msg_id="<q1@example.org>",
            attachment=b"%PDF-1.4",
            labels="Inbox,Finance",
        ),
        message(
            "Offsite",
            "plain fallback",
            msg_id="<offsite@example.org>",
            html="<html><body><p>The offsite is in <b>Lisbon</b>.</p>"
            "<script>evil()</script></body></html>",
        ),
        message("No id here", "A message without a Message-ID header.", msg_id=None),
    ]


def test_mbox_items(tmp_path: Path, mails: list[EmailMessage]) -> None:
    path = tmp_path / "All mail Including Spam and Trash.mbox"
    write_mbox(path, mails)
    items, result = pulled(MboxAdapter(path))
    got = by_id(items)
    q1 = got["q1@example.org"]
    assert q1.title == "Quarterly numbers"
    assert q1.text.startswith("From: Dana Scully <dana@example.org>\nTo: me@example.org\n\n")
    assert "Revenue grew 12% in Q1." in q1.text
    assert "old text" not in q1.text and "CFO" not in q1.text and "wrote:" not in q1.text
    assert q1.occurred_at == datetime(2025, 3, 4, 9, 15, tzinfo=UTC)
    assert q1.meta["labels"] == "Inbox,Finance" and q1.meta["thread"] == "1789"
    assert q1.meta["attachments"] == 1 and "PDF-1.4" not in q1.text
    assert "plain fallback" in got["offsite@example.org"].text  # text/plain preferred
    no_id = [i for i in items if i.external_id.startswith("sha256:")]
    assert len(no_id) == 1 and "without a Message-ID" in no_id[0].text
    assert result.complete


def test_mbox_html_only_body(tmp_path: Path) -> None:
    msg = EmailMessage()
    msg["Subject"] = "Menu"
    msg["Message-ID"] = "<menu@x>"
    msg.set_content("<p>Lunch is <i>ramen</i>.</p><style>p{}</style>", subtype="html")
    path = tmp_path / "m.mbox"
    write_mbox(path, [msg])
    [only], _ = pulled(MboxAdapter(path))
    assert only.text == "Lunch is ramen."


def test_mbox_resync(tmp_path: Path, mails: list[EmailMessage], connected: Userlore) -> None:
    path = tmp_path / "mail.mbox"
    write_mbox(path, mails)
    adapter = MboxAdapter(path)
    assert connected.sources.ingest("u1", adapter).counts.added == 3
    assert connected.sources.ingest("u1", adapter).counts.seen == 0  # untouched file: one stat
    write_mbox(path, [*mails[:2], message("New", "A new one.", msg_id="<new@x>")])
    report = connected.sources.ingest("u1", adapter)
    assert (report.counts.added, report.counts.deleted, report.counts.unchanged) == (1, 1, 2)


# -- Slack export -------------------------------------------------------------------------------


def slack_export(root: Path, *, edited: bool = False) -> None:
    files: dict[str, Any] = {
        "users.json": [
            {
                "id": "U01",
                "name": "dana",
                "real_name": "Dana Scully",
                "profile": {"display_name": "Dana", "real_name": "Dana Scully"},
            },
            {"id": "U02", "name": "fox", "profile": {"real_name": "Fox Mulder"}},
        ],
        "channels.json": [
            {"id": "C01", "name": "general", "created": 1700000000},
            {"id": "C02", "name": "infra", "created": 1700000000},
        ],
        "general/2024-03-01.json": [
            {
                "type": "message",
                "subtype": "channel_join",
                "user": "U02",
                "ts": "1709280000.000100",
                "text": "<@U02> has joined the channel",
            },
            {
                "type": "message",
                "user": "U01",
                "ts": "1709280100.000200",
                "text": "Hi <@U02>, the deploy moved to <#C02|infra> &amp; see "
                "<https://wiki.example.org/deploy|the runbook>",
                "reply_count": 1,
                "thread_ts": "1709280100.000200",
            },
            {
                "type": "message",
                "user": "U02",
                "ts": "1709280200.000300",
                "thread_ts": "1709280100.000200",
                "text": "Thanks <!here>" + (" (edited: tomorrow)" if edited else ""),
            },
        ],
        "infra/2024-03-02.json": [
            {
                "type": "message",
                "user": "U02",
                "ts": "1709366400.000100",
                "text": "",
                "files": [{"name": "topology.png"}],
            },
        ],
    }
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(content), encoding="utf-8")


def test_slack_export_folder(tmp_path: Path, connected: Userlore) -> None:
    root = tmp_path / "Acme Slack export"
    slack_export(root)
    items, result = pulled(SlackExportAdapter(root))
    got = by_id(items)
    assert set(got) == {"C01/1709280100.000200", "C01/1709280200.000300", "C02/1709366400.000100"}
    first = got["C01/1709280100.000200"]
    assert first.text == (
        "Dana in #general: Hi @Fox Mulder, the deploy moved to #infra & see "
        "the runbook (https://wiki.example.org/deploy)"
    )
    assert first.occurred_at == datetime.fromtimestamp(1709280100.0002, UTC)
    assert first.meta == {
        "channel": "general",
        "user": "Dana",
        "replies": 1,
        "thread": "C01/2024-03-01",
    }
    reply = got["C01/1709280200.000300"]
    assert reply.text == "Fox Mulder in #general: Thanks @here"
    assert reply.meta["thread_ts"] == "1709280100.000200"
    assert got["C02/1709366400.000100"].text == "Fox Mulder in #infra: [file: topology.png]"
    assert result.skipped == 1 and result.complete

    adapter = SlackExportAdapter(root)
    assert connected.sources.ingest("u1", adapter).counts.added == 3
    assert connected.sources.ingest("u1", adapter).counts.seen == 0
    slack_export(root, edited=True)
    (root / "infra" / "2024-03-02.json").unlink()
    report = connected.sources.ingest("u1", adapter)
    assert (report.counts.modified, report.counts.deleted, report.counts.unchanged) == (1, 1, 1)


def test_slack_export_zip_with_top_folder(tmp_path: Path) -> None:
    root = tmp_path / "src"
    slack_export(root)
    archive = tmp_path / "Acme Slack export Mar 1 2024.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for path in sorted(root.rglob("*.json")):
            zf.write(path, f"Acme/{path.relative_to(root).as_posix()}")
    items, result = pulled(SlackExportAdapter(archive))
    assert len(items) == 3 and not result.warnings
    assert SlackExportAdapter(archive).label == archive.stem


def test_slack_rejects_non_exports(tmp_path: Path) -> None:
    bogus = tmp_path / "x.zip"
    bogus.write_text("not a zip")
    with pytest.raises(InvalidInputError):
        SlackExportAdapter(bogus)
    empty = tmp_path / "empty"
    empty.mkdir()
    items, result = pulled(SlackExportAdapter(empty))
    assert items == [] and not result.complete and result.warnings


# -- LoCoMo -------------------------------------------------------------------------------------


def locomo_sample(sample_id: str) -> dict[str, Any]:
    return {
        "sample_id": sample_id,
        "conversation": {
            "speaker_a": "Caroline",
            "speaker_b": "Melanie",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Caroline", "dia_id": "D1:1", "text": "Hey Mel!"},
                {
                    "speaker": "Melanie",
                    "dia_id": "D1:2",
                    "text": "Look at this sunset.",
                    "img_url": ["http://x/y.jpg"],
                    "blip_caption": "a photo of a sunset",
                },
            ],
            "session_2_date_time": "10:37 am on 27 June, 2023",
            "session_2": [
                {"speaker": "Caroline", "dia_id": "D2:1", "text": "I ran a charity race."}
            ],
        },
        "qa": [{"question": "q", "answer": "a", "evidence": ["D1:1"], "category": 4}],
    }


def test_locomo_file(tmp_path: Path, connected: Userlore) -> None:
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps([locomo_sample("conv-1"), locomo_sample("conv-2")]))
    adapters = LocomoTranscriptAdapter.from_file(path)
    assert [a.source_instance_id for a in adapters] == ["locomo:conv-1", "locomo:conv-2"]
    assert adapters[0].label == "Caroline & Melanie"
    items, result = pulled(adapters[0])
    assert [i.external_id for i in items] == ["D1:1", "D1:2", "D2:1"]
    assert items[1].text == "Melanie: Look at this sunset. [image: a photo of a sunset]"
    assert items[0].occurred_at == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert items[2].occurred_at == datetime(2023, 6, 27, 10, 37, tzinfo=UTC)
    assert items[1].meta == {
        "dia_id": "D1:2",
        "session": 1,
        "speaker": "Melanie",
        "thread": "session-1",
    }
    assert result.total == 3
    report = connected.sources.ingest("u1", adapters[0])
    assert report.counts.added == 3 and report.synthesis is not None
    assert report.synthesis.created == 3 and report.synthesis.notes == 2
    assert connected.sources.ingest("u1", adapters[0]).counts.seen == 0


def test_locomo_dates_and_errors(tmp_path: Path) -> None:
    assert parse_session_date("7:55 pm on 9 June, 2023") == datetime(2023, 6, 9, 19, 55, tzinfo=UTC)
    assert parse_session_date("sometime") is None
    with pytest.raises(InvalidInputError):
        LocomoTranscriptAdapter({"sample_id": "x"})
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(InvalidInputError):
        LocomoTranscriptAdapter.from_file(bad)


# -- LangChain BaseLoader bridge ----------------------------------------------------------------


class PagesLoader(BaseLoader):
    def __init__(self, docs: list[Document]) -> None:
        self.docs = docs

    def lazy_load(self) -> Iterator[Document]:
        yield from self.docs


def test_langchain_loader_bridge(connected: Userlore) -> None:
    docs = [
        Document(
            "Page one of the handbook.",
            metadata={
                "source": "handbook.pdf",
                "page": 0,
                "title": "Handbook",
                "created": "2024-02-01T08:00:00Z",
            },
        ),
        Document(
            "Page two of the handbook.",
            metadata={"source": "handbook.pdf", "page": 1, "nested": {"x": 1}},
        ),
        Document("A doc without a source.", metadata={}),
        Document("   ", metadata={"source": "blank"}),
    ]
    adapter = LangChainLoaderAdapter(PagesLoader(docs), source_instance_id="docs:handbook")
    items, result = pulled(adapter)
    assert [i.external_id for i in items][:2] == ["handbook.pdf", "handbook.pdf#1"]
    assert items[2].external_id.startswith("sha256:")
    assert items[0].title == "Handbook" and items[0].occurred_at == datetime(
        2024, 2, 1, 8, tzinfo=UTC
    )
    assert items[1].meta == {"source": "handbook.pdf", "page": 1}
    assert result.skipped == 1 and result.complete
    assert connected.sources.ingest("u1", adapter).counts.added == 3
    adapter.loader = PagesLoader(docs[:1])
    assert connected.sources.ingest("u1", adapter).counts.deleted == 2
    with pytest.raises(InvalidInputError):
        LangChainLoaderAdapter("not a loader", source_instance_id="x")  # type: ignore[arg-type]


def test_adapters_for_path(tmp_path: Path, vault: Path) -> None:
    [md] = adapters_for_path(vault, "markdown", source_instance_id="notes")
    assert md.source_instance_id == "notes" and md.kind == "markdown"
    path = tmp_path / "l.json"
    path.write_text(json.dumps(locomo_sample("s1")))
    [lc] = adapters_for_path(path, "locomo")
    assert lc.source_instance_id == "locomo:s1"
    with pytest.raises(InvalidInputError):
        adapters_for_path(vault, "gdrive")
