"""Card play by information-set MCTS (``bots/ismcts.py``, a bench-only contender): a legal
card in every position of the play, and the same card for the same generator."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from tysiac import rules
from tysiac.bots import ismcts
from tysiac.rules.view import GameView

from .test_bots import moves_of_the_play


def play_views(seed: int, games: int) -> Iterator[GameView]:
    """The view of the seat to move at every card of the play, in hands of medium bots."""
    for game in moves_of_the_play(seed, games, hands=3):
        assert game.to_move is not None
        yield rules.view(game, game.to_move, history=True)


@pytest.mark.parametrize("playout", ["solve", "random"])
def test_ismcts_plays_a_legal_card_in_every_position(
    playout: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ismcts, "ITERATIONS", 40)  # the tree's shape, not its strength
    monkeypatch.setattr(ismcts, "POOL", 20)
    monkeypatch.setattr(ismcts, "PLAYOUT", playout)
    rng = random.Random(3)
    players: set[int] = set()
    checked = 0
    for view in play_views(21, 24):
        card = ismcts.play(view, rng)
        assert card in view["legal"]["play"], (card, view["legal"]["play"])
        players.add(view["players"])
        checked += 1
    assert checked > 300 and players == {2, 3, 4}, (checked, players)


def test_ismcts_answers_the_same_for_the_same_seed() -> None:
    views = [v for v in play_views(22, 3) if len(v["legal"]["play"]) > 1][:9:3]
    assert len(views) == 3
    for view in views:
        first = ismcts.play(view, random.Random(8))
        assert ismcts.play(view, random.Random(8)) == first
