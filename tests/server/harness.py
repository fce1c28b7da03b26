"""A real server on a real socket, and scripted clients over real HTTP and WebSockets.

With TYSIAC_TEST_SCALE_OUT=1, every ``live_server`` keeps its games in a fresh
PostgreSQL database and fans out through Redis (see tests/services.py), so the same
tests check the scale-out backends: ``TYSIAC_TEST_SCALE_OUT=1 pytest tests/server``.
"""

from __future__ import annotations

import atexit
import json
import os
import random
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import ExitStack, asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import orjson
import uvicorn
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tysiac import rules
from tysiac.bus.local import LocalBus
from tysiac.server.app import create_app
from tysiac.server.clock import utc_now
from tysiac.server.config import Settings
from tysiac.server.game import lobby, play
from tysiac.server.game.dealing import Dealing
from tysiac.server.game.service import GameService
from tysiac.server.game.table import Table
from tysiac.server.serving import build_server
from tysiac.store import backend
from tysiac.store.stores import open_store

from ..services import fresh_database, redis_url_or_skip, run_async

Message = dict[str, Any]
JSON_TYPE = {"Content-Type": "application/json"}  # what every POST must say
TABLE_NICKS = ("Gracz0", "Gracz1", "Gracz2", "Gracz3")  # full_table's players, by seat


@dataclass
class FakeClock:
    """The server's clock in tests: moves only when a test says so."""

    now: datetime = field(default_factory=lambda: datetime(2026, 11, 29, 12, 0, tzinfo=UTC))

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


class Endpoint:
    """Talks to a server on 127.0.0.1:``port`` the way the pages and bots do.

    ``source``: the address the clients connect from; by default the system's choice
    (127.0.0.1). Every 127.x.y.z is loopback on Linux, so ``from_address("127.0.0.2")``
    plays another client.
    """

    port: int
    source: str | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def from_address(self, address: str) -> Endpoint:
        """The same server, with clients connecting from ``address``."""
        peer = Endpoint()
        peer.port = self.port
        peer.source = address
        return peer

    def sweeps(self) -> int:
        """The passes the server's sweeper has completed (``/health``)."""
        with self.http() as client:
            count: int = client.get("/health").json()["sweeps"]
        return count

    def wait_sweeps(self, count: int = 3) -> None:
        """Wait until the sweeper has completed ``count`` more passes: what it was going to
        do by now, it has done (a test of something that must *not* happen waits on this)."""
        target = self.sweeps() + count
        deadline = time.monotonic() + 30
        while self.sweeps() < target:
            assert time.monotonic() < deadline, "the sweeper did not sweep"
            time.sleep(0.01)

    def http(self) -> httpx.Client:
        transport = None if self.source is None else httpx.HTTPTransport(local_address=self.source)
        # 30 s: a loaded 2-core machine was seen to take over 10 s to answer (a passing
        # test never waits for it).
        return httpx.Client(base_url=self.base, timeout=30, transport=transport)

    def create(self, nick: str = "Ala", players: int = 3, **options: Any) -> Message:
        with self.http() as client:
            response = client.post("/api/games", json={"nick": nick, "players": players, **options})
        assert response.status_code == 201, response.text
        data: Message = response.json()
        return data

    def join(self, code: str, nick: str) -> Message:
        with self.http() as client:
            response = client.post(f"/api/games/{code}/join", json={"nick": nick})
        assert response.status_code == 200, response.text
        data: Message = response.json()
        return data

    def full_table(self, players: int = 3, **options: Any) -> tuple[str, list[str]]:
        """A started game: its code and every seat's token, seat order."""
        created = self.create(TABLE_NICKS[0], players, **options)
        tokens = [created["token"]]
        for seat in range(1, players):
            joined = self.join(created["code"], TABLE_NICKS[seat])
            assert joined["seat"] == seat
            tokens.append(joined["token"])
        return created["code"], tokens

    def client(
        self, code: str, token: str | None = None, headers: dict[str, str] | None = None
    ) -> Client:
        return Client(f"ws://127.0.0.1:{self.port}/ws/{code}", token, headers, self.source)


class LiveServer(Endpoint):
    """The app in a thread of the test process, on a socket of its own.

    It is served as ``python -m tysiac.server`` serves it (``serving.build_server``:
    limits, timeouts, logging), except that without ``forwarded_allow_ips`` the test
    clients on 127.0.0.1 and ::1 play a trusted proxy (uvicorn's default, which the
    X-Forwarded-For tests rely on): they are not limited per address. Clients from
    127.0.0.2 and up (``from_address``) are ordinary clients.
    """

    def __init__(
        self,
        settings: Settings,
        dealing: Dealing | None = None,
        clock: Callable[[], datetime] = utc_now,
    ) -> None:
        self.settings = settings
        self.clock = clock  # the server's time: admin commands in a test use it too
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        serving = settings
        if settings.forwarded_allow_ips is None:
            serving = settings.model_copy(update={"forwarded_allow_ips": "127.0.0.1,::1"})
        self.server: uvicorn.Server = build_server(
            create_app(settings, dealing=dealing, clock=clock),
            serving,
            log_level="warning",
            whole_process=False,
        )
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]})

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            assert time.monotonic() < deadline, "server did not start"
            time.sleep(0.01)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        assert not self.thread.is_alive(), "the server did not stop within 10 s"


class ProcessServer(Endpoint):
    """``python -m tysiac.server`` in a process of its own, as ``make run`` starts it.

    ``database`` is an SQLite file or a database URL; ``env`` adds TYSIAC_* settings.
    ``open_files``, when set before ``start``, is the process's descriptor limit
    (RLIMIT_NOFILE, soft and hard).
    """

    def __init__(self, database: Path | str, log: Path, **env: str) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        url = database if isinstance(database, str) else f"sqlite+aiosqlite:///{database}"
        self.env = {
            **os.environ,
            "TYSIAC_DATABASE_URL": url,
            "TYSIAC_PUBLIC_URL": self.base,
            **env,
        }
        self.log = log
        self.open_files: int | None = None
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.launch()
        self.wait_ready()

    def launch(self) -> None:
        limit = self.open_files

        def limit_files() -> None:
            if limit is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "tysiac.server", "--port", str(self.port)],
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                preexec_fn=limit_files if limit is not None else None,
            )

    def wait_ready(self) -> None:
        # Generous: a loaded 2-core machine has taken over 20 s to start a process.
        deadline = time.monotonic() + 60
        while True:
            assert time.monotonic() < deadline, self.log.read_text()
            try:
                if httpx.get(f"{self.base}/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, no goodbye."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)  # 0.2 s on a quiet machine; over 10 s was seen under load
            except subprocess.TimeoutExpired:
                # Where it hangs: every thread's stack into its log (SIGUSR1), then gone.
                self.process.send_signal(signal.SIGUSR1)
                time.sleep(1)
                self.process.kill()
                self.process.wait(10)
                tail = self.log.read_text(errors="replace")[-6000:]
                hung = f"the server did not stop on SIGTERM in 30 s:\n{tail}"
                raise AssertionError(hung) from None


# The sweeper's pass in tests (1 s in production): what time brings (a deal after the pause,
# a move out of time) comes within this. Each pass reads the database: at 0.02 s an idle
# server took a quarter of a core, which a parallel run shares out among its workers.
SWEEP_SECONDS = 0.05

_sqlite_template: Path | None = None


def migrated_sqlite() -> Path:
    """An SQLite file migrated as the server migrates its own on start, made once a
    session (``store.backend.migrate`` on ``store.backend.create_engine``), to copy."""
    global _sqlite_template
    if _sqlite_template is None:
        from tysiac.store.backend import create_engine, migrate

        folder = Path(tempfile.mkdtemp(prefix="tysiac-template-"))
        atexit.register(shutil.rmtree, folder, True)
        path = folder / "template.db"

        async def make() -> None:
            engine = create_engine(f"sqlite+aiosqlite:///{path}")
            try:
                await migrate(engine)
            finally:
                await engine.dispose()  # the last connection folds the WAL into the file

        run_async(make)
        assert not (folder / "template.db-wal").exists(), "the template's WAL was left over"
        _sqlite_template = path
    return _sqlite_template


def copy_migrated_sqlite(path: Path) -> None:
    """``path``: a copy of the migrated template, readable by its owner only (as the
    server makes a new one), unless there is a database there already."""
    if path.exists():
        return
    with migrated_sqlite().open("rb") as source:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "wb") as target:
            shutil.copyfileobj(source, target)


@contextmanager
def live_server(
    tmp_path: Path,
    *,
    deck: tuple[str, ...] | None = None,
    start_scores: tuple[int, ...] | None = None,
    move_time: float | None = None,
    clock: Callable[[], datetime] = utc_now,
    migrated: bool = True,
    **overrides: Any,
) -> Iterator[LiveServer]:
    """A fresh server on its own database; ``overrides`` are settings. ``deck`` (card
    codes, every hand dealt from it), ``start_scores`` and ``move_time`` (seconds to
    move, in place of each game's own) are handed to the service as its dealing, and
    ``clock`` as its time.

    Its database, unless ``overrides`` name one, starts as a copy of one migrated once a
    session (``migrated``; the server's migration on start then finds nothing to do), or
    with ``migrated=False`` as no database at all, for the server to make."""
    cards = [rules.parse_card(code) for code in deck] if deck is not None else None
    dealing = Dealing(
        deck=(lambda: list(cards)) if cards is not None else None,
        start_scores=start_scores,
        move_seconds=move_time,
    )
    overrides.setdefault("hand_pause_seconds", 0.0)
    with ExitStack() as stack:
        if os.environ.get("TYSIAC_TEST_SCALE_OUT") == "1":
            overrides.setdefault("redis_url", redis_url_or_skip())
            if "database_url" not in overrides:
                database = fresh_database(migrated=migrated)
                overrides["database_url"] = stack.enter_context(database)
            overrides.setdefault("hashing_secret", "scale-out tests " * 4)  # PostgreSQL needs one
        if "database_url" not in overrides:
            if migrated:
                copy_migrated_sqlite(tmp_path / "test.db")
            overrides["database_url"] = f"sqlite+aiosqlite:///{tmp_path / 'test.db'}"
        overrides.setdefault("sweep_seconds", SWEEP_SECONDS)
        server = LiveServer(Settings(**overrides), dealing, clock)
        server.start()
        stack.callback(server.stop)
        yield server


KEPT = 100  # log entries and chat lines a client keeps, as the server does


def with_held(held: Message, state: Message) -> Message:
    """A ``state`` whose log and chat hold the whole of them, as the web page keeps them:
    a ``delta`` state carries only the entries that came after the previous state."""
    if not state["delta"]:
        return state
    merged = dict(state)
    for part, key in (("log", "v"), ("chat", "seq")):
        newest = held[part][-1][key] if held[part] else 0
        fresh = [entry for entry in state[part] if entry[key] > newest]
        merged[part] = [*held[part], *fresh][-KEPT:]
    return merged


class Client:
    """One WebSocket connection, as a game page would hold it."""

    def __init__(
        self,
        url: str,
        token: str | None,
        headers: dict[str, str] | None = None,
        source: str | None = None,
    ) -> None:
        self.url = url
        self.token = token
        self.state: Message = {}
        self.messages: list[Message] = []  # states with the whole log and chat (``with_held``)
        self.raw: list[Message] = []  # every message as it came
        bind: dict[str, Any] = {} if source is None else {"source_address": (source, 0)}
        self._connection = connect(url, open_timeout=10, additional_headers=headers, **bind)
        self.ws: ClientConnection = self._connection.__enter__()
        self.send({"type": "hello", "token": token})
        self.wait(lambda m: m["type"] in ("state", "error"))

    @property
    def seat(self) -> int | None:
        you: int | None = self.state["game"]["you"]
        return you

    @property
    def view(self) -> Message:
        view: Message = self.state["view"]
        return view

    def send(self, message: Message) -> None:
        self.ws.send(json.dumps(message))

    def send_raw(self, text: str | bytes) -> None:
        self.ws.send(text)

    def receive(self, timeout: float) -> Message | None:
        try:
            text = self.ws.recv(timeout=timeout)
        except TimeoutError:
            return None
        message: Message = json.loads(text)
        self.raw.append(message)
        if message["type"] == "state":
            message = with_held(self.state, message)
            self.state = message
        self.messages.append(message)
        return message

    def wait(self, predicate: Callable[[Message], bool], timeout: float = 10) -> Message:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"timed out; last messages: {self.messages[-3:]}"
            message = self.receive(left)
            if message is not None and predicate(message):
                return message

    def drain(self, timeout: float = 0.05) -> None:
        while self.receive(timeout) is not None:
            pass

    def move(self, action: Message, version: int | None = None) -> None:
        self.send(
            {"type": "move", "v": self.state["v"] if version is None else version, "action": action}
        )

    def wait_state(self, predicate: Callable[[Message], bool], timeout: float = 10) -> Message:
        return self.wait(lambda m: m["type"] == "state" and predicate(m), timeout)

    def error(self, timeout: float = 10) -> Message:
        return self.wait(lambda m: m["type"] == "error", timeout)["error"]

    def close(self) -> None:
        self._connection.__exit__(None, None, None)

    def closed(self, timeout: float = 5) -> bool:
        try:
            self.wait(lambda m: False, timeout)
        except ConnectionClosed:
            return True
        except AssertionError:
            return False
        return False


RANKS = "9JQKTA"
POINTS = {"9": 0, "J": 2, "Q": 3, "K": 4, "T": 10, "A": 11}
# Dealt in blocks from the mus player on: the first block holds two marriages, so
# the mus player (declaring 100 when everyone passes) always makes the contract.
STRONG_DECK = tuple(
    "KH QH AH TH KS QS AS TS JH 9H "  # 2 players: the mus player's 10 (3, 4: first 7)
    "AD TD KD QD JD 9D AC TC KC QC JC 9C JS 9S".split()
)


def simple_move(view: Message) -> Message:
    """A legal move: pass, musik 0, the first cards, the lowest contract, a sensible card."""
    legal = view["legal"]
    if "look" in legal:  # V14: a blind game is chosen, never by default
        return {"type": "look"}
    if "bid" in legal or ("pass" in legal and "bomb" not in legal):
        return {"type": "pass"}
    if "musik" in legal:
        return {"type": "musik", "index": 0}
    if "give" in legal:
        to, cards = legal["give"]["to"], legal["give"]["cards"]
        weakest = sorted(cards, key=lambda c: POINTS[c[0]])
        return {"type": "give", "cards": {str(to[0]): weakest[0], str(to[1]): weakest[1]}}
    if "discard" in legal:
        discard = legal["discard"]
        return {
            "type": "discard",
            "cards": sorted(discard["cards"], key=lambda c: POINTS[c[0]])[: discard["count"]],
        }
    if "declare" in legal:
        return {"type": "declare", "value": legal["declare"][0]}
    cards = legal["play"]
    melds = [c for c in cards if c in view["hand"]["meld_cards"] and not view["hand"]["trick"]]
    if melds:
        return {"type": "play", "card": max(melds, key=lambda c: "SCDH".index(c[1]))}
    by_points = sorted(cards, key=lambda c: POINTS[c[0]])
    declarer = view["hand"]["declarer"] == view["seat"]
    return {"type": "play", "card": by_points[-1] if declarer else by_points[0]}


@asynccontextmanager
async def sqlite_service(path: Path, **engine_options: Any) -> AsyncIterator[GameService]:
    """A service with no server in front, on a new migrated SQLite database at ``path``
    (``engine_options``: ``backend.create_engine``'s); closed, its engine too, after."""
    engine = backend.create_engine(f"sqlite+aiosqlite:///{path}", **engine_options)
    await backend.migrate(engine)
    service = GameService(open_store(engine), LocalBus(), Settings(), "k" * 40, random.Random(1))
    try:
        yield service
    finally:
        await service.close()
        await engine.dispose()


async def host_game(service: GameService, players: int, *, public: bool = False) -> lobby.Seated:
    """Ala creates a short game for ``players`` through ``service``: her seat (0)."""
    return await lobby.create(
        service, nick="Ala", players=players, name=None, public=public, chat=True, short=True,
        move_seconds=60, author=service.author(None, "127.0.0.2"),
    )  # fmt: skip


async def service_move(service: GameService, table: Table) -> Table:
    """``simple_move`` of the seat to move, chosen on the view the service would send that
    seat, and made through ``service``: the table after it."""
    game = table.game
    assert game is not None and game.to_move is not None
    view = orjson.loads(orjson.dumps(service.snapshot(table, game.to_move)))["view"]
    return await play.move(service, table.code, game.to_move, table.version, simple_move(view))


def play_until(
    clients: list[Client],
    done: Callable[[Message], bool],
    choose: Callable[[Message], Message] = simple_move,
    limit: float = 60,
) -> None:
    """Each client moves when its state says it is to move, until ``done(state)``."""
    deadline = time.monotonic() + limit
    moved_at: dict[int, int] = {}
    while True:
        assert time.monotonic() < deadline, "game did not finish"
        for index, client in enumerate(clients):
            seen = len(client.messages)
            client.drain(0.002)
            if any(m["type"] == "error" for m in client.messages[seen:]):
                moved_at.pop(index, None)  # refused (e.g. too fast): try again
                time.sleep(0.2)
            state = client.state
            if done(state):
                return
            view = state.get("view")
            if view and view["legal"] and moved_at.get(index) != state["v"]:
                moved_at[index] = state["v"]
                client.move(choose(view))


def settle(clients: list[Client]) -> int:
    """Wait until every client has the newest state; return its version."""
    for client in clients:
        client.drain(0.02)
    newest = max(c.state["v"] for c in clients)
    for client in clients:
        if client.state["v"] < newest:
            client.wait_state(lambda s: s["v"] >= newest)
    return newest


@contextmanager
def statements(engine: AsyncEngine) -> Iterator[list[str]]:
    """Every statement the engine runs inside the block, BEGINs included, in order."""
    run: list[str] = []

    def executing(*args: Any) -> None:
        run.append(args[2])

    event.listen(engine.sync_engine, "before_cursor_execute", executing)
    try:
        yield run
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", executing)
