"""The game service: every change to a game goes through ``change``, one at a time.

The guard order follows boardgame.io: the game exists → the caller's seat (by token) →
the game's status → the version the caller acted on → the rules. Then the new events
are appended and committed, and only then published: what a player saw accepted
survives a crash. The service knows nothing of sockets, nor which database it has: it
talks to one ``Store`` (``store/stores.py``) and one ``Bus``, chosen at start-up.

It keeps each game's table (the fold of its log) in memory, topped up from the log by
version. Several server processes may share one PostgreSQL store and one Redis bus: a
game's commands then queue on its row lock, and a change stored by another process
reaches this one's cache over the bus (``heard``).

The commands themselves live beside it, by job, each a ``decide`` run through
``change``: ``play`` (move, due, expire), ``lobby`` (create, join), ``computers``
(their seats), ``rematch``, ``talk`` (chat, reports); ``deadlines`` says when the next
move is due, ``sweeper`` runs what time makes due, ``thinking`` hears every change and
wakes the computer players. Over 300 lines, for one reason: the cache and the write
path it serves (a command's lock, its store, its retry, its life after its caller went
away) are read together.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncConnection

from tysiac.bus.base import Bus
from tysiac.bus.messages import Change, Update
from tysiac.server import stats
from tysiac.server.clock import utc_now
from tysiac.server.config import Settings
from tysiac.server.errors import (
    BrokenGame,
    ServiceError,
    Skipped,
    Unstored,
    deleted,
    store_busy,
    unknown_game,
    unstored,
)
from tysiac.server.game import play
from tysiac.server.game.deadlines import Pauses, next_deadline
from tysiac.server.game.dealing import REAL, Dealer, Dealing
from tysiac.server.game.snapshot import Held, StateMessage, snapshot
from tysiac.server.game.table import Event, PublicEvent, Table, apply_event, empty_table
from tysiac.server.game.table import Settings as TableSettings
from tysiac.server.game.thinking import Bots
from tysiac.server.moderation.authors import Author
from tysiac.server.moderation.throttle import Throttle
from tysiac.server.security import token_hash
from tysiac.store import gamedb, statsdb, sweeps
from tysiac.store.schema import GameStatus
from tysiac.store.stores import Store

log = logging.getLogger(__name__)

R = TypeVar("R")
# A command's decision, made under the game's lock: the events to append, and what the
# command returns to its caller.
Decide = Callable[[AsyncConnection, gamedb.GameRow, Table], Awaitable[tuple[list[Event], R]]]


class GameService:
    def __init__(
        self,
        store: Store,
        bus: Bus,
        settings: Settings,
        hash_key: str,
        rng: random.Random,
        *,
        dealing: Dealing = REAL,
        clock: Callable[[], datetime] = utc_now,
    ) -> None:
        self.store = store
        self.bus = bus
        self.settings = settings
        self.hash_key = hash_key
        self.rng = rng
        self.dealer = Dealer(rng, dealing)
        self.clock = clock
        self.throttle = Throttle(settings)
        self.stats_quota = stats.DailyQuota(settings.stats_events_per_ip_per_day)
        self.pauses = Pauses(
            settings.hand_pause_seconds, settings.bot_pause_seconds, dealing.move_seconds
        )
        self.bots = Bots(settings.bot_workers, clock, rng, lambda code: play.due(self, code))
        # Told of every change stored here, after it is published.
        self.listeners: list[Callable[[Table], None]] = [self.bots.changed]
        self.creations = asyncio.Lock()  # creations (and rematches) one at a time
        self._tables: dict[str, Table] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._seats: dict[str, dict[str, int]] = {}  # by game: seats by token hash, as read
        self._commands: set[asyncio.Task[Any]] = set()  # under way, a caller gone or not

    @asynccontextmanager
    async def writing(self) -> AsyncIterator[AsyncConnection]:
        """A write transaction, committed on leaving the block; a store that does not
        answer is ``store_busy`` (503), and a connection the database closed before the
        commit ``Unstored`` (a 503 too): nothing was written."""
        with store_busy():
            async with self.store.writing() as conn:
                with unstored():
                    yield conn

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[AsyncConnection]:
        """A connection to read on; a store that does not answer is ``store_busy`` (503)."""
        with store_busy():
            async with self.store.reading() as conn:
                yield conn

    async def close(self) -> None:
        """The server stops: the computer players' workers, then the writes under way."""
        self.bots.close()
        await self.store.close()

    def now(self) -> datetime:
        return self.clock()

    def author(self, device_id: str | None, address: str, issued: str | None = None) -> Author:
        return Author.of(self.hash_key, device_id, address, issued)

    # --- reading ----------------------------------------------------------------

    async def _load(self, conn: AsyncConnection, row: gamedb.GameRow) -> Table:
        """The table at the row's version: from the cache, topped up from the log."""
        table = self._tables.get(row.code)
        if table is None or table.version > row.version:
            table = empty_table(row.code, TableSettings.of(row))
        if table.version < row.version:  # another process, or a cold cache
            try:
                for event in await gamedb.events_of(conn, row.id, after=table.version):
                    table, _ = apply_event(table, event.kind, event.data, event.at)
            except Exception as error:
                raise BrokenGame(row.code) from error
        if table.deadline != row.deadline:
            table = replace(table, deadline=row.deadline)
        newest = self._tables.get(row.code)  # a change heard meanwhile may have passed it
        if newest is None or newest.version <= table.version:
            self._tables[row.code] = table
        return table

    async def table(self, code: str, at_least: int | None = None) -> Table:
        """The current table; the cache serves it when it is at least at version
        ``at_least``, or when the store knows it is current."""
        cached = self._tables.get(code)
        if cached is not None and at_least is not None and cached.version >= at_least:
            return cached
        if cached is not None and self.store.known_version(code) == cached.version:
            return cached
        async with self.reading() as conn:
            row = await self.store.game(conn, code)
            if row is None:
                raise await self._missing(conn, code)
            cached = self._tables.get(code)
            if cached is not None and cached.version == row.version:
                return cached
            return await self._load(conn, row)

    async def _missing(self, conn: AsyncConnection, code: str) -> ServiceError:
        """The error for a code with no game: deleted (while the notice lasts), else unknown."""
        notice = await sweeps.deletion_notice(conn, code)
        if notice is None:
            return unknown_game()
        return deleted(notice.reason, notice.message)

    def forget(self, code: str) -> None:
        """Drop a game from this process's cache (deleted, or cancelled as broken)."""
        self._tables.pop(code, None)
        self._seats.pop(code, None)
        self._locks.pop(code, None)
        self.store.forget(code)

    async def seat_of(self, code: str, token: str | None) -> int | None:
        """The seat a token holds in the game, None for a spectator; a wrong token is refused.

        A seat once taken is never given to another token (a computer's seat has none),
        so the seats last read answer for a token they know; one they do not know is
        looked up again (a player who joined since), and only the store refuses it. The
        hashes are looked up, not compared in constant time: their timing tells nothing
        of a 192-bit token."""
        if token is None:
            return None
        hashed = token_hash(token)
        seat = self._seats.get(code, {}).get(hashed)
        if seat is not None:
            return seat
        async with self.reading() as conn:
            seats = await gamedb.seat_hashes(conn, code)
            if seats is None:
                raise await self._missing(conn, code)
        self._seats[code] = seats
        if hashed in seats:
            return seats[hashed]
        raise ServiceError("error.bad_token", 403)

    def snapshot(self, table: Table, seat: int | None, held: Held | None = None) -> StateMessage:
        """What one connection of ``seat`` is sent now (see ``snapshot.py``)."""
        online = self.bus.online(table.code) | {s for s, b in enumerate(table.bots) if b}
        return snapshot(table, seat, online, self.now(), held)

    async def connected(self, code: str, seat: int | None, delta: int) -> None:
        """A connection to the game opened (+1) or closed (-1); with Redis, cluster-wide."""
        await self.bus.connected(code, seat, delta)

    # --- changing -----------------------------------------------------------------

    async def change(
        self, code: str, decide: Decide[R], *, sweeping: bool = False
    ) -> tuple[Table, R]:
        """Run ``decide`` under the game's lock; store, then publish, the events it returns.

        The lock is the process's own and, on PostgreSQL, the game's row lock, which
        serialises the commands of all processes. A sweeping change does not wait for a
        row another process holds: it raises ``Skipped``. A command whose caller goes away
        meanwhile (its socket closed) still ends as it would have: stored, cached and told,
        or not stored at all.
        """
        if code not in self._tables:
            await self.table(code)  # unknown codes get no lock of their own
        command = asyncio.ensure_future(self._change(code, decide, sweeping))
        self._commands.add(command)  # the loop keeps only a weak reference to a task
        heard = asyncio.shield(command)
        command.add_done_callback(functools.partial(self._ended, code, heard))
        return await heard

    def _ended(self, code: str, heard: asyncio.Future[Any], command: asyncio.Task[Any]) -> None:
        """A command ended. If its caller went away meanwhile, its refusal is nobody's to
        hear, and a fault is logged here, once (a caller still there is told of either)."""
        self._commands.discard(command)
        if command.cancelled():
            return
        error = command.exception()  # retrieved: asyncio would report it as never retrieved
        if heard.cancelled() and not isinstance(error, ServiceError | Skipped | None):
            log.error("game %s: a command failed after its caller went away", code, exc_info=error)

    async def _change(self, code: str, decide: Decide[R], sweeping: bool) -> tuple[Table, R]:
        async with self._locks.setdefault(code, asyncio.Lock()):
            try:
                table, result, published = await self._store(code, decide, sweeping)
            except gamedb.StaleRow:  # the row changed behind the store: decide again
                table, result, published = await self._store(code, decide, sweeping)
            except Unstored:  # the database closed the connection, nothing was stored
                log.warning("game %s: a command lost its database connection; run again", code)
                table, result, published = await self._store(code, decide, sweeping)
        if published is not None:
            events, change = published
            await self.bus.publish(code, Update(table.version, tuple(events)), change)
            for listener in self.listeners:
                listener(table)
        return table, result

    async def _store(
        self, code: str, decide: Decide[R], sweeping: bool
    ) -> tuple[Table, R, tuple[list[PublicEvent], Change] | None]:
        """Decide on the game's row and store what was decided: the table, the command's
        result, and the events to publish with the change for the other processes'
        caches (None: nothing to publish)."""
        async with self.writing() as conn:
            row = await self.store.game_to_change(conn, code, sweeping=sweeping)
            if row is None:
                if sweeping:
                    raise Skipped(code)
                raise await self._missing(conn, code)
            before = await self._load(conn, row)
            new, result = await decide(conn, row, before)
            if not new:
                return before, result, None
            table, published, row = await self.append(conn, row, before, new)
        self.store.committed(row)
        self._tables[code] = table
        change = Change(
            after=before.version, events=tuple(new), at=row.updated_at, deadline=table.deadline
        )
        return table, result, (published, change)

    async def append(
        self, conn: AsyncConnection, row: gamedb.GameRow, before: Table, new: list[Event]
    ) -> tuple[Table, list[PublicEvent], gamedb.GameRow]:
        """Fold the new events into the table and store them with the game's row, in the
        command's transaction: the table, what every viewer may learn of each event, and
        the row as stored. Raises ``StaleRow`` if the stored row is no longer at
        ``before``'s version. (``lobby`` opens new games with it too.)"""
        now = self.now()
        table = before
        published: list[PublicEvent] = []
        for kind, data in new:
            table, public = apply_event(table, kind, data, now)
            published.append(public)
        deadline = next_deadline(before, table, new, now, self.pauses, self.rng)
        table = replace(table, deadline=deadline)
        row = replace(
            row,
            version=table.version,
            status=table.status,
            deadline=table.deadline,
            updated_at=now,
            started_at=row.started_at or (now if table.game is not None else None),
        )
        await self.store.store_change(conn, row, version_was=before.version)
        await self.store.append_events(conn, row.id, before.version + 1, new, now)
        day = now.date().isoformat()
        if (
            table.status != before.status
            and table.status in (GameStatus.PLAYING, GameStatus.FINISHED)
            and self.stats_quota.counts(row.creator_ip, day)
        ):
            await statsdb.count_day(
                conn,
                day,
                started=int(table.status == GameStatus.PLAYING),
                finished=int(table.status == GameStatus.FINISHED),
                bots=any(table.bots),
            )
        return table, published, row

    def heard(self, code: str, version: int, change: Change) -> None:
        """A process stored a change of the game (the bus's ``on_change``): fold it into
        the cached table if that is just before it, so that no connection here reads it
        back from the store. Anything else (this process's own change, an older or a
        newer one) leaves the cache as it is; a table behind is read up when needed."""
        cached = self._tables.get(code)
        if cached is None or cached.version != change.after:
            return
        table = cached
        try:
            for kind, data in change.events:
                table, _ = apply_event(table, kind, data, change.at)
        except Exception:  # the log decides, when the table is next read
            log.warning("game %s: a change heard from another process does not fold", code)
            self._tables.pop(code, None)
            return
        if table.version != version:
            self._tables.pop(code, None)
            return
        self._tables[code] = replace(table, deadline=change.deadline)
