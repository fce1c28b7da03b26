"""Games: their rows, seats and event logs, and the lobby's counts (what time makes due,
and deletion, are in ``sweeps``).

A game is a row (settings, status, version, deadline) plus an append-only log of
events. ``game_by_code(lock=True)`` takes the game's row lock (PostgreSQL), which
serialises one game's commands across processes; ``lock_creations`` serialises
creations so the per-address limits hold exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from .backend import advisory_lock
from .schema import (
    ACTIVE,
    GameStatus,
    deleted_games,
    events,
    games,
    seats,
)

NewEvents = Sequence[tuple[str, dict[str, Any]]]  # a command's events: kind and data
CREATION_LOCK = 1_000_002  # a PostgreSQL advisory lock key (the same in every process)


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
    options: dict[str, Any] | None
    version: int
    deadline: datetime | None
    created_at: datetime
    started_at: datetime | None
    updated_at: datetime
    creator_ip: str


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
    return GameRow(**row._mapping)


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
    await advisory_lock(conn, CREATION_LOCK)


async def code_exists(conn: AsyncConnection, code: str) -> bool:
    """Whether a game, or the notice of a deleted one, holds the code."""
    in_games = select(games.c.code).where(games.c.code == code)
    noticed = select(deleted_games.c.code).where(deleted_games.c.code == code)
    return (await conn.execute(in_games.union_all(noticed))).first() is not None


class StaleRow(Exception):
    """The game's stored row is not at the version its command was decided on (changed
    behind the store's back, by the admin command say): the command is decided again."""


# The statement of every change of a game, built once: building it again for each move
# (and its cache key) cost more than running it.
STORE_CHANGE = (
    update(games)
    .where(games.c.id == bindparam("game_id"), games.c.version == bindparam("version_was"))
    .values(
        version=bindparam("version"),
        status=bindparam("status"),
        deadline=bindparam("deadline"),
        updated_at=bindparam("updated_at"),
        started_at=bindparam("started_at"),
    )
)


def change_values(row: GameRow, version_was: int) -> dict[str, Any]:
    """The parameters of ``STORE_CHANGE``: the row as it is now, if at ``version_was``."""
    return {
        "game_id": row.id,
        "version_was": version_was,
        "version": row.version,
        "status": row.status,
        "deadline": row.deadline,
        "updated_at": row.updated_at,
        "started_at": row.started_at,
    }


async def store_change(conn: AsyncConnection, row: GameRow, *, version_was: int) -> bool:
    """The game's row after a change, if it is still at ``version_was``: whether it was."""
    return bool((await conn.execute(STORE_CHANGE, change_values(row, version_was))).rowcount)


async def seats_of(conn: AsyncConnection, game_id: int) -> list[SeatRow]:
    rows = await conn.execute(
        select(seats.c.seat, seats.c.nick, seats.c.token_hash)
        .where(seats.c.game_id == game_id)
        .order_by(seats.c.seat)
    )
    return [SeatRow(r.seat, r.nick, r.token_hash) for r in rows]


# A connection's hello: the game and its seats' token hashes, in one query. No row: no
# such game; a row without a seat: a game with none (never, once created).
_SEAT_HASHES = (
    select(games.c.id, seats.c.seat, seats.c.token_hash)
    .select_from(games.outerjoin(seats, seats.c.game_id == games.c.id))
    .where(games.c.code == bindparam("code"))
)


async def seat_hashes(conn: AsyncConnection, code: str) -> dict[str, int] | None:
    """The game's seats by the hash of their tokens (a computer's: ``bot:<level>``), or
    None if there is no such game."""
    rows = (await conn.execute(_SEAT_HASHES, {"code": code})).all()
    if not rows:
        return None
    return {row.token_hash: row.seat for row in rows if row.seat is not None}


async def add_seat(
    conn: AsyncConnection, game_id: int, seat: int, nick: str, token_hash: str
) -> None:
    await conn.execute(
        insert(seats).values(game_id=game_id, seat=seat, nick=nick, token_hash=token_hash)
    )


async def remove_seat(conn: AsyncConnection, game_id: int, seat: int) -> None:
    await conn.execute(delete(seats).where(seats.c.game_id == game_id, seats.c.seat == seat))


async def events_of(conn: AsyncConnection, game_id: int, after: int = 0) -> list[EventRow]:
    rows = await conn.execute(
        select(events.c.seq, events.c.kind, events.c.data, events.c.at)
        .where(events.c.game_id == game_id, events.c.seq > after)
        .order_by(events.c.seq)
    )
    return [EventRow(r.seq, r.kind, r.data, r.at) for r in rows]


APPEND_EVENTS = insert(events)


def event_rows(game_id: int, first_seq: int, new: NewEvents, at: datetime) -> list[dict[str, Any]]:
    return [
        {"game_id": game_id, "seq": first_seq + i, "kind": kind, "data": data, "at": at}
        for i, (kind, data) in enumerate(new)
    ]


async def append_events(
    conn: AsyncConnection, game_id: int, first_seq: int, new: NewEvents, at: datetime
) -> None:
    await conn.execute(APPEND_EVENTS, event_rows(game_id, first_seq, new, at))


async def count_active(conn: AsyncConnection, creator_ip: str | None = None) -> int:
    query = select(func.count()).select_from(games).where(games.c.status.in_(ACTIVE))
    if creator_ip is not None:
        query = query.where(games.c.creator_ip == creator_ip)
    return int(await conn.scalar(query) or 0)


async def count_waiting(conn: AsyncConnection, creator_ip: str) -> int:
    """Games from this address still waiting for players."""
    query = select(func.count()).select_from(games)
    query = query.where(games.c.creator_ip == creator_ip, games.c.status == GameStatus.WAITING)
    return int(await conn.scalar(query) or 0)


async def count_created_since(conn: AsyncConnection, creator_ip: str, since: datetime) -> int:
    """Games (rematches too) this address created since ``since``, however they ended."""
    query = select(func.count()).select_from(games)
    query = query.where(games.c.creator_ip == creator_ip, games.c.created_at > since)
    return int(await conn.scalar(query) or 0)


async def public_games(
    conn: AsyncConnection, limit: int = 100
) -> list[tuple[GameRow, list[SeatRow]]]:
    """Public games waiting or being played, newest first, with their taken seats."""
    rows = await conn.execute(
        select(games)
        .where(games.c.public.is_(True), games.c.status.in_(ACTIVE))
        .order_by(games.c.created_at.desc())
        .limit(limit)
    )
    listed = [_game(row) for row in rows]
    nicks: dict[int, list[SeatRow]] = {game.id: [] for game in listed}
    if nicks:
        seated = await conn.execute(
            select(seats.c.game_id, seats.c.seat, seats.c.nick, seats.c.token_hash)
            .where(seats.c.game_id.in_(list(nicks)))
            .order_by(seats.c.game_id, seats.c.seat)
        )
        for row in seated:
            nicks[row.game_id].append(SeatRow(row.seat, row.nick, row.token_hash))
    return [(game, nicks[game.id]) for game in listed]
