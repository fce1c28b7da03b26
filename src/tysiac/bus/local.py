"""The in-process bus: one server process, a queue per connection."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import Any, Protocol

Message = dict[str, Any]
QUEUE_LIMIT = 256  # messages waiting for one slow connection before it is resynchronised


class Bus(Protocol):
    def subscribe(self, code: str) -> asyncio.Queue[Message]: ...
    def unsubscribe(self, code: str, queue: asyncio.Queue[Message]) -> None: ...
    async def publish(self, code: str, message: Message) -> None: ...


class LocalBus:
    def __init__(self) -> None:
        self._queues: defaultdict[str, set[asyncio.Queue[Message]]] = defaultdict(set)

    def subscribe(self, code: str) -> asyncio.Queue[Message]:
        queue: asyncio.Queue[Message] = asyncio.Queue(QUEUE_LIMIT)
        self._queues[code].add(queue)
        return queue

    def unsubscribe(self, code: str, queue: asyncio.Queue[Message]) -> None:
        self._queues[code].discard(queue)
        if not self._queues[code]:
            del self._queues[code]

    async def publish(self, code: str, message: Message) -> None:
        for queue in self._queues.get(code, ()):
            try:
                queue.put_nowait(message)
            except asyncio.QueueFull:
                # A connection that does not read loses its backlog, not the server's
                # memory: states are full snapshots, so one fresh state catches it up.
                dropped = [queue.get_nowait() for _ in range(queue.qsize())]
                deleted = [m for m in (*dropped, message) if m.get("deleted")]
                queue.put_nowait(deleted[-1] if deleted else {"resync": True})
