"""The strong players' worker processes end with their server, even a killed one."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time

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


def test_a_worker_ends_within_seconds_of_its_server_being_killed() -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER], stdout=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        assert holder.stdout is not None
        worker = int(holder.stdout.readline())
        assert worker != holder.pid and alive(worker)
        holder.send_signal(signal.SIGKILL)  # no shutdown: it cannot tell its worker
        holder.wait(10)
        deadline = time.monotonic() + 10
        while alive(worker):
            assert time.monotonic() < deadline, "the worker outlived its killed server"
            time.sleep(0.1)
    finally:
        holder.kill()
        holder.wait(10)
        with contextlib.suppress(ProcessLookupError):  # the worker too, had the test failed
            os.killpg(holder.pid, signal.SIGKILL)
