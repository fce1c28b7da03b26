"""``evolve``, the rules' copy of a frozen state with fields changed: the same copy as
``dataclasses.replace``."""

from __future__ import annotations

import dataclasses
import random

import pytest

from tysiac import rules
from tysiac.rules.frozen import evolve
from tysiac.rules.hand import Phase


def test_evolve_copies_as_replace_does_and_leaves_the_state_alone() -> None:
    game = rules.deal(rules.new_game(3, 0), rules.shuffle(random.Random(7)))
    hand = game.hand
    assert hand is not None
    before = dataclasses.astuple(hand)
    changed = evolve(hand, phase=Phase.PLAY, to_move=2, trick=())
    assert changed == dataclasses.replace(hand, phase=Phase.PLAY, to_move=2, trick=())
    assert type(changed) is type(hand) and changed is not hand
    assert dataclasses.astuple(hand) == before and hand.phase is Phase.BIDDING
    assert evolve(game, hand=changed) == dataclasses.replace(game, hand=changed)
    assert evolve(game) == game and evolve(game) is not game
    with pytest.raises(dataclasses.FrozenInstanceError):
        changed.phase = Phase.OVER  # type: ignore[misc]


def test_evolve_refuses_a_field_the_state_does_not_have() -> None:
    game = rules.new_game(2, 0)
    with pytest.raises(TypeError, match="no field"):
        evolve(game, score=5)
