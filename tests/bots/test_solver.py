"""The compiled double-dummy solver against the pure rules engine.

The C code states the play rules a second time (for speed), so these tests walk
thousands of random positions through both and demand the same legal cards, the same
trick winners, trumps, marriages and points; then they check the search itself against
a plain minimax over ``rules.Hand`` on positions small enough to search exhaustively.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from tysiac import rules
from tysiac.bots import solver
from tysiac.rules import variants
from tysiac.rules.cards import cards_of
from tysiac.rules.hand import Hand, Phase, apply_to_hand

PLAY_OPTIONS = ("meld_first_trick", "meld_needs_trick", "ace_marriage")


def random_play_options(rng: random.Random) -> rules.Options:
    return rules.Options(**{key: rng.random() < 0.5 for key in PLAY_OPTIONS})


def hand_in_play(rng: random.Random, players: int, options: rules.Options) -> Hand:
    """A random hand dealt and bid through to its first card (random legal moves)."""
    while True:
        game = rules.new_game(players, rng.randrange(players), options=options)
        game = rules.deal(game, rules.shuffle(rng))
        while not game.awaiting_deal and not game.is_over:
            assert game.hand is not None
            if game.hand.phase is Phase.PLAY:
                return game.hand
            game = rules.apply(game, rng.choice(rules.legal_actions(game)))


def counted(hand: Hand, seat: int) -> int:
    """R22 / V4: a seat's card points and the marriage points that count for it."""
    return hand.won[seat] + variants.counted_melds(
        hand.options, hand.meld_points(seat), hand.tricks_won[seat]
    )


def solver_counted(p: solver.Position, options: rules.Options, seat: int) -> int:
    return p.won(seat) + variants.counted_melds(options, p.melds(seat), p.tricks(seat))


def play(hand: Hand, card: int) -> Hand:
    assert hand.to_move is not None
    return apply_to_hand(hand, rules.Play(hand.to_move, card))


def test_the_solver_moves_by_the_rules() -> None:
    rng = random.Random(20261201)
    positions = 0
    for number in range(600):
        players = (2, 3, 4)[number % 3]
        hand = hand_in_play(rng, players, random_play_options(rng))
        p = solver.from_hand(hand)
        declarer = hand.declarer
        assert declarer is not None
        start = counted(hand, declarer)
        gained = 0
        while hand.phase is Phase.PLAY:
            positions += 1
            assert solver.legal(p) == hand.legal_cards()
            assert p.to_move == hand.to_move
            card = rng.choice(cards_of(hand.legal_cards()))
            hand = play(hand, card)
            p, gain = solver.step(p, card)
            gained += gain
            for seat in hand.active:
                assert p.held(seat) == hand.held[seat]
                assert p.won(seat) == hand.won[seat]
                assert p.melds(seat) == hand.meld_points(seat)
                assert p.tricks(seat) == hand.tricks_won[seat]
            assert p.state[9] == (-1 if hand.trump is None else hand.trump)
            if hand.phase is Phase.PLAY and not hand.trick:
                assert p.to_move == hand.last_winner  # R20: the winner leads
        assert p.over
        for seat in hand.active:
            assert solver_counted(p, hand.options, seat) == counted(hand, seat)
        assert start + gained == counted(hand, declarer)
    assert positions > 10_000


def test_a_card_that_may_not_be_played_is_refused() -> None:
    hand = hand_in_play(random.Random(7), 3, rules.Options())
    p = solver.from_hand(hand)
    illegal = next(c for c in range(24) if not solver.legal(p) >> c & 1)
    with pytest.raises(ValueError):
        solver.step(p, illegal)
    with pytest.raises(ValueError):
        solver.solve(solver.Position(p.order, p.state[:-1]))
    with pytest.raises(ValueError):
        solver.solve(solver.Position(p.order, (4, *p.state[1:])))


def best_gain(hand: Hand) -> int:
    """Plain minimax over ``Hand``: what the declarer still gains with best play."""
    declarer = hand.declarer
    assert declarer is not None

    @cache
    def search(h: Hand) -> int:
        if h.phase is not Phase.PLAY:
            return counted(h, declarer)
        outcomes = [search(play(h, card)) for card in cards_of(h.legal_cards())]
        return max(outcomes) if h.to_move == declarer else min(outcomes)

    return search(hand) - counted(hand, declarer)


@pytest.mark.slow
def test_the_solver_finds_what_exhaustive_search_finds() -> None:
    rng = random.Random(1000)
    checked = 0
    for number in range(240):
        players = (2, 3, 4)[number % 3]
        hand = hand_in_play(rng, players, random_play_options(rng))
        left = rng.choice((2, 3, 3)) if players != 2 else rng.choice((3, 4, 4))
        while hand.held[hand.active[0]].bit_count() > left or (hand.trick and rng.random() < 0.7):
            if hand.phase is not Phase.PLAY:
                break
            hand = play(hand, rng.choice(cards_of(hand.legal_cards())))
        if hand.phase is not Phase.PLAY:
            continue
        p = solver.from_hand(hand)
        exact = best_gain(hand)
        assert solver.solve(p) == exact
        for card, value in solver.values(p).items():
            after = play(hand, card)
            declarer = hand.declarer or 0
            later = best_gain(after) if after.phase is Phase.PLAY else 0
            assert value == counted(after, declarer) - counted(hand, declarer) + later
        # Fail-soft windows: a bound on the right side, the exact value inside.
        for _ in range(3):
            alpha = rng.randrange(-1, exact + 20)
            beta = alpha + rng.randrange(1, 40)
            found = solver.solve(p, alpha, beta)
            if found <= alpha:
                assert exact <= found
            elif found >= beta:
                assert exact >= found
            else:
                assert found == exact
        checked += 1
    assert checked > 150
