"""A finished game's analysis (the deal review's verdicts): stored once, with the game.

The row is written when the whole analysis is done and goes with its game (the sweeper's
``delete_ended``, the operator's ``remove_game``; the foreign key cascades as well). Two
processes that computed the same analysis at once both try to store it: the first
stays, the second changes nothing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from .backend import upsert
from .schema import game_reviews, games


async def stored_analysis(conn: AsyncConnection, code: str, version: int) -> list[Any] | None:
    """The game's stored verdicts (one a hand), if stored in format ``version``."""
    row = (
        await conn.execute(
            select(game_reviews.c.hands)
            .select_from(game_reviews.join(games, games.c.id == game_reviews.c.game_id))
            .where(games.c.code == code, game_reviews.c.version == version)
        )
    ).first()
    if row is None:
        return None
    hands: list[Any] = row.hands
    return hands


async def store_analysis(
    conn: AsyncConnection, code: str, version: int, hands: list[Any], now: datetime
) -> bool:
    """Store the game's verdicts, replacing a row of another format; False when the game
    is gone (deleted meanwhile) or a row of this format is there already."""
    game_id = await conn.scalar(select(games.c.id).where(games.c.code == code))
    if game_id is None:
        return False
    statement = upsert(conn, game_reviews).values(
        game_id=game_id, version=version, hands=hands, at=now
    )
    result = await conn.execute(
        statement.on_conflict_do_update(
            index_elements=[game_reviews.c.game_id],
            set_={"version": version, "hands": hands, "at": now},
            where=game_reviews.c.version != version,
        )
    )
    return bool(result.rowcount)
