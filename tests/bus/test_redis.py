"""RedisBus: two buses stand for two server processes on one Redis."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from datetime import UTC, datetime

import pytest

from tysiac.bus import redis as redis_bus
from tysiac.bus.base import QUEUE_LIMIT
from tysiac.bus.messages import Change, Message, Presence, Resync, Update
from tysiac.bus.redis import RedisBus

from ..services import redis_url_or_skip

CODE = "K7F9DB"


async def next_message(queue: asyncio.Queue[Message], timeout: float = 5) -> Message:
    return await asyncio.wait_for(queue.get(), timeout)


@asynccontextmanager
async def two_processes(url: str) -> AsyncIterator[tuple[RedisBus, RedisBus]]:
    """Two started buses on one Redis, as two server processes; stopped on the way out."""
    one, two = RedisBus(url), RedisBus(url)
    await one.start()
    await two.start()
    try:
        yield one, two
    finally:
        await one.stop()
        await two.stop()


async def until_online(bus: RedisBus, seats: set[int], timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while bus.online(CODE) != seats:
        assert time.monotonic() < deadline, bus.online(CODE)
        await asyncio.sleep(0.05)


def test_every_process_gets_every_message_of_a_game_in_order() -> None:
    url = redis_url_or_skip()

    async def scenario() -> None:
        async with two_processes(url) as (one, two):
            here, there, other = one.subscribe(CODE), two.subscribe(CODE), two.subscribe("AAAAAA")
            for version in range(1, 4):
                await one.publish(CODE, Update(version, ({"kind": "pass", "seat": 0},)))
            for queue in (here, there):
                assert [await next_message(queue) for _ in range(3)] == [
                    Update(version, ({"kind": "pass", "seat": 0},)) for version in (1, 2, 3)
                ]
            assert other.empty()

    asyncio.run(scenario())


def test_an_unreadable_message_is_skipped_and_the_next_one_still_heard(
    caplog: pytest.LogCaptureFixture,
) -> None:
    url = redis_url_or_skip()

    async def scenario() -> None:
        async with two_processes(url) as (one, two):
            there = two.subscribe(CODE)
            for garbage in ("not json", '{"v": "one", "events": []}', '{"token": "secret"}'):
                await one.redis.publish(one._key("game", CODE), garbage)
            await one.publish(CODE, Update(1, ({"kind": "pass", "seat": 0},)))
            assert await next_message(there) == Update(1, ({"kind": "pass", "seat": 0},))
            assert there.empty()

    with caplog.at_level("WARNING", logger="tysiac.bus.redis"):
        asyncio.run(scenario())
    skipped = [r for r in caplog.records if "unreadable" in r.getMessage()]
    assert len(skipped) == 2 * 3  # each process hears the three
    assert not any("secret" in r.getMessage() for r in caplog.records)


def test_a_change_reaches_every_process_s_cache_as_stored_and_no_connection() -> None:
    url = redis_url_or_skip()
    at = datetime(2026, 12, 3, 12, 0, 1, 250000, tzinfo=UTC)
    change = Change(after=4, events=(("play", {"seat": 0, "card": 9}),), at=at, deadline=None)
    update = Update(5, ({"kind": "played", "seat": 0, "card": 9, "v": 5},))

    async def scenario() -> None:
        one, two = RedisBus(url), RedisBus(url)
        heard: dict[str, list[tuple[str, int, Change]]] = {"one": [], "two": []}
        one.on_change = lambda code, version, change: heard["one"].append((code, version, change))
        two.on_change = lambda code, version, change: heard["two"].append((code, version, change))
        await one.start()
        await two.start()
        try:
            here, there = one.subscribe(CODE), two.subscribe(CODE)
            await one.publish(CODE, update, change)
            # The connections get the update alone: what was stored is for the caches.
            assert await next_message(here) == update and await next_message(there) == update
            assert heard == {"one": [(CODE, 5, change)], "two": [(CODE, 5, change)]}
        finally:
            await one.stop()
            await two.stop()

    asyncio.run(scenario())


def test_a_connection_that_never_reads_is_resynchronised() -> None:
    url = redis_url_or_skip()

    async def scenario() -> None:
        bus = RedisBus(url)
        await bus.start()
        try:
            idle, reader = bus.subscribe(CODE), bus.subscribe(CODE)
            for version in range(QUEUE_LIMIT + 10):
                await bus.publish(CODE, Update(version, ()))
                await next_message(reader)  # so the idle connection has had it too
            backlog = [idle.get_nowait() for _ in range(idle.qsize())]
            assert backlog[0] == Resync() and len(backlog) == 10
            assert backlog[-1] == Update(QUEUE_LIMIT + 9, ())
        finally:
            await bus.stop()

    asyncio.run(scenario())


def test_presence_is_shared_and_a_crashed_process_drops_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = redis_url_or_skip()
    monkeypatch.setattr(redis_bus, "HEARTBEAT_SECONDS", 0.2)
    monkeypatch.setattr(redis_bus, "ALIVE_SECONDS", 1)

    async def scenario() -> None:
        async with two_processes(url) as (one, two):
            watching = two.subscribe(CODE)
            await two.connected(CODE, None, +1)  # a spectator on process two
            await one.connected(CODE, 0, +1)
            await one.connected(CODE, 2, +1)
            await one.connected(CODE, 2, +1)  # a second tab
            await until_online(two, {0, 2})
            await one.connected(CODE, 2, -1)
            await two.connected(CODE, 1, +1)
            await until_online(two, {0, 1, 2})
            await until_online(one, {0, 1, 2})
            # Process one dies without a word: its seats lapse with its heartbeat.
            for task in one._tasks:
                task.cancel()
            while watching.qsize():
                watching.get_nowait()
            await until_online(two, {1}, timeout=5)
            assert (await next_message(watching)) == Presence((1,))
            await two.connected(CODE, 1, -1)
            await two.connected(CODE, None, -1)
            assert two.online(CODE) == set()

    asyncio.run(scenario())


def redis_server_or_skip() -> str:
    found = shutil.which("redis-server")
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("redis-server is missing: CI needs it for the Redis outage test")
        pytest.skip("redis-server is not installed (the Redis outage test starts its own)")
    return found


@contextmanager
def own_redis(port: int) -> Iterator[subprocess.Popen[bytes]]:
    server = subprocess.Popen(
        [redis_server_or_skip(), "--port", str(port), "--bind", "127.0.0.1", "--save", ""],
        stdout=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.05)
        yield server
    finally:
        server.terminate()
        server.wait(10)


def test_after_a_redis_outage_every_connection_refetches_its_state() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"redis://127.0.0.1:{port}/0"

    async def scenario(restart: asyncio.Event, killed: asyncio.Event) -> None:
        bus = RedisBus(url)
        await bus.start()
        try:
            queue = bus.subscribe(CODE)
            restart.set()
            while not killed.is_set():
                await asyncio.sleep(0.02)
            await bus.publish(CODE, Update(7, ()))  # Redis away: told here all the same
            assert await next_message(queue) == Update(7, ())
            assert await next_message(queue, timeout=15) == Resync()  # it is back
            await bus.publish(CODE, Update(8, ()))
            assert await next_message(queue) == Update(8, ())
        finally:
            await bus.stop()

    async def main() -> None:
        restart, killed = asyncio.Event(), asyncio.Event()
        with own_redis(port) as first:
            task = asyncio.create_task(scenario(restart, killed))
            await restart.wait()
            first.kill()
            first.wait(10)
            killed.set()
            await asyncio.sleep(1.5)  # the bus notices and keeps trying
            with own_redis(port):
                await task

    asyncio.run(main())
