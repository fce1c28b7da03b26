"""Where decks and the first scores come from: R9's secure shuffle, R5's first dealer.

A test may hand the service its own ``Dealing`` (a fixed deck, start scores, a shorter
move time); a server never does.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tysiac import rules
from tysiac.server.game.table import Event, deck_event
from tysiac.store.schema import EventKind


@dataclass(frozen=True, slots=True)
class Dealing:
    """What a test fixes of the dealing; every field None: the real thing."""

    deck: Callable[[], list[int]] | None = None  # None: rules.shuffle(rng)
    start_scores: tuple[int, ...] | None = None
    move_seconds: float | None = None  # None: each game's own (R27)


REAL = Dealing()  # nothing fixed: the server's own dealing


class Dealer:
    def __init__(self, rng: random.Random, dealing: Dealing) -> None:
        self.rng = rng
        self.dealing = dealing

    def shuffled(self) -> list[int]:
        """R9: a deck from the secure generator (or the test's)."""
        if self.dealing.deck is not None:
            return self.dealing.deck()
        return rules.shuffle(self.rng)

    def deal(self) -> Event:
        """The next hand's deal."""
        return deck_event(self.shuffled())

    def start(self, players: int) -> list[Event]:
        """R5: the server draws the first dealer, and the first hand is dealt at once."""
        started: dict[str, Any] = {"first_dealer": self.rng.randrange(players)}
        if self.dealing.start_scores is not None:
            started["scores"] = list(self.dealing.start_scores[:players])
        return [(EventKind.STARTED, started), self.deal()]
