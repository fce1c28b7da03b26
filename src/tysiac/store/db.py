"""The engine, migrations, and the queries the game service needs.

Every function takes an open ``AsyncConnection`` so the caller decides the
transaction: one command of a game is one transaction, committed before anyone
is told about it.

SQLite serves one server process. On PostgreSQL several processes share the store:
a game's commands are serialised by its row lock (``game_by_code(lock=True)``),
creations by an advisory lock (``lock_creations``), migrations by another; the
sweepers' claims skip rows that another process holds, and inserts that two
processes could race on are upserts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Table, delete, event, func, insert, select, text, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from .schema import (
    daily_stats,
    deleted_games,
    events,
    games,
    moderation_log,
    offenders,
    seats,
    server_secrets,
    violations,
)

ACTIVE = ("waiting", "playing")
# PostgreSQL advisory lock keys (any fixed numbers, the same in every process).
MIGRATION_LOCK = 1_000_001
CREATION_LOCK = 1_000_002


def utc(moment: datetime | None) -> datetime | None:
    """SQLite hands back naive datetimes: every time in the store is UTC."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


def at_utc(moment: datetime) -> datetime:
    """``utc`` of a time that is never missing."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def create_engine(url: str) -> AsyncEngine:
    engine = create_async_engine(url)
    if engine.dialect.name == "sqlite":
        _tune_sqlite(engine.sync_engine)
    return engine


def _tune_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")  # a commit is on disk before anyone is told
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.close()


def _upgrade(connection: Connection) -> None:
    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


async def migrate(engine: AsyncEngine) -> None:
    async with engine.begin() as conn:
        # Processes starting at once: one migrates, the others wait and find nothing to do.
        await _advisory_lock(conn, MIGRATION_LOCK)
        await conn.run_sync(_upgrade)


async def _advisory_lock(conn: AsyncConnection, key: int) -> None:
    """On PostgreSQL, a lock held until the transaction ends; SQLite has one process."""
    if conn.dialect.name == "postgresql":
        await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})


def _upsert(conn: AsyncConnection, table: Table) -> postgresql.Insert | sqlite.Insert:
    """INSERT with ``on_conflict_do_nothing`` / ``on_conflict_do_update`` (both dialects)."""
    return (postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert)(table)


async def take_server_value(conn: AsyncConnection, name: str) -> str | None:
    """Read a server value and delete it (in the caller's transaction)."""
    where = server_secrets.c.name == name
    value = await conn.scalar(select(server_secrets.c.value).where(where))
    if value is not None:
        await conn.execute(delete(server_secrets).where(where))
    return None if value is None else str(value)


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    code: str
    status: str
    players: int
    name: str | None
    public: bool
    chat: bool
    target: int
    move_seconds: int
    version: int
    deadline: datetime | None
    created_at: datetime
    started_at: datetime | None
    updated_at: datetime
    creator_ip: str
    rematch_code: str | None


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    nick: str
    token_hash: str


@dataclass(frozen=True, slots=True)
class EventRow:
    seq: int
    kind: str
    data: dict[str, Any]
    at: datetime


def _game(row: Any) -> GameRow:
    values = dict(row._mapping)
    for key in ("deadline", "created_at", "started_at", "updated_at"):
        values[key] = utc(values[key])
    return GameRow(**values)


async def insert_game(conn: AsyncConnection, **values: Any) -> int:
    result = await conn.execute(insert(games).values(**values).returning(games.c.id))
    return int(result.scalar_one())


async def game_by_code(
    conn: AsyncConnection, code: str, *, lock: bool = False, skip_locked: bool = False
) -> GameRow | None:
    """The game's row; ``lock`` holds it until the transaction ends (PostgreSQL; SQLite
    has one writer at a time anyway). ``skip_locked`` gives None while another holds it."""
    query = select(games).where(games.c.code == code)
    if lock:
        query = query.with_for_update(skip_locked=skip_locked)
    row = (await conn.execute(query)).first()
    return _game(row) if row is not None else None


async def lock_creations(conn: AsyncConnection) -> None:
    """Creations one at a time across processes: exact limits, a fresh code without races."""
    await _advisory_lock(conn, CREATION_LOCK)


async def code_exists(conn: AsyncConnection, code: str) -> bool:
    """Whether a game, or the notice of a deleted one, holds the code."""
    in_games = select(games.c.code).where(games.c.code == code)
    noticed = select(deleted_games.c.code).where(deleted_games.c.code == code)
    return (await conn.execute(in_games.union_all(noticed))).first() is not None


async def update_game(conn: AsyncConnection, game_id: int, **values: Any) -> None:
    await conn.execute(update(games).where(games.c.id == game_id).values(**values))


async def seats_of(conn: AsyncConnection, game_id: int) -> list[SeatRow]:
    rows = await conn.execute(
        select(seats.c.seat, seats.c.nick, seats.c.token_hash)
        .where(seats.c.game_id == game_id)
        .order_by(seats.c.seat)
    )
    return [SeatRow(r.seat, r.nick, r.token_hash) for r in rows]


async def add_seat(
    conn: AsyncConnection, game_id: int, seat: int, nick: str, token_hash: str
) -> None:
    await conn.execute(
        insert(seats).values(game_id=game_id, seat=seat, nick=nick, token_hash=token_hash)
    )


async def events_of(conn: AsyncConnection, game_id: int, after: int = 0) -> list[EventRow]:
    rows = await conn.execute(
        select(events.c.seq, events.c.kind, events.c.data, events.c.at)
        .where(events.c.game_id == game_id, events.c.seq > after)
        .order_by(events.c.seq)
    )
    return [EventRow(r.seq, r.kind, r.data, at_utc(r.at)) for r in rows]


async def append_events(
    conn: AsyncConnection,
    game_id: int,
    first_seq: int,
    new: Sequence[tuple[str, dict[str, Any]]],
    at: datetime,
) -> None:
    await conn.execute(
        insert(events),
        [
            {"game_id": game_id, "seq": first_seq + i, "kind": kind, "data": data, "at": at}
            for i, (kind, data) in enumerate(new)
        ],
    )


async def count_active(conn: AsyncConnection, creator_ip: str | None = None) -> int:
    query = select(func.count()).select_from(games).where(games.c.status.in_(ACTIVE))
    if creator_ip is not None:
        query = query.where(games.c.creator_ip == creator_ip)
    return int(await conn.scalar(query) or 0)


async def count_waiting(conn: AsyncConnection, creator_ip: str) -> int:
    """Games from this address still waiting for players."""
    query = select(func.count()).select_from(games)
    query = query.where(games.c.creator_ip == creator_ip, games.c.status == "waiting")
    return int(await conn.scalar(query) or 0)


async def count_created_since(conn: AsyncConnection, creator_ip: str, since: datetime) -> int:
    """Games (rematches too) this address created since ``since``, however they ended."""
    query = select(func.count()).select_from(games)
    query = query.where(games.c.creator_ip == creator_ip, games.c.created_at > since)
    return int(await conn.scalar(query) or 0)


async def public_games(conn: AsyncConnection, limit: int = 100) -> list[tuple[GameRow, list[str]]]:
    """Public games waiting or being played, newest first, with their players' nicks."""
    rows = await conn.execute(
        select(games)
        .where(games.c.public.is_(True), games.c.status.in_(ACTIVE))
        .order_by(games.c.created_at.desc())
        .limit(limit)
    )
    listed = [_game(row) for row in rows]
    nicks: dict[int, list[str]] = {game.id: [] for game in listed}
    if nicks:
        seated = await conn.execute(
            select(seats.c.game_id, seats.c.nick)
            .where(seats.c.game_id.in_(list(nicks)))
            .order_by(seats.c.game_id, seats.c.seat)
        )
        for row in seated:
            nicks[row.game_id].append(row.nick)
    return [(game, nicks[game.id]) for game in listed]


async def due_moves(conn: AsyncConnection, now: datetime, limit: int = 100) -> list[str]:
    """Codes of games whose pending move is past its deadline."""
    rows = await conn.execute(
        select(games.c.code)
        .where(games.c.status == "playing", games.c.deadline <= now)
        .order_by(games.c.deadline)
        .limit(limit)
    )
    return [r.code for r in rows]


async def expired(
    conn: AsyncConnection, waiting_before: datetime, playing_before: datetime
) -> list[str]:
    """Codes of games past their lifetime (R31): never filled, or never finished."""
    rows = await conn.execute(
        select(games.c.code).where(
            ((games.c.status == "waiting") & (games.c.created_at <= waiting_before))
            | ((games.c.status == "playing") & (games.c.started_at <= playing_before))
        )
    )
    return [r.code for r in rows]


@dataclass(frozen=True, slots=True)
class Notice:
    """Why a game was deleted: ``expired``, or ``removed`` by the operator with a message."""

    code: str
    reason: str
    message: str | None
    at: datetime


async def deletion_notice(conn: AsyncConnection, code: str) -> Notice | None:
    """Why a game of this code was deleted, while the notice is kept."""
    row = (await conn.execute(select(deleted_games).where(deleted_games.c.code == code))).first()
    if row is None:
        return None
    return Notice(row.code, row.reason, row.message, at_utc(row.at))


async def notices_since(conn: AsyncConnection, since: datetime) -> list[Notice]:
    """Games deleted since ``since`` (by the sweeper of any process, or the operator)."""
    rows = await conn.execute(select(deleted_games).where(deleted_games.c.at >= since))
    return [Notice(r.code, r.reason, r.message, at_utc(r.at)) for r in rows]


async def remove_game(conn: AsyncConnection, code: str, message: str, now: datetime) -> bool:
    """The operator deletes a game at once; only its code, the time and the reason stay."""
    game_id = await conn.scalar(select(games.c.id).where(games.c.code == code).with_for_update())
    if game_id is None:
        return False
    await conn.execute(delete(events).where(events.c.game_id == game_id))
    await conn.execute(delete(seats).where(seats.c.game_id == game_id))
    await conn.execute(delete(games).where(games.c.id == game_id))
    await conn.execute(delete(deleted_games).where(deleted_games.c.code == code))
    await conn.execute(
        insert(deleted_games).values(code=code, reason="removed", message=message, at=now)
    )
    return True


async def forget_notices(conn: AsyncConnection, before: datetime) -> None:
    await conn.execute(delete(deleted_games).where(deleted_games.c.at <= before))


async def delete_ended(conn: AsyncConnection, changed_before: datetime, now: datetime) -> list[str]:
    """Delete finished and cancelled games (with their log and chat) not changed since.

    A notice of each (code, time, reason) stays behind for a week. The games are
    claimed first: rows another process's sweeper holds are left to it.
    """
    claimed = (
        await conn.execute(
            select(games.c.id, games.c.code)
            .where(
                games.c.status.in_(("finished", "cancelled")), games.c.updated_at <= changed_before
            )
            .with_for_update(skip_locked=True)
        )
    ).all()
    ids, codes = [r.id for r in claimed], [r.code for r in claimed]
    if ids:
        await conn.execute(delete(events).where(events.c.game_id.in_(ids)))
        await conn.execute(delete(seats).where(seats.c.game_id.in_(ids)))
        await conn.execute(delete(games).where(games.c.id.in_(ids)))
        await conn.execute(
            insert(deleted_games), [{"code": c, "reason": "expired", "at": now} for c in codes]
        )
    return codes


async def cancel_broken(conn: AsyncConnection, code: str, now: datetime) -> None:
    """Cancel a game without an event (its log no longer folds): not due, deleted later."""
    await conn.execute(
        update(games)
        .where(games.c.code == code)
        .values(status="cancelled", deadline=None, updated_at=now)
    )


# --- moderation ---------------------------------------------------------------------


async def blocked_until(
    conn: AsyncConnection, kind: str, hash_: str, now: datetime
) -> datetime | None:
    until = await conn.scalar(
        select(offenders.c.blocked_until).where(offenders.c.kind == kind, offenders.c.hash == hash_)
    )
    until = utc(until)
    return until if until is not None and until > now else None


async def add_violation(conn: AsyncConnection, kind: str, hash_: str, now: datetime) -> int:
    """One more violation of a device or an address: its count now."""
    upsert = _upsert(conn, offenders).values(
        kind=kind, hash=hash_, violations=1, last_violation=now
    )
    counted = upsert.on_conflict_do_update(
        index_elements=[offenders.c.kind, offenders.c.hash],
        set_={"violations": offenders.c.violations + 1, "last_violation": now},
    ).returning(offenders.c.violations)
    return int((await conn.execute(counted)).scalar_one())


async def block(conn: AsyncConnection, kind: str, hash_: str, until: datetime) -> None:
    await conn.execute(
        update(offenders)
        .where(offenders.c.kind == kind, offenders.c.hash == hash_)
        .values(blocked_until=until)
    )


async def unblock(conn: AsyncConnection, hash_: str) -> int:
    """Lift the block of a device or an address (by its hash); how many were lifted."""
    result = await conn.execute(
        update(offenders)
        .where(offenders.c.hash == hash_, offenders.c.blocked_until.is_not(None))
        .values(blocked_until=None)
    )
    return result.rowcount


@dataclass(frozen=True, slots=True)
class OffenderRow:
    kind: str
    hash: str
    violations: int
    last_violation: datetime
    blocked_until: datetime | None


async def blocks(conn: AsyncConnection, now: datetime) -> list[OffenderRow]:
    rows = await conn.execute(
        select(offenders).where(offenders.c.blocked_until > now).order_by(offenders.c.blocked_until)
    )
    return [
        OffenderRow(r.kind, r.hash, r.violations, at_utc(r.last_violation), utc(r.blocked_until))
        for r in rows
    ]


async def note_violation(conn: AsyncConnection, device: str, ip: str, now: datetime) -> None:
    await conn.execute(insert(violations).values(device=device, ip=ip, at=now))


async def devices_with_violations(conn: AsyncConnection, ip: str, since: datetime) -> int:
    return int(
        await conn.scalar(
            select(func.count(violations.c.device.distinct())).where(
                violations.c.ip == ip, violations.c.at > since
            )
        )
        or 0
    )


async def log_text(conn: AsyncConnection, **values: Any) -> None:
    """A rejected or reported text in the admin log."""
    await conn.execute(insert(moderation_log).values(**values))


@dataclass(frozen=True, slots=True)
class LogRow:
    at: datetime
    kind: str
    field: str
    text: str
    nick: str | None
    reporter: str | None
    code: str | None
    device: str | None


async def moderation_entries(conn: AsyncConnection, since: datetime) -> list[LogRow]:
    rows = await conn.execute(
        select(moderation_log).where(moderation_log.c.at > since).order_by(moderation_log.c.at)
    )
    return [
        LogRow(at_utc(r.at), r.kind, r.field, r.text, r.nick, r.reporter, r.code, r.device)
        for r in rows
    ]


async def already_reported(conn: AsyncConnection, code: str, reporter: str, text: str) -> bool:
    found = await conn.scalar(
        select(func.count()).where(
            moderation_log.c.kind == "reported",
            moderation_log.c.code == code,
            moderation_log.c.reporter == reporter,
            moderation_log.c.text == text,
        )
    )
    return bool(found)


async def forget_moderation(
    conn: AsyncConnection,
    now: datetime,
    *,
    texts_before: datetime,
    offenders_before: datetime,
    violations_before: datetime,
) -> None:
    """Retention: texts after 30 days, hashes 90 days after the last violation, ended blocks."""
    await conn.execute(delete(moderation_log).where(moderation_log.c.at <= texts_before))
    await conn.execute(delete(violations).where(violations.c.at <= violations_before))
    await conn.execute(
        update(offenders).where(offenders.c.blocked_until <= now).values(blocked_until=None)
    )
    await conn.execute(
        delete(offenders).where(
            offenders.c.last_violation <= offenders_before, offenders.c.blocked_until.is_(None)
        )
    )


# --- anonymous statistics -------------------------------------------------------------


async def count_day(conn: AsyncConnection, day: str, *, started: int, finished: int) -> None:
    """Add to one day's counts of games started and finished."""
    upsert = _upsert(conn, daily_stats).values(day=day, started=started, finished=finished)
    await conn.execute(
        upsert.on_conflict_do_update(
            index_elements=[daily_stats.c.day],
            set_={
                "started": daily_stats.c.started + started,
                "finished": daily_stats.c.finished + finished,
            },
        )
    )


async def days(conn: AsyncConnection, since: str) -> list[tuple[str, int, int]]:
    rows = await conn.execute(
        select(daily_stats).where(daily_stats.c.day >= since).order_by(daily_stats.c.day)
    )
    return [(r.day, r.started, r.finished) for r in rows]


async def forget_days(conn: AsyncConnection, before: str) -> None:
    await conn.execute(delete(daily_stats).where(daily_stats.c.day < before))


async def set_server_value(conn: AsyncConnection, name: str, value: str) -> bool:
    """Set a value unless it already holds ``value``: True when this call changed it (so,
    of processes racing to set the same value, exactly one gets True)."""
    upsert = _upsert(conn, server_secrets).values(name=name, value=value)
    result = await conn.execute(
        upsert.on_conflict_do_update(
            index_elements=[server_secrets.c.name],
            set_={"value": value},
            where=server_secrets.c.value != value,
        )
    )
    return result.rowcount == 1
