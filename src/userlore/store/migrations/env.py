"""Alembic environment: runs on the connection userlore hands over (never reads alembic.ini)."""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from userlore.store.schema import Base

target_metadata = Base.metadata


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        transaction_per_migration=True,
    )
    with context.begin_transaction():
        context.run_migrations()


connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only for the alembic CLI during development
    from sqlalchemy import create_engine

    url = context.config.get_main_option("sqlalchemy.url") or "sqlite://"
    with create_engine(url).connect() as conn:
        _run(conn)
else:
    _run(connection)
