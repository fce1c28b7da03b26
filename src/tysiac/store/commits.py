"""Group commit: on SQLite, the writes of many commands share one transaction and one commit.

SQLite has one writer at a time, and every commit is an fsync (``synchronous=FULL``).
Committing each command on its own made the commits, and the thread hops around each
statement, a queue that every game waited in: at a few hundred moves a second the
queue was the server's limit, not its CPU. Here the commands still write one at a time,
but into one open transaction, each in a savepoint of its own; the transaction is
committed as soon as the commands waiting when it opened have written, and only then is
each of them let go. So a command is still told "done" only once its writes are on disk,
a command that fails undoes its own writes and nobody else's, and one fsync covers every
command that queued meanwhile (during the previous commit, most of them).

PostgreSQL has no such queue (row locks, many writers): there each command has a
transaction of its own (``postgres.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncTransaction

from . import backend

_inside: contextvars.ContextVar[bool] = contextvars.ContextVar("inside_group_commit", default=False)


def sqlite_connection(conn: AsyncConnection) -> sqlite3.Connection:
    """The SQLite connection under ``conn``, for statements run straight on this thread.

    aiosqlite keeps it in its (private) ``_conn`` and runs each statement in a thread of
    its own; here it is called directly. Safe while nothing else uses the connection at
    the same time: the caller must hold the connection's transaction alone and have
    awaited every statement it sent through aiosqlite, as the group commit's turn
    guarantees.
    """
    sync = conn.sync_connection
    assert sync is not None, "the connection is not open"
    driver: Any = sync.connection.driver_connection  # aiosqlite's Connection
    raw: sqlite3.Connection = driver._conn
    return raw


class BrokenBatch(Exception):
    """A command of the batch failed and its undo too: the others' writes are lost."""


class _Batch:
    """One open transaction and the commit its commands wait for."""

    def __init__(self, writer: _Writer, transaction: AsyncTransaction) -> None:
        self.writer = writer
        self.conn = writer.conn
        self.transaction = transaction
        self.committed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.commands = 0  # that wrote in it and wait for its commit
        self.broken = False  # a command's undo failed: the connection is gone


class _Writer:
    """The connection every batch writes on, kept open from one batch to the next: taking
    one from the pool and handing it back (with its reset) for each batch cost more
    than a move's writes."""

    def __init__(self, conn: AsyncConnection, driver: Any) -> None:
        self.conn = conn
        self.driver = driver  # the aiosqlite connection under ``conn``
        self.sqlite = sqlite_connection(conn)  # the same, called on this thread

    @classmethod
    async def open(cls, engine: AsyncEngine) -> _Writer:
        conn = await backend.writer(engine).connect()
        try:
            return cls(conn, (await conn.get_raw_connection()).driver_connection)
        except BaseException:
            await conn.close()
            raise


class GroupCommit:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._turn = asyncio.Lock()  # one command writes at a time (and the commit)
        self._writer: _Writer | None = None  # None: opened by the next batch
        self._open: _Batch | None = None
        self._committing: set[asyncio.Task[None]] = set()  # held until done
        self.commits = 0  # transactions committed: with ``commands``, the batching
        self.commands = 0

    @asynccontextmanager
    async def writing(self) -> AsyncIterator[AsyncConnection]:
        """A connection inside the shared transaction; on leaving the block, this command's
        writes are committed (or, if the block raised, undone: only its own)."""
        if _inside.get():
            raise RuntimeError("writing() inside writing(): it would wait for itself")
        token = _inside.set(True)
        try:
            async with self._turn:
                batch = self._open or await self._begin()
                # A savepoint: undone alone on error. Straight on SQLite, on this thread
                # (``sqlite_connection``): SQLAlchemy's own (begin_nested), and even
                # a hop to aiosqlite's thread, cost more than the command's writes.
                batch.writer.sqlite.execute("SAVEPOINT command")
                try:
                    yield batch.conn
                except BaseException:
                    await self._undo(batch)
                    raise  # the block's own error: a cancel stays a cancel
                batch.writer.sqlite.execute("RELEASE command")
                batch.commands += 1
        finally:
            _inside.reset(token)
        await asyncio.shield(batch.committed)

    async def close(self) -> None:
        """Wait for the commits under way, then close the writing connection."""
        async with self._turn:
            pass  # a batch still open is committed by its task, queued before this
        if self._committing:
            await asyncio.gather(*self._committing, return_exceptions=True)
        if self._writer is not None:
            writer, self._writer = self._writer, None
            await writer.conn.close()

    async def _undo(self, batch: _Batch) -> None:
        """Undo the failed command's savepoint. Should that fail too (SQLAlchemy closes a
        connection whose statement was cancelled), the batch is lost: nobody was told of
        its writes yet, its commit fails them all, and the next command opens a new one.
        Through aiosqlite: it then runs after any statement of the command still running
        in aiosqlite's thread (one that was cancelled, say)."""
        try:
            await batch.writer.driver.execute("ROLLBACK TO command")
            await batch.writer.driver.execute("RELEASE command")
        except Exception:
            batch.broken = True
            if self._open is batch:
                self._open = None
            await self._discard(batch.writer)

    async def _discard(self, writer: _Writer) -> None:
        """Throw the connection away, its transaction in doubt (left open, say): the next
        batch opens another. Closing the same one again does nothing."""
        if self._writer is writer:
            self._writer = None
        with contextlib.suppress(Exception):
            await writer.conn.invalidate()
        with contextlib.suppress(Exception):
            await writer.conn.close()

    async def _begin(self) -> _Batch:
        if self._writer is None:
            self._writer = await _Writer.open(self.engine)
        writer = self._writer
        try:
            batch = _Batch(writer, await writer.conn.begin())
        except BaseException:
            await self._discard(writer)
            raise
        self._open = batch
        # Queued behind the commands already waiting for their turn: they join this batch.
        task = asyncio.get_running_loop().create_task(self._commit(batch))
        self._committing.add(task)
        task.add_done_callback(self._committing.discard)
        return batch

    async def _commit(self, batch: _Batch) -> None:
        async with self._turn:
            if self._open is batch:
                self._open = None
            try:
                if batch.broken:
                    raise BrokenBatch("the batch's connection was lost before its commit")
                if batch.commands:
                    await batch.transaction.commit()
                    self.commits += 1
                    self.commands += batch.commands
                else:
                    await batch.transaction.rollback()
            except asyncio.CancelledError:  # the server stops: nobody is told it was stored
                batch.committed.cancel()
                await self._discard(batch.writer)
                raise
            except Exception as error:  # the disk, say: every command of the batch fails
                # A failed COMMIT may leave SQLite's transaction open.
                await self._discard(batch.writer)
                batch.committed.set_exception(error)
                batch.committed.exception()  # retrieved: each waiting command raises it
            else:
                batch.committed.set_result(None)
