"""Whole games recorded as the server records them, for the record and review tests: random
table options (V1-V16), easy and medium computer players, now and then a random legal
move, a timeout (R28, a third in a row a walkover, R29) or a surrender (R30)."""

from __future__ import annotations

import random
from typing import Any

from tysiac import bots, rules
from tysiac.rules.options import CHOICES
from tysiac.rules.record import Recorder

NICKS = ("Ala", "Bartek", "Celina", "Darek")


def random_options(rng: random.Random) -> rules.Options:
    """Every table option (V1-V16) with any of its values."""
    return rules.Options(**{key: rng.choice(values) for key, values in CHOICES.items()})


def next_move(game: rules.Game, rng: random.Random, levels: list[str]) -> dict[str, Any]:
    """The seat to move's move: mostly its bot's, sometimes a random legal one (bombs,
    redeals, high bids), sometimes a timeout."""
    seat = game.to_move
    assert seat is not None
    roll = rng.random()
    if roll < 0.04:
        return {"seat": seat, "type": "timeout"}
    if roll < 0.15:
        return rules.action_to_json(rng.choice(rules.legal_actions(game)))
    return bots.choose(levels[seat], rules.view(game, seat, history=True), rng)


def recorded_game(
    seed: int,
    players: int | None = None,
    target: int | None = None,
    max_hands: int = 40,
) -> Recorder:
    """A game from ``seed``, played to its end (or stopped after ``max_hands`` hands, its
    record then unfinished), fed to a ``Recorder`` as the server's log would be."""
    rng = random.Random(seed)
    players = players or rng.choice((2, 3, 4))
    target = target or rng.choice((500, 1000))
    options = random_options(rng)
    scores = [rng.randrange(-100, target - 50, 10) for _ in range(players)]
    if rng.random() < 0.3:
        scores = [0] * players
    recorder = Recorder(
        players,
        target,
        options,
        NICKS[:players],
        rng.randrange(players),
        scores,
        code=f"G{seed:05d}"[-6:],
        date="2026-12-03",
    )
    levels = [rng.choice(("easy", "medium")) for _ in range(players)]
    surrender_at = rng.randrange(400) if rng.random() < 0.1 else None
    moves = 0
    while not recorder.game.is_over:
        game = recorder.game
        if game.awaiting_deal:
            if len(game.results) >= max_hands:
                break
            recorder.deal(rules.shuffle(rng))
            continue
        if moves == surrender_at:
            recorder.move({"seat": rng.randrange(players), "type": "surrender"})
            continue
        recorder.move(next_move(game, rng, levels))
        moves += 1
    return recorder
