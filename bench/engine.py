"""Engine speed, one core: random complete hands and random play-phase playouts per second.

    python bench/engine.py [--seconds 2]

Complete hands go through the public API (legal_actions + apply, immutable states):
what the server does per move. Playouts use ``random_playout`` from a position
just after the contract: what the bots do thousands of times per decision.
"""

from __future__ import annotations

import argparse
import random
import time

from tysiac.rules import Game, apply, deal, legal_actions, new_game, shuffle
from tysiac.rules.hand import Hand, Phase
from tysiac.rules.playout import random_playout


def random_hand(players: int, rng: random.Random) -> Game:
    game = deal(new_game(players, rng.randrange(players)), shuffle(rng))
    assert game.hand is not None
    while game.hand.phase is not Phase.OVER:
        game = apply(game, rng.choice(legal_actions(game)))
        assert game.hand is not None
    return game


def play_positions(players: int, rng: random.Random, count: int) -> list[Hand]:
    """Positions right after the contract, reached by random legal moves."""
    positions = []
    while len(positions) < count:
        game = deal(new_game(players, rng.randrange(players)), shuffle(rng))
        assert game.hand is not None
        while game.hand.phase is not Phase.PLAY:
            game = apply(game, rng.choice(legal_actions(game)))
            assert game.hand is not None
        positions.append(game.hand)
    return positions


def rate(work: int, seconds: float) -> str:
    return f"{work / seconds:>10,.0f}/s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per figure")
    args = parser.parse_args()
    rng = random.Random(1000)
    print(f"{'players':>7}  {'complete hands':>14}  {'playouts':>12}")
    for players in (2, 3, 4):
        hands, start = 0, time.perf_counter()
        while time.perf_counter() - start < args.seconds:
            random_hand(players, rng)
            hands += 1
        hand_rate = rate(hands, time.perf_counter() - start)

        positions = play_positions(players, rng, 200)
        playouts, start = 0, time.perf_counter()
        while time.perf_counter() - start < args.seconds:
            for position in positions:
                random_playout(position, rng)
            playouts += len(positions)
        playout_rate = rate(playouts, time.perf_counter() - start)
        print(f"{players:>7}  {hand_rate:>14}  {playout_rate:>12}")


if __name__ == "__main__":
    main()
