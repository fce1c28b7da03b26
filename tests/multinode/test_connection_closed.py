"""A command whose connection PostgreSQL closes under it (a restart, a failover,
``pg_terminate_backend``) before its commit runs again once, on a new connection; closed
again, it is refused as ``store_busy`` with nothing stored. A connection closed under the
commit itself is ``store_busy`` too (the command is not run again: the database may
have taken it). Never a traceback in the log."""

from __future__ import annotations

import asyncio
import logging
import random
from datetime import datetime

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from tysiac.bus.local import LocalBus
from tysiac.server.config import Settings
from tysiac.server.errors import ServiceError, Unstored
from tysiac.server.game import lobby
from tysiac.server.game.service import GameService
from tysiac.store import backend
from tysiac.store.gamedb import NewEvents
from tysiac.store.postgres import PostgresStore

from ..server.harness import service_move


class ClosingStore(PostgresStore):
    """The PostgreSQL store, whose connection the database closes as a command appends
    its events (the row locked and updated, nothing committed), ``closes`` times."""

    def __init__(self, engine: AsyncEngine) -> None:
        super().__init__(engine)
        self.closes = 0

    async def append_events(
        self, conn: AsyncConnection, game_id: int, first_seq: int, new: NewEvents, at: datetime
    ) -> None:
        if self.closes:
            self.closes -= 1
            await conn.execute(text("SELECT pg_terminate_backend(pg_backend_pid())"))
        await super().append_events(conn, game_id, first_seq, new, at)


async def _service(database: str) -> tuple[GameService, ClosingStore]:
    engine = backend.create_engine(database)
    await backend.migrate(engine)
    store = ClosingStore(engine)
    key = "closed connections " * 4
    service = GameService(store, LocalBus(), Settings(), key, random.Random(1))
    return service, store


async def _stored(engine: AsyncEngine, code: str) -> tuple[int, int]:
    """The game's row version and its count of stored events."""
    async with engine.connect() as conn:
        found = await conn.execute(
            text(
                "SELECT g.version, (SELECT count(*) FROM events e WHERE e.game_id = g.id)"
                " FROM games g WHERE g.code = :code"
            ),
            {"code": code},
        )
        version, events = found.one()
    return int(version), int(events)


def test_a_command_whose_connection_closes_before_its_commit_runs_again_once(
    database: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)

    async def scenario() -> None:
        service, store = await _service(database)
        fresh = None
        try:
            author = service.author(None, "127.0.0.1")
            created = await lobby.create(
                service, nick="Ala", players=2, name=None, public=False, chat=True,
                short=True, move_seconds=60, author=author,
            )  # fmt: skip
            code = created.code
            await lobby.join(service, code, "Bartek", author)
            table = await service.table(code)
            start = await _stored(store.engine, code)
            assert start == (table.version, table.version)

            store.closes = 1  # closed once: the move is made, once
            moved = await service_move(service, table)
            assert moved.version > table.version and store.closes == 0
            assert await _stored(store.engine, code) == (moved.version, moved.version)
            fresh, _ = await _service(database)  # a cold cache reads the stored log
            assert await fresh.table(code) == moved

            store.closes = 2  # closed twice: refused, nothing stored, nothing cached
            with pytest.raises(ServiceError) as refused:
                await service_move(service, moved)
            assert refused.value.code == "store_busy" and refused.value.status == 503
            assert store.closes == 0
            assert await _stored(store.engine, code) == (moved.version, moved.version)
            assert await service.table(code) == moved

            again = await service_move(service, moved)  # the player tries again: made
            assert again.version > moved.version
            assert await _stored(store.engine, code) == (again.version, again.version)
        finally:
            for each in (service, fresh):
                if each is not None:
                    await each.close()
                    await each.store.engine.dispose()

    asyncio.run(scenario())
    told = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert sum("lost its database connection; run again" in m for m in told) == 2, told
    assert [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info] == []


def test_a_connection_closed_under_the_commit_is_refused_as_busy_not_run_again(
    database: str, caplog: pytest.LogCaptureFixture
) -> None:
    async def scenario() -> ServiceError:
        service, store = await _service(database)
        try:
            try:
                async with service.writing() as conn:
                    pid = (await conn.execute(text("SELECT pg_backend_pid()"))).scalar_one()
                    await conn.execute(text("CREATE TABLE closed_under_commit (x int)"))
                    async with store.engine.connect() as other:  # waits until it is gone
                        await other.execute(
                            text("SELECT pg_terminate_backend(:pid, 5000)"), {"pid": pid}
                        )
            except ServiceError as error:
                refused = error
            else:
                raise AssertionError("a commit on a closed connection was taken")
            async with store.engine.connect() as conn:  # a new connection: nothing kept
                kept = await conn.execute(text("SELECT to_regclass('closed_under_commit')"))
                assert kept.scalar_one() is None
            return refused
        finally:
            await service.close()
            await store.engine.dispose()

    refused = asyncio.run(scenario())
    assert refused.code == "store_busy" and refused.status == 503
    assert not isinstance(refused, Unstored)  # under the commit: not run again
    assert [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info] == []
