"""The server's garbage collection runs on a clock (``serving.collect_garbage``)."""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tysiac.server.serving import GC_MIDDLE_EVERY, collect_garbage


@contextmanager
def collections_seen() -> Iterator[list[int]]:
    """The generation of every collection that ends meanwhile; Python's own automatic
    collections are off, so these are the clock's."""
    seen: list[int] = []

    def callback(phase: str, info: dict[str, Any]) -> None:
        if phase == "stop":
            seen.append(info["generation"])

    was_enabled = gc.isenabled()
    gc.disable()
    gc.callbacks.append(callback)
    try:
        yield seen
    finally:
        gc.callbacks.remove(callback)
        if was_enabled:
            gc.enable()


async def run_until(seen: list[int], count: int, **clock: float) -> None:
    collector = asyncio.create_task(collect_garbage(**clock))
    deadline = time.monotonic() + 30
    while len(seen) < count and time.monotonic() < deadline:
        await asyncio.sleep(0.005)
    collector.cancel()
    await asyncio.gather(collector, return_exceptions=True)
    assert collector.cancelled()


def test_the_young_generation_is_collected_each_tick_and_the_middle_one_every_fifth() -> None:
    with collections_seen() as seen:
        asyncio.run(run_until(seen, 2 * GC_MIDDLE_EVERY, young_seconds=0.001, full_seconds=3600))
    every = [0] * (GC_MIDDLE_EVERY - 1) + [1]
    assert seen[: 2 * GC_MIDDLE_EVERY] == every + every


def test_a_full_collection_comes_when_its_period_is_up_and_not_before() -> None:
    with collections_seen() as seen:
        asyncio.run(run_until(seen, 3, young_seconds=0.001, full_seconds=0))
    assert seen[:3] == [2, 2, 2]  # due at every tick when the period is nothing
    with collections_seen() as seen:
        asyncio.run(run_until(seen, 2 * GC_MIDDLE_EVERY, young_seconds=0.001, full_seconds=3600))
    assert 2 not in seen


def test_a_cancelled_clock_collects_no_more() -> None:
    async def cancel_then_wait(seen: list[int]) -> int:
        collector = asyncio.create_task(collect_garbage(young_seconds=0.001))
        deadline = time.monotonic() + 30
        while not seen and time.monotonic() < deadline:
            await asyncio.sleep(0.001)
        assert seen
        collector.cancel()
        await asyncio.gather(collector, return_exceptions=True)
        stopped_at = len(seen)
        await asyncio.sleep(0.05)
        return len(seen) - stopped_at

    with collections_seen() as seen:
        assert asyncio.run(cancel_then_wait(seen)) == 0
