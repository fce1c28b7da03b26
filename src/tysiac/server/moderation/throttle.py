"""Rates shared by all of a client's connections: per address and per seat.

Each WebSocket has a token bucket of its own (in ``ws``); this module bounds what
one client achieves by opening many: the game messages of one address and of one seat,
over all their sockets, the chat lines of one seat and of one address, and the sockets
one player key holds open. The counts live in this process's memory only (with several
processes each bounds its own share) and are forgotten once they are back to full.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from tysiac.server.config import Settings

MAX_KEYS = 100_000  # buckets kept at once, whatever the traffic: past this, full ones go
CHAT_BURST = 5  # chat lines at once, before the per-minute rate applies


@dataclass(slots=True)
class _Bucket:
    tokens: float
    last: float


class Buckets:
    """Token buckets by key: ``size`` at once, refilled at ``rate`` a second."""

    def __init__(self, size: float, rate: float, clock: Callable[[], float]) -> None:
        self.size = size
        self.rate = rate
        self.clock = clock
        self._buckets: dict[object, _Bucket] = {}

    def allow(self, key: object) -> bool:
        now = self.clock()
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= MAX_KEYS:
                self._forget_full(now)
            bucket = self._buckets[key] = _Bucket(self.size, now)
        bucket.tokens = min(self.size, bucket.tokens + (now - bucket.last) * self.rate)
        bucket.last = now
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            return True
        return False

    def _forget_full(self, now: float) -> None:
        """Drop the buckets that have refilled (they would allow a full burst anyway)."""
        refill = self.size / self.rate
        self._buckets = {k: b for k, b in self._buckets.items() if now - b.last < refill}


class Throttle:
    """The shared limits of one server process, from the settings."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.monotonic) -> None:
        rate = settings.messages_per_second_per_ip
        self.messages = Buckets(2 * rate, rate, clock)
        self.chat_lines = Buckets(CHAT_BURST, settings.chat_per_minute / 60, clock)
        self.max_sockets = settings.max_sockets_per_seat
        self._sockets: dict[tuple[str, int], int] = {}

    def message(self, address: str, code: str, seat: int | None) -> bool:
        """A game message from ``address`` (a hash), by ``seat`` of game ``code``."""
        allowed = self.messages.allow(("ip", address))
        if seat is not None:
            allowed = self.messages.allow(("seat", code, seat)) and allowed
        return allowed

    def chat(self, address: str, code: str, seat: int) -> bool:
        """A chat line: bounded for the seat and for the address, over all their sockets."""
        by_seat = self.chat_lines.allow(("seat", code, seat))
        by_address = self.chat_lines.allow(("ip", address))
        return by_seat and by_address

    def open_socket(self, code: str, seat: int | None) -> bool:
        """Count a player's socket in; False (and nothing counted) when it has too many."""
        if seat is None:
            return True  # spectators are bounded per address, at the transport
        key = (code, seat)
        count = self._sockets.get(key, 0)
        if count >= self.max_sockets:
            return False
        self._sockets[key] = count + 1
        return True

    def close_socket(self, code: str, seat: int | None) -> None:
        if seat is None:
            return
        key = (code, seat)
        count = self._sockets.get(key, 0) - 1
        if count > 0:
            self._sockets[key] = count
        else:
            self._sockets.pop(key, None)
