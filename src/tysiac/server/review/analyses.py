"""The review's work: its worker processes, what they do next, and the analyses kept.
A little over 300 lines: the three parts below are each other's only users, and the
order of the jobs is read best beside the pool it feeds and the analyses it fills.

**Workers.** ``Workers`` is a pool of ``review_workers`` processes of its own (spawned,
niced, gone with the server: ``work.start_worker``), apart from the computer players',
so an analysis never delays a bot's move by more than the CPU it shares. Nothing of
the review runs on the event loop: reading a record, drawing its frames and solving a
hand are all jobs for the pool.

**What runs next.** The pool is handed at most one job per worker at a time; the rest
wait here, so the order is decided here, not by the pool's queue:

1. reads first (a game's record and frames, an uploaded record): someone is waiting
   for the page;
2. then one hand of each analysis in turn (round robin): every analysis under way
   shows its first hands soon, whatever is queued before it.

**Analyses.** An analysis is per hand: its verdicts fill in as the hands are done, and
``state`` shows them so (``pending``). At most ``review_queue`` analyses are queued or
running in the server, at most ``PER_ADDRESS`` of them started by one address (a keyed
hash, never the address); past either a new one is not started and the answer is
``later`` with the time to ask again. A request for an analysis under way joins it.
A game's finished analysis is stored with the game (``reviewdb``; deleted with it) and
kept here among the last ``READY_KEPT``; an uploaded record's lives here only, among
the last ``UPLOADS_KEPT`` for ``UPLOAD_SECONDS``.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from tysiac.server.errors import ServiceError
from tysiac.server.review import work

log = logging.getLogger(__name__)

T = TypeVar("T")

PER_ADDRESS = 2  # analyses one address may have queued or running at once
READS_WAITING = 100  # reads waiting for a worker; past this a read is refused as busy
READY_KEPT = 64  # finished games' analyses kept in memory (they are stored anyway)
READS_KEPT = 16  # finished games' reads (record and frames) kept in memory
READ_SECONDS = 3600  # ... for at most an hour
UPLOADS_KEPT = 64  # uploaded records' analyses kept in memory
UPLOAD_SECONDS = 3600  # ... for at most an hour
PENDING_MS = 1000  # when to ask again about an analysis under way
LATER_MS = 15000  # when to ask again after "later"
MARKS = ("contract", "mistake", "inaccuracy")  # the marks ``counts`` counts, per seat


@dataclass(eq=False)
class Analysis:
    """One analysis: a hand's input for each hand, and each hand's verdict once done."""

    name: str  # "game:CODE" or "file:KEY"
    players: int
    inputs: list[dict[str, Any]]
    address: str | None  # the keyed hash of the address that started it, while it runs
    verdicts: list[Any] = field(default_factory=list)
    analysed: list[bool] = field(default_factory=list)
    submitted: int = 0  # hands handed to a worker so far, in order
    done: int = 0  # hands analysed

    def __post_init__(self) -> None:
        self.verdicts = [None] * len(self.inputs)
        self.analysed = [False] * len(self.inputs)

    @classmethod
    def ready(cls, name: str, players: int, verdicts: list[Any]) -> Analysis:
        """An analysis done before (stored): every hand analysed."""
        analysis = cls(name, players, [], None)
        analysis.verdicts = list(verdicts)
        analysis.analysed = [True] * len(verdicts)
        analysis.done = analysis.submitted = len(verdicts)
        return analysis

    @property
    def complete(self) -> bool:
        return self.done == len(self.verdicts)

    def state(self) -> dict[str, Any]:
        """The analysis as the page reads it (``Analysis`` in docs/review.md)."""
        complete = self.complete
        return {
            "status": "ready" if complete else "pending",
            "hands": self.verdicts,
            "analysed": self.analysed,
            "counts": counts(self.verdicts, self.players) if complete else None,
            "retry_ms": None if complete else PENDING_MS,
        }


def later(retry_ms: int = LATER_MS) -> dict[str, Any]:
    """The answer when an analysis cannot be started now: ask again in ``retry_ms``."""
    return {"status": "later", "hands": [], "analysed": [], "counts": None, "retry_ms": retry_ms}


def counts(verdicts: list[Any], players: int) -> list[dict[str, int]]:
    """Per seat, how many of its cards flipped the contract, were mistakes, inaccuracies."""
    counted = [dict.fromkeys(MARKS, 0) for _ in range(players)]
    for verdict in verdicts:
        for card in (verdict or {}).get("cards", []):
            if card.get("mark") in MARKS and 0 <= card.get("seat", -1) < players:
                counted[card["seat"]][card["mark"]] += 1
    return counted


class Workers:
    """The review's process pool: spawned at the first job, niced, gone with the server."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn, as the bots' pool: a fork of a process with threads can inherit a
            # held lock; a fresh interpreter cannot.
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=work.start_worker,
                initargs=(os.getpid(),),
            )
        return self._pool

    def broken(self) -> None:
        """A worker died: the pool is started again at the next job."""
        self.close()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


@dataclass(eq=False)
class _Read:
    job: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any]


class Scheduler:
    """Hands the workers one job each: reads first, then one hand of each analysis in
    turn, a new analysis first. Every call is on the event loop; the workers' answers
    come back to it."""

    def __init__(self, workers: Workers, on_complete: Callable[[Analysis], None]) -> None:
        self.workers = workers
        self.on_complete = on_complete
        self._reads: deque[_Read] = deque()
        self._analyses: OrderedDict[str, Analysis] = OrderedDict()  # queued or running
        self._running = 0

    @property
    def analyses(self) -> int:
        """Analyses queued or running."""
        return len(self._analyses)

    def started_by(self, address: str) -> int:
        return sum(1 for a in self._analyses.values() if a.address == address)

    def running(self, name: str) -> Analysis | None:
        return self._analyses.get(name)

    async def read(self, job: Callable[..., T], *args: Any) -> T:
        """Run ``job(*args)`` in a worker, before any hand waiting to be analysed."""
        if len(self._reads) >= READS_WAITING:
            raise ServiceError("error.server_busy", 503)
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._reads.append(_Read(job, args, future))
        self._pump()
        return await future

    def analyse(self, analysis: Analysis) -> None:
        """Queue every hand of ``analysis``."""
        if analysis.complete:
            self.on_complete(analysis)
            return
        self._analyses[analysis.name] = analysis
        # A new analysis goes first: its first hand is the next handed out, so a page
        # opened beside many running analyses shows a verdict within one hand's time.
        self._analyses.move_to_end(analysis.name, last=False)
        self._pump()

    def drop(self, name: str) -> None:
        """Analyse no more hands of ``name`` (an upload forgotten)."""
        self._analyses.pop(name, None)

    def _pump(self) -> None:
        while self._running < self.workers.workers:
            if self._reads:
                read = self._reads.popleft()
                if read.future.done():  # its request went away
                    continue
                self._submit(read.job, read.args, partial(_settle, read.future))
                continue
            analysis = self._next_analysis()
            if analysis is None:
                return
            number = analysis.submitted
            analysis.submitted += 1
            self._submit(
                work.analyse,
                (analysis.inputs[number],),
                partial(self._analysed, analysis, number),
            )

    def _next_analysis(self) -> Analysis | None:
        """The next analysis in turn with a hand not yet handed out, moved to the back."""
        for name, analysis in list(self._analyses.items()):
            if analysis.submitted < len(analysis.inputs):
                self._analyses.move_to_end(name)
                return analysis
        return None

    def _submit(
        self, job: Callable[..., Any], args: tuple[Any, ...], then: Callable[[Future[Any]], None]
    ) -> None:
        loop = asyncio.get_running_loop()
        self._running += 1
        try:
            future = self.workers.executor().submit(job, *args)
        except RuntimeError as error:  # a pool shut down or broken meanwhile
            self.workers.broken()
            failed: Future[Any] = Future()
            failed.set_exception(error)
            future = failed

        def done(finished: Future[Any]) -> None:
            loop.call_soon_threadsafe(self._done, finished, then)

        future.add_done_callback(done)

    def _done(self, finished: Future[Any], then: Callable[[Future[Any]], None]) -> None:
        self._running -= 1
        error = finished.exception()
        if isinstance(error, BrokenProcessPool):
            log.warning("a review worker died; its pool is started again")
            self.workers.broken()
        try:
            then(finished)
        finally:
            self._pump()

    def _analysed(self, analysis: Analysis, number: int, finished: Future[Any]) -> None:
        error = finished.exception()
        if error is not None:
            log.warning("analysing hand %d of %s failed: %r", number + 1, analysis.name, error)
        else:
            analysis.verdicts[number] = finished.result()
        analysis.analysed[number] = True
        analysis.done += 1
        if analysis.complete:
            self._analyses.pop(analysis.name, None)
            analysis.address = None
            analysis.inputs = []  # done with: only the verdicts are kept
            self.on_complete(analysis)


def _settle(target: asyncio.Future[Any], finished: Future[Any]) -> None:
    if target.done():
        return
    error = finished.exception()
    if error is not None:
        target.set_exception(error)
    else:
        target.set_result(finished.result())


K = TypeVar("K")
V = TypeVar("V")


class Kept(OrderedDict[K, V]):
    """The last ``size`` values, each for at most ``seconds``."""

    def __init__(self, size: int, seconds: float, clock: Callable[[], float] = time.monotonic):
        super().__init__()
        self.size = size
        self.seconds = seconds
        self.clock = clock
        self._at: dict[K, float] = {}

    def put(self, key: K, value: V) -> list[V]:
        """Keep ``value``; the values that make room for it are returned."""
        self[key] = value
        self.move_to_end(key)
        self._at[key] = self.clock()
        gone = []
        while len(self) > self.size:
            old, value_gone = self.popitem(last=False)
            self._at.pop(old, None)
            gone.append(value_gone)
        return gone

    def fresh(self, key: K) -> V | None:
        """The value, while it is kept; an expired one goes."""
        value = self.get(key)
        if value is None:
            return None
        if self.clock() - self._at[key] > self.seconds:
            del self[key]
            self._at.pop(key, None)
            return None
        return value
