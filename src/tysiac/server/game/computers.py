"""Computer players at the table: the creator seats them in a waiting game (or at its
creation, ``lobby.create``) and frees their seats again before it starts.

A computer's seat stores ``bot:<level>`` where a player's stores its token's hash, so
no token ever takes it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy.ext.asyncio import AsyncConnection

from tysiac import bots as computer
from tysiac.server.errors import ServiceError
from tysiac.server.game.table import Event, Table
from tysiac.server.moderation import texts
from tysiac.store import gamedb
from tysiac.store.schema import EventKind, GameStatus

if TYPE_CHECKING:
    from tysiac.server.game.service import GameService


def check_level(level: str) -> None:
    if level not in computer.LEVELS:
        levels = ", ".join(computer.LEVELS)
        raise ServiceError("error.bad_bot_level", field="bots", levels=levels)


def bot_hash(level: str) -> str:
    """What a computer player's seat stores for a token hash: no token's hash looks so
    (a SHA-256 is 64 hex digits), so no token ever takes a bot's seat."""
    return f"bot:{level}"


async def seat_bot(
    conn: AsyncConnection, game_id: int, seat: int, level: str, nicks: list[str]
) -> Event:
    """Seat a computer player, "Komputer N" with the first N no player's nick is near."""
    number = 1
    while any(texts.same_nick(f"Komputer {number}", n) for n in nicks):
        number += 1
    nick = f"Komputer {number}"
    nicks.append(nick)
    await gamedb.add_seat(conn, game_id, seat, nick, bot_hash(level))
    return EventKind.JOINED, {"seat": seat, "nick": nick, "device": None, "bot": level}


async def add_bot(service: GameService, code: str, seat: int | None, level: str) -> int:
    """The creator (seat 0) puts a computer player in the first free seat of a waiting
    game; the game starts when that fills the table, as with the last join."""
    check_level(level)

    async def decide(
        conn: AsyncConnection, row: gamedb.GameRow, table: Table
    ) -> tuple[list[Event], int]:
        _check_host(table, seat)
        free = table.free_seat()
        if free is None:
            raise ServiceError("error.full", 409)
        taken = [n for n in table.nicks if n is not None]
        events: list[Event] = [await seat_bot(conn, row.id, free, level, taken)]
        if sum(n is None for n in table.nicks) == 1:
            events += service.dealer.start(table.settings.players)
        return events, free

    _, added = await service.change(code, decide)
    return added


async def remove_bot(service: GameService, code: str, seat: int | None, bot_seat: int) -> None:
    """The creator frees a computer player's seat of a waiting game (a ``left`` event)."""

    async def decide(
        conn: AsyncConnection, row: gamedb.GameRow, table: Table
    ) -> tuple[list[Event], None]:
        _check_host(table, seat)
        if not 0 <= bot_seat < table.settings.players or table.bot(bot_seat) is None:
            raise ServiceError("error.not_a_bot", 409)
        await gamedb.remove_seat(conn, row.id, bot_seat)
        return [(EventKind.LEFT, {"seat": bot_seat})], None

    await service.change(code, decide)


def _check_host(table: Table, seat: int | None) -> None:
    """Only the creator of a game still waiting for players seats or unseats computers."""
    if seat != 0:
        raise ServiceError("error.not_host", 403)
    if table.status != GameStatus.WAITING or table.awaiting_players:
        raise ServiceError("error.not_waiting", 409)


def level_of(stored_hash: str) -> str | None:
    """A seat's computer level from its stored hash (``bot_hash``), None for a person."""
    return stored_hash.removeprefix("bot:") if stored_hash.startswith("bot:") else None
