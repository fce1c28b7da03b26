"""Computer players: a seat's view in, a legal action out.

A bot is a pure function of what its seat may see (``rules.view(game, seat,
history=True)``: the dict a player's browser gets, plus the cards played this hand,
which that player saw fall) and an injected ``random.Random``: it never sees the game
itself, so it cannot know another seat's cards or a face-down musik. What it
returns is an action in the JSON of the protocol (``{"type": "play", "card": "AH",
"seat": 1}``) and always one the view lists in ``legal``.

Levels (``LEVELS``, stored in a seat's ``joined`` event, never renamed; their names are
the catalogue's, ``level.easy``…):

- ``easy`` (łatwy): passes in the bidding, otherwise mostly random legal moves; plays
  a sensible card about 60% of the time.
- ``medium`` (średni): rules (``medium.py``): bids what its cards and marriages are
  worth, gives and discards its weakest cards, counts the cards played, leads
  marriages, trumps as declarer and sure winners, wins cheaply, throws low.
- ``strong`` (mocny): search (``strong.py``): the hidden cards dealt many ways that
  agree with all it has seen (``sampling.py``), each solved face up by a compiled
  double-dummy solver (``solver.py``, ``_dd.c``); bids and contracts by what they are
  worth against defending, its bids by a model learned from its own play
  (``bidding.py``).

This package imports nothing of the project but ``tysiac.rules`` and its own C
extension (a test checks it).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from tysiac.rules.view import GameView

from . import easy, medium, strong
from .common import is_legal

Action = dict[str, Any]
Bot = Callable[[GameView, random.Random], Action]

BOTS: Mapping[str, Bot] = {"easy": easy.choose, "medium": medium.choose, "strong": strong.choose}
LEVELS: tuple[str, ...] = tuple(BOTS)


def choose(level: str, view: GameView, rng: random.Random) -> Action:
    """The move of a bot of ``level`` whose seat sees ``view``; always in ``view["legal"]``."""
    if view["seat"] is None or not view["legal"]:
        raise ValueError("The bot's seat has no move to make.")
    action = BOTS[level](view, rng)
    action["seat"] = view["seat"]
    assert is_legal(view, action), action
    return action


__all__ = ["BOTS", "LEVELS", "Action", "Bot", "choose", "is_legal"]
