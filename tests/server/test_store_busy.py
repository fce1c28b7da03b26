"""A store that does not answer in time: the request is refused as ``store_busy`` (503), the
log says so without the statement, and nothing is changed."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from tysiac.server.errors import ServiceError
from tysiac.server.game import lobby
from tysiac.store.schema import games

from .harness import host_game, sqlite_service

WAIT = 0.3  # seconds a request waits for a connection here


async def hold_all(engine: AsyncEngine, held: AsyncExitStack) -> None:
    pool: Any = engine.pool
    for _ in range(pool.size() + pool._max_overflow - pool.checkedout()):
        await held.enter_async_context(engine.connect())


def test_no_free_connection_in_time_is_busy_and_changes_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def scenario() -> None:
        async with sqlite_service(tmp_path / "busy.db", wait_seconds=WAIT) as service:
            engine = service.store.engine

            async def create() -> str:
                return (await host_game(service, 2, public=True)).code

            async def busy(request: Awaitable[object]) -> None:
                started = time.monotonic()
                with pytest.raises(ServiceError) as refused:
                    await request
                assert (refused.value.code, refused.value.status) == ("store_busy", 503)
                assert "przeciążony" in refused.value.message
                assert time.monotonic() - started < WAIT + 2  # told at once, not after 30 s

            async with AsyncExitStack() as held:  # every free connection of the pool, taken
                await hold_all(engine, held)
                await busy(create())  # the writer has no connection yet: it waits for one
            code = await create()  # the connections are back: it is created now
            service.forget(code)  # a cold cache: its next state is read
            async with AsyncExitStack() as held:
                await hold_all(engine, held)
                await busy(service.table(code))
                await busy(lobby.public_games(service))
            assert (await service.table(code)).version >= 1
            async with engine.connect() as conn:  # the refused creation left nothing behind
                assert (await conn.execute(select(func.count()).select_from(games))).scalar() == 1

    with caplog.at_level(logging.WARNING, logger="tysiac.server.errors"):
        asyncio.run(scenario())
    warned = [r.getMessage() for r in caplog.records if r.name == "tysiac.server.errors"]
    assert len(warned) <= 1  # once a minute at most, however many were refused
    assert all("SELECT" not in line and "INSERT" not in line for line in warned)
