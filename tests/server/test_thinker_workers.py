"""The strong players' worker processes end with their server, even a killed one."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator

# A server's stand-in: a Thinker with its worker started, printing the worker's pid.
HOLDER = """
import os, sys, time
from tysiac.server.game.thinking import Thinker
thinker = Thinker(1)
worker = thinker._executor().submit(os.getpid).result(timeout=60)
print(worker, flush=True)
time.sleep(120)
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie is gone but for its exit status
        return stat.read().rsplit(")", 1)[1].split()[0] != "Z"


@contextlib.contextmanager
def holding(script: str) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """A server's stand-in running ``script`` in a session of its own, with the first line
    it prints; it and its workers are killed in the end, whatever happened."""
    holder = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        assert holder.stdout is not None
        yield holder, holder.stdout.readline()
    finally:
        holder.kill()
        holder.wait(10)
        with contextlib.suppress(ProcessLookupError):  # the worker too, had the test failed
            os.killpg(holder.pid, signal.SIGKILL)


def check_worker_ends_with(holder: subprocess.Popen[str], worker: int) -> None:
    """SIGKILL the holder (no shutdown: it cannot tell its worker); the worker must be
    gone within 10 s."""
    assert worker != holder.pid and alive(worker)
    holder.send_signal(signal.SIGKILL)
    holder.wait(10)
    deadline = time.monotonic() + 10
    while alive(worker):
        assert time.monotonic() < deadline, "the worker outlived its killed server"
        time.sleep(0.1)


def test_a_worker_ends_within_seconds_of_its_server_being_killed() -> None:
    with holding(HOLDER) as (holder, line):
        check_worker_ends_with(holder, int(line))
