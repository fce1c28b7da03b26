import random
from dataclasses import replace

import pytest

from tysiac.rules import apply, auto_action, deal, new_game, shuffle
from tysiac.rules.cards import points_of
from tysiac.rules.game import round_to_ten, score_hand
from tysiac.rules.hand import Hand, Phase, deal_hand

S, C, D, H = range(4)


def finished(
    declarer: int,
    contract: int,
    won: tuple[int, ...],
    melds: tuple[tuple[int, int], ...] = (),
    players: int = 3,
    dealer: int = 2,
) -> Hand:
    """A hand as it stands after the last trick (only what scoring reads is set)."""
    hand = deal_hand(players, dealer, list(range(24)))
    return replace(
        hand,
        phase=Phase.OVER,
        to_move=None,
        declarer=declarer,
        contract=contract,
        won=won,
        melds=melds,
    )


def test_r22_totals_are_card_points_plus_marriages() -> None:
    result = score_hand(finished(0, 100, (60, 40, 20), ((0, S), (1, H))), (0, 0, 0), 1000)
    assert result.points == (60, 40, 20)
    assert result.melds == (40, 100, 0)
    assert result.delta == (100, 140, 20)


def test_r22_two_player_discards_and_unused_musik_count_for_nobody() -> None:
    rng = random.Random(22)
    for _ in range(20):
        game = deal(new_game(2, rng.randrange(2)), shuffle(rng))
        while not game.awaiting_deal:
            action = auto_action(game)
            assert action is not None
            game = apply(game, action)
        hand = game.hand
        assert hand is not None and hand.musik_taken is not None
        unused = hand.musiks[1 - hand.musik_taken]
        assert sum(hand.won) == 120 - points_of(hand.discarded) - points_of(unused)


def test_r23_declarer_scores_the_contract_compared_unrounded() -> None:
    made = score_hand(finished(1, 120, (0, 120, 0)), (0, 0, 0), 1000)
    assert made.made and made.delta[1] == 120
    short = score_hand(finished(1, 180, (0, 76, 44), ((1, H),)), (0, 0, 0), 1000)
    assert not short.made and short.delta[1] == -180  # 176 < 180, rounding would say 180
    assert short.delta[2] == 40
    exact = score_hand(finished(1, 180, (0, 80, 40), ((1, H),)), (0, 0, 0), 1000)
    assert exact.made and exact.delta[1] == 180


@pytest.mark.parametrize(
    ("total", "rounded"), [(44, 40), (45, 50), (0, 0), (5, 10), (4, 0), (115, 120)]
)
def test_r24_opponents_round_to_the_nearest_ten_fives_up(total: int, rounded: int) -> None:
    assert round_to_ten(total) == rounded
    result = score_hand(finished(0, 100, (120 - total, total, 0)), (0, 0, 0), 1000)
    assert result.delta[1] == rounded


def test_r25_barrel_opponent_scores_nothing_and_cannot_pass_it() -> None:
    result = score_hand(finished(0, 100, (60, 30, 30)), (0, 800, 790), 1000)
    assert result.delta == (-100, 0, 10)  # seat 0 made 60 < 100
    assert result.scores == (-100, 800, 800)
    result = score_hand(finished(0, 100, (60, 30, 30)), (0, 950, 500), 1000)
    assert result.delta[1] == 0 and result.delta[2] == 30


def test_r25_declarer_on_the_barrel_scores_in_full() -> None:
    won = score_hand(finished(1, 150, (10, 110, 0), ((1, H),)), (0, 850, 0), 1000)
    assert won.delta[1] == 150 and won.scores[1] == 1000
    lost = score_hand(finished(1, 150, (60, 60, 0)), (0, 850, 0), 1000)
    assert lost.delta[1] == -150 and lost.scores[1] == 700


def test_r25_sitting_out_dealer_scores_zero() -> None:
    hand = finished(3, 100, (40, 0, 0, 80), players=4, dealer=1)
    assert hand.active == (2, 3, 0)
    result = score_hand(hand, (0, 0, 0, 0), 1000)
    assert result.delta == (40, 0, 0, -100)


def test_r26_only_the_declarer_wins_by_reaching_1000() -> None:
    result = score_hand(finished(0, 120, (120, 0, 0)), (880, 0, 0), 1000)
    assert result.winner == 0 and result.scores[0] == 1000
    result = score_hand(finished(0, 100, (40, 80, 0)), (880, 990, 0), 1000)
    assert result.winner is None and result.scores[1] == 990  # on the barrel: nothing
    result = score_hand(finished(0, 100, (60, 60, 0)), (950, 0, 0), 1000)
    assert result.winner is None and result.scores[0] == 850


def test_r26_scores_can_go_negative() -> None:
    result = score_hand(finished(2, 300, (50, 40, 30)), (0, 0, -50), 1000)
    assert result.scores == (50, 40, -350)


def test_r32_short_game_to_500_with_barrel_300() -> None:
    game = new_game(3, 0, target=500)
    assert game.barrel == 300
    result = score_hand(finished(0, 100, (60, 60, 0)), (0, 290, 310), 500)
    assert result.scores[1:] == (300, 310)
    result = score_hand(finished(0, 120, (120, 0, 0)), (380, 0, 0), 500)
    assert result.winner == 0 and result.scores[0] == 500
    with pytest.raises(ValueError):
        new_game(3, 0, target=700)
