"""Move time and game lifetimes (R27, R31) as pure arithmetic on times given by the caller.

The rules keep no clock: the server passes the times it stored, and asks when
something falls due. Keeping the policy here puts every rule in one place.
"""

from __future__ import annotations

from datetime import datetime, timedelta

MOVE_SECONDS = 60  # R27: the default, and the only choice in public games
PRIVATE_MOVE_SECONDS = (60, 120, 300)  # a private game's creator may choose more time

FILL_WITHIN = timedelta(hours=1)  # R31: all seats taken within an hour of creation
FINISH_WITHIN = timedelta(hours=24)  # R31: finished within a day of starting
KEEP_FOR = timedelta(days=7)  # R31: then deleted, with the chat, a week after the last change


def move_deadline(turn_started: datetime, move_seconds: float = MOVE_SECONDS) -> datetime:
    """R27: when the seat to move runs out of time."""
    return turn_started + timedelta(seconds=move_seconds)


def cancel_due(created: datetime, started: datetime | None) -> datetime:
    """R31: when an unfinished game is cancelled."""
    return created + FILL_WITHIN if started is None else started + FINISH_WITHIN


def delete_due(last_change: datetime) -> datetime:
    """R31: when a finished or cancelled game is deleted."""
    return last_change + KEEP_FOR
