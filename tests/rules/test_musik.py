from tysiac.rules import Give, legal_actions, view
from tysiac.rules.cards import parse_card, parse_cards
from tysiac.rules.hand import Phase

from .helpers import DEAL_A, act, bid, declare, game_from, give, pass_, refused
from .test_bidding import TWO_PLAYERS


def test_r15_declarer_takes_the_musik_shown_to_everyone() -> None:
    game = act(game_from(DEAL_A), bid(1, 110), pass_(2))
    for seat in (None, 0, 1, 2):
        assert view(game, seat)["hand"]["musiks"][0]["cards"] is None  # face down in bidding
    game = act(game, pass_(0))
    for seat in (None, 0, 1, 2):
        assert view(game, seat)["hand"]["musiks"][0]["cards"] == ["9H", "JH", "TH"]
    hand = game.hand
    assert hand is not None and hand.phase is Phase.GIVE
    assert hand.held[1].bit_count() == 10
    assert hand.held[1] & parse_cards("9H JH TH") == parse_cards("9H JH TH")


def test_r15_one_card_face_down_to_each_opponent() -> None:
    game = act(game_from(DEAL_A), bid(1, 110), pass_(2), pass_(0))
    refused(game, give(1, {2: "9H"}), "give_one_each")
    refused(game, give(1, {2: "9H", 1: "JH"}), "give_one_each")
    refused(game, give(1, {2: "9H", 0: "9H"}), "give_same_card")
    refused(game, give(1, {2: "9H", 0: "AS"}), "not_in_hand")
    refused(game, give(2, {1: "9C", 0: "AC"}), "not_your_turn")
    assert len([a for a in legal_actions(game) if isinstance(a, Give)]) == 10 * 9
    game = act(game, give(1, {2: "9H", 0: "JH"}))
    hand = game.hand
    assert hand is not None
    assert [h.bit_count() for h in hand.held] == [8, 8, 8]
    assert hand.held[2] >> parse_card("9H") & 1 and hand.held[0] >> parse_card("JH") & 1
    assert view(game, 2)["hand"]["received"] == "9H"
    assert view(game, 0)["hand"]["received"] == "JH"
    assert view(game, 1)["hand"]["given"] == {"0": "JH", "2": "9H"}
    for seat in (None, 0, 2):
        assert view(game, seat)["hand"]["given"] is None
    assert view(game, None)["hand"]["received"] is None
    assert hand.phase is Phase.DECLARE and hand.to_move == 1


def test_r16_two_players_musik_choice_and_discards() -> None:
    game = act(game_from(TWO_PLAYERS, players=2, dealer=1), bid(1, 110), pass_(0))
    hand = game.hand
    assert hand is not None and hand.declarer == 1 and hand.phase is Phase.MUSIK
    for seat in (None, 0, 1):
        assert [m["cards"] for m in view(game, seat)["hand"]["musiks"]] == [None, None]
    refused(game, {"seat": 1, "type": "musik", "index": 2}, "no_such_musik")
    game = act(game, {"seat": 1, "type": "musik", "index": 1})
    assert view(game, 1)["hand"]["musiks"][1]["cards"] == ["9H", "JH"]
    assert view(game, 0)["hand"]["musiks"][1]["cards"] is None
    assert view(game, 0)["hand"]["musik_taken"] == 1
    assert view(game, 0)["hand"]["musiks"][0]["cards"] is None
    assert view(game, 0)["hand"]["counts"] == [10, 12]
    refused(game, {"seat": 1, "type": "discard", "cards": ["9H"]}, "discard_two")
    refused(game, {"seat": 1, "type": "discard", "cards": ["9H", "9H"]}, "discard_two")
    refused(game, {"seat": 1, "type": "discard", "cards": ["9H", "AS"]}, "not_in_hand")
    game = act(game, {"seat": 1, "type": "discard", "cards": ["9H", "AD"]})
    assert view(game, 1)["hand"]["discarded"] == ["AD", "9H"]
    assert view(game, 0)["hand"]["discarded"] is None
    assert view(game, 0)["hand"]["counts"] == [10, 10]
    assert game.hand is not None and game.hand.phase is Phase.DECLARE


def test_r17_contract_between_the_bid_and_400_in_tens() -> None:
    game = act(game_from(DEAL_A), bid(1, 110), pass_(2), pass_(0), give(1, {2: "9H", 0: "JH"}))
    refused(game, declare(1, 100), "contract_too_low")
    refused(game, declare(1, 125), "contract_step")
    refused(game, declare(1, 410), "contract_too_high")
    assert view(game, 1)["legal"]["declare"] == list(range(110, 401, 10))
    raised = act(game, declare(1, 400))
    assert raised.hand is not None and raised.hand.contract == 400
    game = act(game, declare(1, 110))
    hand = game.hand
    assert hand is not None and hand.contract == 110 and hand.phase is Phase.PLAY
