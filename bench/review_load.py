"""The deal review under load: the time to a game's first analysed hand, and analyses that
keep the review's workers busy.

    python bench/review_load.py [--rounds 3]

Starts ``python -m tysiac.server`` (fresh SQLite, review settings at their defaults but
``review_queue`` 21, so the probe fits beside the 20 of the load) and measures, for a 2-,
3- and 4-player game, from the request that starts the analysis to the first answer whose
hand 1 is analysed (``analysed[0]``, polled every 20 ms):

- ``game``: a game played on the server (the creator against easy computer players,
  4 hands, then the creator surrenders: finished): its ``/api/games/{code}/analysis``
  (the read of its log from the store, then hand 1);
- ``upload``: a whole recorded game of medium computer players (``bench_record``) sent to
  ``POST /api/records/review``;

on an idle server and while 20 other analyses run (``keep_analysing``: 10 addresses,
2 uploads each, each replaced by a new one once it is done). The honest players' move
latency beside those 20 analyses is ``python bench/abuse.py --attack review``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import time
from typing import Any

import httpx
from websockets.asyncio.client import connect

from local_server import running_server
from tysiac import bots, rules
from tysiac.rules.record import Recorder

NICKS = ("Ala", "Bartek", "Celina", "Darek")
LOAD_ADDRESSES = [f"127.0.1.{n}" for n in range(1, 11)]  # 2 analyses each: 20
PROBE = "127.0.0.9"
HANDS = 4  # hands of a game played on the server before its creator surrenders
SETTINGS = {
    "TYSIAC_REVIEW_QUEUE": "21",
    "TYSIAC_REVIEW_REQUESTS_PER_MINUTE": "100000",
    "TYSIAC_BOT_PAUSE_SECONDS": "0",
}


def bench_record(seed: int, players: int) -> dict[str, Any]:
    """A whole 1000-point game of medium computer players, recorded as the server would."""
    rng = random.Random(seed)
    recorder = Recorder(
        players, 1000, rules.Options(), NICKS[:players], rng.randrange(players), code="BENCH1"
    )
    while not recorder.game.is_over:
        game = recorder.game
        if game.awaiting_deal:
            recorder.deal(rules.shuffle(rng))
            continue
        seat = game.to_move
        assert seat is not None
        recorder.move(bots.choose("medium", rules.view(game, seat, history=True), rng))
    return recorder.record()


def client(base: str, address: str) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=address)
    return httpx.AsyncClient(base_url=base, timeout=30, transport=transport, trust_env=False)


async def first_hand(http: httpx.AsyncClient, path: str, first: dict[str, Any]) -> float:
    """Poll ``path`` until hand 1 is analysed: seconds from ``first['at']``. Then on until
    the whole analysis is ready, so that the next probe finds its place free."""
    answer = first["analysis"]
    while not answer["analysed"] or not answer["analysed"][0]:
        if answer["status"] == "later":
            raise RuntimeError(f"{path}: later (the queue is full)")
        await asyncio.sleep(0.02)
        answer = (await http.get(path)).json()
    took = time.monotonic() - float(first["at"])
    while answer["status"] != "ready":
        await asyncio.sleep(0.2)
        answer = (await http.get(path)).json()
    return took


async def probe_upload(base: str, record: dict[str, Any], tag: str) -> float:
    async with client(base, PROBE) as http:
        began = time.monotonic()
        answer = await http.post("/api/records/review", json={**record, "code": tag})
        review = answer.json()
        path = f"/api/records/{review['key']}/analysis"
        return await first_hand(http, path, {"at": began, "analysis": review["analysis"]})


def plain_move(view: dict[str, Any]) -> dict[str, Any]:
    """A legal move, plainly: pass, the first musik, the first cards, the lowest contract."""
    legal = view["legal"]
    if "look" in legal:  # V14: a blind game is chosen, never by default
        return {"type": "look"}
    if "pass" in legal and "bomb" not in legal:
        return {"type": "pass"}
    if "musik" in legal:
        return {"type": "musik", "index": 0}
    if "give" in legal:
        to, cards = legal["give"]["to"], legal["give"]["cards"]
        return {"type": "give", "cards": {str(to[0]): cards[0], str(to[1]): cards[1]}}
    if "discard" in legal:
        discard = legal["discard"]
        return {"type": "discard", "cards": discard["cards"][: discard["count"]]}
    if "declare" in legal:
        return {"type": "declare", "value": legal["declare"][0]}
    return {"type": "play", "card": legal["play"][0]}


async def finished_game(base: str, players: int) -> str:
    """A game against easy computer players, played for ``HANDS`` hands and then
    surrendered (a finished game: R30); its code."""
    body = {"nick": "Ala", "players": players, "bots": ["easy"] * (players - 1), "short": True}
    async with client(base, "127.0.0.1") as http:
        created = (await http.post("/api/games", json=body)).json()
    url = f"{base.replace('http', 'ws', 1)}/ws/{created['code']}"
    moved, move = -1, ""
    async with connect(url) as ws:
        await ws.send(json.dumps({"type": "hello", "token": created["token"]}))
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "error" and message["error"]["code"] == "rate_limited":
                await asyncio.sleep(0.5)
                await ws.send(move)  # again, the bucket refilled
            elif message["type"] == "error":
                raise RuntimeError(message["error"])
            if message["type"] != "state" or message["view"] is None:
                continue
            if message["game"]["status"] == "finished":
                code: str = created["code"]
                return code
            if message["view"]["legal"] and message["v"] > moved:
                moved = message["v"]
                action = plain_move(message["view"])
                if message["view"]["hand_number"] > HANDS:  # enough: the game ends (R30)
                    action = {"type": "surrender"}
                move = json.dumps({"type": "move", "v": moved, "action": action})
                await asyncio.sleep(0.1)  # within the socket's 10 messages a second
                await ws.send(move)


async def probe_game(base: str, code: str) -> float:
    async with client(base, PROBE) as http:
        began = time.monotonic()
        path = f"/api/games/{code}/analysis"
        answer = (await http.get(path)).json()
        return await first_hand(http, path, {"at": began, "analysis": answer})


async def keep_analysing(
    base: str,
    stop: float,
    record: dict[str, Any],
    poll: float = 0.2,
    done: list[int] | None = None,
) -> str:
    """20 analyses running until ``stop`` (``time.monotonic``): 2 an address, each
    replaced by another once it is done (its analysis polled every ``poll`` seconds)."""
    done = [0] if done is None else done  # analyses done so far
    later, serial = [0], [0]

    async def one(address: str, slot: int) -> None:
        async with client(base, address) as http:
            while time.monotonic() < stop:
                serial[0] += 1
                body = {**record, "code": f"L{serial[0]:05d}"}
                review = (await http.post("/api/records/review", json=body)).json()
                state = review["analysis"]
                while state["status"] == "pending" and time.monotonic() < stop:
                    await asyncio.sleep(poll)
                    path = f"/api/records/{review['key']}/analysis"
                    state = (await http.get(path)).json()
                done[0] += state["status"] == "ready"
                later[0] += state["status"] == "later"
                if state["status"] == "later":
                    await asyncio.sleep(state["retry_ms"] / 1000)

    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(stop - time.monotonic() + 30):
            await asyncio.gather(*(one(a, s) for a in LOAD_ADDRESSES for s in range(2)))
    return f"{done[0]} analyses done, {later[0]} later"


def shown(times: list[float]) -> str:
    return f"median {statistics.median(times) * 1000:.0f} ms (max {max(times) * 1000:.0f})"


async def run(base: str, rounds: int) -> None:
    records = {players: bench_record(players, players) for players in (2, 3, 4)}
    for players, record in records.items():
        print(f"{players} players: a recorded game of {len(record['hands'])} hands")
    for loaded in (False, True):
        # A game's analysis is computed once: each phase has games of its own.
        games = {players: await finished_game(base, players) for players in (2, 3, 4)}
        stop = time.monotonic() + 3600
        load, done = None, [0]
        began = time.monotonic()
        if loaded:
            load = asyncio.create_task(keep_analysing(base, stop, records[3], done=done))
            await asyncio.sleep(3)  # the 20 are under way
        for players in (2, 3, 4):
            uploads = [await probe_upload(base, records[players], f"P{n}") for n in range(rounds)]
            game = await probe_game(base, games[players])  # once: then it is stored
            when = "beside 20 analyses" if loaded else "idle server"
            line = f"{when}: {players} players: upload {shown(uploads)}"
            print(f"{line}; finished game {game * 1000:.0f} ms", flush=True)
        if load is not None:
            load.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await load
            took = time.monotonic() - began
            print(
                f"(the load: {done[0]} analyses of {len(records[3]['hands'])} hands done in"
                f" {took:.0f} s by 20 clients beside the probes)"
            )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with running_server(**SETTINGS) as base:
        asyncio.run(run(base, args.rounds))


if __name__ == "__main__":
    main()
