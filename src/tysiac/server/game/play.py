"""The commands of play: a seat's move, what is due when a deadline passes, and the
cancellation of games past their lifetimes.

Each command is a ``decide`` run by ``GameService.change`` under the game's lock, on
the table as it is then; it returns the events to store (none: nothing changes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy.ext.asyncio import AsyncConnection

from tysiac import rules
from tysiac.rules.timing import cancel_due
from tysiac.server.errors import ServiceError, rules_refusals
from tysiac.server.game.table import Event, Table
from tysiac.server.game.thinking import bot_move
from tysiac.store import gamedb
from tysiac.store.schema import ACTIVE, EventKind, GameStatus

if TYPE_CHECKING:
    from tysiac.server.game.service import GameService


async def move(
    service: GameService, code: str, seat: int | None, version: int, action: dict[str, Any]
) -> Table:
    """A seat's move (a bid, a card, …), acted on the table at ``version``."""

    async def decide(
        conn: AsyncConnection, row: gamedb.GameRow, table: Table
    ) -> tuple[list[Event], None]:
        if seat is None:
            raise ServiceError("error.spectator.play", 403)
        if table.status == GameStatus.WAITING:
            raise ServiceError("error.not_started", 409)
        if table.status != GameStatus.PLAYING or table.game is None:
            raise ServiceError("error.game_over", 409)
        if not table.game_version <= version <= table.version:  # chat alone is no change
            raise ServiceError("error.stale", 409)
        if not isinstance(action, dict):
            raise ServiceError("error.malformed.move")
        with rules_refusals():
            parsed = rules.action_from_json({**action, "seat": seat})
            if isinstance(parsed, rules.Timeout):
                raise rules.IllegalAction("error.malformed.server_move")
            rules.apply(table.game, parsed)
        return [(EventKind.MOVE, rules.action_to_json(parsed))], None

    table, _ = await service.change(code, decide)
    return table


async def due(service: GameService, code: str) -> None:
    """The game's deadline passed: deal the next hand, or time out the seat to move (R28),
    or make a computer player's move, or start a rematch that waited long enough for
    its players."""
    thought = await service.bots.think(await service.table(code, at_least=0))

    async def decide(
        conn: AsyncConnection, row: gamedb.GameRow, table: Table
    ) -> tuple[list[Event], None]:
        game = table.game
        if row.status not in ACTIVE or row.deadline is None or row.deadline > service.now():
            return [], None
        if table.awaiting_players:
            return service.dealer.start(table.settings.players), None
        if game is not None and game.awaiting_deal:
            return [service.dealer.deal()], None
        if game is None or game.to_move is None:
            return [], None
        if table.bot(game.to_move) is not None:  # a computer player's pause is over
            if thought is None or thought[0] != table.version:
                return [], None  # the game moved on meanwhile: it thinks again
            return [(EventKind.MOVE, bot_move(game, thought[1]))], None
        return [(EventKind.MOVE, {"seat": game.to_move, "type": "timeout"})], None

    await service.change(code, decide, sweeping=True)


async def expire(service: GameService, code: str) -> None:
    """R31: cancel a game never filled within an hour, or not finished within a day."""

    async def decide(
        conn: AsyncConnection, row: gamedb.GameRow, table: Table
    ) -> tuple[list[Event], None]:
        if row.status not in ACTIVE:
            return [], None
        started = row.started_at if row.status == GameStatus.PLAYING else None
        if cancel_due(row.created_at, started) > service.now():
            return [], None
        reason = "not_filled" if started is None else "not_finished"
        return [(EventKind.CANCELLED, {"reason": reason})], None

    await service.change(code, decide, sweeping=True)
