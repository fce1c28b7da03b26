"""The strong bot's bidding model: what winning the auction at a bid is worth to a seat,
and what defending is, learned from the bot's own play (docs/bots.md).

A hand is described by a few numbers (``features``): its card points, aces, tens, the
marriages it holds and the halves of marriages the musik may complete, its longest
suit, and the Monte-Carlo forecast the bot's search makes at the bid (the share of
dealt-out layouts in which it would make the bid and bids 20 either side, the mean and
the quartiles of their points). For each bid, a linear model (``Model.declaring``) turns
them into the seat's expected score change as declarer with that bid (±contract as the
bot then declares and plays it after seeing the musik, so a raise is counted) and a
logistic one (``Model.chance``) into the chance that its cards and marriages reach the
bid; ``Model.defending`` is the expected score change of a defender with the hand.

The weights are fitted by ``tools/bid_train.py`` on hands played by ``tools/bid_data.py``
and kept in ``bidding.json`` beside this module, read once, when first used. Evaluating
the model is a few dot products of under twenty numbers.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from tysiac.rules.cards import MARRIAGE_VALUES, SUITS
from tysiac.rules.options import DEFAULT, Options

from .common import ACE, TEN, marriages, points, rank, strength

# The names of ``features``' numbers, in order; the weights file is checked against them.
NAMES = (
    "one",
    "points",
    "aces",
    "tens",
    "ace_tens",
    "bare_tens",
    "marriages",
    "marriage_value",
    "halves",
    "longest",
    "strength",
    "forecast_mean",
    "forecast_chance",
    "chance_below",
    "chance_above",
    "low_quarter",
    "median",
    "high_quarter",
)
HAND_NAMES = NAMES[: NAMES.index("forecast_mean")]  # a defender's features: no forecast


def hand_features(cards: Sequence[str]) -> list[float]:
    """The numbers that describe ``cards`` (codes such as "AH") before the musik."""
    held = set(cards)
    by_suit = [[c for c in cards if c[1] == letter] for letter in SUITS]
    married = marriages(cards)
    halves = sum(
        1
        for s, letter in enumerate(SUITS)
        if s not in married and ("K" + letter in held or "Q" + letter in held)
    )
    return [
        1.0,
        float(sum(points(c) for c in cards)),
        float(sum(rank(c) == ACE for c in cards)),
        float(sum(rank(c) == TEN for c in cards)),
        float(sum({"A" + letter, "T" + letter} <= held for letter in SUITS)),
        float(sum(rank(c) == TEN and "A" + c[1] not in held for c in cards)),
        float(len(married)),
        float(sum(MARRIAGE_VALUES[s] for s in married)),
        float(halves),
        float(max(len(suit) for suit in by_suit)),
        float(strength(cards)),
    ]


def features(cards: Sequence[str], forecast: Sequence[int], bid: int) -> list[float]:
    """``hand_features`` and the search's forecast at ``bid`` (``forecast``: the points
    the seat makes as declarer in each of its layouts): their mean, the share of them that
    make the bid, 20 less and 20 more, and their quartiles."""
    ordered = sorted(forecast) or [0]

    def share(at_least: int) -> float:
        return sum(o >= at_least for o in ordered) / len(ordered)

    def quantile(q: float) -> float:
        return float(ordered[round(q * (len(ordered) - 1))])

    mean = sum(ordered) / len(ordered)
    spread = [quantile(0.25), quantile(0.5), quantile(0.75)]
    return [*hand_features(cards), mean, share(bid), share(bid - 20), share(bid + 20), *spread]


# The options the model was fitted with (the standard rules): where a table plays
# others that change what a hand is worth in play, the search's own forecast decides.
FITTED_WITH = (
    "meld_first_trick",
    "meld_needs_trick",
    "bomb",
    "bolts",
    "open_musik",
    "ace_marriage",
)


def applies(options: Options) -> bool:
    """Whether the model was fitted for a table with ``options``: the standard play and
    scoring, and a barrel (without one, V16, a bid is judged with the game it may end)."""
    return options.barrel != "off" and all(
        getattr(options, name) == getattr(DEFAULT, name) for name in FITTED_WITH
    )


def _dot(weights: Sequence[float], values: Sequence[float]) -> float:
    return sum(w * v for w, v in zip(weights, values, strict=True))


@dataclass(frozen=True)
class Model:
    """The fitted weights for one number of players."""

    step: int  # the bids the weights are kept for: lowest, lowest + step, ...
    lowest: int
    declare: tuple[tuple[float, ...], ...]  # by bid, over ``NAMES``
    made: tuple[tuple[float, ...], ...]  # by bid, over ``NAMES``, a logistic model
    defend: tuple[float, ...]  # over ``HAND_NAMES``

    def _at(self, bid: int) -> int:
        """The weights' index for ``bid``: the highest bid fitted stands for those above."""
        return min(max(0, (bid - self.lowest) // self.step), len(self.declare) - 1)

    def declaring(self, cards: Sequence[str], forecast: Sequence[int], bid: int) -> float:
        """The expected score change of declaring after winning the auction at ``bid``."""
        return _dot(self.declare[self._at(bid)], features(cards, forecast, bid))

    def chance(self, cards: Sequence[str], forecast: Sequence[int], bid: int) -> float:
        """The chance that the declarer takes ``bid`` or more, cards and marriages."""
        z = _dot(self.made[self._at(bid)], features(cards, forecast, bid))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def defending(self, cards: Sequence[str]) -> float:
        """The expected score change of defending with ``cards``."""
        return _dot(self.defend, hand_features(cards))


@cache
def model(players: int) -> Model | None:
    """The fitted model for ``players``, or None where none was fitted."""
    data = json.loads(resources.files(__package__).joinpath("bidding.json").read_text("utf-8"))
    if data["names"] != list(NAMES):
        raise ValueError("bidding.json was fitted for other features: run tools/bid_train.py")
    fitted = data["players"].get(str(players))
    if fitted is None:
        return None
    return Model(
        step=data["step"],
        lowest=data["lowest"],
        declare=tuple(tuple(w) for w in fitted["declare"]),
        made=tuple(tuple(w) for w in fitted["made"]),
        defend=tuple(fitted["defend"]),
    )


__all__ = ["HAND_NAMES", "NAMES", "Model", "applies", "features", "hand_features", "model"]
