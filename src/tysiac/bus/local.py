"""The in-process bus: one server process, a queue per connection."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import Any, Protocol

Message = dict[str, Any]


class Bus(Protocol):
    def subscribe(self, code: str) -> asyncio.Queue[Message]: ...
    def unsubscribe(self, code: str, queue: asyncio.Queue[Message]) -> None: ...
    async def publish(self, code: str, message: Message) -> None: ...


class LocalBus:
    def __init__(self) -> None:
        self._queues: defaultdict[str, set[asyncio.Queue[Message]]] = defaultdict(set)

    def subscribe(self, code: str) -> asyncio.Queue[Message]:
        queue: asyncio.Queue[Message] = asyncio.Queue()
        self._queues[code].add(queue)
        return queue

    def unsubscribe(self, code: str, queue: asyncio.Queue[Message]) -> None:
        self._queues[code].discard(queue)
        if not self._queues[code]:
            del self._queues[code]

    async def publish(self, code: str, message: Message) -> None:
        for queue in self._queues.get(code, ()):
            queue.put_nowait(message)
