"""``easy`` (łatwy): passes in the bidding and mostly plays at random.

It plays the ``medium`` card about 60% of the time (``SENSIBLE``) and any legal card
otherwise; every other choice is a random legal one, but for the bidding, where it
passes whenever it may (but for opening half the time
when nobody must, V6), and the contract, the lowest it may declare. It never bombs (V7)
and never resigns a golden hand (V15): it gives its cards at random and plays the
120 out, as a beginner would.
"""

from __future__ import annotations

import random
from typing import Any

from tysiac.rules.view import GameView

from . import medium

SENSIBLE = 0.6  # the share of cards played as medium would
OPENING = 0.5  # V6 (no mus): how often it opens the bidding, so that hands get played


def choose(view: GameView, rng: random.Random) -> dict[str, Any]:
    legal = view["legal"]
    if "blind" in legal:
        return {"type": "look"}
    if "redeal" in legal and rng.random() < 0.5:
        return {"type": "redeal"}
    if "bid" in legal:
        hand = view["hand"]
        opening = hand is not None and hand["bid"] is None  # V6: no mus, nobody bid yet
        if legal.get("pass") and not (opening and rng.random() < OPENING):
            return {"type": "pass"}
        return {"type": "bid", "value": min(legal["bid"])}
    if "musik" in legal:
        return {"type": "musik", "index": rng.choice(legal["musik"])}
    if "give" in legal:
        choice = legal["give"]
        gifts = rng.sample(choice["cards"], len(choice["to"]))
        return {
            "type": "give",
            "cards": {str(s): c for s, c in zip(choice["to"], gifts, strict=True)},
        }
    if "discard" in legal:
        choice2 = legal["discard"]
        return {"type": "discard", "cards": rng.sample(choice2["cards"], choice2["count"])}
    if "declare" in legal:
        return {"type": "declare", "value": min(legal["declare"])}
    if rng.random() < SENSIBLE:
        return {"type": "play", "card": medium.play(view)}
    return {"type": "play", "card": rng.choice(legal["play"])}
