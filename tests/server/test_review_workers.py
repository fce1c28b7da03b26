"""The review's worker processes: niced below their server, and ended with it, even a
killed one."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time

from .test_thinker_workers import alive

# A server's stand-in: the review's pool with its worker started, printing the worker's
# pid and niceness.
HOLDER = """
import os, time
from tysiac.server.review.analyses import Workers
workers = Workers(1)
pid = workers.executor().submit(os.getpid).result(timeout=60)
nice = workers.executor().submit(os.nice, 0).result(timeout=60)
print(pid, nice, os.nice(0), flush=True)
time.sleep(120)
"""


def test_a_review_worker_is_niced_and_ends_within_seconds_of_its_server_being_killed() -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER], stdout=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        assert holder.stdout is not None
        worker, worker_nice, server_nice = map(int, holder.stdout.readline().split())
        assert worker != holder.pid and alive(worker)
        assert worker_nice == server_nice + 10
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
