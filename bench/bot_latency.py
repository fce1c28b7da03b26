"""The strong computer player's decision time inside a busy server, as a player sees it.

    python bench/bot_latency.py [--bot-games 6] [--people-games 20] [--seconds 120]
        [--think 1-3] [--seed 1] [--workers W] [--pause P] [--server-log FILE]

Starts ``python -m tysiac.server`` on a free local port with a fresh SQLite file (the
high limits and no hand pause of bench/local_server.py; ``--workers`` sets
TYSIAC_BOT_WORKERS and ``--pause`` TYSIAC_BOT_PAUSE_SECONDS, else the server's defaults)
and plays, for SECONDS, on real WebSockets:

- BOT-GAMES three-player games of one scripted person against two ``strong`` bots
  ("mocny"), default rules;
- PEOPLE-GAMES three-player games of three scripted people, no bots: the other games
  the server plays meanwhile.

Every person answers a state in which it is to move with a random legal move after a
human pause, uniform over THINK seconds (``1-3``), so every table keeps a person's
pace. Tables start spread over the first THINK seconds. A game that ends is replaced by
a new game of its kind (created over HTTP as the first was); one that is still going
when SECONDS are over simply stops.

What is measured is a bot's decision time as the person at its table sees it. When a
bot is to move, the state says how much of its natural pause is left
(``game.time_left_ms``); for each bot move

    latency = (arrival of the first state showing the bot's move)
              - (arrival of the first state in which it is to move + its time_left_ms)

that is its search, any wait for a free worker of the pool, the store's write and the
broadcast, less the first state's own way to the client (both arrival times also hold
this script's own delays, alike; time.monotonic()). A pair opens at the first state
(at version v) in which a bot seat is to move and closes at the first state with a
later version whose new log entries hold a move of that seat (or, failing that, in
which another seat is to move); a state past v without either, the game's end or a
reconnect drop it. Every bot move is counted, the first of a game (the pool possibly
still cold) too, but their maximum is also shown apart.

It prints the bot moves measured, by phase (``play``: a card in the trick play; ``other``:
bidding, the musik, giving, the contract...), with their p50, p95, p99 and maximum,
and whether the goal (p95 <= 1 s and p99 <= 2 s, for every choice) is met; the first
move of each game and the run's very first; the people games' accepted moves a second
(moves in their logs, server auto-moves apart); the bot moves still awaited at the end
more than 2 s past their pause; refusals and reconnects of this script's sockets; from
the server's log, the bot moves answered by the fallback (a strong search that failed
or overran, answered by ``medium``: "a strong bot's search failed ... medium moves
instead") and its ERROR lines; and the machine's load average at the end.

The exit status is 1 when the server logged an ERROR or refused a move of this script.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from load import log_file, percentile
from local_server import server_process
from server import choose
from tysiac.server.config import Settings

Message = dict[str, Any]

PLAYERS = 3
LEVEL = "strong"
GOAL_P95 = 1.0  # seconds
GOAL_P99 = 2.0
OVERDUE_SECONDS = 2.0  # a bot move this long past its pause at the end: awaited in vain
FALLBACK_MARK = "bot's search failed"  # thinking.Thinker.choose's warning
MOVE_KINDS = frozenset(
    {
        "bid",
        "pass",
        "musik",
        "give",
        "discard",
        "declare",
        "play",
        "bomb",
        "redeal",
        "blind",
        "look",
        "resign",
        "surrender",
        "timeout",
    }
)
KNOWN_LEGAL = ("bid", "musik", "give", "discard", "declare", "play")  # what ``choose`` plays


@dataclass(frozen=True, slots=True)
class BotMove:
    phase: str  # "play" or "other"
    latency: float  # seconds
    first: bool  # this bot seat's first move in its game


@dataclass
class Stats:
    """Everything the tables count, on this script's one event loop."""

    bot_moves: list[BotMove] = field(default_factory=list)
    people_moves: int = 0  # accepted moves of the people games (their logs)
    person_moves: int = 0  # accepted moves of the bot games' person
    auto_moves: Counter[str] = field(default_factory=Counter)  # server timeouts, by table kind
    refused: Counter[str] = field(default_factory=Counter)  # error messages, by code
    dropped_pairs: int = 0
    reconnects: int = 0
    create_failures: Counter[str] = field(default_factory=Counter)
    games: Counter[str] = field(default_factory=Counter)  # started, by kind
    finished: Counter[str] = field(default_factory=Counter)  # ended, by kind
    overdue: list[float] = field(default_factory=list)  # seconds past the pause, at the end
    cold: float | None = None  # the run's first bot move

    def record(self, move: BotMove) -> None:
        if self.cold is None:
            self.cold = move.latency
        self.bot_moves.append(move)


@dataclass
class Pair:
    """A bot seat to move: since when (the state's arrival plus its pause left)."""

    seat: int
    version: int
    due: float  # time.monotonic() at which its pause ended, as the table sees it
    phase: str
    first: bool


class BotWatch:
    """Pairs, on the person's socket, each bot's turn with the state that shows its move."""

    def __init__(self, bots: set[int], stats: Stats) -> None:
        self.bots = bots
        self.stats = stats
        self.open: Pair | None = None
        self.moved: set[int] = set()  # bot seats that have moved in this game

    def drop(self) -> None:
        if self.open is not None:
            self.stats.dropped_pairs += 1
            self.open = None

    def state(self, message: Message, arrived: float) -> None:
        game, view = message["game"], message["view"]
        pair = self.open
        if pair is not None and message["v"] > pair.version:
            self.open = None
            to_move = view["to_move"] if view is not None else None
            moved = any(
                entry.get("seat") == pair.seat
                and entry["v"] > pair.version
                and entry["kind"] in MOVE_KINDS
                for entry in message["log"]
            )
            if moved or (to_move is not None and to_move != pair.seat):
                self.moved.add(pair.seat)
                self.stats.record(BotMove(pair.phase, arrived - pair.due, pair.first))
            else:
                self.stats.dropped_pairs += 1
        if game["status"] != "playing" or view is None:
            self.drop()
            return
        seat, left = view["to_move"], game["time_left_ms"]
        if self.open is None and seat in self.bots and left is not None:
            hand = view["hand"]
            phase = "play" if hand is not None and hand["phase"] == "play" else "other"
            self.open = Pair(
                seat, message["v"], arrived + left / 1000, phase, seat not in self.moved
            )

    def awaited(self, now: float) -> float | None:
        """How long past its pause the open bot move is now, if one is open."""
        return None if self.open is None else now - self.open.due


def legal_move(view: Message, rng: random.Random) -> Message:
    """``choose`` of bench/server.py, or, for a move it does not play, the first legal."""
    legal = view["legal"]
    if any(key in legal for key in KNOWN_LEGAL):
        return choose(view, rng)
    return {"type": next(iter(legal))}  # pass, bomb, redeal, blind, look, resign: no field


@dataclass
class Run:
    ws_base: str
    http_base: str
    stop: float  # time.monotonic()
    think: tuple[float, float]
    stats: Stats
    watches: list[BotWatch] = field(default_factory=list)


async def person(
    run: Run,
    url: str,
    token: str,
    rng: random.Random,
    kind: str,
    watch: BotWatch | None,
    counts: bool,
) -> bool:
    """One person's socket until its game ends (True) or the run does (False).

    ``watch``: this socket measures its table's bots; ``counts``: it counts its table's
    moves (one socket a table)."""
    stats = run.stats
    connected = False
    while time.monotonic() < run.stop:
        if connected:
            stats.reconnects += 1
            if watch is not None:
                watch.drop()
            await asyncio.sleep(0.5)
        connected = True
        try:
            async with connect(url, proxy=None) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                return await play(run, ws, rng, kind, watch, counts)
        except (OSError, TimeoutError, WebSocketException):
            continue
    return False


async def play(
    run: Run,
    ws: ClientConnection,
    rng: random.Random,
    kind: str,
    watch: BotWatch | None,
    counts: bool,
) -> bool:
    """Read states and move when to move, after a pause; True once the game has ended.
    A closed socket raises ConnectionClosed (``person`` reconnects)."""
    stats = run.stats
    latest: Message | None = None  # the newest state while this seat is to move
    move_at: float | None = None  # when to send its move
    sent = -1  # the version the last move was sent on: its own states are not new turns
    while True:
        now = time.monotonic()
        if now >= run.stop:
            return False
        wait = run.stop - now if move_at is None else max(0.0, min(run.stop, move_at) - now)
        try:
            raw = await asyncio.wait_for(ws.recv(), wait)
        except TimeoutError:
            if move_at is not None and latest is not None and time.monotonic() >= move_at:
                action = legal_move(latest["view"], rng)
                await ws.send(json.dumps({"type": "move", "v": latest["v"], "action": action}))
                sent, move_at, latest = latest["v"], None, None
            continue
        arrived = time.monotonic()
        message = json.loads(raw)
        if message["type"] == "error":
            stats.refused[message["error"]["code"]] += 1
            sent = -1  # a refused move: the fresh state that follows is a turn again
            continue
        if message["type"] != "state":
            continue
        if watch is not None:
            watch.state(message, arrived)
        if counts and message["delta"]:
            for entry in message["log"]:
                if entry["kind"] == "timeout":
                    stats.auto_moves[kind] += 1
                elif entry["kind"] in MOVE_KINDS and (watch is None or entry["seat"] == 0):
                    if watch is None:
                        stats.people_moves += 1
                    else:
                        stats.person_moves += 1
        status = message["game"]["status"]
        if status in ("finished", "cancelled"):
            return True
        view = message["view"]
        if status != "playing" or view is None or not view["legal"]:
            latest, move_at = None, None
            continue
        if message["v"] <= sent:
            continue
        latest = message
        if move_at is None:
            move_at = arrived + rng.uniform(*run.think)


async def create(run: Run, bots: list[str]) -> tuple[str, list[str]]:
    """A new game: its code and the people's tokens, by seat (one client a seat, as
    one device holds one seat a table)."""
    async with httpx.AsyncClient(base_url=run.http_base, timeout=30, trust_env=False) as http:
        response = await http.post(
            "/api/games", json={"nick": "Osoba0", "players": PLAYERS, "bots": bots}
        )
        response.raise_for_status()
        created = response.json()
    tokens = [created["token"]]
    for seat in range(1 + len(bots), PLAYERS):
        async with httpx.AsyncClient(base_url=run.http_base, timeout=30, trust_env=False) as http:
            response = await http.post(
                f"/api/games/{created['code']}/join", json={"nick": f"Osoba{seat}"}
            )
            response.raise_for_status()
            tokens.append(response.json()["token"])
    return created["code"], tokens


async def table(run: Run, kind: str, rng: random.Random) -> None:
    """One table of KIND (``bots`` or ``people``) for the whole run, a new game whenever
    its game ends."""
    stats = run.stats
    await asyncio.sleep(rng.uniform(0, run.think[1]))
    bots = [LEVEL] * (PLAYERS - 1) if kind == "bots" else []
    while time.monotonic() < run.stop:
        try:
            code, tokens = await create(run, bots)
        except httpx.HTTPError as error:
            stats.create_failures[type(error).__name__] += 1
            await asyncio.sleep(1.0)
            continue
        stats.games[kind] += 1
        watch = BotWatch(set(range(1, PLAYERS)), stats) if kind == "bots" else None
        if watch is not None:
            run.watches.append(watch)
        url = f"{run.ws_base}/ws/{code}"
        ended = await asyncio.gather(
            *(
                person(run, url, token, random.Random(rng.random()), kind, watch, seat == 0)
                for seat, token in enumerate(tokens)
            )
        )
        if watch is not None:
            run.watches.remove(watch)
            late = watch.awaited(time.monotonic())
            if late is not None and late > OVERDUE_SECONDS:
                stats.overdue.append(late)
        if any(ended):
            stats.finished[kind] += 1


async def measure(
    http_base: str, args: argparse.Namespace, think: tuple[float, float]
) -> tuple[Stats, float]:
    """Play every table for ``args.seconds``: the counts and the seconds played."""
    start = time.monotonic()
    run = Run(
        ws_base=http_base.replace("http://", "ws://"),
        http_base=http_base,
        stop=start + args.seconds,
        think=think,
        stats=Stats(),
    )
    rng = random.Random(args.seed)
    kinds = ["bots"] * args.bot_games + ["people"] * args.people_games
    await asyncio.gather(*(table(run, kind, random.Random(rng.random())) for kind in kinds))
    return run.stats, time.monotonic() - start


# --- The report -----------------------------------------------------------------------


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.0f} ms"


def latency_row(name: str, latencies: list[float]) -> str:
    if not latencies:
        return f"{name:<7} {0:>6}"
    ordered = sorted(latencies)
    cells = [percentile(ordered, p) for p in (0.5, 0.95, 0.99)] + [ordered[-1]]
    return f"{name:<7} {len(ordered):>6}" + "".join(f" {ms(cell):>10}" for cell in cells)


def goal(latencies: list[float]) -> str:
    if not latencies:
        return "goal: no bot move measured"
    ordered = sorted(latencies)
    p95, p99 = percentile(ordered, 0.95), percentile(ordered, 0.99)
    return (
        f"goal p95 <= {ms(GOAL_P95)}: {'yes' if p95 <= GOAL_P95 else 'NO'} ({ms(p95)}),"
        f" p99 <= {ms(GOAL_P99)}: {'yes' if p99 <= GOAL_P99 else 'NO'} ({ms(p99)})"
    )


@dataclass
class ServerLog:
    fallbacks: int = 0
    errors: int = 0  # ERROR and CRITICAL lines
    warnings: int = 0
    first_errors: list[str] = field(default_factory=list)

    @classmethod
    def read(cls, path: Path) -> ServerLog:
        found = cls()
        with contextlib.suppress(OSError), path.open(errors="replace") as lines:
            for line in lines:
                words = line.split(maxsplit=3)  # date, time, level, the rest
                level = words[2] if len(words) > 2 else ""
                if FALLBACK_MARK in line:
                    found.fallbacks += 1
                if level == "WARNING":
                    found.warnings += 1
                elif level in ("ERROR", "CRITICAL"):
                    found.errors += 1
                    if len(found.first_errors) < 3:
                        found.first_errors.append(line.strip()[:200])
        return found


def report(
    args: argparse.Namespace,
    think: tuple[float, float],
    stats: Stats,
    elapsed: float,
    log: ServerLog,
) -> None:
    defaults = Settings.model_fields
    workers = f"{args.workers}" if args.workers else f"{defaults['bot_workers'].default} (default)"
    pause = (
        f"{args.pause:g} s"
        if args.pause is not None
        else f"{defaults['bot_pause_seconds'].default:g} s (default)"
    )
    print(
        f"bot games {args.bot_games} (1 person + 2 {LEVEL} bots), people games"
        f" {args.people_games} (3 people), {elapsed:.0f} s, think {think[0]:g}-{think[1]:g} s,"
        f" bot pause {pause}, bot workers {workers}, seed {args.seed}"
    )
    moves = stats.bot_moves
    by_phase = {
        phase: [move.latency for move in moves if move.phase == phase]
        for phase in ("play", "other")
    }
    every = [move.latency for move in moves]
    print(
        f"bot moves measured: {len(moves)} (play {len(by_phase['play'])},"
        f" other {len(by_phase['other'])})"
    )
    print(f"{'latency':<7} {'moves':>6} {'p50':>10} {'p95':>10} {'p99':>10} {'max':>10}")
    print(latency_row("play", by_phase["play"]))
    print(latency_row("other", by_phase["other"]))
    print(latency_row("all", every))
    print(goal(every))
    firsts = [move.latency for move in moves if move.first]
    print(
        f"first move of a bot in its game: {len(firsts)},"
        f" max {ms(max(firsts)) if firsts else '-'};"
        f" the run's first bot move (pool cold?): {ms(stats.cold) if stats.cold else '-'}"
    )
    auto = ", ".join(f"{kind} {n}" for kind, n in sorted(stats.auto_moves.items())) or "0"
    print(
        f"people games: {stats.people_moves:,} accepted moves,"
        f" {stats.people_moves / elapsed:.1f}/s;"
        f" the bot games' person: {stats.person_moves:,} moves; server auto-moves: {auto}"
    )
    games = ", ".join(
        f"{kind} {stats.games[kind]} started, {stats.finished[kind]} ended"
        for kind in ("bots", "people")
    )
    print(f"games: {games}")
    overdue = f" (the longest {ms(max(stats.overdue))})" if stats.overdue else ""
    refused = ", ".join(f"{code} {n}" for code, n in stats.refused.most_common()) or "0"
    failures = ", ".join(f"{kind} {n}" for kind, n in stats.create_failures.items()) or "0"
    print(
        f"bot moves awaited more than {OVERDUE_SECONDS:g} s past their pause at the end:"
        f" {len(stats.overdue)}{overdue}; pairs dropped {stats.dropped_pairs};"
        f" refused {refused}; reconnects {stats.reconnects}; failed creations {failures}"
    )
    print(
        f"server log: fallbacks (medium instead of {LEVEL}) {log.fallbacks},"
        f" ERROR {log.errors}, WARNING {log.warnings}"
    )
    for line in log.first_errors:
        print(f"  {line}")
    one, five, fifteen = os.getloadavg()
    print(
        f"machine load (1, 5, 15 min): {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"
    )


def think_range(text: str) -> tuple[float, float]:
    """``1-3`` (uniform from 1 to 3 seconds) or ``2`` (always 2)."""
    low, _, high = text.partition("-")
    try:
        bounds = (float(low), float(high or low))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a range of seconds: {text!r}") from None
    if not 0 <= bounds[0] <= bounds[1]:
        raise argparse.ArgumentTypeError(f"not a range of seconds: {text!r}")
    return bounds


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--bot-games", type=int, default=6, help="1 person + 2 strong bots")
    parser.add_argument("--people-games", type=int, default=20, help="3 people, no bots")
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--think", type=think_range, default=(1.0, 3.0), help="LOW-HIGH seconds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, help="TYSIAC_BOT_WORKERS (default: the server's)")
    parser.add_argument(
        "--pause", type=float, help="TYSIAC_BOT_PAUSE_SECONDS (default: the server's)"
    )
    parser.add_argument("--server-log", help="keep the server's log in this file")
    args = parser.parse_args()
    if args.bot_games < 1 or args.people_games < 0 or args.seconds <= 0:
        parser.error("--bot-games must be at least 1, --people-games not negative")
    env: dict[str, str] = {}
    if args.workers is not None:
        env["TYSIAC_BOT_WORKERS"] = str(args.workers)
    if args.pause is not None:
        env["TYSIAC_BOT_PAUSE_SECONDS"] = str(args.pause)
    with log_file(args.server_log, prefix="tysiac-bot-latency-") as (log, path):
        with server_process(log=log, **env) as (base, _pid):
            stats, elapsed = asyncio.run(measure(base, args, args.think))
        server_log = ServerLog.read(path)  # once the server has stopped
    report(args, args.think, stats, elapsed, server_log)
    if server_log.errors or stats.refused:
        sys.exit(1)


if __name__ == "__main__":
    main()
