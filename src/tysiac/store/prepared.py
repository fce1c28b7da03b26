"""The statements of every move, compiled once and run on SQLite directly.

Measured under load (bench/load.py), SQLAlchemy's work around each statement (its cache
key, execution context, result and the greenlet hop) cost several times what SQLite
spent running it, and every move runs the same two: the game's row and its new events.
So on SQLite these two are compiled once, by SQLAlchemy (the SQL and the order of its
parameters), with SQLAlchemy's own bind processors (times as UTC text, JSON), and run
on the SQLite connection under the open transaction, on the event loop's thread
(``backend.sqlite_connection``: the group commit's turn makes that safe). Other
backends, and every other statement, go through SQLAlchemy as usual; the stored values
are the same either way (``test_group_commit.py`` reads them back through SQLAlchemy).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ClauseElement

from .backend import sqlite_connection

Order = list[tuple[str, Any]]  # each parameter's name and processor


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
