"""The migrations build exactly the tables that store/schema.py declares."""

from __future__ import annotations

import asyncio
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Connection

from tysiac.store import backend
from tysiac.store.schema import metadata


def test_migrations_match_the_declared_schema(tmp_path: Path) -> None:
    async def differences() -> list[object]:
        engine = backend.create_engine(f"sqlite+aiosqlite:///{tmp_path / 'schema.db'}")
        await backend.migrate(engine)

        def compare(conn: Connection) -> list[object]:
            return list(compare_metadata(MigrationContext.configure(conn), metadata))

        async with engine.connect() as conn:
            found = await conn.run_sync(compare)
        await engine.dispose()
        return found

    assert asyncio.run(differences()) == []
