"""The in-process bus: one server process, a queue per connection (see ``base.py``)."""

from __future__ import annotations

from collections import Counter, defaultdict

from .base import Subscribers
from .messages import Change, Message, Presence


class LocalBus(Subscribers):
    def __init__(self) -> None:
        super().__init__()
        self._presence: defaultdict[str, Counter[int]] = defaultdict(Counter)

    async def publish(self, code: str, message: Message, change: Change | None = None) -> None:
        self.deliver(code, message)  # one process: its cache has the change already

    async def connected(self, code: str, seat: int | None, delta: int) -> None:
        if seat is None:
            return
        counts = self._presence[code]
        counts[seat] += delta
        if counts[seat] <= 0:
            del counts[seat]
            if not counts:
                del self._presence[code]
        self.deliver(code, Presence(tuple(sorted(self.online(code)))))

    def online(self, code: str) -> set[int]:
        return set(self._presence.get(code, ()))

    async def start(self) -> None:
        pass

    async def stop(self) -> None:
        pass
