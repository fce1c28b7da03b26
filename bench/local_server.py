"""A throwaway ``python -m tysiac.server`` on a free local port, for the benchmarks.

``running_server`` yields its base URL; ``server_process`` also yields the process id
(for reading its CPU time and memory from ``/proc``) and can keep its log.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import httpx


@contextmanager
def running_server(**env: str) -> Iterator[str]:
    """Yield the base URL of a fresh server (own SQLite file, high limits, no hand pause)."""
    with server_process(**env) as (base, _pid):
        yield base


@contextmanager
def server_process(*, log: IO[bytes] | None = None, **env: str) -> Iterator[tuple[str, int]]:
    """Yield the base URL and the process id of a fresh server, as ``running_server``.

    ``log`` receives the server's standard error (its log); by default it is dropped.
    """
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with tempfile.TemporaryDirectory() as folder:
        settings = {
            "TYSIAC_DATABASE_URL": f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}",
            # Every bot plays from 127.0.0.1: the limits per address are lifted.
            "TYSIAC_MAX_GAMES_PER_IP": "100000",
            "TYSIAC_MAX_ACTIVE_GAMES": "100000",
            "TYSIAC_MAX_WAITING_GAMES_PER_IP": "100000",
            "TYSIAC_MAX_GAMES_PER_IP_PER_HOUR": "1000000",
            "TYSIAC_MAX_CONNECTIONS_PER_IP": "1000000",
            "TYSIAC_MESSAGES_PER_SECOND_PER_IP": "1000000",
            "TYSIAC_HAND_PAUSE_SECONDS": "0",
            **env,
        }
        server = subprocess.Popen(
            [sys.executable, "-m", "tysiac.server", "--port", str(port)],
            env={**os.environ, **settings},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL if log is None else log,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 20
            while True:
                try:
                    if httpx.get(f"{base}/health").status_code == 200:
                        break
                except httpx.HTTPError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.05)
            yield base, server.pid
        finally:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:  # a bug to see, not a process to leave behind
                print("the server did not stop within 10 s of SIGTERM: killed", file=sys.stderr)
                server.kill()
                server.wait()
