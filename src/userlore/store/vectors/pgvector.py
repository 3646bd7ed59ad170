"""PostgreSQL's ``vector`` extension: the columns and HNSW indexes, and the SQL that searches
them for a scope too large to score exactly in numpy."""

from __future__ import annotations

from sqlalchemy import Connection, TextClause, text

from userlore.store.vectors.codec import Vector, VectorKind, literal

__all__ = [
    "pgvector_ddl",
    "pgvector_scope_size",
    "pgvector_search",
    "pgvector_set",
    "pgvector_top",
    "pgvector_tuning",
    "server_version",
]

EXACT_BELOW = 10_000
"""Vectors of one scope below which search is exact (numpy) even when pgvector is there."""
_EF_SEARCH = 40
"""pgvector's default ``hnsw.ef_search``; raised to ``k`` when a search asks for more."""
_EF_SEARCH_MAX = 1000
"""pgvector's largest ``hnsw.ef_search``."""


def server_version(text_version: str) -> tuple[int, ...]:
    """``"0.8.1"`` as ``(0, 8)``: what the iterative-scan check compares."""
    return tuple(int(part) for part in text_version.split(".")[:2] if part.isdigit())


def pgvector_ddl(dims: int) -> list[TextClause]:
    """The ``vector`` columns and HNSW (cosine) indexes, once the dimensions are known."""
    statements = []
    for table in ("memory_record_vectors", "memory_evidence_vectors"):
        statements.append(
            text(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS embedding vector({int(dims)})")
        )
        statements.append(
            text(
                f"CREATE INDEX IF NOT EXISTS ix_{table}_hnsw ON {table} "
                "USING hnsw (embedding vector_cosine_ops)"
            )
        )
    return statements


def pgvector_tuning(iterative: bool) -> TextClause:
    """Settings for one search transaction: ``ef_search`` (candidates kept) ≥ ``k``, and
    pgvector ≥ 0.8's iterative scan.

    HNSW finds ``ef_search`` nearest vectors of **every** scope, then the scope filter drops the
    others': without an iterative scan a scope whose vectors are not among the nearest overall
    would get fewer than ``k`` hits, or none. The iterative scan keeps walking the graph until
    ``k`` rows pass the filter (``relaxed_order``: the caller re-sorts by score).
    """
    iterate = ", set_config('hnsw.iterative_scan', 'relaxed_order', true)" if iterative else ""
    return text(f"SELECT set_config('hnsw.ef_search', :ef, true){iterate}")


def pgvector_search(kind: VectorKind) -> TextClause:
    """Nearest vectors of one scope by cosine distance (pgvector's ``<=>``), best first."""
    table = "memory_record_vectors" if kind == "record" else "memory_evidence_vectors"
    column = "record_id" if kind == "record" else "source_item_id"
    return text(
        f"SELECT {column} AS id, 1 - (embedding <=> CAST(:q AS vector)) AS score FROM {table} "
        "WHERE scope = :scope AND model = :model AND embedding IS NOT NULL "
        "ORDER BY embedding <=> CAST(:q AS vector) LIMIT :k"
    )


def pgvector_scope_size(kind: VectorKind) -> TextClause:
    """How many vectors ``scope`` has, counted up to ``:cap`` (an index-only scan of ≤ cap)."""
    table = "memory_record_vectors" if kind == "record" else "memory_evidence_vectors"
    return text(
        f"SELECT count(*) FROM (SELECT 1 FROM {table} WHERE scope = :scope LIMIT :cap) AS s"
    )


def pgvector_set(kind: VectorKind) -> TextClause:
    """Copies a written vector into the ``vector`` column (``:v``, ``:scope``, ``:id``)."""
    table = "memory_record_vectors" if kind == "record" else "memory_evidence_vectors"
    column = "record_id" if kind == "record" else "source_item_id"
    return text(
        f"UPDATE {table} SET embedding = CAST(:v AS vector) WHERE scope = :scope AND {column} = :id"
    )


def pgvector_top(
    conn: Connection,
    scope: str,
    kind: VectorKind,
    query: Vector,
    k: int,
    *,
    model: str,
    iterative: bool,
) -> list[tuple[str, float]]:
    """The HNSW index's ``k`` nearest of ``scope``: ``(id, cosine)``, best first."""
    ef = min(_EF_SEARCH_MAX, max(_EF_SEARCH, k))
    conn.execute(pgvector_tuning(iterative), {"ef": str(ef)})
    params = {"q": literal(query), "scope": scope, "model": model, "k": k}
    rows = conn.execute(pgvector_search(kind), params)
    return sorted(((r.id, float(r.score)) for r in rows), key=lambda hit: -hit[1])
