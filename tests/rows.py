"""A game's row written straight into the store, for tests of the store itself."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from tysiac.store import gamedb


async def insert_plain_game(conn: AsyncConnection, code: str, at: datetime, **values: Any) -> int:
    """A private three-player game created at ``at`` (``values`` change any column): its id."""
    row: dict[str, Any] = {
        "code": code,
        "status": "waiting",
        "players": 3,
        "name": None,
        "public": False,
        "chat": True,
        "target": 1000,
        "move_seconds": 60,
        "version": 0,
        "created_at": at,
        "updated_at": at,
        "creator_ip": "hash",
    }
    return await gamedb.insert_game(conn, **(row | values))
