import json

import pytest

from tysiac.rules import apply, deal, legal_actions, new_game, public_action, view
from tysiac.rules.actions import _FIELDS as ACTION_FIELDS
from tysiac.rules.view import PUBLIC_FIELDS

from .helpers import DEAL_A, act, bid, game_from, pass_, play, playing
from .test_bidding import TWO_PLAYERS


def test_view_of_the_seat_to_move_has_its_hand_and_legal_moves() -> None:
    seen = view(game_from(DEAL_A), 1)
    assert seen["seat"] == 1 and seen["to_move"] == 1 and seen["status"] == "playing"
    assert seen["hand"] is not None
    assert seen["hand"]["cards"] == ["JD", "QD", "KD", "TD", "AD", "QH", "KH"]
    assert seen["legal"] == {"bid": list(range(110, 301, 10)), "pass": True}
    assert seen["hand"]["counts"] == [7, 7, 7]
    assert seen["hand"]["mus"] == 0 and seen["hand"]["bid"] == 100
    assert seen["hand_number"] == 1 and seen["awaiting_deal"] is False


def test_spectator_sees_the_public_table_only() -> None:
    game = act(playing(), play(1, "KH"))
    seen = view(game, None)
    hand = seen["hand"]
    assert hand is not None
    assert hand["cards"] is None and hand["meld_cards"] == [] and seen["legal"] == {}
    assert hand["trick"] == [{"seat": 1, "card": "KH"}]
    assert hand["trump"] == "H" and hand["melds"] == [{"seat": 1, "suit": "H", "value": 100}]
    assert hand["winning"] == 1 and hand["contract"] == 120 and hand["declarer"] == 1
    assert hand["counts"] == [8, 7, 8]
    text = json.dumps(seen)
    for secret in ("AS", "QH", "AD", "KS", "9C"):  # 9H and JH were shown in the musik
        assert f'"{secret}"' not in text


def test_sitting_out_dealer_sees_what_a_spectator_sees() -> None:
    game = deal(new_game(4, 3), list(range(24)))
    dealer = view(game, 3)
    spectator = view(game, None)
    assert dealer["hand"] is not None and spectator["hand"] is not None
    assert dealer["hand"]["cards"] == [] and dealer["legal"] == {}
    assert {**dealer["hand"], "cards": None} == spectator["hand"]
    assert dealer["hand"]["counts"] == [7, 7, 7, 0]


def test_last_trick_and_points_so_far() -> None:
    game = act(playing(), play(1, "AD"), play(2, "9D"), play(0, "AS"))
    hand = view(game, 0)["hand"]
    assert hand is not None
    assert hand["last_trick"] == {
        "cards": [{"seat": 1, "card": "AD"}, {"seat": 2, "card": "9D"}, {"seat": 0, "card": "AS"}],
        "winner": 1,
    }
    assert hand["points"] == [0, 22, 0] and hand["tricks"] == [0, 1, 0] and hand["trick"] == []


def test_view_of_a_finished_game_and_bad_seat() -> None:
    game = act(new_game(3, 0, scores=[10, 20, 30]), {"seat": 2, "type": "surrender"})
    seen = view(game, 0)
    assert seen["status"] == "over"
    assert seen["outcome"] == {"reason": "surrender", "winner": 1, "loser": 2}
    with pytest.raises(ValueError):
        view(game, 3)


def test_r7_the_view_names_the_seat_sitting_out() -> None:
    game = deal(new_game(4, 3), list(range(24)))
    for seat in (None, 0, 1, 2, 3):
        hand = view(game, seat)["hand"]
        assert hand is not None and hand["sitting_out"] == 3 and 3 not in hand["active"]
    for players in (2, 3):
        hand = view(deal(new_game(players, 0), list(range(24))), None)["hand"]
        assert hand is not None and hand["sitting_out"] is None


def test_r7_a_result_names_the_seat_that_sat_out() -> None:
    for players, dealer, out in ((4, 1, 1), (3, 1, None), (2, 1, None)):
        game = deal(new_game(players, dealer), list(range(24)))
        while not game.awaiting_deal:
            game = apply(game, legal_actions(game)[0])
        (result,) = view(game, None)["results"]
        assert result["dealer"] == dealer and result["sitting_out"] == out
        if out is not None:
            assert result["delta"][out] == 0 and result["points"][out] == 0


def test_r10_the_view_gives_the_mus_players_obligatory_bid() -> None:
    hand = view(game_from(DEAL_A), None)["hand"]
    assert hand is not None
    assert hand["mus"] == 0 and hand["mus_bid"] == 100 and hand["bid"] == 100
    assert hand["auction"] == []  # the mus bid is implicit


def test_r4_r21_meld_values_per_card_of_the_viewer() -> None:
    game = game_from(DEAL_A)  # seat 0 spades, seat 1 hearts and diamonds, seat 2 clubs
    expected = {
        0: {"QS": 40, "KS": 40},
        1: {"QD": 80, "KD": 80, "QH": 100, "KH": 100},
        2: {"QC": 60, "KC": 60},
    }
    for seat, values in expected.items():
        hand = view(game, seat)["hand"]
        assert hand is not None
        assert hand["meld_values"] == values
        assert list(hand["meld_values"]) == hand["meld_cards"]  # same cards, same order
    spectator = view(game, None)["hand"]
    assert spectator is not None and spectator["meld_values"] == {}


def test_r16_legal_discard_says_how_many_cards() -> None:
    game = act(game_from(TWO_PLAYERS, players=2, dealer=1), bid(1, 110), pass_(0))
    game = act(game, {"seat": 1, "type": "musik", "index": 1})
    seen = view(game, 1)
    assert seen["hand"] is not None
    assert seen["legal"] == {"discard": {"cards": seen["hand"]["cards"], "count": 2}}
    assert len(seen["hand"]["cards"] or []) == 12
    assert view(game, 0)["legal"] == {}


def test_r9_r15_r16_public_action_keeps_no_given_or_discarded_card() -> None:
    give_json = {"seat": 1, "type": "give", "cards": {"2": "9H", "0": "JH"}}
    assert public_action(give_json) == {"seat": 1, "type": "give"}
    discard_json = {"seat": 1, "type": "discard", "cards": ["9H", "AD"]}
    assert public_action(discard_json) == {"seat": 1, "type": "discard"}
    assert public_action({"seat": 2, "type": "play", "card": "QH"}) == {
        "seat": 2,
        "type": "play",
        "card": "QH",
    }
    assert public_action({"seat": 0, "type": "bid", "value": 120}) == {
        "seat": 0,
        "type": "bid",
        "value": 120,
    }
    assert public_action({"seat": 0, "type": "musik", "index": 1}) == {
        "seat": 0,
        "type": "musik",
        "index": 1,
    }
    assert public_action({"seat": 0, "type": "timeout"}) == {"seat": 0, "type": "timeout"}


def test_r9_public_action_drops_unknown_fields_and_types() -> None:
    play_json = {"seat": 2, "type": "play", "card": "QH", "hint": "AS", "cards": ["KS"]}
    assert public_action(play_json) == {"seat": 2, "type": "play", "card": "QH"}
    assert public_action({"seat": 1, "type": "pass", "value": 5}) == {"seat": 1, "type": "pass"}
    assert public_action({"seat": 1, "type": "swap", "card": "AS", "cards": ["KS"]}) == {
        "seat": 1,
        "type": "swap",
    }
    assert public_action({}) == {}


def test_every_action_type_has_a_public_allow_list() -> None:
    assert set(PUBLIC_FIELDS) == set(ACTION_FIELDS)
    for kind, fields in PUBLIC_FIELDS.items():
        assert fields <= ACTION_FIELDS[kind], kind
