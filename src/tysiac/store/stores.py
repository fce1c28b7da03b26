"""The store as the game service sees it: one interface, chosen once at start-up.

The service reads and writes through a ``Store`` and never asks which database is
under it. Two stores keep the same contract:

- ``SqliteStore`` (``store/sqlite.py``): one server process and its SQLite file. Its
  writes are group-committed, and it is the file's only writer, so the game rows it
  committed are the truth and a command starts from them without reading.
- ``PostgresStore`` (``store/postgres.py``): several processes share the database. A
  command reads its game's row under the row lock, which serialises the game's
  commands across processes.

The query modules (``gamedb``, ``moderationdb``, ``statsdb``, ``contact``) take the
connection a store hands out, so every command is one transaction, committed before
anyone is told of it.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import Protocol

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from .gamedb import GameRow, NewEvents
from .postgres import PostgresStore
from .sqlite import SqliteStore


class Store(Protocol):
    engine: AsyncEngine

    def reading(self) -> AbstractAsyncContextManager[AsyncConnection]:
        """A connection to read on, outside any write transaction."""

    def writing(self) -> AbstractAsyncContextManager[AsyncConnection]:
        """A write transaction, committed (on disk) when the block is left without error,
        undone (this command's writes alone) when it raises."""

    async def game(self, conn: AsyncConnection, code: str) -> GameRow | None:
        """The game's row as stored now, or None for no such game."""

    async def game_to_change(
        self, conn: AsyncConnection, code: str, *, sweeping: bool
    ) -> GameRow | None:
        """The row a command of the game starts from, held by this transaction until it
        ends. None: no such game or, ``sweeping``, a row another process holds now."""

    def known_version(self, code: str) -> int | None:
        """The game's version if this store knows it is current without reading (its
        own last commit), else None."""

    async def store_change(self, conn: AsyncConnection, row: GameRow, *, version_was: int) -> None:
        """Write the game's row after a change; ``gamedb.StaleRow`` if it is not at
        ``version_was``."""

    async def append_events(
        self, conn: AsyncConnection, game_id: int, first_seq: int, new: NewEvents, at: datetime
    ) -> None:
        """Append a command's events to the game's log from sequence number ``first_seq``."""

    def committed(self, row: GameRow) -> None:
        """The transaction that stored ``row`` has committed."""

    def forget(self, code: str) -> None:
        """The game left the service's cache (deleted, cancelled as broken)."""

    async def close(self) -> None:
        """The server stops: the writes under way are finished."""


def open_store(engine: AsyncEngine) -> Store:
    """The store for the engine's database (SQLite or PostgreSQL), chosen here once."""
    if engine.dialect.name == "sqlite":
        return SqliteStore(engine)
    return PostgresStore(engine)
