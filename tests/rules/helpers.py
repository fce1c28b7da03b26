"""Shared helpers for the rules tests: deals in compact notation, JSON actions."""

from __future__ import annotations

from typing import Any

import pytest

from tysiac.rules import Game, IllegalAction, action_from_json, apply
from tysiac.rules.game import deal_hand_of, new_game
from tysiac.rules.notation import parse_deal

# Dealer 2: seat 0 is on mus, seat 1 bids first (R10).
# Marriages: seat 0 spades, seat 1 hearts and diamonds, seat 2 clubs.
DEAL_A = (
    "0: AS TS KS QS JS 9S AH | 1: KH QH AD TD KD QD JD | 2: 9D AC TC KC QC JC 9C | musik: 9H JH TH"
)
# Seat 0 holds no marriage (KS without QS); seat 1 hearts; seat 2 clubs.
DEAL_B = (
    "0: AS TS KS JS 9S AH TH | 1: KH QH AD TD KD JD 9D | 2: AC TC KC QC JC 9C QS | musik: 9H JH QD"
)


def game_from(
    text: str,
    players: int = 3,
    dealer: int = 2,
    target: int = 1000,
    scores: list[int] | None = None,
) -> Game:
    game = new_game(players, dealer, target, scores)
    return deal_hand_of(game, parse_deal(text, players, dealer))


def act(game: Game, *actions: dict[str, Any]) -> Game:
    for action in actions:
        game = apply(game, action_from_json(action))
    return game


def refused(game: Game, action: dict[str, Any], code: str) -> IllegalAction:
    """Assert that the rules refuse ``action`` with ``code``; apply must not change ``game``."""
    before = game
    with pytest.raises(IllegalAction) as caught:
        apply(game, action_from_json(action))
    assert caught.value.code == code, caught.value
    assert caught.value.message
    assert game == before
    return caught.value


def bid(seat: int, value: int) -> dict[str, Any]:
    return {"seat": seat, "type": "bid", "value": value}


def pass_(seat: int) -> dict[str, Any]:
    return {"seat": seat, "type": "pass"}


def give(seat: int, cards: dict[int, str]) -> dict[str, Any]:
    return {"seat": seat, "type": "give", "cards": {str(k): v for k, v in cards.items()}}


def declare(seat: int, value: int) -> dict[str, Any]:
    return {"seat": seat, "type": "declare", "value": value}


def play(seat: int, card: str) -> dict[str, Any]:
    return {"seat": seat, "type": "play", "card": card}


def playing() -> Game:
    """DEAL_A: seat 1 declares 120 after giving 9H to seat 2 and JH to seat 0.

    Hands then: 0: AS TS KS QS JS 9S AH JH | 1: KH QH TH AD TD KD QD JD
    | 2: 9D AC TC KC QC JC 9C 9H
    """
    return act(
        game_from(DEAL_A),
        bid(1, 110),
        pass_(2),
        pass_(0),
        give(1, {2: "9H", 0: "JH"}),
        declare(1, 120),
    )
