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
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import datetime
from typing import Any

from tysiac import bots, rules
from tysiac.rules.view import GameView
from tysiac.server.errors import ServiceError, Skipped
from tysiac.server.game.table import Table
from tysiac.store.schema import GameStatus

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

    def close(self, wait: bool = False) -> None:
        """Let the workers go, the queued searches cancelled; ``wait``: until the running
        ones end (the server's stop, so that the pool's queues are released with it)."""
        if self._pool is not None:
            self._pool.shutdown(wait=wait, cancel_futures=True)
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


Due = Callable[[str], Awaitable[None]]  # make the game's due move (``play.due``)


class Bots:
    """This process's computer players: they hear every change the service stores, and
    when one of them is to move, make its move as soon as its pause is over rather than
    on the sweeper's next pass (the sweeper still catches it after a restart)."""

    def __init__(
        self, workers: int, clock: Callable[[], datetime], rng: random.Random, due: Due
    ) -> None:
        self.thinker = Thinker(workers)
        self.clock = clock
        self.rng = rng
        self.due = due
        self._wakers: set[asyncio.Task[None]] = set()  # wake-up calls under way
        self._thinking: set[str] = set()  # games whose computer player is thinking now
        self._closed = False

    def changed(self, table: Table) -> None:
        """A change of the game was stored: set a wake-up call if a computer moves next."""
        game = table.game
        if table.deadline is None or game is None or game.to_move is None:
            return
        level = table.bot(game.to_move)
        if level is None:
            return
        self.thinker.warm(level)
        delay = max(0.0, (table.deadline - self.clock()).total_seconds())
        asyncio.get_running_loop().call_later(delay, self._wake, table.code)

    def _wake(self, code: str) -> None:
        if self._closed:  # the server stops: the sweeper of the next start makes the move
            return
        task = asyncio.get_running_loop().create_task(self._woken(code))
        self._wakers.add(task)
        task.add_done_callback(self._wakers.discard)

    async def _woken(self, code: str) -> None:
        try:
            await self.due(code)
        except (Skipped, ServiceError):
            pass  # taken by another process, gone, or broken (for the sweeper to cancel)
        except Exception:
            log.exception("a computer player's move in %s failed; the sweeper tries again", code)

    async def think(self, table: Table) -> tuple[int, dict[str, Any]] | None:
        """The move of the computer player to move, if its pause is over: worked out from
        its seat's view alone (``rules.view``; the bot is never handed the game), before
        the game's lock is taken, so a search holds up no other command. With the version
        it was made for: a game that moved on meanwhile throws it away."""
        game = table.game
        if table.status != GameStatus.PLAYING or game is None or game.to_move is None:
            return None
        level = table.bot(game.to_move)
        if level is None or table.deadline is None or table.deadline > self.clock():
            return None
        if table.code in self._thinking:  # the wake-up call and the sweeper: one thinks
            return None
        self._thinking.add(table.code)
        try:
            seen = rules.view(game, game.to_move, history=True)
            chosen = await self.thinker.choose(level, seen, self.rng.getrandbits(64))
        finally:
            self._thinking.discard(table.code)
        return table.version, chosen

    def close(self) -> None:
        """The server stops: no more wake-up calls, those under way cancelled (a move they
        are storing still ends: the store waits for its writes), then the workers."""
        self._closed = True
        for task in self._wakers:
            task.cancel()
        self.thinker.close(wait=True)


def bot_move(game: rules.Game, chosen: dict[str, Any]) -> dict[str, Any]:
    """A computer player's move as stored: checked against the rules first, so a bot's
    mistake is a bug that fails here, not an event in the log."""
    action = rules.action_from_json(chosen)
    rules.apply(game, action)
    return rules.action_to_json(action)
