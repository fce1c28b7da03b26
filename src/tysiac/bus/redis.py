"""The bus across server processes: Redis pub/sub, a channel per game, shared presence.

Updates. ``publish`` sends a game's message as JSON on the channel
``tysiac:{db}:game:{code}`` (``db`` is the Redis database number of the URL: pub/sub
ignores database numbers, so it goes into the names). Every process listens with one
connection to the pattern ``tysiac:{db}:game:*`` and hands each message to its own
connections (``Subscribers.deliver``), its own messages included. Messages cross Redis
as JSON (``messages.to_json``), an ``Update`` with the ``Change`` stored of it. Every process hears
every game; fine for this service's scale, and it keeps subscribing instant and free of
races. After the link to Redis is lost and comes back, every connection of the process
gets ``Resync`` and refetches a full state, so nothing missed meanwhile stays
missed.

Presence. The hash ``tysiac:{db}:presence:{code}`` holds a field ``{process}:{seat}`` while
that process has a connection of that seat. A process's fields count only while its key
``tysiac:{db}:process:{process}`` lives: a heartbeat renews it every HEARTBEAT_SECONDS for
ALIVE_SECONDS, so the seats of a crashed process go offline within ALIVE_SECONDS. Each
change is followed by a ``Presence`` message; every process keeps the seats
of the games it serves as last heard (``online`` stays synchronous), and the heartbeat
re-reads them, so a missed message or a crashed process is noticed within seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import Counter, defaultdict

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from .base import Subscribers
from .messages import Change, Message, Presence, Unreadable, Update, from_json, to_json

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 2.0
ALIVE_SECONDS = 8
RECONNECT_SECONDS = 1.0
MAX_SEATS = 4
POOL_SIZE = 50  # connections to Redis a process opens at most
POOL_WAIT_SECONDS = 5.0  # for one of them to be free, before the command fails


class RedisBus(Subscribers):
    def __init__(self, url: str) -> None:
        super().__init__()
        # Fail fast while Redis is away (one quick retry for a stale pooled connection):
        # a game's change is committed before it is published, and waiting helps no one.
        # A bounded pool that makes a command wait for a free connection: redis-py's own
        # refused at once with "Too many connections" when thousands of sockets closed
        # together (each tells the presence), and those updates were lost to the others.
        pool = BlockingConnectionPool.from_url(
            url,
            max_connections=POOL_SIZE,
            timeout=POOL_WAIT_SECONDS,
            decode_responses=True,
            socket_connect_timeout=2,
            retry=Retry(NoBackoff(), 1),
        )
        self.redis = Redis.from_pool(pool)
        self.prefix = f"tysiac:{self.redis.connection_pool.connection_kwargs.get('db', 0)}"
        self.process = secrets.token_hex(6)
        # This process's connections by game and seat (None: spectators).
        self._here: defaultdict[str, Counter[int | None]] = defaultdict(Counter)
        self._online: dict[str, set[int]] = {}  # every process's seats, for games served here
        self._unsynced: set[str] = set()  # games whose presence Redis missed (it was away)
        self._listening = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    def _key(self, kind: str, name: str) -> str:
        return f"{self.prefix}:{kind}:{name}"

    async def start(self) -> None:
        """Announce this process and listen; raises when Redis cannot be reached."""
        await self._push([])
        self._tasks = [asyncio.create_task(self._listen()), asyncio.create_task(self._heartbeat())]
        await asyncio.wait_for(self._listening.wait(), timeout=10)

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        with contextlib.suppress(RedisError):
            await self.redis.delete(self._key("process", self.process))  # our seats: offline
        await self.redis.aclose()

    # --- updates --------------------------------------------------------------------

    async def publish(self, code: str, message: Message, change: Change | None = None) -> None:
        data = to_json(message, change)
        try:
            await self.redis.publish(self._key("game", code), data)
        except RedisError as error:
            log.warning("Redis unreachable (%s): game %s is told in this process only", error, code)
            self._heard(code, message)

    def _heard(self, code: str, message: Message, change: Change | None = None) -> None:
        match message:
            case Update(version=version) if change is not None and self.on_change is not None:
                self.on_change(code, version, change)  # for the cache, not for the connections
            case Presence(seats=seats) if code in self._here:
                self._online[code] = set(seats)
        self.deliver(code, message)

    async def _listen(self) -> None:
        while True:
            try:
                async with self.redis.pubsub() as pubsub:
                    await pubsub.psubscribe(self._key("game", "*"))
                    while True:
                        message = await pubsub.get_message(timeout=None)
                        if message is None:
                            continue
                        if message["type"] == "psubscribe":  # at start and after a reconnection
                            self._listening.set()
                            self.resync_all()
                        elif message["type"] == "pmessage":
                            self._pmessage(message["channel"], message["data"])
            except (RedisError, OSError) as error:
                log.warning("Redis pub/sub lost (%s); reconnecting", error)
                await asyncio.sleep(RECONNECT_SECONDS)

    def _pmessage(self, channel: str, data: str) -> None:
        """One message from another process; one that cannot be read (another version's,
        or not ours) is skipped, so it can never stop this process hearing the rest. Its
        text is not logged: it may carry a stored change."""
        code = channel.rsplit(":", 1)[1]
        try:
            message, change = from_json(data)
        except Unreadable:
            log.warning("An unreadable bus message for game %s was skipped", code)
            return
        self._heard(code, message, change)

    # --- presence -------------------------------------------------------------------

    async def connected(self, code: str, seat: int | None, delta: int) -> None:
        here = self._here[code]
        here[seat] += delta
        if here[seat] <= 0:
            del here[seat]
        if not here:
            del self._here[code]
        try:
            if seat is not None:
                await self._push([code])
            seats = (await self._fetch([code]))[code]
        except RedisError as error:
            log.warning("Redis unreachable (%s): game %s's presence is this process's", error, code)
            self._unsynced.add(code)
            seats = {s for s in here if s is not None}
        if code in self._here:
            self._online[code] = seats
        else:
            self._online.pop(code, None)
        if seat is not None:
            await self.publish(code, Presence(tuple(sorted(seats))))

    def online(self, code: str) -> set[int]:
        return self._online.get(code, set())

    async def _push(self, codes: list[str]) -> None:
        """Make Redis hold this process's seats in these games; keep this process alive."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(self._key("process", self.process), 1, ex=ALIVE_SECONDS)
            for code in codes:
                key = self._key("presence", code)
                seats = {s for s in self._here.get(code, ()) if s is not None}
                fields = {seat: f"{self.process}:{seat}" for seat in range(MAX_SEATS)}
                gone = [field for seat, field in fields.items() if seat not in seats]
                if gone:
                    pipe.hdel(key, *gone)
                if seats:
                    pipe.hset(key, mapping={fields[seat]: 1 for seat in seats})
                    pipe.expire(key, ALIVE_SECONDS)
            await pipe.execute()
        self._unsynced.difference_update(codes)

    async def _fetch(self, codes: list[str]) -> dict[str, set[int]]:
        """The seats connected to each game in any live process."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for code in codes:
                pipe.hkeys(self._key("presence", code))
            found: list[list[str]] = await pipe.execute()
        entries = {
            code: [f.split(":") for f in fields] for code, fields in zip(codes, found, strict=True)
        }
        others = sorted({process for pairs in entries.values() for process, _ in pairs})
        alive = {self.process}
        if others:
            keys = [self._key("process", process) for process in others]
            alive |= {
                p
                for p, up in zip(others, await self.redis.mget(keys), strict=True)
                if up is not None
            }
        return {
            code: {int(seat) for process, seat in pairs if process in alive}
            for code, pairs in entries.items()
        }

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            try:
                await self._push(sorted(set(self._here) | self._unsynced))
                for code, seats in (await self._fetch(list(self._here))).items():
                    if code in self._here and seats != self._online.get(code):
                        self._heard(code, Presence(tuple(sorted(seats))))
            except RedisError as error:
                log.warning("Redis unreachable (%s): presence not renewed", error)
