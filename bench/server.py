"""Server load: many games at once, bots on real WebSockets, SQLite on disk.

    python bench/server.py [--games 50] [--players 3] [--seconds 20]

Starts ``python -m tysiac.server`` on a free local port with a fresh database,
fills GAMES tables with bot players, and lets them play for SECONDS. Prints
accepted moves per second and the time from sending a move to seeing its state
(p50, p95, p99). Bots move as soon as it is their turn (far faster than people).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import time
from typing import Any

import httpx
from websockets.asyncio.client import connect

from local_server import running_server

Message = dict[str, Any]


def choose(view: Message, rng: random.Random) -> Message:
    legal = view["legal"]
    if "bid" in legal:
        return (
            {"type": "pass"}
            if rng.random() < 0.7 or not legal["bid"]
            else {"type": "bid", "value": legal["bid"][0]}
        )
    if "musik" in legal:
        return {"type": "musik", "index": rng.randrange(2)}
    if "give" in legal:
        to, cards = legal["give"]["to"], rng.sample(legal["give"]["cards"], 2)
        return {"type": "give", "cards": {str(to[0]): cards[0], str(to[1]): cards[1]}}
    if "discard" in legal:
        discard = legal["discard"]
        return {"type": "discard", "cards": rng.sample(discard["cards"], discard["count"])}
    if "declare" in legal:
        return {"type": "declare", "value": legal["declare"][0]}
    return {"type": "play", "card": rng.choice(legal["play"])}


async def bot(url: str, token: str, stop: float, latencies: list[float], rng: random.Random) -> int:
    moves = 0
    async with connect(url) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent_at: float | None = None
        sent_version = -1
        while time.monotonic() < stop:
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), stop - time.monotonic()))
            except TimeoutError:
                break
            if message["type"] != "state" or message["view"] is None:
                continue
            if sent_at is not None and message["v"] > sent_version:
                latencies.append(time.perf_counter() - sent_at)
                moves += 1
                sent_at = None
            view = message["view"]
            if view["legal"] and sent_at is None and message["game"]["status"] == "playing":
                sent_version = message["v"]
                sent_at = time.perf_counter()
                await ws.send(
                    json.dumps({"type": "move", "v": message["v"], "action": choose(view, rng)})
                )
    return moves


async def run(bases: list[str], games: int, players: int, seconds: float) -> None:
    """Seat ``i`` of every game plays through ``bases[i % len(bases)]`` (one or more
    server processes sharing a store); games are created through the first."""
    rng = random.Random(1)
    tables: list[tuple[str, list[str]]] = []
    async with httpx.AsyncClient(base_url=bases[0], timeout=30) as http:
        for _ in range(games):
            created = (
                await http.post("/api/games", json={"nick": "Bot0", "players": players})
            ).json()
            tokens = [created["token"]]
            for seat in range(1, players):  # a client each: one device holds one seat a table
                async with httpx.AsyncClient(base_url=bases[0], timeout=30) as seat_http:
                    joined = await seat_http.post(
                        f"/api/games/{created['code']}/join", json={"nick": f"Bot{seat}"}
                    )
                tokens.append(joined.json()["token"])
            tables.append((created["code"], tokens))
    latencies: list[float] = []
    ws_bases = [base.replace("http://", "ws://") for base in bases]
    start = time.monotonic()
    stop = start + seconds
    counts = await asyncio.gather(
        *(
            bot(
                f"{ws_bases[seat % len(bases)]}/ws/{code}",
                token,
                stop,
                latencies,
                random.Random(rng.random()),
            )
            for code, tokens in tables
            for seat, token in enumerate(tokens)
        )
    )
    elapsed = time.monotonic() - start
    moves = sum(counts)
    latencies.sort()

    def pct(p: float) -> str:
        return f"{latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000:.1f} ms"

    print(
        f"games {games} x {players} players, {elapsed:.1f} s, {players * games} sockets"
        f" on {len(bases)} process(es)"
    )
    print(f"accepted moves: {moves} ({moves / elapsed:,.0f}/s)")
    if latencies:
        print(
            f"move -> own state: p50 {pct(0.5)}, p95 {pct(0.95)}, p99 {pct(0.99)}, "
            f"mean {statistics.mean(latencies) * 1000:.1f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--players", type=int, default=3, choices=(2, 3, 4))
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--url", help="a running server with high limits (e.g. to profile it)")
    args = parser.parse_args()
    if args.url:
        asyncio.run(run([args.url.rstrip("/")], args.games, args.players, args.seconds))
        return
    with running_server() as base:
        asyncio.run(run([base], args.games, args.players, args.seconds))


if __name__ == "__main__":
    main()
