"""The store on PostgreSQL: migrations, and what two processes may do at once."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Connection, text

from tysiac.server.errors import ServiceError, Unstored, lost_connection, unknown_game
from tysiac.server.game.sweeper import cut_short
from tysiac.store import backend, gamedb, sweeps
from tysiac.store.schema import metadata

from ..rows import insert_plain_game

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def test_two_processes_migrate_at_once_to_exactly_the_declared_schema(database: str) -> None:
    async def differences() -> list[object]:
        engines = [backend.create_engine(database) for _ in range(2)]
        await asyncio.gather(*(backend.migrate(engine) for engine in engines))

        def compare(conn: Connection) -> list[object]:
            return list(compare_metadata(MigrationContext.configure(conn), metadata))

        async with engines[0].connect() as conn:
            found = await conn.run_sync(compare)
        for engine in engines:
            await engine.dispose()
        return found

    assert asyncio.run(differences()) == []


def test_a_finished_game_is_deleted_by_one_sweeper_the_other_skips_it(database: str) -> None:
    async def scenario() -> None:
        engine = backend.create_engine(database)
        await backend.migrate(engine)
        async with engine.begin() as conn:
            game_id = await insert_plain_game(
                conn,
                "K7F9DB",
                NOW - timedelta(days=9),
                status="finished",
                players=2,
                version=1,
                updated_at=NOW - timedelta(days=8),
            )
            await gamedb.append_events(
                conn, game_id, 1, [("joined", {"seat": 0, "nick": "Ala"})], NOW
            )
        before = NOW - timedelta(days=7)
        async with engine.begin() as first:
            assert await sweeps.delete_ended(first, before, NOW) == ["K7F9DB"]
            async with engine.begin() as second:  # meanwhile, in another process
                assert await sweeps.delete_ended(second, before, NOW) == []
        async with engine.connect() as conn:
            notice = await sweeps.deletion_notice(conn, "K7F9DB")
            assert notice is not None and notice.reason == "expired"
            assert await gamedb.game_by_code(conn, "K7F9DB") is None
            assert await gamedb.code_exists(conn, "K7F9DB")  # the notice keeps it from a new game
        await engine.dispose()

    asyncio.run(scenario())


def test_a_connection_the_database_closes_mid_query_is_told_from_other_failures(
    database: str,
) -> None:
    """The sweeper's pass that the database cut short (a restart, a failover) is retried
    by the next pass with a warning, not logged as a fault: the error a terminated
    backend gives is told apart from an ordinary SQL error."""

    async def errors() -> tuple[Exception, Exception]:
        engine = backend.create_engine(database)
        try:
            async with engine.connect() as conn:
                pid = (await conn.execute(text("SELECT pg_backend_pid()"))).scalar_one()
                sleeping = asyncio.create_task(conn.execute(text("SELECT pg_sleep(30)")))
                await asyncio.sleep(0.3)
                async with engine.connect() as other:
                    await other.execute(text(f"SELECT pg_terminate_backend({int(pid)})"))
                try:
                    await sleeping
                except Exception as error:  # the terminated backend's
                    closed = error
                else:
                    raise AssertionError("the query outlived its backend")
            async with engine.connect() as conn:
                try:
                    await conn.execute(text("SELECT 1 / 0"))
                except Exception as error:
                    failed = error
                else:
                    raise AssertionError("1 / 0 was answered")
            return closed, failed
        finally:
            await engine.dispose()

    closed, failed = asyncio.run(errors())
    assert lost_connection(closed)
    assert not lost_connection(failed)
    # The sweeper's pass: a warning for what the store cut short, a fault for the rest.
    assert cut_short(closed) and cut_short(Unstored())
    assert cut_short(ServiceError("error.store_busy", 503))
    assert not cut_short(failed) and not cut_short(unknown_game())
