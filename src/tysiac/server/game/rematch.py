"""A rematch: one click after the game, the same players in the same seats, with the
same secrets; it deals once every seat is back (or after a minute).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy.ext.asyncio import AsyncConnection

from tysiac.server.errors import ServiceError
from tysiac.server.game.lobby import open_game
from tysiac.server.game.table import Event, Table, empty_table
from tysiac.server.game.table import Settings as TableSettings
from tysiac.server.game.talk import check_not_blocked
from tysiac.server.moderation.authors import Author
from tysiac.store import gamedb
from tysiac.store.schema import EventKind, GameStatus

if TYPE_CHECKING:
    from tysiac.server.game.service import GameService


async def rematch(service: GameService, code: str, seat: int | None, author: Author) -> str:
    """One click after the game: a new game, same players, same seats, same secrets.

    The new game is made and filled in the same transaction that notes it in the old one:
    a crash leaves either both or neither. It starts once every seat has connected to it
    (``arrive``), or when REMATCH_WAIT_SECONDS have passed (``GameService.due``).
    """
    await check_not_blocked(service, author)

    async def decide(
        conn: AsyncConnection, row: gamedb.GameRow, table: Table
    ) -> tuple[list[Event], str]:
        if seat is None:
            raise ServiceError("error.spectator.rematch", 403)
        if table.status != GameStatus.FINISHED:
            raise ServiceError("error.not_finished", 409)
        if table.rematch is not None:
            return [], table.rematch
        settings = TableSettings.of(row)
        new_code_, game_id = await open_game(service, conn, author.ip, settings, version=0)
        seats = await gamedb.seats_of(conn, row.id)
        for old in seats:
            await gamedb.add_seat(conn, game_id, old.seat, old.nick, old.token_hash)
        new_row = await gamedb.game_by_code(conn, new_code_)
        assert new_row is not None
        opened: list[Event] = [(EventKind.REMATCH_OF, {"code": code})]
        for s in seats:
            joined = {"seat": s.seat, "nick": s.nick, "device": table.devices[s.seat]}
            if table.bot(s.seat) is not None:
                joined["bot"] = table.bot(s.seat)
            opened.append((EventKind.JOINED, joined))
        # A computer player is back at once: the rematch waits for the people alone.
        opened += [(EventKind.ARRIVED, {"seat": s}) for s in range(len(seats)) if table.bot(s)]
        await service.append(conn, new_row, empty_table(new_code_, settings), opened)
        return [(EventKind.REMATCH, {"code": new_code_})], new_code_

    async with service.creations:  # counted with creations, as one of them
        _, made = await service.change(code, decide)
    return made


async def arrive(service: GameService, code: str, seat: int) -> None:
    """A seat's socket opened. A rematch waiting for its players notes the first of each
    seat's, and starts (deals) with the last seat's."""

    def arriving(table: Table) -> bool:
        return table.awaiting_players and seat not in table.arrived

    if not arriving(await service.table(code)):  # the usual case: no write
        return

    async def decide(
        conn: AsyncConnection, row: gamedb.GameRow, table: Table
    ) -> tuple[list[Event], None]:
        if not arriving(table):
            return [], None
        events: list[Event] = [(EventKind.ARRIVED, {"seat": seat})]
        if len(table.arrived) + 1 == table.settings.players:
            events += service.dealer.start(table.settings.players)
        return events, None

    await service.change(code, decide)
