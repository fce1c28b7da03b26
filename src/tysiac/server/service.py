"""The game service: every change to a game goes through here, one command at a time.

The guard order follows boardgame.io: the game exists → the caller's seat (by
token) → the game's status → the version the caller acted on → the rules. Then
the new events are appended and committed, and only then published: what a
player saw accepted survives a crash. The service knows nothing of sockets.

Several server processes may share one PostgreSQL store and one Redis bus: a
game's commands then queue on its row lock, each process's cache of tables tops
up from the log by version, and a sweeper runs in every process (see ``sweep``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from tysiac import rules
from tysiac.bus.local import Bus
from tysiac.rules.timing import FILL_WITHIN, FINISH_WITHIN, KEEP_FOR, PRIVATE_MOVE_SECONDS
from tysiac.store import db
from tysiac.store.contact import forget_old_contact_sends

from . import moderation, names, stats
from .config import Settings
from .moderation import Author, Refused
from .security import new_code, new_token, token_hash, token_matches
from .table import ChatLine, Table, apply_event, deck_event, empty_table, public_event
from .table import Settings as TableSettings
from .throttle import Throttle

log = logging.getLogger(__name__)

KEEP_STATS = timedelta(days=400)
NOTICE_WINDOW = timedelta(minutes=10)
RETENTION_EVERY = timedelta(
    minutes=1
)  # how often the sweeper forgets old data  # deletions each process's sweeper looks back on
Event = tuple[str, dict[str, Any]]


class ServiceError(Exception):
    """A refused request: ``code`` is stable, ``message`` Polish, ``status`` the HTTP status."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


UNKNOWN_GAME = ("unknown_game", "Nie ma gry o takim kodzie.", 404)


def deleted_message(notice: db.Notice) -> str:
    if notice.reason == "removed":
        return f"Ta gra została usunięta przez administratora serwisu. Powód: {notice.message}"
    return "Ta gra została usunięta: zakończone gry znikają po 7 dniach."


async def missing(conn: AsyncConnection, code: str) -> ServiceError:
    """The error for a code with no game: deleted (while the notice lasts), else unknown."""
    notice = await db.deletion_notice(conn, code)
    if notice is None:
        return ServiceError(*UNKNOWN_GAME)
    return ServiceError("deleted", deleted_message(notice), 410)


class BrokenGame(ServiceError):
    """A game whose stored log the current rules no longer fold (a rules fix, a hand edit).

    Players get a clear error; the sweeper cancels such a game instead of retrying it.
    """

    def __init__(self, code: str) -> None:
        super().__init__(
            "broken_game", "Tej gry nie da się wczytać (błąd zapisu). Gra została anulowana.", 410
        )
        self.game_code = code


class Skipped(Exception):
    """A sweeper found the game's row held by another process, or gone: it moves on."""


def refusal(refused: Refused) -> ServiceError:
    return ServiceError(refused.code, refused.message, 403 if refused.code == "blocked" else 400)


@dataclass(frozen=True, slots=True)
class Seated:
    """A seat and its secret, returned to its owner alone."""

    code: str
    seat: int
    token: str


@contextlib.contextmanager
def text_refusals() -> Iterator[None]:
    """A text that ``names`` refuses -> its ServiceError (400)."""
    try:
        yield
    except names.TextRefused as refused:
        raise ServiceError(refused.code, refused.message) from None


class GameService:
    def __init__(
        self, engine: AsyncEngine, bus: Bus, settings: Settings, hash_key: str, rng: random.Random
    ) -> None:
        self.engine = engine
        self.bus = bus
        self.settings = settings
        self.hash_key = hash_key
        self.rng = rng
        self._tables: dict[str, Table] = {}
        self._locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._create_lock = asyncio.Lock()
        # SQLite has one writer at a time: queue writers here rather than in its busy
        # handler, which sleeps and retries. PostgreSQL locks the game's row instead.
        self._write_lock = asyncio.Lock() if engine.dialect.name == "sqlite" else None
        self._told: set[str] = set()  # deleted games whose connections here were told
        self._next_retention = datetime.min.replace(tzinfo=UTC)
        self.throttle = Throttle(settings)
        self._stats_day = ""
        self._stats_events: Counter[str] = Counter()  # events counted today, by address hash

    @asynccontextmanager
    async def writing(self) -> AsyncIterator[AsyncConnection]:
        """A write transaction, committed on leaving the block (on SQLite, one at a time)."""
        async with contextlib.AsyncExitStack() as stack:
            if self._write_lock is not None:
                await stack.enter_async_context(self._write_lock)
            yield await stack.enter_async_context(self.engine.begin())

    def now(self) -> datetime:
        return self.settings.clock()

    # --- reading ----------------------------------------------------------------

    async def _load(self, conn: AsyncConnection, row: db.GameRow) -> Table:
        """The table at the row's version: from the cache, topped up from the log."""
        table = self._tables.get(row.code)
        if table is None or table.version > row.version:
            table = empty_table(row.code, settings_of(row))
        if table.version < row.version:  # another process, or a cold cache
            try:
                for event in await db.events_of(conn, row.id, after=table.version):
                    table = apply_event(table, event.kind, event.data, event.at)
            except Exception as error:
                raise BrokenGame(row.code) from error
        table = replace(table, deadline=row.deadline)
        self._tables[row.code] = table
        return table

    async def table(self, code: str, at_least: int | None = None) -> Table:
        """The current table; the cache serves it when it is at least at version ``at_least``."""
        cached = self._tables.get(code)
        if cached is not None and at_least is not None and cached.version >= at_least:
            return cached
        async with self.engine.connect() as conn:
            row = await db.game_by_code(conn, code)
            if row is None:
                raise await missing(conn, code)
            cached = self._tables.get(code)
            if cached is not None and cached.version == row.version:
                return cached
            return await self._load(conn, row)

    async def seat_of(self, code: str, token: str | None) -> int | None:
        """The seat a token holds in the game, None for a spectator; a wrong token is refused."""
        if token is None:
            return None
        async with self.engine.connect() as conn:
            row = await db.game_by_code(conn, code)
            if row is None:
                raise await missing(conn, code)
            for seat in await db.seats_of(conn, row.id):
                if token_matches(token, seat.token_hash):
                    return seat.seat
        raise ServiceError("bad_token", "Nieprawidłowy klucz gracza. Dołącz do gry ponownie.", 403)

    async def public_games(self) -> dict[str, list[dict[str, Any]]]:
        async with self.engine.connect() as conn:
            listed = await db.public_games(conn)
        waiting: list[dict[str, Any]] = []
        playing: list[dict[str, Any]] = []
        for row, nicks in listed:
            entry = {
                "code": row.code,
                "name": row.name,
                "players": row.players,
                "nicks": nicks,
                "short": row.target == rules.game.SHORT_TARGET,
                "chat": row.chat,
            }
            (waiting if row.status == "waiting" else playing).append(entry)
        return {"waiting": waiting, "playing": playing}

    # --- changing -----------------------------------------------------------------

    async def _change(
        self,
        code: str,
        decide: Callable[[AsyncConnection, db.GameRow, Table], Awaitable[list[Event]]],
        *,
        sweeping: bool = False,
    ) -> Table:
        """Run ``decide`` under the game's lock; store, then publish, the events it returns.

        The lock is the process's own and, on PostgreSQL, the game's row lock, which
        serialises the commands of all processes. A sweeping change does not wait for a
        row another process holds: it raises ``Skipped``.
        """
        published: list[dict[str, Any]] = []
        if code not in self._tables:
            await self.table(code)  # unknown codes get no lock of their own
        async with self._locks[code]:
            async with self.writing() as conn:
                row = await db.game_by_code(conn, code, lock=True, skip_locked=sweeping)
                if row is None:
                    if sweeping:
                        raise Skipped(code)
                    raise await missing(conn, code)
                before = await self._load(conn, row)
                new = await decide(conn, row, before)
                if not new:
                    return before
                now = self.now()
                table, stored, pending = before, [], list(new)
                while pending:
                    kind, data = pending.pop(0)
                    after = apply_event(table, kind, data, now)
                    stored.append((kind, data))
                    published.append(public_event(table, after, kind, data))
                    table = after
                    game = table.game
                    if (
                        not pending
                        and game is not None
                        and game.awaiting_deal
                        and game.hand is None
                    ):
                        pending.append(deck_event(self._shuffled()))  # the first hand, at once
                table = replace(table, deadline=self._deadline(before, table, stored, now))
                await db.append_events(conn, row.id, before.version + 1, stored, now)
                if (
                    table.status != before.status
                    and table.status in ("playing", "finished")
                    and self._counted(row.creator_ip, now.date().isoformat())
                ):
                    await db.count_day(
                        conn,
                        now.date().isoformat(),
                        started=int(table.status == "playing"),
                        finished=int(table.status == "finished"),
                    )
                await db.update_game(
                    conn,
                    row.id,
                    version=table.version,
                    status=table.status,
                    deadline=table.deadline,
                    updated_at=now,
                    started_at=row.started_at or (now if table.game is not None else None),
                )
            self._tables[code] = table
        await self.bus.publish(code, {"v": table.version, "events": published})
        return table

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

    def _shuffled(self) -> list[int]:
        """R9: a deck from the secure generator (a fixed one only in tests)."""
        if self.settings.testing and self.settings.test_deck is not None:
            return [rules.parse_card(code) for code in self.settings.test_deck]
        return rules.shuffle(self.rng)

    def _deadline(
        self, before: Table, after: Table, new: list[Event], now: datetime
    ) -> datetime | None:
        """R27: a fresh move time after every move; after a hand, a pause to read its result."""
        game = after.game
        if after.status != "playing" or game is None:
            return None
        changed = any(kind in ("move", "dealt") for kind, _ in new)
        if game.awaiting_deal:
            return (
                now + timedelta(seconds=self.settings.hand_pause_seconds)
                if changed
                else before.deadline
            )
        if game.to_move is None:
            return None
        return now + timedelta(seconds=self.move_seconds(after)) if changed else before.deadline

    def move_seconds(self, table: Table) -> float:
        override = self.settings.test_move_seconds if self.settings.testing else None
        return override if override is not None else table.settings.move_seconds

    async def create(
        self,
        *,
        nick: str,
        players: int,
        name: str | None,
        public: bool,
        chat: bool,
        short: bool,
        move_seconds: int,
        author: Author,
    ) -> Seated:
        with text_refusals():
            nick = names.clean_nick(nick)
            name = names.clean_name(name)
        await self._screen(author, [("nick", nick), ("name", name)], nick, None)
        if players not in (2, 3, 4):
            raise ServiceError("bad_players", "W tysiąca grają dwie, trzy albo cztery osoby.")
        if move_seconds not in PRIVATE_MOVE_SECONDS or (public and move_seconds != 60):
            raise ServiceError(
                "bad_move_time", "Czas na ruch to minuta; w grze prywatnej także 2 albo 5 minut."
            )
        creator_ip = author.ip
        token = new_token()
        now = self.now()
        async with self._create_lock, self.writing() as conn:
            target = rules.game.SHORT_TARGET if short else rules.game.TARGET
            settings = TableSettings(players, target, name, public, chat, move_seconds)
            code, game_id = await self._open_game(conn, creator_ip, settings, version=1)
            await db.add_seat(conn, game_id, 0, nick, token_hash(token))
            await db.append_events(conn, game_id, 1, [("joined", {"seat": 0, "nick": nick})], now)
        return Seated(code, 0, token)

    def author(self, device_id: str | None, address: str) -> Author:
        return Author.of(self.hash_key, device_id, address)

    async def _screen(
        self, author: Author, texts: list[tuple[str, str | None]], nick: str, code: str | None
    ) -> None:
        """Refuse a blocked author, or a vulgar nick or name (a violation, committed)."""
        now = self.now()
        async with self.engine.connect() as conn:
            try:
                await moderation.check_not_blocked(conn, author, now)
            except Refused as blocked:
                raise refusal(blocked) from None
        for field, text in texts:
            if text is not None and moderation.is_vulgar(text):
                async with self.writing() as conn:
                    violation = await moderation.record_violation(
                        conn, author, now, field=field, text=text, nick=nick, code=code
                    )
                raise refusal(violation)

    async def _open_game(
        self, conn: AsyncConnection, creator_ip: str, settings: TableSettings, version: int
    ) -> tuple[str, int]:
        """Within the limits, a new waiting game under a fresh code: its code and row id."""
        await db.lock_creations(conn)  # the other processes' creations wait until we commit
        await self._check_limits(conn, creator_ip)
        code = new_code()
        while await db.code_exists(conn, code):
            code = new_code()
        now = self.now()
        game_id = await db.insert_game(
            conn,
            code=code,
            status="waiting",
            players=settings.players,
            name=settings.name,
            public=settings.public,
            chat=settings.chat,
            target=settings.target,
            move_seconds=settings.move_seconds,
            version=version,
            created_at=now,
            updated_at=now,
            creator_ip=creator_ip,
        )
        return code, game_id

    async def _check_limits(self, conn: AsyncConnection, creator_ip: str) -> None:
        """Regulamin §4.3: at most N active games from one address, M in the service.

        And so that a few addresses cannot fill the lobby or churn through games: at most
        a few games from one address waiting for players, and a bounded number an hour.
        """
        settings = self.settings
        if await db.count_active(conn) >= settings.max_active_games:
            raise ServiceError(
                "service_full", "W serwisie toczy się teraz za dużo gier. Spróbuj później.", 503
            )
        if await db.count_active(conn, creator_ip) >= settings.max_games_per_ip:
            raise ServiceError(
                "ip_limit",
                f"Z Twojego adresu jest już {settings.max_games_per_ip} aktywnych gier. "
                "Spróbuj później.",
                429,
            )
        if await db.count_waiting(conn, creator_ip) >= settings.max_waiting_games_per_ip:
            raise ServiceError(
                "waiting_limit",
                "Z Twojego adresu czeka już na graczy tyle gier, ile wynosi limit "
                f"({settings.max_waiting_games_per_ip}). Zaproś kogoś do jednej z nich albo "
                "poczekaj, aż się zapełnią lub wygasną (po godzinie).",
                429,
            )
        hour_ago = self.now() - timedelta(hours=1)
        if await db.count_created_since(conn, creator_ip, hour_ago) >= (
            settings.max_games_per_ip_per_hour
        ):
            raise ServiceError(
                "creation_rate",
                "Z Twojego adresu założono w ciągu godziny tyle gier, ile wynosi limit "
                f"({settings.max_games_per_ip_per_hour}). Spróbuj ponownie za jakiś czas.",
                429,
            )

    async def join(self, code: str, nick: str, author: Author) -> Seated:
        with text_refusals():
            nick = names.clean_nick(nick)
        await self.table(code)  # an unknown code is no violation
        await self._screen(author, [("nick", nick)], nick, code)
        token = new_token()
        seated: list[int] = []

        async def decide(conn: AsyncConnection, row: db.GameRow, table: Table) -> list[Event]:
            _check_joinable(table)
            if any(n is not None and names.same_nick(n, nick) for n in table.nicks):
                raise ServiceError(
                    "nick_taken", "Ten nick jest już zajęty przy tym stole. Wybierz inny.", 409
                )
            seat = table.free_seat()
            assert seat is not None
            await db.add_seat(conn, row.id, seat, nick, token_hash(token))
            seated.append(seat)
            events: list[Event] = [("joined", {"seat": seat, "nick": nick})]
            if sum(n is None for n in table.nicks) == 1:
                events.append(self._start_event(table.settings.players))
            return events

        await self._change(code, decide)
        return Seated(code, seated[0], token)

    def _start_event(self, players: int) -> Event:
        """R5: the server draws the first dealer."""
        data: dict[str, Any] = {"first_dealer": self.rng.randrange(players)}
        if self.settings.testing and self.settings.test_start_scores is not None:
            data["scores"] = list(self.settings.test_start_scores[:players])
        return "started", data

    async def move(
        self, code: str, seat: int | None, version: int, action: dict[str, Any]
    ) -> Table:
        async def decide(conn: AsyncConnection, row: db.GameRow, table: Table) -> list[Event]:
            if seat is None:
                raise ServiceError("spectator", "Oglądasz grę jako widz: nie możesz grać.", 403)
            if table.status == "waiting":
                raise ServiceError("not_started", "Gra jeszcze się nie zaczęła.", 409)
            if table.status != "playing" or table.game is None:
                raise ServiceError("game_over", "Gra jest już zakończona.", 409)
            if not table.game_version <= version <= table.version:  # chat alone is no change
                raise ServiceError("stale", "Stan gry się zmienił. Widok jest już odświeżony.", 409)
            if not isinstance(action, dict):
                raise ServiceError("malformed", "Nieprawidłowy ruch.")
            try:
                parsed = rules.action_from_json({**action, "seat": seat})
                if isinstance(parsed, rules.Timeout):
                    raise rules.IllegalAction("malformed", "Tego ruchu wykonuje serwer.")
                rules.apply(table.game, parsed)
            except rules.IllegalAction as refusal:
                raise ServiceError(refusal.code, refusal.message, 409) from None
            return [("move", rules.action_to_json(parsed))]

        return await self._change(code, decide)

    async def chat(self, code: str, seat: int | None, text: str, author: Author) -> Table:
        if seat is not None and not self.throttle.chat(author.ip, code, seat):
            raise ServiceError(
                "chat_rate",
                "Za dużo wiadomości na czacie naraz. Odczekaj chwilę i napisz ponownie.",
                429,
            )
        refused: list[Refused] = []

        async def decide(conn: AsyncConnection, row: db.GameRow, table: Table) -> list[Event]:
            reason = chat_refusal(table, seat)
            if reason is not None:
                raise ServiceError("chat_closed", reason, 403)
            assert seat is not None
            with text_refusals():
                line = names.clean_chat(text)
            now = self.now()
            try:
                await moderation.check_not_blocked(conn, author, now)
            except Refused as blocked:
                raise refusal(blocked) from None
            if moderation.is_vulgar(line):
                nick = table.nicks[seat]
                refused.append(
                    await moderation.record_violation(
                        conn, author, now, field="chat", text=line, nick=nick, code=code
                    )
                )
                return [("chat_rejected", {"seat": seat})]
            return [("chat", {"seat": seat, "text": line, "device": author.device})]

        table = await self._change(code, decide)
        if refused:
            raise refusal(refused[0])
        return table

    async def report(self, code: str, seat: int | None, seq: int) -> None:
        """A player reports a chat line: it goes to the admin log with who wrote it."""
        if seat is None:
            raise ServiceError("spectator", "Wiadomości mogą zgłaszać tylko gracze.", 403)
        table = await self.table(code)
        line = next((line for line in table.chat if line.seq == seq), None)
        if line is None:
            raise ServiceError("no_such_message", "Nie ma takiej wiadomości na czacie.", 404)
        if line.seat == seat:
            raise ServiceError("own_message", "Nie możesz zgłosić własnej wiadomości.", 409)
        reporter = table.nicks[seat] or ""
        async with self.writing() as conn:
            if not await db.already_reported(conn, code, reporter, line.text):
                await db.log_text(
                    conn,
                    at=self.now(),
                    kind="reported",
                    field="chat",
                    text=line.text,
                    nick=table.nicks[line.seat],
                    reporter=reporter,
                    code=code,
                    device=line.device,
                )

    async def rematch(self, code: str, seat: int | None, author: Author) -> str:
        """One click after the game: a new game, same players, same seats, same secrets."""
        made: list[str] = []
        creator_ip = author.ip
        async with self.engine.connect() as conn:
            try:
                await moderation.check_not_blocked(conn, author, self.now())
            except Refused as refused:
                raise refusal(refused) from None

        async def decide(conn: AsyncConnection, row: db.GameRow, table: Table) -> list[Event]:
            if seat is None:
                raise ServiceError("spectator", "Rewanż może założyć tylko gracz.", 403)
            if table.status != "finished":
                raise ServiceError("not_finished", "Rewanż można założyć po końcu gry.", 409)
            if table.rematch is not None:
                made.append(table.rematch)
                return []
            code_new, game_id = await self._open_game(conn, creator_ip, settings_of(row), version=0)
            for old in await db.seats_of(conn, row.id):
                await db.add_seat(conn, game_id, old.seat, old.nick, old.token_hash)
            made.append(code_new)
            return [("rematch", {"code": code_new})]

        async with self._create_lock:  # counted with creations, as one of them
            await self._change(code, decide)
        await self._start_rematch(made[0])
        return made[0]

    async def _start_rematch(self, code: str) -> None:
        async def decide(conn: AsyncConnection, row: db.GameRow, table: Table) -> list[Event]:
            if table.version:
                return []
            seats = await db.seats_of(conn, row.id)
            joined = [("joined", {"seat": s.seat, "nick": s.nick}) for s in seats]
            return [*joined, self._start_event(row.players)]

        await self._change(code, decide)

    # --- the sweeper's work -------------------------------------------------------

    async def due(self, code: str) -> None:
        """The game's deadline passed: deal the next hand, or time out the seat to move (R28)."""

        async def decide(conn: AsyncConnection, row: db.GameRow, table: Table) -> list[Event]:
            now = self.now()
            game = table.game
            if row.status != "playing" or row.deadline is None or row.deadline > now:
                return []
            if game is not None and game.awaiting_deal:
                return [deck_event(self._shuffled())]
            if game is None or game.to_move is None:
                return []
            return [("move", {"seat": game.to_move, "type": "timeout"})]

        await self._change(code, decide, sweeping=True)

    async def expire(self, code: str) -> None:
        """R31: cancel a game never filled within an hour, or not finished within a day."""

        async def decide(conn: AsyncConnection, row: db.GameRow, table: Table) -> list[Event]:
            now = self.now()
            if row.status == "waiting" and row.created_at + FILL_WITHIN <= now:
                return [("cancelled", {"reason": "not_filled"})]
            if row.status == "playing" and row.started_at and row.started_at + FINISH_WITHIN <= now:
                return [("cancelled", {"reason": "not_finished"})]
            return []

        await self._change(code, decide, sweeping=True)

    async def sweep(self) -> None:
        """One pass: due moves, expired games, games past their keeping time.

        Every process runs one. A due or expired game is changed under its row lock
        after checking again that it is due, and a row another process holds is skipped
        (that process is on it), so each timeout or cancellation happens once. Deletions
        claim their rows the same way. Each process then tells its own connections of
        every deletion (by any sweeper or the operator) from the notices.
        """
        now = self.now()
        async with self.engine.connect() as conn:
            due = await db.due_moves(conn, now)
            expired = await db.expired(conn, now - FILL_WITHIN, now - FINISH_WITHIN)
        for change, codes in ((self.due, due), (self.expire, expired)):
            for code in codes:
                await self._sweep_one(change, code)
        if now >= self._next_retention:
            self._next_retention = now + RETENTION_EVERY
            await self._retention(now)
        async with self.engine.connect() as conn:
            notices = await db.notices_since(conn, now - NOTICE_WINDOW)
        summary = None
        if self.settings.stats_email:
            async with self.writing() as conn:
                summary = await stats.due_summary(conn, now)
        if summary is not None:
            try:
                await stats.mail_summary(self.settings, summary)
            except Exception as error:  # the next day's mail will carry these days too
                log.warning("daily statistics not mailed: %s", type(error).__name__)
        told, self._told = self._told, {notice.code for notice in notices}
        for notice in notices:
            if notice.code not in told:
                self._tables.pop(notice.code, None)
                self._locks.pop(notice.code, None)
                message = {"deleted": True, "message": deleted_message(notice)}
                self.bus.deliver(notice.code, message)  # every process tells its own

    async def _retention(self, now: datetime) -> None:
        """Forget what is past its keeping time. Each step alone: one that fails is logged
        and tried again next time, the others run."""
        for step in (
            lambda conn: db.delete_ended(conn, now - KEEP_FOR, now),
            lambda conn: db.forget_notices(conn, now - KEEP_FOR),
            lambda conn: db.forget_moderation(
                conn,
                now,
                texts_before=now - moderation.KEEP_TEXTS,
                offenders_before=now - moderation.KEEP_OFFENDERS,
                violations_before=now - moderation.IP_WINDOW,
            ),
            lambda conn: db.forget_days(conn, (now - KEEP_STATS).date().isoformat()),
            lambda conn: forget_old_contact_sends(conn, now),
        ):
            try:
                async with self.writing() as conn:
                    await step(conn)
            except Exception:
                log.exception("a retention step failed; it is tried again next time")

    async def _sweep_one(self, change: Callable[[str], Awaitable[None]], code: str) -> None:
        """One game's timeout or expiry; whatever goes wrong stays with that game."""
        try:
            await change(code)
        except BrokenGame as broken:
            await self._cancel_broken(broken)
        except (Skipped, ServiceError):  # held by another process, or gone meanwhile
            pass
        except Exception:
            log.exception("sweeping game %s failed; it is tried again on the next sweep", code)

    async def _cancel_broken(self, error: BrokenGame) -> None:
        """Cancel a game whose log no longer folds: it is no longer due, and is deleted later."""
        log.error(
            "game %s: its stored log no longer folds; it is cancelled",
            error.game_code,
            exc_info=error.__cause__,
        )
        self._tables.pop(error.game_code, None)
        async with self.writing() as conn:
            await db.cancel_broken(conn, error.game_code, self.now())
        await self.bus.publish(error.game_code, {"v": -1, "events": []})

    # --- presence -----------------------------------------------------------------

    async def connected(self, code: str, seat: int | None, delta: int) -> None:
        """A connection to the game opened (+1) or closed (-1); with Redis, cluster-wide."""
        await self.bus.connected(code, seat, delta)

    # --- what a viewer gets ---------------------------------------------------------

    def snapshot(self, table: Table, seat: int | None) -> dict[str, Any]:
        """The full state one connection may see: the rules' view plus the table around it."""
        online = self.bus.online(table.code)
        deadline_ms = None
        if table.deadline is not None:
            deadline_ms = max(0, int((table.deadline - self.now()).total_seconds() * 1000))
        settings = table.settings
        return {
            "type": "state",
            "v": table.version,
            "game": {
                "code": table.code,
                "name": settings.name,
                "status": table.status,
                "players": settings.players,
                "public": settings.public,
                "chat": settings.chat,
                "short": settings.target == rules.game.SHORT_TARGET,
                "move_seconds": settings.move_seconds,
                "seats": [
                    {"seat": s, "nick": nick, "connected": s in online}
                    for s, nick in enumerate(table.nicks)
                ],
                "you": seat,
                "time_left_ms": deadline_ms,
                "can_chat": chat_refusal(table, seat) is None,
                "chat_note": chat_refusal(table, seat) if settings.chat else None,
                "cancelled": table.cancelled,
                "rematch": table.rematch,
            },
            "view": rules.view(table.game, seat) if table.game is not None else None,
            "chat": [_chat_line(table, line) for line in table.chat] if settings.chat else [],
        }


def settings_of(row: db.GameRow) -> TableSettings:
    return TableSettings(row.players, row.target, row.name, row.public, row.chat, row.move_seconds)


def _check_joinable(table: Table) -> None:
    if table.status == "cancelled":
        raise ServiceError("cancelled", "Ta gra została anulowana.", 410)
    if table.status == "finished":
        raise ServiceError("finished", "Ta gra już się zakończyła.", 409)
    if table.free_seat() is None:
        raise ServiceError("full", "Ta gra ma już komplet graczy.", 409)


def chat_refusal(table: Table, seat: int | None) -> str | None:
    """Why ``seat`` may not write now, or None (Regulamin §4.6)."""
    if seat is None:
        return "Widzowie nie mogą pisać na czacie."
    if not table.settings.chat:
        return "Czat w tej grze jest wyłączony."
    if not table.chat_open:
        return "Czat w tej grze wyłączył się po dwóch odrzuconych wiadomościach."
    if table.settings.public and seat not in table.moved:
        return "W grze publicznej możesz pisać po swoim pierwszym ruchu."
    return None


def _chat_line(table: Table, line: ChatLine) -> dict[str, Any]:
    return {
        "seq": line.seq,
        "seat": line.seat,
        "nick": table.nicks[line.seat],
        "text": line.text,
        "at": line.at.isoformat(),
    }
