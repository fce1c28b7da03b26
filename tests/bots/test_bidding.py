"""The strong bot's learned bidding model (bots/bidding.py): the features it reads, the
committed weights, where it applies, the bids it leads to; and the two tools that make
it, on a few hands (tools/bid_data.py, tools/bid_train.py)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from tools import bid_data, bid_train

from tysiac import rules
from tysiac.bots import bidding, strong
from tysiac.rules.cards import parse_cards
from tysiac.rules.hand import deck_of

STRONG = ["AH", "TH", "KH", "QH", "AS", "TS", "AD"]
WEAK = ["9S", "JS", "9C", "JC", "9D", "JD", "QS"]


def committed_weights() -> dict[str, Any]:
    """The weights file the model reads (``bid_train``'s default output)."""
    data: dict[str, Any] = json.loads(bid_train.OUT.read_text("utf-8"))
    return data


def test_a_hands_features_count_what_it_holds() -> None:
    values = dict(zip(bidding.HAND_NAMES, bidding.hand_features(STRONG), strict=True))
    assert values == {
        "one": 1,
        "points": 60,  # A 11, T 10, K 4, Q 3, A 11, T 10, A 11
        "aces": 3,
        "tens": 2,
        "ace_tens": 2,  # hearts and spades
        "bare_tens": 0,
        "marriages": 1,
        "marriage_value": 100,  # hearts (R20)
        "halves": 0,
        "longest": 4,
        "strength": values["strength"],
    }
    weak = dict(zip(bidding.HAND_NAMES, bidding.hand_features(WEAK), strict=True))
    assert weak["points"] == 9 and weak["halves"] == 1 and weak["marriages"] == 0
    assert weak["aces"] == weak["tens"] == 0 and weak["longest"] == 3  # spades
    forecast = [90] * 12 + [130] * 12
    searched = dict(zip(bidding.NAMES, bidding.features(WEAK, forecast, 110), strict=True))
    assert searched["forecast_mean"] == 110 and searched["forecast_chance"] == 0.5
    assert searched["chance_below"] == 1 and searched["chance_above"] == 0.5  # 90, 130
    assert (searched["low_quarter"], searched["median"], searched["high_quarter"]) == (90, 130, 130)


@pytest.mark.parametrize("players", [3, 4])
def test_the_committed_weights_are_for_these_features_and_every_bid(players: int) -> None:
    data = committed_weights()
    assert data["names"] == list(bidding.NAMES)
    fitted = data["players"][str(players)]
    assert len(fitted["declare"]) == (bid_train.HIGHEST - bid_train.LOWEST) // bid_train.STEP + 1
    assert len(fitted["made"]) == len(fitted["declare"])
    assert all(len(weights) == len(bidding.NAMES) for weights in fitted["declare"])
    assert len(fitted["defend"]) == len(bidding.HAND_NAMES)


def test_two_players_bid_by_the_search() -> None:
    """The model fitted for two players played no better than the search (docs/bots.md):
    no weights are kept for them, so the search bids."""
    assert bidding.model(2) is None and bidding.model(3) is not None


@pytest.mark.parametrize("players", [3, 4])
def test_the_model_values_a_strong_hand_above_defending_and_a_weak_one_below(
    players: int,
) -> None:
    model = bidding.model(players)
    assert model is not None
    # Seven cards: a hand is dealt the same way with three players and with four.
    strong_hand = model.declaring(STRONG, [170] * 24, 120)
    weak_hand = model.declaring(WEAK, [45] * 24, 120)
    assert strong_hand > model.defending(STRONG) and strong_hand > 60
    assert weak_hand < model.defending(WEAK) and weak_hand < 0
    # The higher the bid, the less the same hand and forecast is worth.
    middling = [100] * 12 + [140] * 12
    assert model.declaring(STRONG, middling, 110) > model.declaring(STRONG, middling, 200)


def test_the_model_applies_to_the_rules_it_was_fitted_with() -> None:
    assert bidding.applies(rules.Options())
    assert bidding.applies(rules.options_from_json({"bid_step": 5, "barrel": "880"}))
    for changed in ({"barrel": "off"}, {"ace_marriage": True}, {"bomb": "penalty"}):
        assert not bidding.applies(rules.options_from_json(changed)), changed


def view_with(cards: list[str]) -> rules.GameView:
    """Three players, seat 2 to bid over the mus player's forced 100 with ``cards``."""
    deck = [c for c in rules.shuffle(random.Random(4)) if rules.card_code(c) not in cards]
    held = [0, 0, parse_cards(" ".join(cards))]
    for seat in (1, 0):
        held[seat] = sum(1 << c for c in deck[:7])
        deck = deck[7:]
    musik = sum(1 << c for c in deck)
    game = rules.new_game(3, 0)
    game = rules.deal(game, deck_of(3, 0, held, [musik]))
    view = rules.view(game, 2, history=True)
    assert view["legal"].get("pass") and view["hand"]["cards"] is not None
    return view


@pytest.mark.parametrize("learned", [True, False])
def test_the_strong_bot_bids_a_strong_hand_and_passes_a_weak_one(learned: bool) -> None:
    rng = random.Random(1)
    assert strong.bid(view_with(STRONG), rng, learned=learned) == {"type": "bid", "value": 110}
    assert strong.bid(view_with(WEAK), rng, learned=learned) == {"type": "pass"}


# A middling hand: the model values winning the auction at 110 with it below defending.
DARING = ["KC", "QC", "TC", "9C", "TS", "9S", "QD"]


def test_the_model_dares_a_bid_worth_a_little_less_than_defending() -> None:
    """``strong.DARE``: with the club marriage, the ten and nine of clubs beside it and a
    ten of spades, the model values winning at 110 below defending, by less than DARE:
    the strong bot bids."""
    view = view_with(DARING)
    model = bidding.model(3)
    assert model is not None
    outcomes = strong.bid_outcomes(view, random.Random(1))  # the bid's own draw below
    worth = strong._learned_worth(view, model, DARING, outcomes, 110)
    assert -strong.DARE < worth < 0
    assert strong.bid(view, random.Random(1)) == {"type": "bid", "value": 110}


@pytest.mark.slow
def test_the_tools_play_hands_and_fit_weights_that_load(tmp_path: Path) -> None:
    records = [bid_data.sample(3, 7, index) for index in range(6)]
    for record in records:
        me = record["declarer"]
        assert record["bid"] == 100 and record["contract"] >= 100
        assert len(record["forecast"]) == strong.PLAN_SAMPLES
        took = record["points"][me] + record["melds"][me]
        assert record["made"] == (took >= record["contract"])
        assert record["delta"][me] == (
            record["contract"] if record["made"] else -record["contract"]
        )
        assert bid_train.declaring_label(record, record["contract"]) == record["delta"][me]
        assert bid_train.declaring_label(record, 300) == -300
    data = tmp_path / "bids.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    out = tmp_path / "bidding.json"
    committed = committed_weights()
    other = {**committed, "players": {"4": committed["players"]["3"]}}
    out.write_text(json.dumps(other), encoding="utf-8")
    assert bid_train.main(["--data", f"3={data}", "--out", str(out)]) == 0
    written = json.loads(out.read_text("utf-8"))
    assert written["names"] == list(bidding.NAMES) and written["players"]["3"]["hands"] == 6
    # The weights of a number of players not refitted are kept as they were.
    assert written["players"]["4"] == committed["players"]["3"]
