"""Abuse: an honest player's latency while one client attacks the server.

    python bench/abuse.py [--seconds 10] [--attack all|body|connections|chat|lobby|review]

Starts ``python -m tysiac.server`` (fresh SQLite, the service's own game limits). For a
baseline and each attack, three honest 3-player games from 127.0.0.1 make a move every 0.2 s
each (timed until the mover sees the new ``state``) while the attack, in a process of its
own, runs for SECONDS from other loopback addresses:

- body: 4 streams of chunked 200 MB POSTs to /api/games: the answer, then what the server does
- connections: 1,500 half-sent HTTP requests, then WebSockets that never say hello
- chat: a private 2-seat game, 30 sockets per seat, each sending 10 chat lines a second
- lobby: 8 clients on 4 addresses create and fill games; then 127.0.0.1 creates one
- review: 20 analyses of deals running all the time (the review's queue, full: 10
  addresses, 2 each, each replaced by another once done; ``review_load.keep_analysing``)

Every wait is bounded, and it exits 0 whatever the server does: it is a measurement.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import multiprocessing
import os
import random
import re
import resource
import socket
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from local_server import running_server
from review_load import bench_record, keep_analysing
from server import choose
from tysiac.server.config import Settings

HONEST, BODY, FLOOD, CHAT = "127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4"
LOBBY = ["127.0.0.5", "127.0.0.6", "127.0.0.7", "127.0.0.8"]
# running_server raises the game limits for load tests; here the service's defaults apply.
# The service's own limits (running_server lifts those per address for the load benches).
LIMITS = {
    f"TYSIAC_{name.upper()}": str(Settings.model_fields[name].default)
    for name in (
        "max_games_per_ip",
        "max_active_games",
        "max_waiting_games_per_ip",
        "max_games_per_ip_per_hour",
        "max_connections_per_ip",
        "messages_per_second_per_ip",
    )
}
GAMES, PACE, TIMEOUT = 3, 0.2, 5.0  # honest games, seconds between moves in each, patience
BODY_STREAMS, BODY_BYTES, CHUNK = 4, 200 * 2**20, 64 * 2**10
HALF_REQUESTS, MAX_SOCKETS, BATCH = 1500, 5000, 100
CHAT_SOCKETS, CHAT_RATE = 30, 10.0  # per seat; lines a second per socket (the bucket's rate)
VERSION = re.compile(rb'"v":\s*(\d+)')


def now() -> float:
    return asyncio.get_running_loop().time()  # time.monotonic(): the same in every process


def tally(counts: Counter[str]) -> str:
    return ", ".join(f"{key} ×{count}" for key, count in counts.most_common()) or "-"


def why(error: BaseException) -> str:
    status = getattr(getattr(error, "response", None), "status_code", "")  # a refused handshake
    return f"{type(error).__name__} {status}".strip()


def client(base: str, address: str) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=address)
    return httpx.AsyncClient(base_url=base, timeout=TIMEOUT, transport=transport, trust_env=False)


async def post(http: httpx.AsyncClient, path: str, body: Any) -> tuple[Any, str | None]:
    """The JSON answer, or None and why not: the error code, ``timeout`` or the failure."""
    try:
        answer = await http.post(path, json=body)
        return (
            (answer.json(), None) if answer.is_success else (None, answer.json()["error"]["code"])
        )
    except httpx.TimeoutException:
        return None, "timeout"
    except (httpx.HTTPError, ValueError, LookupError, TypeError) as error:
        return None, why(error)


def open_ws(base: str, code: str, address: str, **options: Any) -> connect:
    url = f"{base.replace('http', 'ws', 1)}/ws/{code}"
    return connect(url, local_addr=(address, 0), open_timeout=TIMEOUT, close_timeout=1, **options)


# The honest side ---------------------------------------------------------------------------


@dataclass
class Honest:
    latencies: list[float] = field(default_factory=list)
    seated: list[float] = field(default_factory=list)  # from create to a seat's first state
    errors: Counter[str] = field(default_factory=Counter)


async def honest_seat(
    ws: ClientConnection, began: float, pace: list[float], stop: float, stats: Honest
) -> int:
    """Move when it is our turn (one move per PACE in this game), time it; the last v seen."""
    rng, v, what = random.Random(), -1, "hello"
    pending: float | None = now()  # when the request still waiting for its state was sent
    while pending is not None or now() < stop:  # a pending request is waited for past the stop
        wait = TIMEOUT - (now() - pending) if pending is not None else stop - now()
        try:
            message = json.loads(await asyncio.wait_for(ws.recv(), max(wait, 0)))
        except TimeoutError:
            stats.errors.update([f"{what} > {TIMEOUT:g} s"] if pending is not None else [])
            pending = None
            continue
        if message["type"] == "error" and pending is not None:
            stats.errors[f"{what} {message['error']['code']}"] += 1
            pending = None
        if message["type"] != "state" or message["view"] is None:
            continue
        if pending is not None and what == "hello":
            stats.seated.append(now() - began)
            pending = None
        elif pending is not None and message["v"] > v:
            stats.latencies.append(now() - pending)
            pending = None
        v = message["v"]
        if message["view"]["legal"] and pending is None and message["game"]["status"] == "playing":
            await asyncio.sleep(max(0.0, pace[0] - now()))
            if now() >= stop:
                break
            pending, what = now(), "move"
            pace[0] = pending + PACE
            move = {"type": "move", "v": v, "action": choose(message["view"], rng)}
            await ws.send(json.dumps(move))
    return v


async def surrender(ws: ClientConnection, v: int) -> None:
    """End the game, so that 127.0.0.1 stays within its active-games limit."""
    for _ in range(5):  # after a stale refusal, again with a newer v
        await ws.send(json.dumps({"type": "move", "v": v, "action": {"type": "surrender"}}))
        while (message := json.loads(await ws.recv()))["type"] != "error":
            if message["type"] == "state":
                if message["game"]["status"] != "playing":
                    return
                v = message["v"]


async def honest_game(base: str, stop: float, stats: Honest, n: int) -> None:
    began = now()
    async with client(base, HONEST) as http:
        game, error = await post(http, "/api/games", {"nick": f"Ala{n}", "players": 3})
    tokens = [game["token"]] if game else []
    while game and not error and len(tokens) < 3:
        async with client(base, HONEST) as http:  # a browser each: a device holds one seat
            path, nick = f"/api/games/{game['code']}/join", f"Bob{len(tokens)}"
            joined, error = await post(http, path, {"nick": nick})
        tokens += [joined["token"]] if joined else []
    if error:
        stats.errors[f"create/join {error}"] += 1
        return
    try:
        async with contextlib.AsyncExitStack() as stack:
            seats = [
                await stack.enter_async_context(open_ws(base, game["code"], HONEST)) for _ in tokens
            ]
            for ws, token in zip(seats, tokens, strict=True):
                await ws.send(json.dumps({"type": "hello", "token": token}))
            pace = [0.0]
            v = await asyncio.gather(*(honest_seat(ws, began, pace, stop, stats) for ws in seats))
            try:
                await asyncio.wait_for(surrender(seats[0], v[0]), 2)
            except TimeoutError:
                stats.errors["surrender > 2 s"] += 1
    except (OSError, TimeoutError, ConnectionClosed) as error:
        stats.errors[f"socket {why(error)}"] += 1


async def honest(base: str, stop: float, stats: Honest) -> None:
    await asyncio.sleep(min(1.0, (stop - now()) / 5))  # sit down once the attack is going
    try:
        async with asyncio.timeout_at(stop + 4 * TIMEOUT):  # a hard bound, whatever happens
            await asyncio.gather(*(honest_game(base, stop, stats, n) for n in range(GAMES)))
    except TimeoutError:
        stats.errors["cut at the hard bound"] += 1


# The attacks: each runs until ``stop``, closes what it opened and says what it got ----------


async def attack_none(base: str, stop: float) -> str:
    return await asyncio.sleep(stop - now(), "-")


async def dial(address: str, port: int) -> socket.socket:
    """A non-blocking TCP socket from ``address`` to the server."""
    sock = socket.socket()
    sock.setblocking(False)
    try:
        sock.bind((address, 0))
        await asyncio.wait_for(asyncio.get_running_loop().sock_connect(sock, (HONEST, port)), 5)
    except BaseException:
        sock.close()
        raise
    return sock


def chunked_post() -> Iterator[bytes]:
    """A POST with BODY_BYTES of JSON white space, chunked; one chunk is ever in memory."""
    yield b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    yield b"Transfer-Encoding: chunked\r\n\r\n"
    chunk = b"%x\r\n%s\r\n" % (CHUNK, b" " * CHUNK)
    for _ in range(BODY_BYTES // CHUNK):
        yield chunk
    yield b"0\r\n\r\n"


async def attack_body(base: str, stop: float) -> str:
    """Raw sockets, to see the answer when it comes (httpx would send the whole body first).
    Like an attacker, it sends on after the answer for as long as the server reads."""
    loop, port = asyncio.get_running_loop(), urlsplit(base).port or 80
    answers, rest = Counter[str](), Counter[str]()  # the status; what became of the body
    delays, sent = [0.0], [0]

    async def send(sock: socket.socket) -> str:
        with contextlib.suppress(OSError):
            for piece in chunked_post():
                await loop.sock_sendall(sock, piece)
                sent[0] += len(piece)
            return "read all of it"
        return "closed mid-body"

    async def stream() -> None:
        while True:
            try:
                sock, began = await dial(BODY, port), now()
            except (OSError, TimeoutError) as error:
                answers[why(error)] += 1
                continue
            sender = asyncio.create_task(send(sock))
            try:
                status = (await loop.sock_recv(sock, 100)).split()  # [] when just closed
                answers[status[1].decode() if len(status) > 1 else "closed"] += 1
                delays.append(now() - began)
                rest[await sender] += 1
            except OSError as error:
                answers[why(error)] += 1
            finally:
                sender.cancel()
                sock.close()

    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout_at(stop):
            await asyncio.gather(*(stream() for _ in range(BODY_STREAMS)))
    answered = f"answers {tally(answers)} (slowest {max(delays):.2f} s)"
    return f"{answered}; the rest of the body: {tally(rest)}; {sent[0] / 2**20:,.0f} MB sent"


def still_open(sock: socket.socket) -> bool:
    """Neither closed nor answered (e.g. with a 408) by the server."""
    try:
        return not sock.recv(1, socket.MSG_PEEK)
    except BlockingIOError:
        return True
    except OSError:
        return False


async def attack_connections(base: str, stop: float) -> str:
    port, failed = urlsplit(base).port or 80, Counter[str]()
    half: list[socket.socket] = []
    sockets: list[ClientConnection] = []

    async def half_request() -> socket.socket:
        sock = await dial(FLOOD, port)
        head = b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        await asyncio.get_running_loop().sock_sendall(sock, head)  # and never the blank line
        return sock

    async def open_batch(openers: list[Awaitable[Any]], into: list[Any]) -> bool:
        """Open them at once; whether any of them opened."""
        results = await asyncio.gather(*openers, return_exceptions=True)
        failed.update(why(result) for result in results if isinstance(result, BaseException))
        into += [result for result in results if not isinstance(result, BaseException)]
        return not all(isinstance(result, BaseException) for result in results)

    async with client(base, FLOOD) as http:  # the WebSockets need a game to connect to
        game, error = await post(http, "/api/games", {"nick": "Flood", "players": 2})
    try:
        with contextlib.suppress(TimeoutError):  # open for half the time, then wait and look
            async with asyncio.timeout_at(now() + (stop - now()) / 2):
                for _ in range(HALF_REQUESTS // BATCH):
                    await open_batch([half_request() for _ in range(BATCH)], half)
                options = {"ping_interval": None, "compression": None}
                while game and len(sockets) < MAX_SOCKETS:
                    batch = [open_ws(base, game["code"], FLOOD, **options) for _ in range(BATCH)]
                    if not await open_batch(batch, sockets):
                        break
        await asyncio.sleep(max(0.0, stop - now() - 0.2))
        kept_half = sum(still_open(sock) for sock in half)
        kept_ws = sum(ws.state is State.OPEN for ws in sockets)
    finally:
        for sock in half:
            sock.close()
        for ws in sockets:
            ws.transport.abort()
    opened = f"half-sent HTTP {len(half)} connected/{kept_half} still open"
    opened += f", WS {len(sockets)} opened/{kept_ws} still open" if game else f", no game: {error}"
    return f"{opened}; failed: {tally(failed)}"


async def attack_chat(base: str, stop: float) -> str:
    async with client(base, CHAT) as http:
        game, error = await post(http, "/api/games", {"nick": "Spam", "players": 2, "chat": True})
        joined = None
        if game:
            joined, error = await post(http, f"/api/games/{game['code']}/join", {"nick": "Ham"})
    if not joined:
        return f"create/join refused: {error}"
    replies, versions = Counter[str](), [0]  # in this game only chat lines raise the version

    async def write(ws: ClientConnection) -> None:
        with contextlib.suppress(ConnectionClosed):
            for n in itertools.count():
                await ws.send(json.dumps({"type": "chat", "text": f"spam {n}"}))
                replies["sent"] += 1
                await asyncio.sleep(1 / CHAT_RATE)

    async def read(ws: ClientConnection) -> None:
        with contextlib.suppress(ConnectionClosed):
            while raw := await ws.recv(decode=False):  # parsed only as far as needed: cheap
                if b'"error"' in raw[:40]:
                    replies[json.loads(raw)["error"]["code"]] += 1
                elif match := VERSION.search(raw[:60]):
                    versions[0] = versions[0] or int(match[1])  # the first version seen
                    versions.append(int(match[1]))

    async def chatter(token: str) -> None:
        try:
            async with open_ws(base, game["code"], CHAT, compression=None) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                replies["open"] += 1
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout_at(stop):
                        await asyncio.gather(write(ws), read(ws))
                replies.update([f"closed {ws.close_code}"] if ws.close_code else [])
        except (OSError, TimeoutError, ConnectionClosed) as error:
            replies[f"not opened: {why(error)}"] += 1

    tokens = [game["token"]] * CHAT_SOCKETS + [joined["token"]] * CHAT_SOCKETS
    await asyncio.gather(*(chatter(token) for token in tokens))
    sent, opened = replies.pop("sent", 0), replies.pop("open", 0)
    taken = max(versions) - versions[0]
    return f"{taken} of {sent} lines taken, {opened}/{len(tokens)} sockets; {tally(replies)}"


async def attack_lobby(base: str, stop: float) -> str:
    results = Counter[str]()

    async def creator(address: str) -> None:
        async with client(base, address) as http:
            while True:
                game, error = await post(http, "/api/games", {"nick": "Lobby", "players": 2})
                results[error or "created"] += 1
                if game:
                    async with client(base, address) as joiner:  # a device holds one seat
                        path = f"/api/games/{game['code']}/join"
                        _, error = await post(joiner, path, {"nick": "X"})
                    results[f"join {error}" if error else "filled"] += 1

    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout_at(stop):
            await asyncio.gather(*(creator(address) for address in LOBBY * 2))
    return tally(results)


async def attack_review(base: str, stop: float) -> str:
    """The review's workers kept busy: 20 analyses of a whole recorded game at all times."""
    # Polled every 2.5 s: 2 an address stay within its 60 requests a minute.
    return await keep_analysing(base, stop, bench_record(3, 3), poll=2.5)


ATTACKS: dict[str, Callable[[str, float], Awaitable[str]]] = {
    "baseline": attack_none,
    "body": attack_body,
    "connections": attack_connections,
    "chat": attack_chat,
    "lobby": attack_lobby,
    "review": attack_review,
}


def attack_process(name: str, base: str, stop: float, answer: Any) -> None:
    answer.send(asyncio.run(ATTACKS[name](base, stop)))


async def attack(name: str, base: str, stop: float) -> str:
    """Run it in a process of its own, so that it cannot hold up the honest side's loop."""
    spawn = multiprocessing.get_context("spawn")
    receive, send = spawn.Pipe(duplex=False)
    child = spawn.Process(target=attack_process, args=(name, base, stop, send), daemon=True)
    child.start()
    await asyncio.to_thread(child.join, stop - now() + 3 * TIMEOUT)  # a hard bound
    if child.is_alive():
        child.kill()
        return "the attack did not stop in time"
    return str(receive.recv()) if receive.poll() else f"the attack failed (exit {child.exitcode})"


# A phase: an attack, the honest games beside it, the server's memory; the table -------------


def server_pid() -> int:
    """Our child running ``tysiac.server`` (running_server does not tell its pid)."""
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError, ValueError, IndexError):
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            if parent == os.getpid() and b"tysiac.server" in (entry / "cmdline").read_bytes():
                return int(entry.name)
    raise RuntimeError("the server process was not found")


def rss_mb(pid: int) -> float:
    with contextlib.suppress(OSError):  # 0 once the server is gone
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


async def phase(base: str, pid: int, name: str, seconds: float) -> list[str]:
    stop, stats, rss = now() + seconds, Honest(), [rss_mb(pid)]

    async def watch() -> None:
        while True:
            rss.append(rss_mb(pid))
            await asyncio.sleep(0.1)

    watcher = asyncio.create_task(watch())
    result, _ = await asyncio.gather(attack(name, base, stop), honest(base, stop, stats))
    watcher.cancel()
    async with client(base, HONEST) as http:
        if name == "lobby":  # can an honest player still open a table?
            _, error = await post(http, "/api/games", {"nick": "Ala", "players": 3})
            stats.errors.update([f"create after it: {error}"] if error else [])
            result += f"; honest create after it: {error or 'ok'}"
        for _ in range(30):  # up to 15 s for the server to come back before the next phase
            with contextlib.suppress(httpx.HTTPError):
                if (await http.get("/health", timeout=0.5)).is_success:
                    break
            await asyncio.sleep(0.5)
    times, errors = sorted(stats.latencies), stats.errors.total()

    def ms(p: float) -> str:
        return f"{times[min(len(times) - 1, int(p * len(times)))] * 1000:.0f} ms" if times else "-"

    seated = f"{max(stats.seated, default=0):.2f} s"
    honest_errors = f"{errors} ({tally(stats.errors)})" if errors else "0"
    attacker = f"{result}; server RSS +{max(rss) - rss[0]:,.0f} MB"
    return [name, str(len(times)), ms(0.5), ms(0.99), ms(1.0), seated, honest_errors, attacker]


async def run(base: str, attacks: list[str], seconds: float) -> None:
    header = "attack|honest moves|p50|p99|max|seated|honest errors|attacker's result"
    rows = [header.split("|")]
    pid = server_pid()
    for name in ["baseline", *attacks]:
        print(f"{name} ...", flush=True)
        rows.append(await phase(base, pid, name, seconds))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    print(f"\n{seconds:g} s each; {GAMES} honest 3-player games, a move every {PACE} s in each;")
    print("seated: the slowest honest create + 2 joins + first state of a seat")
    for row in rows:
        print(
            " | ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--attack", default="all", choices=["all", *list(ATTACKS)[1:]])
    args = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # thousands of sockets on each side;
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the server inherits it
    with running_server(**LIMITS) as base:
        attacks = list(ATTACKS)[1:] if args.attack == "all" else [args.attack]
        asyncio.run(run(base, attacks, args.seconds))


if __name__ == "__main__":
    main()
