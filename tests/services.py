"""PostgreSQL and Redis for the scale-out tests: a fresh database each time, one Redis.

Outside CI a missing server skips those tests with a one-line reason; under CI
(CI=true) it fails them. Other servers than the local defaults can be named with
TYSIAC_TEST_POSTGRES (a URL of a database to create others from, trust or password
in the URL) and TYSIAC_TEST_REDIS (a redis:// URL; pick a database number of its own).
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

import asyncpg
import pytest
import redis

POSTGRES = os.environ.get("TYSIAC_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS = os.environ.get("TYSIAC_TEST_REDIS", "redis://127.0.0.1:6379/15")


def unavailable(what: str, error: Exception) -> NoReturn:
    reason = f"{what} is not reachable ({type(error).__name__}: {error})"
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}: CI needs it for the scale-out tests")
    pytest.skip(f"{reason}; the scale-out tests need it")


def redis_url_or_skip() -> str:
    try:
        with redis.Redis.from_url(REDIS, socket_connect_timeout=2) as client:
            client.ping()
    except redis.RedisError as error:
        unavailable(f"Redis at {REDIS}", error)
    return REDIS


def sql(url: str, query: str, *args: Any) -> list[asyncpg.Record]:
    """Run one statement on a PostgreSQL database (a plain postgresql:// URL or ours)."""

    async def run() -> list[asyncpg.Record]:
        conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
        try:
            rows: list[asyncpg.Record] = await conn.fetch(query, *args)
            return rows
        finally:
            await conn.close()

    return asyncio.run(run())


@contextmanager
def fresh_database() -> Iterator[str]:
    """A new, empty PostgreSQL database for one test; its SQLAlchemy URL. Dropped after."""
    name = f"tysiac_test_{secrets.token_hex(6)}"
    try:
        sql(POSTGRES, f"CREATE DATABASE {name}")
    except (OSError, asyncpg.PostgresError) as error:
        unavailable(f"PostgreSQL at {POSTGRES}", error)
    base, _, _ = POSTGRES.rpartition("/")
    try:
        yield f"{base.replace('postgresql://', 'postgresql+asyncpg://')}/{name}"
    finally:
        sql(POSTGRES, f"DROP DATABASE {name} WITH (FORCE)")
