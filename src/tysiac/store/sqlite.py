"""The store on SQLite: one server process, the only writer of its file.

Three things make a move cheap here, each measured under load (``bench/load.py``,
``bench/sqlite_calls.py``; figures in docs/performance.md):

- **Group commit** (``commits.py``): the commands' writes share one transaction, each
  in a savepoint, and one fsync covers every command that queued meanwhile. A command
  is still told "done" only once its writes are on disk.
- **Rows kept**: the store is the file's only writer, so the game rows it committed are
  the truth, and a command starts from them without reading. A row changed behind it
  (the admin command, another process) shows when the version-checked update finds
  nothing: ``StaleRow``, and the service decides the command again on a fresh read.
- **Prepared statements on the loop's thread**: the two statements of every move (the
  row and its events) are compiled once by SQLAlchemy (SQL, parameter order, its own
  bind processors) and run on the SQLite connection directly, under the group commit's
  turn; SQLAlchemy's work around a statement, and aiosqlite's thread hop, cost more
  than SQLite's. Every other statement goes through SQLAlchemy as usual.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import datetime
from typing import Any

from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ClauseElement

from . import gamedb
from .commits import GroupCommit, sqlite_connection
from .gamedb import GameRow, NewEvents, StaleRow


class SqliteStore:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.commits = GroupCommit(engine)
        self._rows: dict[str, GameRow] = {}  # by code: as last read or committed

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[AsyncConnection]:
        async with self.engine.connect() as conn:
            yield conn

    def writing(self) -> AbstractAsyncContextManager[AsyncConnection]:
        return self.commits.writing()

    async def game(self, conn: AsyncConnection, code: str) -> GameRow | None:
        row = await gamedb.game_by_code(conn, code)
        kept = self._rows.get(code)
        if row is not None and (kept is None or kept.version <= row.version):
            self._rows[code] = row  # a read that a commit overtook is not kept
        return row

    async def game_to_change(
        self, conn: AsyncConnection, code: str, *, sweeping: bool
    ) -> GameRow | None:
        return self._rows.get(code) or await self.game(conn, code)

    def known_version(self, code: str) -> int | None:
        row = self._rows.get(code)
        return None if row is None else row.version

    async def store_change(self, conn: AsyncConnection, row: GameRow, *, version_was: int) -> None:
        if not await _STORE_CHANGE.run(conn, gamedb.change_values(row, version_was)):
            self._rows.pop(row.code, None)
            raise StaleRow(row.code)

    async def append_events(
        self, conn: AsyncConnection, game_id: int, first_seq: int, new: NewEvents, at: datetime
    ) -> None:
        await _APPEND_EVENTS.run_many(conn, gamedb.event_rows(game_id, first_seq, new, at))

    def committed(self, row: GameRow) -> None:
        self._rows[row.code] = row

    def forget(self, code: str) -> None:
        self._rows.pop(code, None)

    async def close(self) -> None:
        await self.commits.close()


Order = list[tuple[str, Any]]  # each parameter's name and bind processor


class Prepared:
    """One statement, compiled for SQLite with its parameters in order."""

    def __init__(self, statement: ClauseElement, keys: Sequence[str] | None = None) -> None:
        self.statement = statement
        self.keys = keys  # the columns of an INSERT's rows
        self._compiled: tuple[str, Order] | None = None

    def _compile(self, dialect: Dialect) -> tuple[str, Order]:
        if self._compiled is None:
            compiled = self.statement.compile(dialect=dialect, column_keys=self.keys)
            assert isinstance(compiled, SQLCompiler) and compiled.positiontup is not None
            order = [
                (name, compiled.binds[name].type.bind_processor(dialect))
                for name in compiled.positiontup
            ]
            self._compiled = (str(compiled), order)
        return self._compiled

    def _row(self, order: Order, values: Mapping[str, Any]) -> tuple[Any, ...]:
        return tuple(
            values[name] if process is None else process(values[name]) for name, process in order
        )

    async def run(self, conn: AsyncConnection, values: Mapping[str, Any]) -> int:
        """Run it once: the number of rows it changed."""
        sql, order = self._compile(conn.dialect)
        return sqlite_connection(conn).execute(sql, self._row(order, values)).rowcount

    async def run_many(self, conn: AsyncConnection, rows: Sequence[Mapping[str, Any]]) -> None:
        sql, order = self._compile(conn.dialect)
        sqlite_connection(conn).executemany(sql, [self._row(order, row) for row in rows])


_STORE_CHANGE = Prepared(gamedb.STORE_CHANGE)
_APPEND_EVENTS = Prepared(gamedb.APPEND_EVENTS, ["game_id", "seq", "kind", "data", "at"])
