"""Command line: ``userlore demo`` and store inspection."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from platformdirs import user_data_dir

from userlore import __version__
from userlore.errors import UserloreError

__all__ = ["main"]


def _demo(args: argparse.Namespace) -> int:
    from userlore.demo.run import run_demo

    folder = Path(user_data_dir("userlore", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    db = Path(args.db) if args.db else folder / "demo.db"
    run_demo(db).close()
    return 0


def _plan(args: argparse.Namespace) -> int:
    from userlore.facade import Userlore

    with Userlore.open(args.db) as lore:
        plan = lore.plan_context(scope=args.scope, query=args.query, session_key=args.session)
        print(plan.text or "(nothing selected)")
        print(f"\ntrace {plan.trace_id}: {plan.chars}/{plan.budget} characters")
        for rej in plan.rejected:
            print(f"  rejected {rej.id}: {rej.reason}")
    return 0


def _records(args: argparse.Namespace) -> int:
    from userlore.facade import Userlore

    with Userlore.open(args.db) as lore:
        for rec in lore.records.list(args.scope):
            key = rec.canonical_key or rec.kind
            print(f"{rec.id}  v{rec.version}  {rec.state.value:<12} {key:<32} {rec.content[:60]}")
    return 0


def _reindex(args: argparse.Namespace) -> int:
    from userlore.embeddings.reindex import reindex

    done = reindex(args.db, args.embeddings)
    print(f"{done.records} records, {done.evidence} evidence items: {done.model} ({done.dims}d)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="userlore", description=__doc__)
    parser.add_argument("--version", action="version", version=f"userlore {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    demo = sub.add_parser("demo", help="replay the shipped conversation on embedded SQLite")
    demo.add_argument("--db", help="SQLite file to (re)create; default: the user data dir")
    demo.set_defaults(func=_demo)

    plan = sub.add_parser("plan", help="build a context plan for a query")
    plan.add_argument("--db", help="database URL (default: embedded SQLite)")
    plan.add_argument("--scope", required=True)
    plan.add_argument("--session")
    plan.add_argument("query")
    plan.set_defaults(func=_plan)

    records = sub.add_parser("records", help="list the records of a scope")
    records.add_argument("--db", help="database URL (default: embedded SQLite)")
    records.add_argument("--scope", required=True)
    records.set_defaults(func=_records)

    reindex = sub.add_parser("reindex", help="re-embed every record after a model change")
    reindex.add_argument("--db", help="database URL (default: embedded SQLite)")
    reindex.add_argument("--embeddings", required=True, help="'local' or 'provider:model'")
    reindex.set_defaults(func=_reindex)

    from userlore.service_cli import add_mcp_parser, add_serve_parser

    add_serve_parser(sub)
    add_mcp_parser(sub)

    from userlore.sources.cli import add_sources_parser, add_worker_parser

    add_sources_parser(sub)
    add_worker_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``userlore`` command."""
    args = build_parser().parse_args(argv)
    try:
        code: int = args.func(args)
    except UserloreError as exc:
        print(f"userlore: error: {exc}", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
