"""Where the computer players think: the searching level in worker processes.

``strong`` searches for up to half a second a move; on the event loop that would stall
every other game of the process, so ``Thinker`` sends it to a pool of
``bot_workers`` processes, started (and warmed up: the bots imported) as soon as a
searching bot is about to move, during its pause, so its first move does not wait. The heuristic
levels answer in well under a millisecond and run inline. A worker that crashes or a
search that overruns ``THINK_LIMIT`` (a queue of many bot games, say) costs that one
move its depth: the medium player answers instead, and the pool is started again.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from tysiac import bots
from tysiac.rules.view import GameView

log = logging.getLogger(__name__)

SEARCHING = frozenset({"strong"})
THINK_LIMIT = 8.0  # seconds a searching move may take, queueing included
FALLBACK = "medium"
PARENT_CHECK_SECONDS = 0.5  # how often a worker looks whether its server still runs


def _choose(level: str, view: GameView, seed: int) -> dict[str, Any]:
    return bots.choose(level, view, random.Random(seed))


def _warm() -> None:
    """Nothing: a worker imports this module, and so the bots and the solver, to run it."""


def _outlive_no_server(server: int) -> None:
    """A worker's start: it ends within a second of its server's end. A server killed
    (SIGKILL, the OOM killer) cannot tell its workers, and they would wait for work for
    ever, each holding its memory."""

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="server-watch", daemon=True).start()


class Thinker:
    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: a fork of a process with threads (aiosqlite's, the event loop's)
            # can inherit a held lock; a fresh interpreter cannot.
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=context,
                initializer=_outlive_no_server,
                initargs=(os.getpid(),),
            )
        return self._pool

    def warm(self, level: str) -> None:
        """A bot of ``level`` moves soon: start the workers now if it searches."""
        if level in SEARCHING and self._pool is None:
            pool = self._executor()
            for _ in range(self.workers):
                pool.submit(_warm)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    async def choose(self, level: str, view: GameView, seed: int) -> dict[str, Any]:
        """The move of a bot of ``level`` seeing ``view``; always one of ``view["legal"]``."""
        if level not in SEARCHING:
            return _choose(level, view, seed)
        loop = asyncio.get_running_loop()
        try:
            future = loop.run_in_executor(self._executor(), _choose, level, view, seed)
            return await asyncio.wait_for(future, THINK_LIMIT)
        except (TimeoutError, BrokenProcessPool) as error:
            log.warning("a %s bot's search failed (%r); %s moves instead", level, error, FALLBACK)
            if isinstance(error, BrokenProcessPool):
                self.close()
            return _choose(FALLBACK, view, seed)
