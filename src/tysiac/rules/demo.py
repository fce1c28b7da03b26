"""A terminal demo: simple computer players play one whole game."""

from __future__ import annotations

import random
from typing import TextIO

from .actions import Action, Bid, Pass, Play
from .cards import card_label
from .game import Game, apply, auto_action, deal, legal_actions, new_game, shuffle
from .hand import Phase


def _choose(game: Game, rng: random.Random) -> Action:
    """Bid now and then, play a random legal card, let R28 decide the rest."""
    actions = legal_actions(game)
    assert game.hand is not None
    if game.hand.phase is Phase.BIDDING:
        bids = [a for a in actions if isinstance(a, Bid)]
        return (
            bids[0]
            if bids and rng.random() < 0.3
            else next(a for a in actions if isinstance(a, Pass))
        )
    if game.hand.phase is Phase.PLAY:
        return rng.choice(actions)
    action = auto_action(game)
    assert action is not None
    return action


def play_demo(players: int, rng: random.Random, out: TextIO) -> Game:
    names = [f"Gracz {seat + 1}" for seat in range(players)]
    game = new_game(players, rng.randrange(players))
    while not game.is_over:
        if game.awaiting_deal:
            game = deal(game, shuffle(rng))
            continue
        action = _choose(game, rng)
        melds_before = len(game.hand.melds) if game.hand else 0
        game = apply(game, action)
        hand = game.hand
        assert hand is not None
        if isinstance(action, Play) and len(hand.melds) > melds_before:
            out.write(f"  {names[action.seat]} melduje: {card_label(action.card)}\n")
        if hand.phase is Phase.OVER:
            result = game.results[-1]
            scores = ", ".join(f"{names[s]} {score}" for s, score in enumerate(result.scores))
            if result.declarer is None or result.made is None:
                out.write(f"Rozdanie {len(game.results)}: bez gry. Wynik: {scores}\n")
                continue
            made = "ugrał" if result.made else "nie ugrał"
            out.write(
                f"Rozdanie {len(game.results)}: {names[result.declarer]} gra za "
                f"{result.contract} i {made}. Wynik: {scores}\n"
            )
    assert game.outcome is not None
    winner = game.outcome.winner
    out.write(f"Koniec gry. Wygrywa {names[winner] if winner is not None else 'nikt'}.\n")
    return game
