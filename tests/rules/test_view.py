import json

import pytest

from tysiac.rules import deal, new_game, view

from .helpers import DEAL_A, act, game_from, play, playing


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
