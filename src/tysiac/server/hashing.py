"""The key of the address and device hashes, and the files that must stay private.

Addresses are stored only as HMACs under this key. Anyone who holds both the key and
the stored hashes can try every IPv4 address and read them back in a second, so the
key is never kept in the database it protects:

- ``TYSIAC_HASHING_SECRET`` when it is set (required with PostgreSQL, where every
  process must use the same key);
- else, with SQLite, a key file beside the database (``tysiac.db.key``), made on first
  start with mode 0600. A key that an older version kept in the database is moved
  there, so the hashes already stored keep working.

The SQLite database file (with its ``-wal`` and ``-shm`` files, which SQLite creates
with the database's own mode) is created readable by its owner only.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine

from tysiac.server.config import Settings
from tysiac.store import backend, statsdb

OLD_KEY_NAME = "ip_hash_key"  # where versions before 0.2 kept the key: in the database
PRIVATE = 0o600


class MissingHashingSecret(Exception):
    """PostgreSQL without ``TYSIAC_HASHING_SECRET``: the processes could not share a key."""


def sqlite_file(database_url: str) -> Path | None:
    """The SQLite database's file, or None (PostgreSQL, or an in-memory database)."""
    url = make_url(database_url)
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    return Path(url.database)


def make_private_file(path: Path) -> None:
    """Create ``path`` empty with mode 0600 if it is missing; tighten it if it is not.

    SQLite then opens the empty file as a new database, and gives the files it adds
    beside it (``-wal``, ``-shm``, ``-journal``) the same mode.
    """
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE))
    for file in (path, *(path.with_name(path.name + end) for end in ("-wal", "-shm", "-journal"))):
        with contextlib.suppress(FileNotFoundError):
            if file.stat().st_mode & 0o077:
                file.chmod(PRIVATE)


def key_file(database: Path) -> Path:
    return database.with_name(database.name + ".key")


def _write_key(path: Path, key: str) -> None:
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE)
    with os.fdopen(descriptor, "w", encoding="ascii") as file:
        file.write(key + "\n")
        file.flush()
        os.fsync(file.fileno())


async def hashing_key(settings: Settings, engine: AsyncEngine) -> str:
    """The key for this run (see the module's docstring); the database holds none after."""
    async with backend.writer(engine).begin() as conn:
        old_key = await statsdb.take_server_value(conn, OLD_KEY_NAME)
        if settings.hashing_secret is not None:
            return settings.hashing_secret.get_secret_value()
        database = sqlite_file(settings.database_url)
        if database is None:
            if engine.dialect.name != "sqlite":
                raise MissingHashingSecret(
                    "TYSIAC_HASHING_SECRET must be set with PostgreSQL: every server process "
                    "must hash addresses with the same key, and it is not kept in the database."
                )
            return old_key or secrets.token_hex(32)  # an in-memory database: a key for this run
        path = key_file(database)
        if not path.exists():
            _write_key(path, old_key or secrets.token_hex(32))
        elif path.stat().st_mode & 0o077:
            path.chmod(PRIVATE)
        # Committed only now: a key taken out of the database is in its file first.
    return path.read_text(encoding="ascii").strip()
