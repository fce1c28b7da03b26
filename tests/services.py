"""PostgreSQL and Redis for the scale-out tests: a fresh database each time, one Redis.

Outside CI a missing server skips those tests with a one-line reason; under CI
(CI=true) it fails them. Other servers than the local defaults can be named with
TYSIAC_TEST_POSTGRES (a URL of a database to create others from, trust or password
in the URL) and TYSIAC_TEST_REDIS (a redis:// URL; pick a database number of its own).

Several pytest-xdist workers may run at once: each test's PostgreSQL database has a
name of its own anyway, and each worker takes a Redis database of its own, counted down
from the one named (gw0 the one named, gw1 the one below, …). The bus puts the database
number into its channels' names, so the workers' games never hear each other.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import secrets
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn, TypeVar
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest
import redis

POSTGRES = os.environ.get("TYSIAC_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS = os.environ.get("TYSIAC_TEST_REDIS", "redis://127.0.0.1:6379/15")
MIGRATIONS = Path(__file__).resolve().parents[1] / "src" / "tysiac" / "store" / "migrations"
TEMPLATE_LOCK = 0x7953_7465_6D70  # the advisory lock that makes one template at a time

T = TypeVar("T")


def worker_number() -> int:
    """0, or pytest-xdist's worker number (gw3: 3)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return int(worker.removeprefix("gw"))


def worker_redis(url: str = REDIS) -> str:
    """``url`` with this worker's database number: the one named, less the worker's number."""
    parts = urlsplit(url)
    named = int(parts.path.strip("/") or 0)
    number = named - worker_number()
    if number < 0:
        raise RuntimeError(f"{url}: too few Redis databases below it for worker {worker_number()}")
    return urlunsplit(parts._replace(path=f"/{number}"))


def unavailable(what: str, error: Exception) -> NoReturn:
    reason = f"{what} is not reachable ({type(error).__name__}: {error})"
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}: CI needs it for the scale-out tests")
    pytest.skip(f"{reason}; the scale-out tests need it")


def redis_url_or_skip() -> str:
    url = worker_redis()
    try:
        with redis.Redis.from_url(url, socket_connect_timeout=2) as client:
            client.ping()
    except redis.RedisError as error:
        unavailable(f"Redis at {url}", error)
    return url


def run_async(work: Callable[[], Any]) -> Any:
    """``asyncio.run(work())`` in a thread of its own: the browser tests keep Playwright's
    event loop running in the main thread, where asyncio.run() refuses to start."""
    result: list[Any] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            result.append(asyncio.run(work()))
        except BaseException as error:  # handed to the caller
            failure.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return result[0]


def sql(url: str, query: str, *args: Any) -> list[asyncpg.Record]:
    """Run one statement on a PostgreSQL database (a plain postgresql:// URL or ours)."""

    async def run() -> list[asyncpg.Record]:
        conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
        try:
            rows: list[asyncpg.Record] = await conn.fetch(query, *args)
            return rows
        finally:
            await conn.close()

    rows: list[asyncpg.Record] = run_async(run)
    return rows


def migrations_digest() -> str:
    """A digest of the migration scripts: a template made by other scripts is another."""
    digest = hashlib.sha256()
    for path in sorted(MIGRATIONS.rglob("*.py")):
        digest.update(path.relative_to(MIGRATIONS).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def database_url(name: str) -> str:
    """The SQLAlchemy URL of database ``name`` on the PostgreSQL server of POSTGRES."""
    base, _, _ = POSTGRES.rpartition("/")
    return f"{base.replace('postgresql://', 'postgresql+asyncpg://')}/{name}"


_templates: dict[str, str] = {}


def migrated_template() -> str:
    """The name of a PostgreSQL database migrated to the newest revision, as the server
    migrates its own on start (``store.backend.migrate``), to copy for each test.

    It is named for the migrations' digest and kept between runs; runs and workers that
    start together make it once, under an advisory lock. Nobody connects to it after it
    is made (``CREATE DATABASE … TEMPLATE`` needs that)."""
    name = f"tysiac_template_{migrations_digest()}"
    if name in _templates:
        return name
    from tysiac.store.backend import create_engine, migrate

    async def make() -> None:
        conn = await asyncpg.connect(POSTGRES)
        try:
            await conn.execute("SELECT pg_advisory_lock($1)", TEMPLATE_LOCK)
            found = await conn.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", name)
            if found:
                return
            building = f"{name}_building"
            await conn.execute(f"DROP DATABASE IF EXISTS {building} WITH (FORCE)")
            await conn.execute(f"CREATE DATABASE {building}")
            engine = create_engine(database_url(building))
            try:
                await migrate(engine)
            finally:
                await engine.dispose()
            await conn.execute(f"ALTER DATABASE {building} RENAME TO {name}")
        finally:
            await conn.close()  # the advisory lock goes with the session

    try:
        run_async(make)
    except (OSError, asyncpg.PostgresError) as error:
        unavailable(f"PostgreSQL at {POSTGRES}", error)
    _templates[name] = name
    return name


@contextmanager
def fresh_database(*, migrated: bool = False) -> Iterator[str]:
    """A new PostgreSQL database for one test; its SQLAlchemy URL. Dropped after.

    Empty, or with ``migrated`` a copy of the migrated template: what the server's own
    migration on start would have made, which then finds nothing to do."""
    name = f"tysiac_test_{secrets.token_hex(6)}"
    template = f" TEMPLATE {migrated_template()}" if migrated else ""
    try:
        sql(POSTGRES, f"CREATE DATABASE {name}{template}")
    except (OSError, asyncpg.PostgresError) as error:
        unavailable(f"PostgreSQL at {POSTGRES}", error)
    try:
        yield database_url(name)
    finally:
        sql(POSTGRES, f"DROP DATABASE {name} WITH (FORCE)")
