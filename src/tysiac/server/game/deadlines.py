"""When a game's next deadline falls (R27, R28): a pure function of the change.

After every move the seat to move gets a fresh move time; after a hand, a pause to read
its result before the next deal; a computer player moves after a natural pause; a
rematch waiting for its players starts at the latest REMATCH_WAIT_SECONDS after it was
made. The sweeper (and the computer players' wake-up calls) act when it passes.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from tysiac import rules
from tysiac.rules.timing import move_deadline
from tysiac.server.game.table import Table
from tysiac.store.schema import EventKind, GameStatus

REMATCH_WAIT_SECONDS = 60  # a rematch waits this long for its players, then starts anyway


@dataclass(frozen=True, slots=True)
class Pauses:
    """The pauses the server keeps, in seconds (from the settings)."""

    hand: float  # after a hand, to read its result
    bot: float  # a computer player's usual pause before its move
    move: float | None = None  # every seat's move time; None: the game's own (R27)


def next_deadline(
    before: Table,
    after: Table,
    new: Sequence[tuple[str, dict[str, Any]]],
    now: datetime,
    pauses: Pauses,
    rng: random.Random,
) -> datetime | None:
    """The deadline after the events ``new`` took the table from ``before`` to ``after``."""
    if after.awaiting_players:
        return before.deadline or now + timedelta(seconds=REMATCH_WAIT_SECONDS)
    game = after.game
    if after.status != GameStatus.PLAYING or game is None:
        return None
    if not any(kind in (EventKind.MOVE, EventKind.DEALT) for kind, _ in new):
        return before.deadline  # a chat line, a seat's arrival: the clock runs on
    if game.awaiting_deal:
        return now + timedelta(seconds=pauses.hand)
    if game.to_move is None:
        return None
    if after.bot(game.to_move) is not None:
        return now + timedelta(seconds=bot_pause(game, pauses.bot, rng))
    return move_deadline(now, pauses.move or after.settings.move_seconds)


def bot_pause(game: rules.Game, usual: float, rng: random.Random) -> float:
    """A computer player's natural pause: about ``usual`` seconds, a third of it when it
    has only one move (a forced card is not thought over)."""
    if len(rules.legal_actions(game)) == 1:
        return usual / 3
    return usual * rng.uniform(2 / 3, 4 / 3)
