"""The store on PostgreSQL, shared by several server processes.

Each command is a transaction of its own on a pooled connection, and starts by reading
its game's row under the row lock (``SELECT … FOR UPDATE``): the game's commands, from
every process, queue there. A sweeper's command skips a row another process holds
(``SKIP LOCKED``): that process is on it. The pool checks a connection before handing it
out (``pool_pre_ping``), so one the database closed (a restart, a failover) is replaced
instead of failing the command; one closed under a command before its commit makes the
service run the command again (``errors.Unstored``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import gamedb
from .gamedb import GameRow, NewEvents, StaleRow


class PostgresStore:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[AsyncConnection]:
        async with self.engine.connect() as conn:
            yield conn

    @asynccontextmanager
    async def writing(self) -> AsyncIterator[AsyncConnection]:
        async with self.engine.begin() as conn:
            yield conn

    async def game(self, conn: AsyncConnection, code: str) -> GameRow | None:
        return await gamedb.game_by_code(conn, code)

    async def game_to_change(
        self, conn: AsyncConnection, code: str, *, sweeping: bool
    ) -> GameRow | None:
        return await gamedb.game_by_code(conn, code, lock=True, skip_locked=sweeping)

    def known_version(self, code: str) -> int | None:
        return None  # other processes change games too: only a read knows

    async def store_change(self, conn: AsyncConnection, row: GameRow, *, version_was: int) -> None:
        if not await gamedb.store_change(conn, row, version_was=version_was):
            raise StaleRow(row.code)

    async def append_events(
        self, conn: AsyncConnection, game_id: int, first_seq: int, new: NewEvents, at: datetime
    ) -> None:
        await gamedb.append_events(conn, game_id, first_seq, new, at)

    def committed(self, row: GameRow) -> None:
        pass  # nothing kept: the next command reads the row under its lock

    def forget(self, code: str) -> None:
        pass

    async def close(self) -> None:
        pass  # each command's transaction ended with it
