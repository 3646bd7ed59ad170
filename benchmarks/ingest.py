"""Connected-source ingestion throughput and incremental re-sync cost (SQLite file, WAL).

For a fresh source of N items (default 10,000) it measures:
- ingestion alone (normalize, hash, redact, write items + change ledger + run record), items/s;
- synthesis (the pipeline: leases, one workspace fact per item, daily notes, evidence), items/s;
- a re-sync with 0 changed items, and with 1% changed items (ingestion + synthesis of changes).

Two sources are measured: an in-memory list whose every pull is a complete snapshot (the worst
case: every item is normalized and hashed again), and a Markdown vault of N files, whose cursor
lets a re-sync skip unchanged files after a ``stat``. Items are chat-like messages spread over
100 days and 50 conversation threads. By default their text is realistic work chat in covered
languages (``--text prose``: English from templates and word lists, a fifth of the items in
Chinese), the path real text takes through the sensitivity floor; ``--text synthetic`` keeps the
earlier Zipf words over a made-up vocabulary ("Ulostmi brogalfin ..."), which the language
identifier reads as Slovenian or Czech, so every item takes the uncovered-language floor's
slowest path: a row of its own, not the common case.

``--sizing N`` (PostgreSQL) instead loads N items into one scope (ingest, synthesis, ``VACUUM
ANALYZE``) and prints rows, table and index sizes, and plan latency: the sizing note of
``docs/postgres.md``.

Usage: python benchmarks/ingest.py [--items 10000] [--skip-vault] [--backend postgres]
                                   [--sizing 100000] [--text prose|synthetic]
Prints a Markdown table, then one JSON object on the last line.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from plan_latency import TextGen, database_urls, percentile
from sqlalchemy import create_engine, event, text

from userlore import Userlore
from userlore.sources import ConnectedKnowledgePipeline, ItemListSource, SourceItem
from userlore.sources.adapters import MarkdownVaultAdapter

SCOPE = "bench-user"
CONFIG = {"memory": {"mode": "auto", "sources": ["session", "curated", "connected"]}}
START = datetime(2025, 1, 1, 8, tzinfo=UTC)


TEXT_KINDS = ("prose", "synthetic")
CHINESE_SHARE = 0.2
"""Share of ``prose`` items written in Chinese (the rest in English)."""

_PEOPLE = ("Maya", "Tom", "Priya", "Jonas", "Lena", "Omar", "Sofia", "Ken", "Ava", "Ravi")
_TEAMS = ("design", "platform", "mobile", "data", "billing", "search", "support", "growth")
_THINGS = (
    "the release notes",
    "the onboarding flow",
    "the pricing page",
    "the sync job",
    "the dashboard",
    "the roadmap draft",
    "the API migration",
    "the search ranking",
    "the retro doc",
    "the test plan",
    "the launch checklist",
    "the status page",
    "the invoice export",
    "the feature flag",
    "the caching layer",
    "the support macros",
)
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
_WHEN = ("this morning", "after lunch", "before the standup", "by end of day", "later today")
_ENGLISH = (
    "Can we move the {team} review of {thing} to {day}?",
    "I pushed a fix for {thing}, could {person} take a look {when}?",
    "{person} says {thing} is blocked on the {team} team.",
    "Quick update: {thing} is done and waiting for review.",
    "Let's keep {thing} out of the {day} release, it still needs work.",
    "I think {thing} is slower since the last deploy, I will check the logs {when}.",
    "Thanks {person}, that makes sense to me.",
    "Does anyone know who owns {thing} now?",
    "We agreed to ship {thing} on {day} and revisit the edge cases after.",
    "{person} and I paired on {thing}; notes are in the shared folder.",
    "The {team} sync is moved to {day}, same time.",
    "Reminder that {thing} needs a second reviewer before merge.",
    "I'd rather split {thing} into two smaller changes.",
    "Good catch, I missed that in {thing}.",
    "Can someone from {team} confirm the numbers in {thing}?",
    "I'm out {day}, {person} can cover {thing}.",
)
_CN_THINGS = (
    "发布说明",
    "新用户引导",
    "价格页面",
    "同步任务",
    "数据看板",
    "路线图",
    "接口迁移",
    "测试计划",
)
_CN_DAYS = ("周一", "周二", "周三", "周四", "周五", "下周", "明天")
_CN_TEAMS = ("设计", "平台", "移动端", "数据", "支付", "搜索", "客服")
_CHINESE = (
    "我们能把{thing}的评审改到{day}吗？",
    "{thing}已经修好了，麻烦{team}组的同事{day}看一下。",
    "{thing}现在卡在{team}组那边。",
    "简单同步一下：{thing}完成了，等待评审。",
    "{thing}这次先不上线，{day}再讨论。",
    "谁现在负责{thing}？",
    "我觉得{thing}比上次部署后慢了，我{day}查一下日志。",
    "好的，谢谢，{thing}的问题我记下了。",
    "{team}组的例会改到{day}，时间不变。",
    "合并{thing}之前还需要第二个人评审。",
)


class ChatProse:
    """Work-chat text in covered languages: English sentences from templates and word lists, a
    share of whole messages in Chinese. ``sentence(n)`` returns about ``n`` words (English) or
    a few Chinese sentences, so it stands wherever the Zipf :class:`TextGen` stood."""

    def __init__(self, seed: int = 11, chinese_share: float = CHINESE_SHARE) -> None:
        self.rng = random.Random(seed)
        self.chinese_share = chinese_share

    def _english(self) -> str:
        r = self.rng
        return r.choice(_ENGLISH).format(
            team=r.choice(_TEAMS),
            thing=r.choice(_THINGS),
            day=r.choice(_DAYS),
            when=r.choice(_WHEN),
            person=r.choice(_PEOPLE),
        )

    def _chinese(self) -> str:
        r = self.rng
        return r.choice(_CHINESE).format(
            thing=r.choice(_CN_THINGS), day=r.choice(_CN_DAYS), team=r.choice(_CN_TEAMS)
        )

    def sentence(self, n: int) -> str:
        if self.rng.random() < self.chinese_share:
            return "".join(self._chinese() for _ in range(max(1, n // 12)))
        out: list[str] = []
        words = 0
        while words < n:
            line = self._english()
            out.append(line)
            words += len(line.split())
        return " ".join(out)


def Words(seed: int = 11, kind: str = "prose") -> TextGen | ChatProse:
    """The ingest benchmark's text: covered-language chat (``prose``), or the plan-latency
    generator's Zipf words over 5,000 made-up words (``synthetic``)."""
    if kind == "synthetic":
        return TextGen(seed=seed, size=5_000)
    return ChatProse(seed=seed)


def text_mix(kind: str) -> str:
    """The language mix a run used, for its output."""
    if kind == "synthetic":
        return "synthetic Zipf words (read as uncovered languages: the floor's slowest path)"
    return (
        f"prose: English {1 - CHINESE_SHARE:.0%} / Chinese {CHINESE_SHARE:.0%} of items "
        "(work chat from templates)"
    )


def make_items(n: int, words: TextGen | ChatProse) -> list[SourceItem]:
    rng = random.Random(5)
    items = []
    for i in range(n):
        day = i * 100 // n
        thread = f"channel-{rng.randrange(50)}/{day}"
        items.append(
            SourceItem(
                external_id=f"msg-{i:06d}",
                text=f"user{rng.randrange(40)}: " + words.sentence(rng.randint(12, 40)),
                occurred_at=START + timedelta(days=day, seconds=i),
                meta={"thread": thread, "channel": thread.split("/")[0]},
            )
        )
    return items


def changed(items: list[SourceItem], share: float, words: TextGen | ChatProse) -> list[SourceItem]:
    rng = random.Random(9)
    picks = set(rng.sample(range(len(items)), int(len(items) * share)))
    return [
        SourceItem(
            external_id=it.external_id,
            text=it.text + " " + words.sentence(5),
            occurred_at=it.occurred_at,
            meta=it.meta,
        )
        if i in picks
        else it
        for i, it in enumerate(items)
    ]


def timed(fn: Any) -> tuple[Any, float]:
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def warm_up(kind: str, n: int = 100) -> None:
    """Ingest and synthesize ``n`` items once, untimed, on a throwaway SQLite database.

    The first items of a process pay one-time loads (the language identifier's model, the
    floor's vocabularies, compiled patterns) that would otherwise land on whichever backend
    runs first and skew the PostgreSQL / SQLite ratio.
    """
    lore = Userlore.open("sqlite://", config=CONFIG)
    try:
        items = make_items(n, Words(seed=99, kind=kind))
        lore.sources.ingest(SCOPE, ItemListSource("warm-up", items), synthesize=False)
        ConnectedKnowledgePipeline(lore.memory.store, batch_size=200).drain(scope=SCOPE)
    finally:
        lore.close()


def bench_memory(n: int, url: str, kind: str = "prose") -> dict[str, Any]:
    words = Words(kind=kind)
    items = make_items(n, words)
    lore = Userlore.open(url, config=CONFIG)
    pipeline = ConnectedKnowledgePipeline(lore.memory.store, batch_size=200)
    try:
        fresh, t_ingest = timed(
            lambda: lore.sources.ingest(SCOPE, ItemListSource("bench", items), synthesize=False)
        )
        assert fresh.counts.added == n
        with counted(lore) as statements:
            synth, t_synth = timed(lambda: pipeline.drain(scope=SCOPE))
        assert synth.created == n, synth
        zero, t_zero = timed(lambda: lore.sources.ingest(SCOPE, ItemListSource("bench", items)))
        assert zero.counts.unchanged == n and zero.counts.changed == 0
        one, t_one = timed(
            lambda: lore.sources.ingest(SCOPE, ItemListSource("bench", changed(items, 0.01, words)))
        )
        assert one.counts.modified == n // 100 and one.synthesis is not None
        assert one.synthesis.revised == n // 100
        return {
            "source": "in-memory list (complete snapshot)",
            "items": n,
            "ingest_s": t_ingest,
            "ingest_items_per_s": n / t_ingest,
            "synthesis_s": t_synth,
            "synthesis_items_per_s": n / t_synth,
            "synthesis_statements": statements[0],
            "fresh_end_to_end_items_per_s": n / (t_ingest + t_synth),
            "resync_0_changes_s": t_zero,
            "resync_1pct_changes_s": t_one,
            "daily_notes": synth.notes,
        }
    finally:
        lore.close()


@contextmanager
def counted(lore: Userlore) -> Iterator[list[int]]:
    """Count the statements sent while the block runs (``[n]``): round trips do not move
    with the machine's load, so a regression in them shows even in a noisy run."""
    box = [0]

    def count(*_: Any) -> None:
        box[0] += 1

    engine = lore.memory.store.engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        yield box
    finally:
        event.remove(engine, "before_cursor_execute", count)


def bench_vault(n: int, folder: Path, url: str, kind: str = "prose") -> dict[str, Any]:
    words = Words(seed=3, kind=kind)
    root = folder / "vault"
    rng = random.Random(4)
    for i in range(n):
        sub = root / f"area-{i % 20}" / f"topic-{i % 7}"
        sub.mkdir(parents=True, exist_ok=True)
        date = (START + timedelta(days=i * 100 // n)).date().isoformat()
        (sub / f"note-{i:06d}.md").write_text(
            f"---\ntitle: Note {i}\ndate: {date}\ntags: [t{i % 13}]\n---\n"
            + "\n\n".join(words.sentence(rng.randint(10, 30)) for _ in range(3)),
            encoding="utf-8",
        )
    lore = Userlore.open(url, config=CONFIG)
    adapter = MarkdownVaultAdapter(root, label="bench vault")
    try:
        fresh, t_ingest = timed(lambda: lore.sources.ingest(SCOPE, adapter, synthesize=False))
        assert fresh.counts.added == n, fresh.counts
        synth, t_synth = timed(lambda: lore.sources.sync_pending(SCOPE))
        zero, t_zero = timed(lambda: lore.sources.ingest(SCOPE, adapter))
        assert zero.counts.changed == 0
        files = sorted(root.rglob("*.md"))
        for path in random.Random(8).sample(files, n // 100):
            path.write_text(path.read_text() + "\n\nEdited.", encoding="utf-8")
            st = path.stat()
            os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
        one, t_one = timed(lambda: lore.sources.ingest(SCOPE, adapter))
        assert one.counts.modified == n // 100, one.counts
        return {
            "source": "Markdown vault (cursor)",
            "items": n,
            "ingest_s": t_ingest,
            "ingest_items_per_s": n / t_ingest,
            "synthesis_s": t_synth,
            "synthesis_items_per_s": n / t_synth,
            "fresh_end_to_end_items_per_s": n / (t_ingest + t_synth),
            "resync_0_changes_s": t_zero,
            "resync_1pct_changes_s": t_one,
            "daily_notes": synth.notes,
        }
    finally:
        lore.close()


_SIZES = text(
    "SELECT c.relname AS name, c.reltuples::bigint AS rows, pg_table_size(c.oid) AS table_bytes, "
    "pg_indexes_size(c.oid) AS index_bytes FROM pg_class c JOIN pg_namespace n "
    "ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r' "
    "ORDER BY pg_total_relation_size(c.oid) DESC"
)


def sizing(n: int, url: str, queries: int = 200, kind: str = "prose") -> dict[str, Any]:
    """Load ``n`` items into one scope, then measure what an operator sizes a server by."""
    words = Words(kind=kind)
    lore = Userlore.open(url, config=CONFIG)
    pipeline = ConnectedKnowledgePipeline(lore.memory.store, batch_size=500)
    try:
        _, t_ingest = timed(
            lambda: lore.sources.ingest(
                SCOPE, ItemListSource("bench", make_items(n, words)), synthesize=False
            )
        )
        synth, t_synth = timed(lambda: pipeline.drain(scope=SCOPE))
        admin = create_engine(url, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text("VACUUM ANALYZE"))
            tables = [dict(r._mapping) for r in conn.execute(_SIZES)]
            database = int(conn.scalar(text("SELECT pg_database_size(current_database())")))
        admin.dispose()
        rng = random.Random(3)
        asks = [
            f"what did user{rng.randrange(40)} say about {words.sentence(3)}?"
            for _ in range(queries)
        ]
        for q in asks[:10]:
            lore.plan_context(scope=SCOPE, query=q)
        latencies = []
        for q in asks:
            t0 = time.perf_counter()
            lore.plan_context(scope=SCOPE, query=q)
            latencies.append((time.perf_counter() - t0) * 1000)
    finally:
        lore.close()
    return {
        "items": n,
        "records": synth.created + synth.notes,
        "ingest_items_per_s": n / t_ingest,
        "synthesis_items_per_s": n / t_synth,
        "database_bytes": database,
        "tables": tables[:8],
        "plan_p50_ms": percentile(latencies, 50),
        "plan_p95_ms": percentile(latencies, 95),
    }


def table(rows: Sequence[dict[str, Any]]) -> str:
    head = (
        "| backend | source | items | ingest items/s | synthesis items/s "
        "| fresh end-to-end items/s | re-sync, 0 changed | re-sync, 1% changed |\n"
        "|---|---|---:|---:|---:|---:|---:|---:|"
    )
    lines = [head]
    for r in rows:
        lines.append(
            f"| {r['backend']} | {r['source']} | {r['items']:,} | {r['ingest_items_per_s']:,.0f} "
            f"| {r['synthesis_items_per_s']:,.0f} | {r['fresh_end_to_end_items_per_s']:,.0f} "
            f"| {r['resync_0_changes_s'] * 1000:,.0f} ms "
            f"| {r['resync_1pct_changes_s'] * 1000:,.0f} ms |"
        )
    return "\n".join(lines)


def ratio_lines(rows: Sequence[dict[str, Any]]) -> list[str]:
    """PostgreSQL over SQLite items/s per source, from one run (the goal of issue 24: >= 0.8)."""
    lines = []
    by = {(r["backend"], r["source"]): r for r in rows}
    for (backend, source), pg in by.items():
        lite = by.get(("sqlite", source))
        if backend != "postgres" or lite is None:
            continue
        parts = [
            f"{k.removesuffix('_items_per_s')} {pg[k]:,.0f}/{lite[k]:,.0f} = {pg[k] / lite[k]:.2f}x"
            for k in ("ingest_items_per_s", "synthesis_items_per_s")
        ]
        if "synthesis_statements" in pg:
            parts.append(
                f"synthesis statements {pg['synthesis_statements']:,}"
                f"/{lite['synthesis_statements']:,}"
            )
        lines.append(f"postgres/sqlite items/s, {source}: " + "; ".join(parts))
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--skip-vault", action="store_true")
    parser.add_argument(
        "--backend",
        choices=["sqlite", "postgres", "both"],
        default="sqlite",
        help="postgres: USERLORE_DATABASE_URL (databases are created there), else a throwaway "
        "server started here; both: SQLite, then PostgreSQL in the same run, with the ratios",
    )
    parser.add_argument("--sizing", type=int, default=0, metavar="N")
    parser.add_argument(
        "--text",
        choices=TEXT_KINDS,
        default="prose",
        help="prose: English and Chinese work chat (covered languages, the common path); "
        "synthetic: made-up Zipf words (an uncovered language: the floor's slowest path)",
    )
    args = parser.parse_args(argv)
    print(f"text: {text_mix(args.text)}", flush=True)
    if args.sizing:
        with database_urls("postgres") as fresh_url:
            result = sizing(args.sizing, fresh_url(), kind=args.text)
            print(json.dumps({"sizing": result, "text": args.text}, default=str))
        return 0
    backends = ["sqlite", "postgres"] if args.backend == "both" else [args.backend]
    warm_up(args.text)
    rows: list[dict[str, Any]] = []
    for backend in backends:
        with tempfile.TemporaryDirectory() as tmp, database_urls(backend) as fresh_url:
            rows.append({"backend": backend, **bench_memory(args.items, fresh_url(), args.text)})
            if not args.skip_vault:
                rows.append(
                    {
                        "backend": backend,
                        **bench_vault(args.items, Path(tmp), fresh_url(), args.text),
                    }
                )
    print(table(rows))
    if args.backend == "both":
        for line in ratio_lines(rows):
            print(line)
    print(
        json.dumps(
            {
                "text": args.text,
                "ingest": [
                    {k: (round(v, 4) if isinstance(v, float) else v) for k, v in r.items()}
                    for r in rows
                ],
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
