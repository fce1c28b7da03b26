"""What every bus is (``Bus``) and the part all of them share: this process's connections.

A bus carries a game's messages (``messages.py``) to every connection watching it and
knows who is connected to which seat (presence). ``LocalBus`` (``bus/local.py``) does both
in memory for one process; ``RedisBus`` (``bus/redis.py``) does them across processes.
Both hand messages to this process's connections the same way, through ``Subscribers``.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable
from typing import Protocol

from .messages import Change, Deleted, Message, Resync

ChangeHook = Callable[[str, int, Change], None]  # the game's code, its version after, the change
QUEUE_LIMIT = 256  # messages waiting for one slow connection before it is resynchronised


class Bus(Protocol):
    on_change: ChangeHook | None  # hears each change published with its ``change`` (RedisBus)

    def subscribe(self, code: str) -> asyncio.Queue[Message]: ...
    def unsubscribe(self, code: str, queue: asyncio.Queue[Message]) -> None: ...

    async def publish(self, code: str, message: Message, change: Change | None = None) -> None:
        """To every connection watching the game, in every process; ``change`` (with an
        ``Update`` only) goes to every process's ``on_change`` (this one's too), never to
        a connection."""

    def deliver(self, code: str, message: Message) -> None:
        """To the connections of this process only."""

    async def connected(self, code: str, seat: int | None, delta: int) -> None:
        """A connection to the game opened (+1) or closed (-1); ``seat`` None is a spectator."""

    def online(self, code: str) -> set[int]:
        """The seats with at least one open connection, in any process (as last heard)."""

    async def start(self) -> None: ...
    async def stop(self) -> None: ...


class Subscribers:
    """This process's connections: a bounded queue each, by game."""

    def __init__(self) -> None:
        self._queues: defaultdict[str, set[asyncio.Queue[Message]]] = defaultdict(set)
        self.on_change: ChangeHook | None = None

    def subscribe(self, code: str) -> asyncio.Queue[Message]:
        queue: asyncio.Queue[Message] = asyncio.Queue(QUEUE_LIMIT)
        self._queues[code].add(queue)
        return queue

    def unsubscribe(self, code: str, queue: asyncio.Queue[Message]) -> None:
        self._queues[code].discard(queue)
        if not self._queues[code]:
            del self._queues[code]

    def deliver(self, code: str, message: Message) -> None:
        for queue in self._queues.get(code, ()):
            try:
                queue.put_nowait(message)
            except asyncio.QueueFull:
                # A connection that does not read loses its backlog, not the server's
                # memory: states are full snapshots, so one fresh state catches it up.
                dropped = [queue.get_nowait() for _ in range(queue.qsize())]
                deleted = [m for m in (*dropped, message) if isinstance(m, Deleted)]
                queue.put_nowait(deleted[-1] if deleted else Resync())

    def resync_all(self) -> None:
        """Every connection refetches a full state (after messages may have been lost)."""
        for code in list(self._queues):
            self.deliver(code, Resync())
