"""What time makes due, as the sweepers read and write it: games whose deadline passed,
games past their lifetimes (R31), finished games past their keeping time and the
notices that stay of them, the operator's removals, and broken games cancelled.

Deletions claim their rows first (``FOR UPDATE SKIP LOCKED``): with several processes,
each game is deleted by one sweeper, and told of by every process from its notice.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from .schema import ACTIVE, GameStatus, deleted_games, events, game_reviews, games, seats


async def due_moves(conn: AsyncConnection, now: datetime, limit: int = 100) -> list[str]:
    """Codes of games whose deadline passed: a pending move, the next deal, a rematch's start."""
    rows = await conn.execute(
        select(games.c.code)
        .where(games.c.status.in_(ACTIVE), games.c.deadline <= now)
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
            ((games.c.status == GameStatus.WAITING) & (games.c.created_at <= waiting_before))
            | ((games.c.status == GameStatus.PLAYING) & (games.c.started_at <= playing_before))
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
    return Notice(row.code, row.reason, row.message, row.at)


async def notices_since(conn: AsyncConnection, since: datetime) -> list[Notice]:
    """Games deleted since ``since`` (by the sweeper of any process, or the operator)."""
    rows = await conn.execute(select(deleted_games).where(deleted_games.c.at >= since))
    return [Notice(r.code, r.reason, r.message, r.at) for r in rows]


async def remove_game(conn: AsyncConnection, code: str, message: str, now: datetime) -> bool:
    """The operator deletes a game at once; only its code, the time and the reason stay."""
    game_id = await conn.scalar(select(games.c.id).where(games.c.code == code).with_for_update())
    if game_id is None:
        return False
    await conn.execute(delete(events).where(events.c.game_id == game_id))
    await conn.execute(delete(game_reviews).where(game_reviews.c.game_id == game_id))
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
    """Delete finished and cancelled games (with their log, chat and analysis) not
    changed since.

    A notice of each (code, time, reason) stays behind for a week. The games are
    claimed first: rows another process's sweeper holds are left to it.
    """
    claimed = (
        await conn.execute(
            select(games.c.id, games.c.code)
            .where(
                games.c.status.in_((GameStatus.FINISHED, GameStatus.CANCELLED)),
                games.c.updated_at <= changed_before,
            )
            .with_for_update(skip_locked=True)
        )
    ).all()
    ids, codes = [r.id for r in claimed], [r.code for r in claimed]
    if ids:
        await conn.execute(delete(events).where(events.c.game_id.in_(ids)))
        await conn.execute(delete(game_reviews).where(game_reviews.c.game_id.in_(ids)))
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
        .values(status=GameStatus.CANCELLED, deadline=None, updated_at=now)
    )
