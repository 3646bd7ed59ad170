from langgraph.store.postgres.aio import AsyncPostgresStore
from langgraph.store.postgres.base import PoolConfig, PostgresStore

__all__ = ["AsyncPostgresStore", "PoolConfig", "PostgresStore"]
