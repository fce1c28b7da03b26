from tysiac.rules import Bid, Pass, legal_actions, view
from tysiac.rules.hand import Phase

from .helpers import DEAL_A, DEAL_B, act, bid, game_from, pass_, refused

TWO_PLAYERS = (
    "0: AS TS KS QS JS 9S AH TH KH QH | 1: AD TD KD QD JD 9D AC TC KC QC | musik: JC 9C / JH 9H"
)


def test_r10_mus_player_starts_at_100_and_the_next_player_acts_first() -> None:
    game = game_from(DEAL_A)
    hand = game.hand
    assert hand is not None
    assert hand.mus == 0 and hand.bid == 100 and hand.bidder == 0
    assert hand.to_move == 1
    refused(game, bid(0, 110), "not_your_turn")


def test_r11_turns_go_round_and_a_passed_player_is_skipped() -> None:
    game = act(game_from(DEAL_A), bid(1, 110), pass_(2))
    assert game.to_move == 0  # the mus player bids again
    game = act(game, bid(0, 120))
    assert game.to_move == 1  # seat 2 passed: skipped
    refused(game, bid(2, 130), "not_your_turn")
    game = act(game, bid(1, 130))
    assert game.to_move == 0


def test_r12_bids_are_multiples_of_ten_strictly_higher_and_may_jump() -> None:
    game = game_from(DEAL_A)
    refused(game, bid(1, 105), "bid_step")
    refused(game, bid(1, 100), "bid_too_low")
    refused(game, bid(1, 90), "bid_too_low")
    game = act(game, bid(1, 150))  # a jump
    assert game.hand is not None and game.hand.bid == 150 and game.hand.bidder == 1
    refused(game, bid(2, 150), "bid_too_low")


def test_r12_two_players_the_dealer_bids_first() -> None:
    game = game_from(TWO_PLAYERS, players=2, dealer=1)
    assert game.hand is not None
    assert game.hand.mus == 0 and game.to_move == 1


def test_r13_ceiling_120_without_a_marriage_300_with_one() -> None:
    game = game_from(DEAL_B)  # seat 0 has no marriage; seat 1 has hearts
    refused(game, bid(1, 310), "bid_too_high")
    game = act(game, bid(1, 120), pass_(2))
    # Seat 0 holds no marriage: 120 is its ceiling, so it may only pass.
    assert legal_actions(game) == [Pass(0)]
    refused(game, bid(0, 130), "bid_no_marriage")
    assert view(game, 0)["legal"] == {"bid": [], "pass": True}
    game = act(game_from(DEAL_B), bid(1, 300))
    assert game.hand is not None and game.hand.bid == 300


def test_r13_ceiling_looks_at_the_hand_as_dealt_not_the_musik() -> None:
    # Seat 0 would complete the queen of diamonds' marriage? No: it holds no king of
    # diamonds; the musik (with QD) is not looked at. Its ceiling stays 120.
    game = act(game_from(DEAL_B), pass_(1), pass_(2))
    assert game.hand is not None and game.hand.declarer == 0
    legal = [a for a in legal_actions(game_from(DEAL_B)) if isinstance(a, Bid)]
    assert legal[0].value == 110 and legal[-1].value == 300  # seat 1, with hearts


def test_r14_all_pass_mus_player_plays_for_100() -> None:
    game = act(game_from(DEAL_A), pass_(1), pass_(2))
    hand = game.hand
    assert hand is not None
    assert hand.declarer == 0 and hand.bid == 100 and hand.phase is Phase.GIVE


def test_r14_last_player_not_passed_is_declarer_at_the_highest_bid() -> None:
    game = act(game_from(DEAL_A), bid(1, 110), bid(2, 120), pass_(0), pass_(1))
    hand = game.hand
    assert hand is not None
    assert hand.declarer == 2 and hand.bid == 120 and hand.to_move == 2
    assert [(s, v) for s, v in hand.auction] == [(1, 110), (2, 120), (0, None), (1, None)]


def test_r14_mus_player_can_pass_and_lose_the_hand() -> None:
    game = act(game_from(DEAL_A), bid(1, 110), pass_(2), pass_(0))
    assert game.hand is not None and game.hand.declarer == 1 and game.hand.bid == 110
