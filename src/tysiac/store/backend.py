"""The engine, the migrations, and the two helpers the query modules share.

Every query function in the store takes an open ``AsyncConnection`` so the caller
decides the transaction: one command of a game is one transaction, committed before
anyone is told about it.

SQLite serves one server process (WAL, ``synchronous=FULL``: a commit is on disk). On
PostgreSQL several processes share the store: a game's commands are serialised by its
row lock, creations by an advisory lock, migrations by another; the sweepers' claims
skip rows that another process holds, and inserts that two processes could race on
are upserts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Table, event, make_url, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

# PostgreSQL advisory lock keys (any fixed numbers, the same in every process).
MIGRATION_LOCK = 1_000_001  # a PostgreSQL advisory lock key (the same in every process)


# PostgreSQL connections a process keeps open, and how many more it may open at a busy
# moment (closed again when handed back). SQLAlchemy's 5 kept were too few under load:
# every command holds one for its transaction and every catching-up read another, and
# the connections opened and closed beyond them (with TLS tried first) cost more than the
# queries. At most 30 a process: three processes fit in PostgreSQL's default 100.
POOL_SIZE = 20
POOL_OVERFLOW = 10
# How long a request waits for a free connection before it is refused as busy (the
# service's 503 ``store_busy``), instead of SQLAlchemy's 30 s: a player is better told.
POOL_WAIT_SECONDS = 10


def create_engine(url: str, *, wait_seconds: float = POOL_WAIT_SECONDS) -> AsyncEngine:
    if make_url(url).get_backend_name() != "sqlite":
        # pool_pre_ping: a connection the database closed (a restart, a failover,
        # pg_terminate_backend) is replaced when taken from the pool, not handed to a command.
        return create_async_engine(
            url,
            pool_size=POOL_SIZE,
            max_overflow=POOL_OVERFLOW,
            pool_timeout=wait_seconds,
            pool_pre_ping=True,
        )
    # The SQLite store runs a move's statements on the event loop's thread, on the
    # connection aiosqlite opened in its own (``sqlite.sqlite_connection``).
    engine = create_async_engine(
        url, connect_args={"check_same_thread": False}, pool_timeout=wait_seconds
    )
    _tune_sqlite(engine.sync_engine)
    return engine


WRITER = "tysiac_writer"  # execution option: on SQLite, BEGIN IMMEDIATE (see _tune_sqlite)


def writer(engine: AsyncEngine) -> AsyncEngine:
    """The engine for transactions that write: on SQLite they take the write lock first."""
    return engine.execution_options(**{WRITER: True})


def _tune_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")  # a commit is on disk before anyone is told
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.close()
        # The driver's own transaction handling would commit around SAVEPOINTs: SQLAlchemy
        # begins transactions itself instead (its documented recipe for pysqlite), so the
        # savepoints of group commit (``commits.py``) and transactional DDL work.
        dbapi_connection.isolation_level = None

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        # A transaction that reads before it writes, while another process writes too (the
        # server and the admin command), must take the write lock first: a deferred one
        # cannot turn into a writer once the other has committed since its first read
        # (SQLite answers "database is locked" at once, without waiting).
        immediate = connection.get_execution_options().get(WRITER, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def _upgrade(connection: Connection) -> None:
    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


async def migrate(engine: AsyncEngine) -> None:
    async with writer(engine).begin() as conn:
        # Processes starting at once: one migrates, the others wait and find nothing to do.
        await advisory_lock(conn, MIGRATION_LOCK)
        await conn.run_sync(_upgrade)


async def advisory_lock(conn: AsyncConnection, key: int) -> None:
    """On PostgreSQL, a lock held until the transaction ends; SQLite has one process."""
    if conn.dialect.name == "postgresql":
        await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})


def upsert(conn: AsyncConnection, table: Table) -> postgresql.Insert | sqlite.Insert:
    """INSERT with ``on_conflict_do_nothing`` / ``on_conflict_do_update`` (both dialects)."""
    return (postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert)(table)
