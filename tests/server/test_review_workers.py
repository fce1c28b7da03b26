"""The review's worker processes: niced below their server, and ended with it, even a
killed one."""

from __future__ import annotations

from .test_thinker_workers import check_worker_ends_with, holding

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
    with holding(HOLDER) as (holder, line):
        worker, worker_nice, server_nice = map(int, line.split())
        assert worker_nice == server_nice + 10
        check_worker_ends_with(holder, worker)
