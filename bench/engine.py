"""Engine speed, one core: random complete hands and random play-phase playouts per second.

    python bench/engine.py [--seconds 2]

Complete hands go through the public API (legal_actions + apply, immutable states):
what the server does per move. Playouts use ``random_playout`` from a position
just after the contract: what the bots do thousands of times per decision.

Each figure is measured twice: with the default options (RULES.md) and with a heavy
combination of table options (HEAVY below: V1, V2, V4, V5, V7, V8, V9, V10, V12, V13,
V14), whose hands start from scores of 100 so that the blind game (V14) is offered.
"""

from __future__ import annotations

import argparse
import random
import time

from tysiac.rules import Game, Options, apply, deal, legal_actions, new_game, shuffle
from tysiac.rules.hand import Hand, Phase
from tysiac.rules.playout import random_playout

DEFAULTS = Options()
HEAVY = Options(
    bid_step=5,
    bid_limit="melds",
    meld_needs_trick=True,
    rounding="5",
    bomb="penalty",
    bolts=True,
    dump_555=True,
    barrel="880",
    ace_marriage=True,
    redeal=True,
    blind=True,
)


def start(players: int, rng: random.Random, options: Options) -> Game:
    scores = None if options == DEFAULTS else [100] * players
    return new_game(players, rng.randrange(players), scores=scores, options=options)


def random_hand(players: int, rng: random.Random, options: Options = DEFAULTS) -> Game:
    game = deal(start(players, rng, options), shuffle(rng))
    assert game.hand is not None
    while game.hand.phase is not Phase.OVER:
        game = apply(game, rng.choice(legal_actions(game)))
        assert game.hand is not None
    return game


def play_positions(
    players: int, rng: random.Random, count: int, options: Options = DEFAULTS
) -> list[Hand]:
    """Positions right after the contract, reached by random legal moves."""
    positions = []
    while len(positions) < count:
        game = deal(start(players, rng, options), shuffle(rng))
        assert game.hand is not None
        while game.hand.phase not in (Phase.PLAY, Phase.OVER):
            game = apply(game, rng.choice(legal_actions(game)))
            assert game.hand is not None
        if game.hand.phase is Phase.PLAY:  # not bombed, redealt or void
            positions.append(game.hand)
    return positions


def rate(work: int, seconds: float) -> str:
    return f"{work / seconds:>10,.0f}/s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per figure")
    args = parser.parse_args()
    rng = random.Random(1000)
    print(f"{'options':>8}  {'players':>7}  {'complete hands':>14}  {'playouts':>12}")
    for name, options in (("defaults", DEFAULTS), ("heavy", HEAVY)):
        for players in (2, 3, 4):
            hands, began = 0, time.perf_counter()
            while time.perf_counter() - began < args.seconds:
                random_hand(players, rng, options)
                hands += 1
            hand_rate = rate(hands, time.perf_counter() - began)

            positions = play_positions(players, rng, 200, options)
            playouts, began = 0, time.perf_counter()
            while time.perf_counter() - began < args.seconds:
                for position in positions:
                    random_playout(position, rng)
                playouts += len(positions)
            playout_rate = rate(playouts, time.perf_counter() - began)
            print(f"{name:>8}  {players:>7}  {hand_rate:>14}  {playout_rate:>12}")


if __name__ == "__main__":
    main()
