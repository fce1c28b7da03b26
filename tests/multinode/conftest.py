"""Two real server processes on one PostgreSQL database and one Redis."""

from __future__ import annotations

import secrets
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from ..server.harness import ProcessServer
from ..services import fresh_database, redis_url_or_skip


@pytest.fixture
def database() -> Iterator[str]:
    """A fresh PostgreSQL database (SQLAlchemy URL), dropped after the test."""
    with fresh_database() as url:
        yield url


@dataclass
class Cluster:
    a: ProcessServer
    b: ProcessServer
    database: str
    env: dict[str, str]
    logs: list[Path]

    def admin(self, *args: str) -> subprocess.CompletedProcess[str]:
        """``python -m tysiac admin …`` on the same configuration, as an operator runs it."""
        return subprocess.run(
            [sys.executable, "-m", "tysiac", "admin", *args],
            env=self.a.env,
            capture_output=True,
            text=True,
            timeout=30,
        )


@pytest.fixture
def cluster(tmp_path: Path, database: str) -> Iterator[Cluster]:
    """Processes A and B, started at the same moment on an empty database (both migrate)."""
    env = {
        "TYSIAC_REDIS_URL": redis_url_or_skip(),
        "TYSIAC_HAND_PAUSE_SECONDS": "0",
        "TYSIAC_RETENTION_SECONDS": "0",  # rows a test dates back are forgotten on the next sweep
        "TYSIAC_HASHING_SECRET": secrets.token_hex(32),  # one key, shared by both processes
    }
    logs = [tmp_path / "a.log", tmp_path / "b.log"]
    a, b = (ProcessServer(database, log, **env) for log in logs)
    for server in (a, b):
        server.launch()
    try:
        for server in (a, b):
            server.wait_ready()
        yield Cluster(a, b, database, env, logs)
    finally:
        for server in (a, b):
            server.stop()
    for log in logs:
        text = log.read_text()
        assert "Traceback" not in text and " ERROR " not in text, text
