import random

import pytest

from tysiac.rules import apply, auto_action, deal, new_game, shuffle, view
from tysiac.rules.cards import DECK
from tysiac.rules.hand import active_seats, deal_hand, deck_of


def test_r5_seats_and_next_seat() -> None:
    assert active_seats(3, 0) == (1, 2, 0)
    assert active_seats(3, 2) == (0, 1, 2)
    assert active_seats(2, 1) == (0, 1)


def test_r5_dealer_moves_to_the_next_seat_after_every_hand() -> None:
    rng = random.Random(5)
    game = deal(new_game(3, 1), shuffle(rng))
    assert game.hand is not None and game.hand.dealer == 1
    dealers = []
    while len(dealers) < 4:
        action = auto_action(game)
        assert action is not None
        game = apply(game, action)
        if game.awaiting_deal:
            game = deal(game, shuffle(rng))
            assert game.hand is not None
            dealers.append(game.hand.dealer)
    assert dealers == [2, 0, 1, 2]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r6_r7_r8_deal_sizes(players: int) -> None:
    deck = shuffle(random.Random(players))
    hand = deal_hand(players, 0, deck)
    sizes = [h.bit_count() for h in hand.held]
    musiks = [m.bit_count() for m in hand.musiks]
    if players == 3:
        assert sizes == [7, 7, 7] and musiks == [3]  # R6
    elif players == 4:
        assert sizes == [0, 7, 7, 7] and musiks == [3]  # R7: the dealer sits out
        assert hand.active == (1, 2, 3)
    else:
        assert sizes == [10, 10] and musiks == [2, 2]  # R8
    union = 0
    for part in (*hand.held, *hand.musiks):
        assert not union & part
        union |= part
    assert union == DECK
    assert deal_hand(players, 0, deck_of(players, 0, hand.held, hand.musiks)) == hand


def test_r7_four_players_dealer_sits_out_and_rotates() -> None:
    hand = deal_hand(4, 2, shuffle(random.Random(1)))
    assert hand.active == (3, 0, 1)
    assert hand.held[2] == 0
    assert hand.mus == 3 and hand.to_move == 0


def test_r9_shuffle_uses_only_the_injected_generator() -> None:
    first = shuffle(random.Random(42))
    assert first == shuffle(random.Random(42))
    assert first != shuffle(random.Random(43))
    assert sorted(first) == list(range(24))
    secure = shuffle(random.SystemRandom())
    assert sorted(secure) == list(range(24))


def test_r9_no_card_is_known_before_the_deal_and_a_bad_deck_is_refused() -> None:
    game = new_game(3, 0)
    for seat in (None, 0, 1, 2):
        assert view(game, seat)["hand"] is None
    with pytest.raises(ValueError):
        deal_hand(3, 0, [*list(range(23)), 0])
