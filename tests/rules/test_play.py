import pytest

from tysiac.rules import view
from tysiac.rules.cards import codes, parse_card, parse_cards
from tysiac.rules.hand import winning_play
from tysiac.rules.tricks import NO_SUIT, legal_cards, meld_cards

from .helpers import act, play, playing, refused

S, C, D, H = range(4)


def legal(hand: str, led: int, winning: str, trump: int = NO_SUIT) -> list[str]:
    return codes(legal_cards(parse_cards(hand), led, parse_card(winning), trump))


def test_r18_declarer_leads_first_and_the_trick_winner_leads_next() -> None:
    game = playing()
    assert game.to_move == 1
    refused(game, play(2, "9D"), "not_your_turn")
    game = act(game, play(1, "AD"), play(2, "9D"), play(0, "AS"))
    assert game.hand is not None and game.hand.last_winner == 1 and game.to_move == 1
    game = act(game, play(1, "TD"), play(2, "AC"))  # seat 2 is void in diamonds now
    game = act(game, play(0, "9S"))
    assert game.to_move == 1


def test_r19_leading_any_card() -> None:
    assert codes(legal_cards(parse_cards("9S AH KC"), NO_SUIT, -1, H)) == ["9S", "KC", "AH"]


def test_r19_must_follow_and_beat_when_able() -> None:
    assert legal("9H KH AH 9S", H, "QH") == ["KH", "AH"]


def test_r19_must_follow_with_any_card_when_unable_to_beat() -> None:
    assert legal("9H JH 9S AS", H, "QH") == ["9H", "JH"]


def test_r19_any_card_of_the_suit_when_trick_is_trumped() -> None:
    assert legal("9H AH KS", H, "9S", S) == ["9H", "AH"]


def test_r19_void_must_trump() -> None:
    assert legal("9S AS 9C", H, "QH", S) == ["9S", "AS"]


def test_r19_void_must_overtrump_when_able() -> None:
    assert legal("9S AS 9C", H, "KS", S) == ["AS"]


def test_r19_void_any_trump_when_unable_to_overtrump() -> None:
    assert legal("9S JS 9C", H, "KS", S) == ["9S", "JS"]


def test_r19_void_of_suit_and_trump_any_card() -> None:
    assert legal("9C AD", H, "QH", S) == ["9C", "AD"]
    assert legal("9S AD", H, "QH") == ["9S", "AD"]  # no trump yet: no duty to ruff


def test_r19_trump_led_must_beat() -> None:
    assert legal("9S AS 9H", S, "KS", S) == ["AS"]


def test_r19_refusals_name_the_broken_duty() -> None:
    game = act(playing(), play(1, "AD"))  # seat 2 holds 9D
    refused(game, play(2, "AC"), "must_follow")
    refused(game, play(2, "KH"), "not_in_hand")
    game = act(game, play(2, "9D"))
    # Seat 0 holds no diamond and no trump exists yet: anything goes.
    assert set(view(game, 0)["legal"]["play"]) == set(codes(game.hand.held[0]))  # type: ignore[union-attr]


def test_r19_must_beat_refusal() -> None:
    game = act(playing(), play(1, "JD"))
    refused(game, play(2, "9H"), "must_follow")
    assert view(game, 2)["legal"]["play"] == ["9D"]


def test_r20_highest_trump_wins_else_highest_of_suit_led() -> None:
    trick = ((0, parse_card("KH")), (1, parse_card("TH")), (2, parse_card("AS")))
    assert winning_play(trick, None) == (1, parse_card("TH"))  # the ten beats the king
    assert winning_play(trick, S) == (2, parse_card("AS"))
    assert winning_play(((0, parse_card("9C")), (1, parse_card("AD"))), H)[0] == 0


def test_r21_marriage_led_in_the_first_trick_makes_trump_at_once() -> None:
    game = act(playing(), play(1, "KH"))
    hand = game.hand
    assert hand is not None
    assert hand.trump == H and hand.melds == ((1, H),) and hand.meld_points(1) == 100
    assert view(game, 2)["legal"]["play"] == ["9H"]
    game = act(game, play(2, "9H"))
    # Seat 0 holds AH and JH: must beat the king with the ace.
    assert view(game, 0)["legal"]["play"] == ["AH"]


def test_r21_trump_changes_with_the_next_marriage_and_non_leaders_never_meld() -> None:
    game = act(playing(), play(1, "KH"), play(2, "9H"), play(0, "AH"))
    assert game.to_move == 0
    game = act(game, play(0, "QS"))  # seat 0 leads the queen of spades holding the king
    hand = game.hand
    assert hand is not None and hand.trump == S and hand.meld_points(0) == 40
    # Seat 1 is void in spades and (spades being trump now) cannot be made to follow
    # with hearts: anything goes, and its KD played now does not meld.
    game = act(game, play(1, "KD"))
    hand = game.hand
    assert hand is not None and hand.melds == ((1, H), (0, S))
    game = act(game, play(2, "9C"))
    assert game.hand is not None and game.hand.last_winner == 0
    # Seat 1 later leads QD: its king is gone, so no marriage.
    game = act(game, play(0, "JH"), play(1, "TH"), play(2, "AC"))
    assert game.to_move == 1
    game = act(game, play(1, "QD"))
    assert game.hand is not None and game.hand.trump == S and len(game.hand.melds) == 2


def test_r21_a_lone_king_does_not_meld_and_meld_cards_are_marked() -> None:
    assert codes(meld_cards(parse_cards("KH QH KS 9C"))) == ["QH", "KH"]
    game = playing()
    assert view(game, 1)["hand"]["meld_cards"] == ["QD", "KD", "QH", "KH"]
    assert view(game, 2)["hand"]["meld_cards"] == ["QC", "KC"]
    game = act(game, play(1, "AD"), play(2, "9D"), play(0, "KS"))
    assert game.hand is not None and game.hand.melds == ()  # not leading: no meld


@pytest.mark.parametrize("card", ["KS", "QS"])
def test_r21_either_half_of_the_marriage_melds(card: str) -> None:
    game = act(playing(), play(1, "AD"), play(2, "9D"), play(0, "9S"))  # seat 1 wins
    game = act(game, play(1, "JD"), play(2, "9H"), play(0, "JS"))
    assert game.hand is not None and game.hand.last_winner == 1
    game = act(game, play(1, "TD"), play(2, "AC"), play(0, "TS"))
    assert game.hand is not None and game.hand.last_winner == 1
    game = act(game, play(1, "TH"), play(2, "TC"), play(0, "AH"))
    assert game.hand is not None and game.hand.last_winner == 0
    game = act(game, play(0, card))
    assert game.hand is not None and game.hand.trump == S and game.hand.melds == ((0, S),)
