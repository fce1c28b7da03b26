"""The cost of a hand's double-dummy verdicts (review/verdicts.py), one core.

    python bench/review.py [--hands 30] [--bot medium] [--seed 1] [--options '{"bid_step": 5}']

For 2, 3 and 4 players, ``--hands`` seeded hands are dealt and played to their end by
``--bot`` in every seat (the first hand of a new game, the dealer rotating); each is
then analysed from its first card to its last as a worker would, in this one process,
so the solver's table carries over from hand to hand as it does in a worker. Printed
per table size: CPU seconds per analysed hand (mean, median, maximum) and the
positions the solver searched per hand (mean, maximum). Hands that never reach the
play (bombed, redealt, void) are dealt again.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Sequence
from typing import Any

from tysiac import bots, rules
from tysiac.bots import solver
from tysiac.review.verdicts import analyse_hand
from tysiac.rules.cards import codes
from tysiac.rules.hand import Phase


def bot_hand(
    players: int, index: int, seed: int, bot: str, options: dict[str, Any]
) -> dict[str, Any]:
    """Hand ``index`` played by ``bot`` in every seat, in the replay format."""
    rng = random.Random(f"{seed}:{players}:{index}")
    while True:
        game = rules.new_game(players, index % players, options=rules.options_from_json(options))
        game = rules.deal(game, rules.shuffle(rng))
        hand = game.hand
        assert hand is not None
        data: dict[str, Any] = {
            "players": players,
            "dealer": hand.dealer,
            "options": options,
            "hands": [codes(m) for m in hand.dealt],
            "musik": [codes(m) for m in hand.musiks],
            "actions": [],
        }
        played = False
        while game.hand is not None and game.hand.phase is not Phase.OVER:
            played |= game.hand.phase is Phase.PLAY
            seat = game.to_move
            assert seat is not None
            action = bots.choose(bot, rules.view(game, seat, history=True), rng)
            data["actions"].append(action)
            game = rules.apply(game, rules.action_from_json(action))
        if played:
            return data


def measure(hands: Sequence[dict[str, Any]]) -> dict[str, float]:
    seconds, nodes = [], []
    for data in hands:
        searched, began = solver.nodes(), time.process_time()
        sheet = analyse_hand(data)
        seconds.append(time.process_time() - began)
        nodes.append(solver.nodes() - searched)
        assert sheet is not None
    return {
        "mean": statistics.fmean(seconds),
        "median": statistics.median(seconds),
        "max": max(seconds),
        "nodes": statistics.fmean(nodes),
        "nodes_max": max(nodes),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=30, help="hands per table size")
    parser.add_argument("--bot", default="medium", choices=bots.LEVELS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--options", default="{}", help='table options, JSON: {"bid_step": 5}')
    args = parser.parse_args(argv)
    options = json.loads(args.options)
    rules.options_from_json(options)  # OptionsError for an unknown option
    print(
        f"{'players':>7}  {'hands':>5}  {'CPU s/hand: mean':>16}  {'median':>8}  {'max':>8}"
        f"  {'nodes/hand: mean':>16}  {'max':>10}"
    )
    for players in (2, 3, 4):
        hands = [bot_hand(players, i, args.seed, args.bot, options) for i in range(args.hands)]
        f = measure(hands)
        print(
            f"{players:>7}  {len(hands):>5}  {f['mean']:>16.4f}  {f['median']:>8.4f}"
            f"  {f['max']:>8.4f}  {f['nodes']:>16,.0f}  {f['nodes_max']:>10,}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
