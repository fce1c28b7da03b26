"""Table options (V1-V16) in the views, legal moves and auto-moves; scoring is in scenarios."""

from __future__ import annotations

import random
from typing import Any

from tysiac.rules import (
    Blind,
    Bomb,
    Game,
    Look,
    Options,
    Redeal,
    Resign,
    action_to_json,
    apply,
    auto_action,
    deal,
    legal_actions,
    options_to_json,
    shuffle,
    variants,
    view,
)
from tysiac.rules.game import Counters, deal_hand_of, new_game
from tysiac.rules.notation import parse_deal

from .helpers import act, bid, give, pass_, play, refused

BASE = (
    "0: KH QH TS QS AC QC KD | 1: AH AS JS KC JC AD QD | 2: TH JH KS 9S TC 9C TD | musik: 9H JD 9D"
)
TWO = "0: AS TS KS QS JS 9S AH TH KH QH | 1: AC TC KC QC JC 9C AD TD KD QD | musik: JH 9H / JD 9D"
ACES = (
    "0: AS AC AD AH KS 9S 9C | 1: TS QS JS TC KC QC JC | 2: TD KD QD JD 9D TH KH | musik: QH JH 9H"
)


def table(
    text: str = BASE,
    players: int = 3,
    dealer: int = 2,
    scores: list[int] | None = None,
    counters: Counters | None = None,
    **options: Any,
) -> Game:
    game = new_game(players, dealer, 1000, scores, Options(**options), counters)
    return deal_hand_of(game, parse_deal(text, players, dealer))


def test_v14_blind_phase_hides_the_mus_players_own_cards() -> None:
    game = table(scores=[100, 0, 0], blind=True)
    mine = view(game, 0)
    assert mine["hand"] is not None
    assert mine["hand"]["phase"] == "blind" and mine["to_move"] == 0
    assert mine["hand"]["cards"] is None and mine["hand"]["face_down"] is True
    assert mine["hand"]["counts"] == [7, 7, 7] and mine["hand"]["meld_cards"] == []
    assert mine["legal"] == {"blind": True, "look": True}
    assert legal_actions(game) == [Blind(0), Look(0)]
    other = view(game, 1)
    assert other["legal"] == {} and other["hand"] is not None
    assert other["hand"]["cards"] is not None and other["hand"]["face_down"] is False


def test_v14_look_shows_the_cards_and_bidding_starts() -> None:
    game = act(table(scores=[100, 0, 0], blind=True), {"seat": 0, "type": "look"})
    seen = view(game, 0)
    assert seen["hand"] is not None and seen["hand"]["cards"] is not None
    assert seen["hand"]["phase"] == "bidding" and game.to_move == 1


def test_v14_blind_stays_face_down_until_bidding_ends_then_musik_for_declarer_only() -> None:
    game = act(table(scores=[100, 0, 0], blind=True), {"seat": 0, "type": "blind"})
    seen = view(game, 0)
    assert seen["hand"] is not None
    assert seen["hand"]["cards"] is None and seen["hand"]["blind"] == 0
    assert seen["hand"]["bid"] == 120 and game.to_move == 1
    game = act(game, pass_(1), pass_(2))
    declarer = view(game, 0)["hand"]
    assert declarer is not None and declarer["cards"] is not None
    assert declarer["contract"] == 120 and declarer["musiks"][0]["cards"] is not None
    for seat in (1, 2, None):
        hand = view(game, seat)["hand"]
        assert hand is not None and hand["musiks"][0]["cards"] is None
    game = act(game, give(0, {1: "9H", 2: "JD"}))
    assert game.hand is not None and str(game.hand.phase) == "play"  # no declare step


def test_v14_an_overbid_ends_the_blind() -> None:
    game = act(
        table(scores=[100, 0, 0], blind=True, bid_limit="360"),
        {"seat": 0, "type": "blind"},
        bid(1, 130),
    )
    seen = view(game, 0)
    assert seen["hand"] is not None and seen["hand"]["cards"] is not None
    assert seen["hand"]["blind"] is None


def test_v14_r28_auto_move_is_look() -> None:
    game = table(scores=[100, 0, 0], blind=True)
    assert auto_action(game) == Look(0)
    after = act(game, {"seat": 0, "type": "timeout"})
    assert after.hand is not None and str(after.hand.phase) == "bidding"
    assert after.timeouts[0] == 1


def test_v14_two_players_never_blind() -> None:
    game = table(TWO, players=2, dealer=1, scores=[100, 100], blind=True)
    assert game.hand is not None and str(game.hand.phase) == "bidding"


def test_v11_open_musik_shows_the_picked_musik_to_the_opponent() -> None:
    moves = (bid(1, 120), pass_(0), {"seat": 1, "type": "musik", "index": 1})
    game = act(table(TWO, players=2, dealer=1, open_musik=True), *moves)
    for seat in (0, None):
        hand = view(game, seat)["hand"]
        assert hand is not None
        assert hand["musiks"][1]["cards"] == ["9D", "JD"] and hand["musiks"][0]["cards"] is None
    closed = act(table(TWO, players=2, dealer=1), *moves)
    hand = view(closed, 0)["hand"]
    assert hand is not None and hand["musiks"][1]["cards"] is None


def test_v7_legal_bomb_for_the_declarer_in_give() -> None:
    game = act(table(bomb="penalty"), bid(1, 110), pass_(2), pass_(0))
    assert view(game, 1)["legal"]["bomb"] is True
    assert Bomb(1) in legal_actions(game)
    assert "bomb" not in view(table(bomb="penalty"), 1)["legal"]
    assert Bomb(1) not in legal_actions(act(table(), bid(1, 110), pass_(2), pass_(0)))
    auto = auto_action(game)
    assert auto is not None and not isinstance(auto, Bomb)


def test_v7_free_bomb_used_is_refused() -> None:
    counters = Counters((0, 0, 0), (0, 1, 0))
    game = act(table(counters=counters, bomb="free"), bid(1, 110), pass_(2), pass_(0))
    assert "bomb" not in view(game, 1)["legal"]
    refused(game, {"seat": 1, "type": "bomb"}, "bomb_used")


def test_v13_legal_redeal_in_bidding_and_for_a_bad_musik() -> None:
    game = table(redeal=True)
    assert "redeal" not in view(game, 1)["legal"]  # seat 1 holds 51 points
    nines = (
        "0: 9S 9C 9D 9H JS JC KD | 1: AS TS AC TC AD TD AH | 2: KS QS KC QC QD TH KH"
        " | musik: QH JH JD"
    )
    weak = deal_hand_of(new_game(3, 2, options=Options(redeal=True)), parse_deal(nines, 3, 2))
    weak = act(weak, pass_(1), pass_(2))
    assert weak.to_move == 0 and view(weak, 0)["legal"].get("redeal") is None  # give: musik 9 pts
    musik = act(game, pass_(1), pass_(2))  # musik 9H JD 9D: 2 points, two nines
    assert view(musik, 0)["legal"]["redeal"] is True and Redeal(0) in legal_actions(musik)
    after = act(musik, {"seat": 0, "type": "redeal"})
    assert after.awaiting_deal and after.next_dealer == 2  # the same dealer deals again
    assert after.results[-1].end == "redeal" and view(after, 0)["results"][-1]["end"] == "redeal"


def test_v12_four_aces_meld_in_view_and_melds() -> None:
    game = act(
        table(ACES, ace_marriage=True),
        pass_(1),
        pass_(2),
        give(0, {1: "9S", 2: "9C"}),
        {"seat": 0, "type": "declare", "value": 100},
    )
    hand = view(game, 0)["hand"]
    assert hand is not None and hand["meld_values"]["AH"] == 200
    game = act(game, play(0, "AH"))
    hand = view(game, 1)["hand"]
    assert hand is not None and hand["melds"] == [{"seat": 0, "suit": None, "value": 200}]
    assert hand["trump"] is None


def test_v3_no_meld_mark_in_the_first_trick() -> None:
    game = act(table(meld_first_trick=False), pass_(1), pass_(2))
    hand = view(game, 0)["hand"]
    assert hand is not None and hand["meld_cards"] == [] and hand["meld_values"] == {}


def test_v1_v14_view_carries_options_and_counters() -> None:
    counters = Counters((1, 0, 2), (0, 1, 0), 1, 2)
    game = table(scores=[0, 880, 0], counters=counters, barrel="880", bolts=True, bid_step=5)
    seen = view(game, None)
    assert seen["options"] == options_to_json(game.options) and seen["options"]["bid_step"] == 5
    assert seen["counters"] == {
        "bolts": [1, 0, 2],
        "bombs": [0, 1, 0],
        "barrel": 1,
        "tries": 2,
        "golden": 0,
        "golden_made": False,
    }
    assert seen["barrel"] == 880 and seen["on_barrel"] == [False, True, False]
    assert view(game, 1)["legal"]["bid"][:2] == [105, 110]


def test_v6_no_mus_bid_is_null_and_a_pass_may_void() -> None:
    game = table(mus=False)
    seen = view(game, 0)
    assert seen["hand"] is not None and seen["hand"]["bid"] is None
    assert seen["hand"]["mus_bid"] is None and seen["legal"]["bid"][0] == 100
    game = act(game, pass_(0), pass_(1), {"seat": 2, "type": "timeout"})  # R28 pass voids
    assert game.awaiting_deal and game.next_dealer == 0
    result = view(game, 0)["results"][-1]
    assert result["end"] == "void" and result["made"] is None and result["declarer"] is None


def test_v15_golden_hand_view_hides_the_musik_from_the_table_and_offers_resign() -> None:
    game = table(golden_ace=True)
    declarer = view(game, 0)
    assert declarer["hand"] is not None and declarer["hand"]["golden"]
    assert declarer["hand"]["phase"] == "give" and declarer["hand"]["contract"] == 120
    assert declarer["hand"]["blind"] is None  # golden, not V14's blind
    assert sorted(declarer["hand"]["musiks"][0]["cards"] or []) == sorted(["9H", "JD", "9D"])
    assert len(declarer["hand"]["cards"] or []) == 10
    assert declarer["legal"].get("resign") is True and "bomb" not in declarer["legal"]
    for seat in (1, 2, None):
        other = view(game, seat)
        assert other["hand"] is not None and other["hand"]["musiks"][0]["cards"] is None
        assert other["legal"] == {} and other["hand"]["counts"][0] == 10
    assert Resign(0) in legal_actions(game)


def test_v15_r28_auto_move_in_a_golden_hand_is_a_give_never_resign() -> None:
    game = table(golden_ace=True, bomb="penalty", redeal=True)
    move = auto_action(game)
    assert move is not None and move.seat == 0 and not isinstance(move, Resign)
    assert action_to_json(move)["type"] == "give"
    assert not any(isinstance(a, Bomb | Redeal) for a in legal_actions(game))


def test_v15_only_the_golden_declarer_resigns_and_only_before_giving() -> None:
    game = table(golden_ace=True)
    refused(game, {"seat": 1, "type": "resign"}, "not_your_turn")
    after_give = act(game, give(0, {1: "9D", 2: "9H"}))
    assert after_give.hand is not None and after_give.hand.phase.value == "play"  # no declare
    refused(after_give, {"seat": 0, "type": "resign"}, "wrong_phase")
    ordinary = table(golden_ace=True, counters=Counters((0, 0, 0), (0, 0, 0), golden=3))
    refused(ordinary, {"seat": 1, "type": "resign"}, "wrong_phase")


def test_v15_four_players_four_golden_hands_none_made_resets_then_ordinary() -> None:
    game = new_game(4, 0, options=Options(golden_ace=True, bolts=True))
    rng = random.Random(7)
    declarers = []
    for number in range(4):
        game = deal(game, shuffle(rng))
        assert game.hand is not None and game.hand.golden and game.hand.phase.value == "give"
        declarers.append(game.hand.declarer)
        dealer, mus = game.hand.dealer, game.hand.mus
        game = apply(game, Resign(mus))
        assert game.counters.golden == number + 1
        delta = game.results[-1].delta
        assert delta[mus] == -240 and delta[dealer] == 0  # the sitting-out dealer scores 0
        assert sorted(delta) == [-240, 0, 120, 120]
        assert game.counters.bolts == (0, 0, 0, 0)  # a resigned hand gets no bolts
        if number < 3:
            assert game.scores != (0, 0, 0, 0)
    assert sorted(declarers) == [0, 1, 2, 3]  # each player once the golden declarer
    assert game.scores == (0, 0, 0, 0) and game.results[-1].reset
    assert game.results[-1].delta != (0, 0, 0, 0)
    game = deal(game, shuffle(rng))
    assert game.hand is not None and not game.hand.golden and game.hand.phase.value == "bidding"


def test_v16_view_has_no_barrel_and_nobody_sits_on_it() -> None:
    game = table(barrel="off", scores=[850, 900, 0])
    seen = view(game, None)
    assert seen["barrel"] is None and seen["on_barrel"] == [False, False, False]


def test_v16_tie_break_order_from_the_mus_player_with_the_sitting_out_dealer_last() -> None:
    # Four players, dealer 0 sits out: turn order 1, 2, 3, then the dealer.
    order = (1, 2, 3, 0)
    assert variants.target_winner((1010, 900, 900, 900), 1000, 1, order) == (0, None)
    assert variants.target_winner((1010, 900, 1010, 900), 1000, 1, order) == (2, "order")
    assert variants.target_winner((1010, 1010, 1010, 900), 1000, 1, order) == (1, "declarer")
    assert variants.target_winner((1020, 1010, 1010, 900), 1000, 1, order) == (0, "highest")
    assert variants.target_winner((990, 0, 0, 0), 1000, 0, order) == (None, None)
