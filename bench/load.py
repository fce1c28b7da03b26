"""Human-pace load: thousands of open games, each making a move every few seconds.

    python bench/load.py [--games 2000] [--players 3] [--think 5] [--ramp 30]
        [--duration 60] [--clients K] [--seed 1]
        [--backend sqlite|postgres] [--processes N]
        [--postgres postgresql://postgres@127.0.0.1:5432/postgres]
        [--redis redis://127.0.0.1:6379/14]
        [--url http://host:port [--url ...]] [--pid PID [--pid ...]] [--server-log FILE]

Where bench/server.py has bots move as fast as they can, this one holds many sockets
open at the pace of people: every game gets one move about every THINK seconds (the
seat to move waits uniform(0.5, 1.5) x THINK, then sends a random legal move), so
GAMES x PLAYERS sockets carry about GAMES / THINK moves a second.

It starts the server itself: one ``python -m tysiac.server`` on a fresh SQLite file by
default, or with ``--backend postgres`` PROCESSES of them on a fresh PostgreSQL
database (made from ``--postgres``) and Redis, seat i of every game on process
i mod PROCESSES. ``--url`` (repeatable) uses running servers instead (with high
limits per address, as bench/local_server.py sets them); their CPU and memory are
then reported only for the processes named with ``--pid``.

It creates the games over HTTP, then hands them to K client processes (whole games
each, by default enough that none holds more than 1,500 sockets). Their sockets
connect spread evenly over RAMP seconds; the measurement window is the DURATION
seconds after the ramp, once every socket is connected. (It first raises its soft
RLIMIT_NOFILE to the hard limit, for the servers and clients it starts.) It prints:

- accepted moves a second in the window, and the latency of a move: from just before
  it is sent until every seat of its game has a ``state`` past the version it was sent
  on (p50, p95, p99, max);
- the server's CPU time per move (all its processes and their children, from
  ``/proc``), its peak resident memory (sampled every second over the whole run) and
  VmHWM; the clients' own CPU per move and their longest garbage collection (their
  collections are tuned as the server's), to tell whether they were the bottleneck;
- how busy the whole machine was in the window, and the share of its time the
  hypervisor took (steal: on a shared virtual machine, a figure that moves between runs);
- the bytes the loopback interface carried per move (both ways, headers included; on
  PostgreSQL, the database's and Redis's traffic too);
- errors by kind and by when (create, ramp, window, close): refused moves, HTTP
  failures, sockets closed early, moves not answered within 10 s (still awaited; taken
  as lost after 60 s), server auto-moves (a seat timed out); and dropped sockets;
- the warnings the started servers logged, by when, with the first few;
- and the figures as one markdown table row.

The exit status is 1 when there was any error or dropped socket.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import math
import multiprocessing
import os
import queue
import random
import re
import resource
import secrets
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field
from datetime import datetime
from multiprocessing.process import BaseProcess
from multiprocessing.queues import Queue
from multiprocessing.sharedctypes import Synchronized
from pathlib import Path
from typing import IO, Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from local_server import server_process
from server import choose
from tysiac.server.serving import collect_garbage, tune_garbage_collection

try:
    import orjson

    loads: Callable[[str | bytes], Any] = orjson.loads

    def dumps(message: Message) -> str:
        return orjson.dumps(message).decode()

except ImportError:
    import json

    loads = json.loads

    def dumps(message: Message) -> str:
        return json.dumps(message)


Message = dict[str, Any]

SOCKETS_PER_CLIENT = 1500  # the most sockets one client process holds by default
CREATE_CONCURRENCY = 20  # games being created at once
ANSWER_SECONDS = 10.0  # a move unanswered for longer is an error (its answer is still awaited)
GIVE_UP_SECONDS = 60.0  # a move unanswered for longer is taken as lost: the seat may move again
MOVE_SECONDS = 300  # the games' move time: the longest, so that a slow ramp times nobody out
SETTLE_SECONDS = ANSWER_SECONDS + 1  # after the window: time for its last moves to be answered
CLK_TCK = os.sysconf("SC_CLK_TCK")


# --- The server's processes, from /proc -------------------------------------------------


def _stat_fields(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (field 3 first), or None."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rpartition(")")[2].split()


def process_tree(roots: list[int]) -> list[int]:
    """The root processes and all their descendants that are alive."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit() and (fields := _stat_fields(int(entry.name))) is not None:
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    found: list[int] = []
    todo = [pid for pid in roots if Path(f"/proc/{pid}").exists()]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def cpu_seconds(roots: list[int]) -> float:
    """User plus system CPU time of the processes and their descendants."""
    total = 0
    for pid in process_tree(roots):
        if (fields := _stat_fields(pid)) is not None:
            total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14, 15)
    return total / CLK_TCK


def loopback_bytes() -> int:
    """Bytes carried by the loopback interface so far (/proc/net/dev): with the server and
    its clients on this machine, their WebSocket traffic both ways, TCP/IP headers included
    (and with ``--backend postgres``, the servers' traffic with PostgreSQL and Redis too)."""
    for line in Path("/proc/net/dev").read_text().splitlines():
        name, _, counters = line.partition(":")
        if name.strip() == "lo":
            return int(counters.split()[0])
    return 0


def machine_ticks() -> tuple[int, int, int]:
    """The machine's CPU time so far (/proc/stat, in ticks of all cores): busy, stolen by
    the hypervisor (a virtual machine whose host is busy runs slower), and in all."""
    fields = [int(n) for n in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    steal = fields[7] if len(fields) > 7 else 0
    every = sum(fields[:8])
    return every - idle - steal, steal, every


def status_kib(pid: int, key: str) -> int:
    """A ``kB`` line of /proc/PID/status (VmRSS, VmHWM), 0 once the process is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


class MemorySampler:
    """Samples the servers' VmRSS once a second in a thread: the peak of the sum over
    the processes, and the peak of any one."""

    def __init__(self, roots: list[int]) -> None:
        self.roots = roots
        self.peak_total = 0  # KiB
        self.peak_one = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _sample(self) -> None:
        sizes = [status_kib(pid, "VmRSS") for pid in process_tree(self.roots)]
        self.peak_total = max(self.peak_total, sum(sizes))
        self.peak_one = max(self.peak_one, *sizes, 0)

    def _run(self) -> None:
        while True:
            self._sample()
            if self._stop.wait(1.0):
                return

    def __enter__(self) -> MemorySampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self._sample()

    def high_water(self) -> list[int]:
        """VmHWM of each server process now (KiB): their own peak resident size."""
        return [status_kib(pid, "VmHWM") for pid in process_tree(self.roots)]


def raise_file_limit() -> int:
    """Raise this process's RLIMIT_NOFILE soft limit to the hard one (children inherit
    it: the server and the client processes); returns the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


# --- Creating the games ---------------------------------------------------------------


class Refused(Exception):
    """An HTTP answer other than success, named by its status and error code."""


async def create_games(
    bases: list[str], games: int, players: int, errors: Counter[str]
) -> list[tuple[str, list[str]]]:
    """Create GAMES full games of PLAYERS: (code, the tokens by seat) of those made.

    Every seat is its own client (its own cookie jar: one device holds one seat at a
    table), on the server process of its seat; the clients of one process share one
    connection pool. Games are made CREATE_CONCURRENCY at a time."""
    pools = [
        httpx.AsyncHTTPTransport(limits=httpx.Limits(max_connections=2 * CREATE_CONCURRENCY))
        for _ in bases
    ]
    gate = asyncio.Semaphore(CREATE_CONCURRENCY)

    async def post(seat: int, path: str, body: Message) -> Message:
        where = seat % len(bases)
        # Not closed: that would close the shared pool. It holds nothing else.
        device = httpx.AsyncClient(
            transport=pools[where], base_url=bases[where], timeout=30, trust_env=False
        )
        response = await device.post(path, json=body)
        if response.status_code not in (200, 201):
            try:
                code = response.json()["error"]["code"]
            except (ValueError, KeyError, TypeError):
                code = "?"
            raise Refused(f"HTTP {response.status_code} {code}")
        answer: Message = response.json()
        return answer

    async def one() -> tuple[str, list[str]] | None:
        async with gate:
            try:
                created = await post(
                    0,
                    "/api/games",
                    {"nick": "Bot0", "players": players, "move_seconds": MOVE_SECONDS},
                )
                tokens = [created["token"]] + [""] * (players - 1)
                for seat in range(1, players):
                    joined = await post(
                        seat, f"/api/games/{created['code']}/join", {"nick": f"Bot{seat}"}
                    )
                    tokens[joined["seat"]] = joined["token"]
            except Refused as refused:
                errors[f"create/join: {refused} (create)"] += 1
                return None
            except httpx.HTTPError as error:
                errors[f"create/join: {type(error).__name__} (create)"] += 1
                return None
            return created["code"], tokens

    try:
        made = await asyncio.gather(*(one() for _ in range(games)))
    finally:
        for pool in pools:
            await pool.aclose()
    return [table for table in made if table is not None]


# --- The client processes -------------------------------------------------------------


@dataclass
class ClientJob:
    """What one client process plays: whole games, with their place in the ramp."""

    index: int
    tables: list[tuple[int, str, list[str]]]  # (game number, code, tokens by seat)
    ws_bases: list[str]  # seat i connects to ws_bases[i % len(ws_bases)]
    games: int  # games in all processes: game number g connects at ramp * g / games
    ramp: float
    duration: float
    think: float
    seed: int


@dataclass
class ClientResult:
    latencies: list[float]  # seconds, of the moves sent in the window
    errors: dict[str, int]
    sockets: int  # opened
    held: int  # still open at the end of the window
    dropped: int  # closed by the other side (or failing) before the end
    cpu: float  # process_time() during the window
    moves_total: int  # answered moves over the whole run
    finished: int  # games that ended during the run
    gc_longest: float  # seconds: this process's longest garbage collection in the window
    gc_total: float  # seconds of garbage collection in the window


class Collections:
    """This client process's garbage collections: a pause here delays every answer it is
    waiting for, so it is measured, and kept short as the server keeps its own."""

    def __init__(self) -> None:
        self.counting = False
        self.longest = 0.0
        self.total = 0.0
        self._started = 0.0

    def __enter__(self) -> Collections:
        tune_garbage_collection()
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        elif self.counting:
            pause = time.perf_counter() - self._started
            self.longest = max(self.longest, pause)
            self.total += pause


@dataclass
class Pending:
    """A move sent and not yet seen by every seat."""

    seat: int
    version: int  # the state's v it was sent on
    sent: float  # perf_counter() just before sending
    wall: float  # time.time() then, to place it in the window
    waiting: set[int]  # seats that have not yet had a state past ``version``
    late: bool = False  # unanswered for ANSWER_SECONDS: counted as an error


class Client:
    """One client process's games, on one event loop and one clock."""

    def __init__(self, job: ClientJob) -> None:
        self.job = job
        self.games = [Game(self, number, code, tokens) for number, code, tokens in job.tables]
        self.window: tuple[float, float] | None = None  # time.time() bounds
        self.closing = False  # the window is over: send no more moves
        self.stopping = False  # sockets are being closed by us: not dropped
        self.latencies: list[float] = []
        self.errors: Counter[str] = Counter()
        self.dropped = 0
        self.moves_total = 0
        self.finished = 0
        self.tasks: set[asyncio.Task[None]] = set()
        self.collections = Collections()

    def spawn(self, coroutine: Any) -> None:
        task: asyncio.Task[None] = asyncio.ensure_future(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def error(self, kind: str, at: float | None = None) -> None:
        """Count an error of this kind, by when it happened (AT, or now: time.time()):
        during the ramp, in the window, or while closing after it."""
        at = time.time() if at is None else at
        window = self.window
        phase = (
            "ramp" if window is None or at < window[0] else "window" if at < window[1] else "close"
        )
        self.errors[f"{kind} ({phase})"] += 1

    def pending_moves(self) -> int:
        return sum(game.pending is not None for game in self.games)

    async def watchdog(self) -> None:
        """A move unanswered for ANSWER_SECONDS is an error, counted once; its answer is
        still awaited (so its latency counts) until GIVE_UP_SECONDS, when it is taken as
        lost and its game goes on (a second error)."""
        while True:
            await asyncio.sleep(0.5)
            now = time.perf_counter()
            for game in self.games:
                if (pending := game.pending) is None:
                    continue
                if not pending.late and now - pending.sent > ANSWER_SECONDS:
                    pending.late = True
                    self.error(f"move unanswered in {ANSWER_SECONDS:.0f} s", pending.wall)
                if now - pending.sent > GIVE_UP_SECONDS:
                    self.error(
                        f"move unanswered in {GIVE_UP_SECONDS:.0f} s, given up", pending.wall
                    )
                    game.settle()
                    game.sent_version = -1
                    game.consider_all()

    async def run(
        self, ramp_start: Synchronized[float], window_start: Synchronized[float], out: Queue[Any]
    ) -> ClientResult:
        out.put(("loaded", self.job.index))
        while (start := ramp_start.value) == 0:
            await asyncio.sleep(0.01)
        watchdog = asyncio.ensure_future(self.watchdog())
        collector = asyncio.ensure_future(collect_garbage())  # as the server's, on a clock

        async def open_at(game: Game) -> None:
            await asyncio.sleep(
                max(0.0, start + self.job.ramp * game.number / self.job.games - time.time())
            )
            await game.open()

        await asyncio.gather(*(open_at(game) for game in self.games))
        sockets = sum(game.opened for game in self.games)
        out.put(("ready", self.job.index))
        while (begin := window_start.value) == 0:
            await asyncio.sleep(0.01)
        end = begin + self.job.duration
        self.window = (begin, end)
        await asyncio.sleep(max(0.0, begin - time.time()))
        cpu_start = time.process_time()
        self.collections.counting = True
        await asyncio.sleep(max(0.0, end - time.time()))
        self.collections.counting = False
        cpu = time.process_time() - cpu_start
        self.closing = True
        held = sum(ws is not None for game in self.games for ws in game.sockets)
        settle_until = time.monotonic() + SETTLE_SECONDS
        while self.pending_moves() and time.monotonic() < settle_until:
            await asyncio.sleep(0.05)
        self.stopping = True
        watchdog.cancel()
        collector.cancel()
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(
            *(ws.close() for game in self.games for ws in game.sockets if ws is not None),
            return_exceptions=True,
        )
        return ClientResult(
            latencies=self.latencies,
            errors=dict(self.errors),
            sockets=sockets,
            held=held,
            dropped=self.dropped,
            cpu=cpu,
            moves_total=self.moves_total,
            finished=self.finished,
            gc_longest=self.collections.longest,
            gc_total=self.collections.total,
        )


class Game:
    """The seats of one game, each with its socket: who moves when, and the latencies."""

    def __init__(self, client: Client, number: int, code: str, tokens: list[str]) -> None:
        self.client = client
        self.number = number
        self.code = code
        self.tokens = tokens
        self.rng = random.Random(f"{client.job.seed}-{number}")
        self.sockets: list[ClientConnection | None] = [None] * len(tokens)
        self.latest: list[Message | None] = [None] * len(tokens)
        self.opened = 0
        self.pending: Pending | None = None
        self.answered = asyncio.Event()
        self.answered.set()
        self.thinking = False  # a seat is waiting to send its move
        self.sent_version = -1  # states at this version or older came before the last move
        self.finished = False

    async def open(self) -> None:
        """Connect every seat at once; each then reads its socket in a task."""
        await asyncio.gather(*(self.open_seat(seat) for seat in range(len(self.tokens))))

    async def open_seat(self, seat: int) -> None:
        client = self.client
        bases = client.job.ws_bases
        try:
            # Default compression (permessage-deflate offered, as browsers do); no proxy.
            ws = await connect(f"{bases[seat % len(bases)]}/ws/{self.code}", proxy=None)
            await ws.send(dumps({"type": "hello", "token": self.tokens[seat]}))
        except (OSError, TimeoutError, WebSocketException) as error:
            client.error(f"connect: {type(error).__name__}")
            client.dropped += 1
            return
        self.sockets[seat] = ws
        self.opened += 1
        client.spawn(self.read(seat, ws))

    async def read(self, seat: int, ws: ClientConnection) -> None:
        client = self.client
        try:
            async for raw in ws:
                self.receive(seat, loads(raw))
        except ConnectionClosed:
            pass
        except Exception as error:  # a fault of this script: count it, keep the others going
            client.error(f"client fault: {error!r}"[:120])
        self.sockets[seat] = None
        if not client.stopping:
            client.error(f"socket closed, code {ws.close_code}")
            client.dropped += 1
            if self.pending is not None:
                self.pending.waiting.discard(seat)
                if not self.pending.waiting:
                    self.settle()

    def receive(self, seat: int, message: Message) -> None:
        kind = message["type"]
        if kind == "state":
            self.on_state(seat, message)
        elif kind == "error":
            self.on_error(seat, message["error"]["code"])
        elif kind == "event" and seat == 0:  # count each game's events once
            for event in message["events"]:
                if event["kind"] == "timeout":
                    self.client.error("server auto-move: a seat timed out")

    def on_state(self, seat: int, message: Message) -> None:
        self.latest[seat] = message
        pending = self.pending
        if pending is not None and message["v"] > pending.version:
            pending.waiting.discard(seat)
            if not pending.waiting:
                latency = time.perf_counter() - pending.sent
                self.settle()
                self.client.moves_total += 1
                window = self.client.window
                if window is not None and window[0] <= pending.wall < window[1]:
                    self.client.latencies.append(latency)
        if message["game"]["status"] == "finished" and not self.finished:
            self.finished = True
            self.client.finished += 1
        self.consider(seat)

    def on_error(self, seat: int, code: str) -> None:
        self.client.error(f"refused: {code}")
        if self.pending is not None and self.pending.seat == seat:
            self.settle()
            self.sent_version = -1  # the move was not made: the seat may try again
            self.consider(seat)

    def settle(self) -> None:
        self.pending = None
        self.answered.set()

    def to_move(self, seat: int) -> Message | None:
        """The seat's latest state if it has a move to make there, else None."""
        message = self.latest[seat]
        if (
            message is None
            or message["v"] <= self.sent_version
            or message["game"]["status"] != "playing"
            or not message["view"]
            or not message["view"]["legal"]
            or self.sockets[seat] is None
        ):
            return None
        return message

    def consider(self, seat: int) -> None:
        """Start the seat thinking when its state says it is to move."""
        if not self.thinking and not self.client.closing and self.to_move(seat) is not None:
            self.thinking = True
            self.client.spawn(self.think(seat))

    def consider_all(self) -> None:
        for seat in range(len(self.tokens)):
            self.consider(seat)

    async def think(self, seat: int) -> None:
        await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.client.job.think)
        await self.answered.wait()  # one move of a game at a time
        self.thinking = False
        message = self.to_move(seat)
        ws = self.sockets[seat]
        if self.client.closing:
            return
        if message is None or ws is None:  # the turn has moved on meanwhile
            self.consider_all()
            return
        move = {"type": "move", "v": message["v"], "action": choose(message["view"], self.rng)}
        self.sent_version = message["v"]
        self.answered.clear()
        waiting = {s for s, other in enumerate(self.sockets) if other is not None}
        self.pending = Pending(seat, message["v"], time.perf_counter(), time.time(), waiting)
        # A closed socket is counted by its reader; the watchdog clears the move.
        with contextlib.suppress(ConnectionClosed):
            await ws.send(dumps(move))


def client_main(
    job: ClientJob,
    ramp_start: Synchronized[float],
    window_start: Synchronized[float],
    out: Queue[Any],
) -> None:
    """A client process (started with "spawn"): play JOB, put its ClientResult."""
    client = Client(job)
    with client.collections:
        result = asyncio.run(client.run(ramp_start, window_start, out))
    # A dict: the classes of this process's main module are not the parent's to unpickle.
    out.put(("result", job.index, asdict(result)))


# --- The run --------------------------------------------------------------------------


@dataclass
class Outcome:
    games: int
    sockets: int  # seats of the games made
    held: int
    client_processes: int
    window: float
    latencies: list[float]
    errors: Counter[str]
    dropped: int
    client_cpu: float
    client_cpu_max: float  # the busiest client process
    client_gc_longest: float  # seconds, over the client processes
    client_gc_total: float
    server_cpu: float | None
    rss_peak: int | None  # KiB, summed over the server processes
    rss_peak_one: int | None
    wire: int  # bytes over loopback in the window (both ways, headers included)
    machine: tuple[int, int, int]  # the machine's ticks in the window: busy, stolen, in all
    high_water: list[int] = field(default_factory=list)
    finished: int = 0
    created_in: float = 0.0
    window_wall: tuple[float, float] | None = None  # time.time() bounds


class ClientsFailed(Exception):
    pass


def gather_messages(
    out: Queue[Any], kind: str, count: int, processes: list[BaseProcess], timeout: float
) -> list[Any]:
    """Wait for COUNT messages of KIND from the client processes; fail if one died."""
    found: list[Any] = []
    deadline = time.monotonic() + timeout
    while len(found) < count:
        try:
            message = out.get(timeout=0.5)
        except queue.Empty:
            if any(process.exitcode not in (None, 0) for process in processes):
                raise ClientsFailed("a client process failed") from None
            if time.monotonic() > deadline:
                raise ClientsFailed(f"client processes not {kind} in {timeout:.0f} s") from None
            continue
        if message[0] != kind:
            raise ClientsFailed(f"expected {kind!r} from the clients, got {message[0]!r}")
        found.append(message)
    return found


def play(
    args: argparse.Namespace, bases: list[str], pids: list[int], memory: MemorySampler | None
) -> Outcome:
    errors: Counter[str] = Counter()
    started = time.monotonic()
    tables = asyncio.run(create_games(bases, args.games, args.players, errors))
    created_in = time.monotonic() - started
    sockets = len(tables) * args.players
    progress(f"created {len(tables)} games ({sockets} seats) in {created_in:.1f} s")
    clients = args.clients or max(1, math.ceil(sockets / SOCKETS_PER_CLIENT))
    clients = max(1, min(clients, len(tables)))
    ws_bases = [base.replace("http", "ws", 1) for base in bases]
    jobs = [
        ClientJob(
            index=index,
            tables=[
                (number, code, tokens)
                for number, (code, tokens) in enumerate(tables)
                if number % clients == index
            ],
            ws_bases=ws_bases,
            games=len(tables),
            ramp=args.ramp,
            duration=args.duration,
            think=args.think,
            seed=args.seed,
        )
        for index in range(clients)
    ]
    context = multiprocessing.get_context("spawn")
    ramp_start = context.Value("d", 0.0)
    window_start = context.Value("d", 0.0)
    out: Queue[Any] = context.Queue()
    processes = [
        context.Process(target=client_main, args=(job, ramp_start, window_start, out))
        for job in jobs
    ]
    for process in processes:
        process.start()
    try:
        gather_messages(out, "loaded", clients, processes, 60)
        ramp_start.value = time.time() + 0.2
        ramp_end = ramp_start.value + args.ramp
        progress(f"{clients} client process(es): ramp of {args.ramp:g} s")
        gather_messages(out, "ready", clients, processes, args.ramp + 120)
        begin = max(ramp_end, time.time()) + 0.1  # a moment for the clients to see it
        window_start.value = begin
        progress(f"every socket connected, measuring for {args.duration:g} s")
        time.sleep(max(0.0, begin - time.time()))
        cpu_begin = cpu_seconds(pids) if pids else None
        wire_begin = loopback_bytes()
        machine_begin = machine_ticks()
        time.sleep(max(0.0, begin + args.duration - time.time()))
        cpu_end = cpu_seconds(pids) if pids else None
        wire = loopback_bytes() - wire_begin
        machine_end = machine_ticks()
        high_water = memory.high_water() if memory is not None else []
        results = [
            ClientResult(**message[2])
            for message in gather_messages(out, "result", clients, processes, SETTLE_SECONDS + 60)
        ]
    finally:
        for process in processes:
            process.join(30)
            if process.is_alive():
                process.terminate()
    for result in results:
        errors.update(result.errors)
    progress(f"moves answered over the whole run: {sum(r.moves_total for r in results):,}")
    return Outcome(
        games=len(tables),
        sockets=sockets,
        held=sum(result.held for result in results),
        client_processes=clients,
        window=args.duration,
        latencies=sorted(latency for result in results for latency in result.latencies),
        errors=errors,
        dropped=sum(result.dropped for result in results),
        client_cpu=sum(result.cpu for result in results),
        client_cpu_max=max(result.cpu for result in results),
        client_gc_longest=max(result.gc_longest for result in results),
        client_gc_total=sum(result.gc_total for result in results),
        server_cpu=None if cpu_begin is None or cpu_end is None else cpu_end - cpu_begin,
        wire=wire,
        machine=(
            machine_end[0] - machine_begin[0],
            machine_end[1] - machine_begin[1],
            machine_end[2] - machine_begin[2],
        ),
        rss_peak=memory.peak_total if memory is not None else None,
        rss_peak_one=memory.peak_one if memory is not None else None,
        high_water=high_water,
        finished=sum(result.finished for result in results),
        created_in=created_in,
        window_wall=(begin, begin + args.duration),
    )


def progress(text: str) -> None:
    print(f"[load {time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


# --- The report -----------------------------------------------------------------------


def percentile(ordered: list[float], p: float) -> float:
    """Nearest rank of a sorted list."""
    return ordered[max(0, min(len(ordered) - 1, math.ceil(p * len(ordered)) - 1))]


def short_ms(seconds: float) -> str:
    """Milliseconds with two or three significant figures, for the table row."""
    ms = seconds * 1000
    if ms >= 10:
        return f"{ms:,.0f} ms"
    return f"{ms:.2f} ms" if ms < 1 else f"{ms:.1f} ms"


def megabytes(kib: int) -> str:
    return f"{kib / 1024:,.0f} MB"


def of_a_core(seconds: float, window: float) -> str:
    return f"{100 * seconds / window:.0f} % of a core"


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}es"


def report(args: argparse.Namespace, setup: str, processes: int, outcome: Outcome) -> None:
    """Print the setup, the figures and the table row; PROCESSES: the servers measured."""
    moves = len(outcome.latencies)
    rate = moves / outcome.window
    print(
        f"games {outcome.games:,} ({outcome.held:,} sockets held of {outcome.sockets:,}),"
        f" {args.players} players, think {args.think:.1f} s, {setup},"
        f" {plural(outcome.client_processes, 'client process')},"
        f" window {outcome.window:g} s"
    )
    lat = outcome.latencies
    latency = (
        f"p50 {percentile(lat, 0.5) * 1000:.1f} ms  p95 {percentile(lat, 0.95) * 1000:.1f} ms"
        f"  p99 {percentile(lat, 0.99) * 1000:.1f} ms  max {lat[-1] * 1000:.1f} ms"
        if lat
        else "none"
    )
    print(f"moves/s {rate:.1f} ({moves:,} moves)   latency move -> every seat's state: {latency}")
    figures = []
    per_move_cpu: float | None = None
    if outcome.server_cpu is not None:
        per_move_cpu = outcome.server_cpu / moves if moves else math.nan
        figures.append(
            f"server CPU per move {per_move_cpu * 1000:.2f} ms"
            f" ({of_a_core(outcome.server_cpu, outcome.window)})"
        )
    else:
        figures.append("server CPU n/a (no --pid)")
    if outcome.rss_peak is not None:
        high_water = " + ".join(megabytes(kib) for kib in outcome.high_water) or "n/a"
        if processes > 1:
            figures.append(
                f"RSS peak {megabytes(outcome.rss_peak)} in all"
                f" (max per process {megabytes(outcome.rss_peak_one or 0)}, VmHWM {high_water})"
            )
        else:
            figures.append(f"RSS peak {megabytes(outcome.rss_peak)} (VmHWM {high_water})")
    client_cpu = outcome.client_cpu / moves * 1000 if moves else math.nan
    busiest = (
        f"; busiest process {of_a_core(outcome.client_cpu_max, outcome.window)}"
        if outcome.client_processes > 1
        else ""
    )
    figures.append(
        f"client CPU {client_cpu:.1f} ms/move"
        f" ({of_a_core(outcome.client_cpu, outcome.window)}{busiest})"
    )
    figures.append(
        f"client GC: longest pause {outcome.client_gc_longest * 1000:.0f} ms,"
        f" {outcome.client_gc_total * 1000:.0f} ms in all"
    )
    if moves and outcome.wire:
        figures.append(f"loopback traffic {outcome.wire / moves / 1024:.1f} KiB/move")
    print("   ".join(figures))
    busy, stolen, every = outcome.machine
    if every:
        print(
            f"machine: {busy / every:.0%} of its {os.cpu_count()} cores busy,"
            f" {stolen / every:.0%} stolen by the hypervisor"
        )
    total_errors = sum(outcome.errors.values())
    kinds = ", ".join(f"{kind}: {count}" for kind, count in outcome.errors.most_common())
    print(
        f"errors {total_errors}{f' ({kinds})' if kinds else ''}"
        f"   dropped sockets {outcome.dropped}"
        + (f"   games finished during the run {outcome.finished}" if outcome.finished else "")
    )
    print()
    print(
        f"| {outcome.games:,} ({outcome.held:,}) | {rate:,.0f} |"
        f" {short_ms(percentile(lat, 0.5)) if lat else '-'} |"
        f" {short_ms(percentile(lat, 0.95)) if lat else '-'} |"
        f" {short_ms(percentile(lat, 0.99)) if lat else '-'} |"
        f" {short_ms(per_move_cpu) if per_move_cpu is not None and moves else '-'} |"
        f" {megabytes(outcome.rss_peak) if outcome.rss_peak is not None else '-'} |"
    )


def server_log_summary(path: Path, window: tuple[float, float] | None) -> list[str]:
    """The warnings and errors the server logged: how many, when (before the window:
    creating and connecting; in it; after it: closing), and the first few."""
    counts: Counter[str] = Counter()
    phases: Counter[str] = Counter()
    first: dict[str, str] = {}
    with contextlib.suppress(OSError), path.open(errors="replace") as lines:
        for line in lines:
            words = line.split(maxsplit=4)
            if len(words) < 5 or words[2] not in ("WARNING", "ERROR", "CRITICAL"):
                continue
            counts[words[2]] += 1
            kind = re.sub(r"game \S+", "game", words[4])[:60]  # one of each kind
            first.setdefault(words[3] + kind, line.strip()[:200])
            try:
                at = datetime.strptime(f"{words[0]} {words[1]}", "%Y-%m-%d %H:%M:%S,%f")
            except ValueError:
                continue
            if window is not None:
                when = at.timestamp()
                phases["before" if when < window[0] else "in" if when < window[1] else "after"] += 1
    if not counts:
        return []
    levels = ", ".join(f"{n} {level}" for level, n in counts.items())
    when = ", ".join(f"{phases[phase]} {phase}" for phase in ("before", "in", "after"))
    return [
        f"server log: {levels}" + (f" ({when} the window)" if window is not None else ""),
        *(f"  {line}" for line in list(first.values())[:5]),
    ]


@contextlib.contextmanager
def log_file(name: str | None, prefix: str = "tysiac-load-") -> Iterator[tuple[IO[bytes], Path]]:
    """The server's log: the file ``name``, or a temporary one (``prefix``) gone after."""
    if name is not None:
        with open(name, "wb") as log:
            yield log, Path(name)
        return
    with tempfile.NamedTemporaryFile(prefix=prefix, suffix=".log") as log:
        yield log, Path(log.name)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=3, choices=(2, 3, 4))
    parser.add_argument("--think", type=float, default=5.0, help="seconds per move, on average")
    parser.add_argument("--ramp", type=float, default=30.0, help="seconds to connect every socket")
    parser.add_argument("--duration", type=float, default=60.0, help="the measured seconds")
    parser.add_argument("--clients", type=int, help="client processes (default: 1 per 1,500)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--processes", type=int, default=1, help="server processes (postgres)")
    parser.add_argument("--postgres", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/14")
    parser.add_argument(
        "--url", action="append", help="a running server (repeat: seats spread over them)"
    )
    parser.add_argument(
        "--pid", type=int, action="append", help="with --url: a server process to measure"
    )
    parser.add_argument("--server-log", help="keep the started servers' log in this file")
    args = parser.parse_args()
    if args.backend == "sqlite" and args.processes != 1 and not args.url:
        parser.error("SQLite is served by one process: use --backend postgres for more")
    if args.games < 1 or args.think <= 0 or args.duration <= 0 or args.ramp < 0:
        parser.error("--games, --think and --duration must be positive, --ramp not negative")

    limit = raise_file_limit()
    sockets_per_client = math.ceil(
        args.games
        * args.players
        / (args.clients or math.ceil(args.games * args.players / SOCKETS_PER_CLIENT))
    )
    if sockets_per_client + 100 > limit:
        progress(f"warning: {sockets_per_client} sockets per client process, file limit {limit}")

    log_lines: list[str] = []
    done: list[Outcome] = []
    with ExitStack() as stack:
        log, log_path = stack.enter_context(log_file(args.server_log))
        if not args.url:  # read once the servers have stopped, before the log goes
            stack.callback(
                lambda: log_lines.extend(
                    server_log_summary(log_path, done[0].window_wall if done else None)
                )
            )
        if args.url:
            bases = [url.rstrip("/") for url in args.url]
            pids: list[int] = args.pid or []
            measured = f"process {', '.join(map(str, pids))}" if pids else "not measured"
            setup = f"server at {', '.join(bases)} ({measured})"
        elif args.backend == "sqlite":
            base, pid = stack.enter_context(server_process(log=log))
            bases, pids, setup = [base], [pid], "sqlite, 1 server process"
        else:
            from scale_out import fresh_database

            env = {
                "TYSIAC_DATABASE_URL": stack.enter_context(fresh_database(args.postgres)),
                "TYSIAC_REDIS_URL": args.redis,
                "TYSIAC_HASHING_SECRET": secrets.token_hex(32),  # every process hashes alike
            }
            servers = [
                stack.enter_context(server_process(log=log, **env)) for _ in range(args.processes)
            ]
            bases = [base for base, _pid in servers]
            pids = [pid for _base, pid in servers]
            setup = f"postgres + redis, {plural(len(servers), 'server process')}"
        memory = stack.enter_context(MemorySampler(pids)) if pids else None
        outcome = play(args, bases, pids, memory)
        done.append(outcome)
    report(args, setup, len(pids), outcome)
    for line in log_lines:
        print(line)
    if sum(outcome.errors.values()) or outcome.dropped:
        sys.exit(1)


if __name__ == "__main__":
    main()
