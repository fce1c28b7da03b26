"""The game service's core: every change to a game goes through ``change``, one at a time.

The guard order follows boardgame.io: the game exists → the caller's seat (by token) →
the game's status → the version the caller acted on → the rules. Then the new events
are appended and committed, and only then published: what a player saw accepted
survives a crash. The service knows nothing of sockets.

Several server processes may share one PostgreSQL store and one Redis bus: a game's
commands then queue on its row lock, each process's cache of tables tops up from the
log by version, and a sweeper runs in every process (``sweeper.py``).

The other commands live beside this module, by job: ``lobby`` (create, join,
rematch), ``talk`` (chat, reports), ``sweeper`` (timeouts, lifetimes, retention).
A little over 300 lines: the write path and the commands of play that use it directly
(move, due, expire) are read together.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from tysiac import rules
from tysiac.bus.base import Bus
from tysiac.bus.messages import Change, Update
from tysiac.rules.timing import cancel_due, move_deadline
from tysiac.server.clock import utc_now
from tysiac.server.config import Settings
from tysiac.server.errors import (
    BrokenGame,
    ServiceError,
    Skipped,
    missing,
    rules_refusals,
    store_busy,
)
from tysiac.server.game.snapshot import Held, StateMessage, snapshot
from tysiac.server.game.table import PublicEvent, Table, apply_event, deck_event, empty_table
from tysiac.server.game.table import Settings as TableSettings
from tysiac.server.game.thinking import Thinker
from tysiac.server.moderation.authors import Author
from tysiac.server.moderation.throttle import Throttle
from tysiac.server.security import token_hash
from tysiac.store import gamedb, statsdb
from tysiac.store.commits import GroupCommit
from tysiac.store.schema import ACTIVE, EventKind, GameStatus

Event = tuple[str, dict[str, Any]]
REMATCH_WAIT_SECONDS = 60  # a rematch waits this long for its players, then starts anyway
log = logging.getLogger(__name__)

R = TypeVar("R")
# A command's decision, made under the game's lock: the events to append, and what the
# command returns to its caller.
Decide = Callable[[AsyncConnection, gamedb.GameRow, Table], Awaitable[tuple[list[Event], R]]]


@dataclass(frozen=True, slots=True)
class Dealing:
    """Where decks and the first scores come from: R9's secure shuffle, unless a test
    hands the service its own (a fixed deck, start scores, a shorter move time)."""

    deck: Callable[[], list[int]] | None = None  # None: rules.shuffle(rng)
    start_scores: tuple[int, ...] | None = None
    move_seconds: float | None = None  # None: each game's own (R27)


class GameService:
    def __init__(
        self,
        engine: AsyncEngine,
        bus: Bus,
        settings: Settings,
        hash_key: str,
        rng: random.Random,
        *,
        dealing: Dealing = Dealing(),
        clock: Callable[[], datetime] = utc_now,
    ) -> None:
        self.engine = engine
        self.bus = bus
        self.settings = settings
        self.hash_key = hash_key
        self.rng = rng
        self.dealing = dealing
        self.clock = clock
        self.throttle = Throttle(settings)
        self.thinker = Thinker(settings.bot_workers)
        self._wakers: set[asyncio.Task[None]] = set()  # computer players' wake-up calls
        self._thinking: set[str] = set()  # games whose computer player is thinking now
        self.create_lock = asyncio.Lock()  # creations (and rematches) one at a time
        self._tables: dict[str, Table] = {}
        self._locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        # SQLite has one writer at a time, this process: its writes are group-committed,
        # and its cache of games' rows is the truth (a row changed behind it, by the admin
        # command say, shows when the version-checked update finds nothing, and is read
        # again). PostgreSQL, shared by many processes, reads the row under its lock.
        self.commits = GroupCommit(engine) if engine.dialect.name == "sqlite" else None
        self._rows: dict[str, gamedb.GameRow] = {}  # with ``commits``: rows as last written
        self._seats: dict[str, dict[str, int]] = {}  # by game: seats by token hash, as read
        self._stats_day = ""
        self._stats_events: Counter[str] = Counter()  # events counted today, by address hash

    @asynccontextmanager
    async def writing(self) -> AsyncIterator[AsyncConnection]:
        """A write transaction, committed on leaving the block (on SQLite, with others');
        a store that does not answer is ``store_busy`` (503), and nothing was written."""
        manager = self.commits.writing() if self.commits is not None else self.engine.begin()
        with store_busy():
            async with manager as conn:
                yield conn

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[AsyncConnection]:
        """A connection to read on; a store that does not answer is ``store_busy`` (503)."""
        with store_busy():
            async with self.engine.connect() as conn:
                yield conn

    async def close(self) -> None:
        """The server stops: the computer players' workers, then the writes under way."""
        self.thinker.close()
        if self.commits is not None:
            await self.commits.close()

    def now(self) -> datetime:
        return self.clock()

    def author(self, device_id: str | None, address: str) -> Author:
        return Author.of(self.hash_key, device_id, address)

    # --- reading ----------------------------------------------------------------

    async def _load(self, conn: AsyncConnection, row: gamedb.GameRow) -> Table:
        """The table at the row's version: from the cache, topped up from the log."""
        table = self._tables.get(row.code)
        if table is None or table.version > row.version:
            table = empty_table(row.code, settings_of(row))
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
        if self.commits is not None:
            self._rows[row.code] = row
        return table

    async def table(self, code: str, at_least: int | None = None) -> Table:
        """The current table; the cache serves it when it is at least at version ``at_least``."""
        cached = self._tables.get(code)
        if cached is not None and at_least is not None and cached.version >= at_least:
            return cached
        if cached is not None and code in self._rows:  # SQLite: the cache is the truth
            return cached
        async with self.reading() as conn:
            row = await gamedb.game_by_code(conn, code)
            if row is None:
                raise await missing(conn, code)
            cached = self._tables.get(code)
            if cached is not None and cached.version == row.version:
                return cached
            return await self._load(conn, row)

    def forget(self, code: str) -> None:
        """Drop a game from this process's cache (deleted, or cancelled as broken)."""
        self._tables.pop(code, None)
        self._rows.pop(code, None)
        self._seats.pop(code, None)
        self._locks.pop(code, None)

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
                raise await missing(conn, code)
        self._seats[code] = seats
        if hashed in seats:
            return seats[hashed]
        raise ServiceError("bad_token", "Nieprawidłowy klucz gracza. Dołącz do gry ponownie.", 403)

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
        return await asyncio.shield(self._change(code, decide, sweeping))

    async def _change(self, code: str, decide: Decide[R], sweeping: bool) -> tuple[Table, R]:
        async with self._locks[code]:
            try:
                table, result, published = await self._store(
                    code, decide, sweeping, self._rows.get(code)
                )
            except StaleRow:  # SQLite: the row changed behind this process's cache
                self._rows.pop(code, None)
                table, result, published = await self._store(code, decide, sweeping, None)
        if published is not None:
            events, change = published
            await self.bus.publish(code, Update(table.version, tuple(events)), change)
            self._wake_bot(table)
        return table, result

    async def _store(
        self, code: str, decide: Decide[R], sweeping: bool, row: gamedb.GameRow | None
    ) -> tuple[Table, R, tuple[list[PublicEvent], Change | None] | None]:
        """Decide on the game's row (read under its lock unless given) and store what was
        decided: the table, the command's result, and the events to publish with the
        change for the other processes (None: nothing to publish)."""
        async with self.writing() as conn:
            if row is None:
                row = await gamedb.game_by_code(conn, code, lock=True, skip_locked=sweeping)
            if row is None:
                if sweeping:
                    raise Skipped(code)
                raise await missing(conn, code)
            before = await self._load(conn, row)
            new, result = await decide(conn, row, before)
            if not new:
                return before, result, None
            table, published, row = await self.append(conn, row, before, new)
        self._tables[code] = table  # committed now
        if self.commits is not None:
            self._rows[code] = row
            return table, result, (published, None)  # one process: nobody else caches it
        change = Change(
            after=before.version, events=tuple(new), at=row.updated_at, deadline=table.deadline
        )
        return table, result, (published, change)

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

    def _wake_bot(self, table: Table) -> None:
        """When a computer player is to move, make its move when its pause is over rather
        than on the sweeper's next pass (the sweeper still catches it after a restart)."""
        game = table.game
        if table.deadline is None or game is None or game.to_move is None:
            return
        level = table.bot(game.to_move)
        if level is None:
            return
        self.thinker.warm(level)
        delay = max(0.0, (table.deadline - self.now()).total_seconds())
        loop = asyncio.get_running_loop()
        loop.call_later(delay, self._start_waker, table.code)

    def _start_waker(self, code: str) -> None:
        task = asyncio.get_running_loop().create_task(self._woken(code))
        self._wakers.add(task)
        task.add_done_callback(self._wakers.discard)

    async def _woken(self, code: str) -> None:
        try:
            await self.due(code)
        except (Skipped, ServiceError, BrokenGame):
            pass  # taken by another process, gone, or for the sweeper to cancel
        except Exception:
            log.exception("a computer player's move in %s failed; the sweeper tries again", code)

    async def append(
        self, conn: AsyncConnection, row: gamedb.GameRow, before: Table, new: list[Event]
    ) -> tuple[Table, list[PublicEvent], gamedb.GameRow]:
        """Fold the new events into the table, store them and the row: the table, what
        every viewer may learn of each event, and the row as stored now. Raises
        ``StaleRow`` if the stored row is no longer at ``before``'s version."""
        now = self.now()
        table = before
        published: list[PublicEvent] = []
        for kind, data in new:
            table, public = apply_event(table, kind, data, now)
            published.append(public)
        table = replace(table, deadline=self._deadline(before, table, new, now))
        row = replace(
            row,
            version=table.version,
            status=table.status,
            deadline=table.deadline,
            updated_at=now,
            started_at=row.started_at or (now if table.game is not None else None),
        )
        if not await gamedb.store_change(conn, row, version_was=before.version):
            raise StaleRow(row.code)
        await gamedb.append_events(conn, row.id, before.version + 1, new, now)
        if (
            table.status != before.status
            and table.status in (GameStatus.PLAYING, GameStatus.FINISHED)
            and self._counted(row.creator_ip, now.date().isoformat())
        ):
            await statsdb.count_day(
                conn,
                now.date().isoformat(),
                started=int(table.status == GameStatus.PLAYING),
                finished=int(table.status == GameStatus.FINISHED),
                bots=any(table.bots),
            )
        return table, published, row

    def _counted(self, creator_ip: str, day: str) -> bool:
        """Whether a game's start or end goes into the day's statistics.

        As the description's statistics gateway does: at most ``stats_events_per_ip_per_day``
        events a day from the games of one address, so one address churning through games
        cannot inflate the counts. The address's hash is kept in memory for the day only.
        """
        if self._stats_day != day:
            self._stats_day, self._stats_events = day, Counter()
        self._stats_events[creator_ip] += 1
        return self._stats_events[creator_ip] <= self.settings.stats_events_per_ip_per_day

    def shuffled(self) -> list[int]:
        """R9: a deck from the secure generator (or the dealing a test gave the service)."""
        if self.dealing.deck is not None:
            return self.dealing.deck()
        return rules.shuffle(self.rng)

    def start_events(self, players: int) -> list[Event]:
        """R5: the server draws the first dealer, and the first hand is dealt at once."""
        started: dict[str, Any] = {"first_dealer": self.rng.randrange(players)}
        if self.dealing.start_scores is not None:
            started["scores"] = list(self.dealing.start_scores[:players])
        return [(EventKind.STARTED, started), deck_event(self.shuffled())]

    def _deadline(
        self, before: Table, after: Table, new: list[Event], now: datetime
    ) -> datetime | None:
        """R27: a fresh move time after every move; after a hand, a pause to read its result.
        A rematch waiting for its players starts at the latest REMATCH_WAIT_SECONDS after
        it was made."""
        if after.awaiting_players:
            return before.deadline or now + timedelta(seconds=REMATCH_WAIT_SECONDS)
        game = after.game
        if after.status != GameStatus.PLAYING or game is None:
            return None
        changed = any(kind in (EventKind.MOVE, "dealt") for kind, _ in new)
        if not changed:
            return before.deadline
        if game.awaiting_deal:
            return now + timedelta(seconds=self.settings.hand_pause_seconds)
        if game.to_move is None:
            return None
        if after.bot(game.to_move) is not None:
            return now + timedelta(seconds=self._bot_pause(game))
        return move_deadline(now, self.dealing.move_seconds or after.settings.move_seconds)

    def _bot_pause(self, game: rules.Game) -> float:
        """A computer player's natural pause: about ``bot_pause_seconds``, a third of it
        when it has only one move (a forced card is not thought over)."""
        pause = self.settings.bot_pause_seconds
        if len(rules.legal_actions(game)) == 1:
            return pause / 3
        return pause * self.rng.uniform(2 / 3, 4 / 3)

    # --- the commands of play -------------------------------------------------------

    async def move(
        self, code: str, seat: int | None, version: int, action: dict[str, Any]
    ) -> Table:
        async def decide(
            conn: AsyncConnection, row: gamedb.GameRow, table: Table
        ) -> tuple[list[Event], None]:
            if seat is None:
                raise ServiceError("spectator", "Oglądasz grę jako widz: nie możesz grać.", 403)
            if table.status == GameStatus.WAITING:
                raise ServiceError("not_started", "Gra jeszcze się nie zaczęła.", 409)
            if table.status != GameStatus.PLAYING or table.game is None:
                raise ServiceError("game_over", "Gra jest już zakończona.", 409)
            if not table.game_version <= version <= table.version:  # chat alone is no change
                raise ServiceError("stale", "Stan gry się zmienił. Widok jest już odświeżony.", 409)
            if not isinstance(action, dict):
                raise ServiceError("malformed", "Nieprawidłowy ruch.")
            with rules_refusals():
                parsed = rules.action_from_json({**action, "seat": seat})
                if isinstance(parsed, rules.Timeout):
                    raise rules.IllegalAction("malformed", "Tego ruchu wykonuje serwer.")
                rules.apply(table.game, parsed)
            return [(EventKind.MOVE, rules.action_to_json(parsed))], None

        table, _ = await self.change(code, decide)
        return table

    async def due(self, code: str) -> None:
        """The game's deadline passed: deal the next hand, or time out the seat to move (R28),
        or make a computer player's move, or start a rematch that waited long enough for
        its players."""
        thought = await self._think(code)

        async def decide(
            conn: AsyncConnection, row: gamedb.GameRow, table: Table
        ) -> tuple[list[Event], None]:
            now = self.now()
            game = table.game
            if row.status not in ACTIVE or row.deadline is None or row.deadline > now:
                return [], None
            if table.awaiting_players:
                return self.start_events(table.settings.players), None
            if game is not None and game.awaiting_deal:
                return [deck_event(self.shuffled())], None
            if game is None or game.to_move is None:
                return [], None
            if table.bot(game.to_move) is not None:  # a computer player's pause is over
                if thought is None or thought[0] != table.version:
                    return [], None  # the game moved on meanwhile: it thinks again
                return [(EventKind.MOVE, bot_move(game, thought[1]))], None
            return [(EventKind.MOVE, {"seat": game.to_move, "type": "timeout"})], None

        await self.change(code, decide, sweeping=True)

    async def _think(self, code: str) -> tuple[int, dict[str, Any]] | None:
        """The move of the computer player to move, if its pause is over: worked out from
        its seat's view alone (``rules.view``; the bot is never handed the game), before
        the game's lock is taken, so a search holds up no other command. With the version
        it was made for: a game that moved on meanwhile throws it away."""
        table = self._tables.get(code) or await self.table(code)
        game = table.game
        if table.status != GameStatus.PLAYING or game is None or game.to_move is None:
            return None
        level = table.bot(game.to_move)
        if level is None or table.deadline is None or table.deadline > self.now():
            return None
        if code in self._thinking:  # the wake-up call and the sweeper: one thinks
            return None
        self._thinking.add(code)
        try:
            seen = rules.view(game, game.to_move, history=True)
            chosen = await self.thinker.choose(level, seen, self.rng.getrandbits(64))
        finally:
            self._thinking.discard(code)
        return table.version, chosen

    async def expire(self, code: str) -> None:
        """R31: cancel a game never filled within an hour, or not finished within a day."""

        async def decide(
            conn: AsyncConnection, row: gamedb.GameRow, table: Table
        ) -> tuple[list[Event], None]:
            if row.status not in ACTIVE:
                return [], None
            started = row.started_at if row.status == GameStatus.PLAYING else None
            if cancel_due(row.created_at, started) > self.now():
                return [], None
            reason = "not_filled" if started is None else "not_finished"
            return [(EventKind.CANCELLED, {"reason": reason})], None

        await self.change(code, decide, sweeping=True)


class StaleRow(Exception):
    """The game's stored row is not at the version its command was decided on."""


def bot_move(game: rules.Game, chosen: dict[str, Any]) -> dict[str, Any]:
    """A computer player's move as stored: checked against the rules first, so a bot's
    mistake is a bug that fails here, not an event in the log."""
    action = rules.action_from_json(chosen)
    rules.apply(game, action)
    return rules.action_to_json(action)


def settings_of(row: gamedb.GameRow) -> TableSettings:
    return TableSettings(
        row.players, row.target, row.name, row.public, row.chat, row.move_seconds, options_of(row)
    )


def options_of(row: gamedb.GameRow) -> rules.Options:
    """The game's house rules as stored (checked at creation; NULL before they existed)."""
    return rules.options_from_json(row.options or {})
