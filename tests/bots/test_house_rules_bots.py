"""The bots under V15 (Złoty As: the golden hand's resign) and V16 (no barrel: anyone
reaching the target wins), on constructed deals and scores."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from tysiac import bots, rules
from tysiac.bots import bidding, easy, medium, strong
from tysiac.rules.cards import parse_card
from tysiac.rules.game import deal_hand_of
from tysiac.rules.hand import new_hand
from tysiac.rules.scoring import Counters

# Three players, dealer 0: seat 1 is the mus player, so the golden declarer; the musik is
# already in its hand (V15).
HOPELESS = {  # nines, jacks and two odd picture cards; the others hold every ace and ten
    1: "9S 9C 9D JS JC JD QS",
    2: "AS TS KS AC TC KC QC",
    0: "AD TD QD AH TH KH QH",
    "musik": "9H JH KD",
}
STRONG = {  # three aces, three tens and the spade marriage: 120 is made in every deal
    1: "AS TS KS QS AC TC AD",
    2: "9S JS 9C JC QC KC 9D",
    0: "JD QD KD TD 9H JH QH",
    "musik": "AH TH KH",
}


def mask(codes: str) -> int:
    return sum(1 << parse_card(code) for code in codes.split())


def golden_view(
    deal: dict[Any, str],
    options: dict[str, Any] | None = None,
    scores: Sequence[int] | None = None,
    golden: int = 0,
    target: int = rules.game.TARGET,
) -> rules.GameView:
    """The golden declarer's view (seat 1) of ``deal``, before giving; ``golden`` golden
    hands played before it, none made."""
    table = rules.options_from_json({"golden_ace": True, **(options or {})})
    counters = Counters((0, 0, 0), (0, 0, 0), golden=golden)
    game = rules.new_game(3, 0, target, scores, table, counters)
    held = (mask(deal[0]), mask(deal[1]), mask(deal[2]))
    hand = new_hand(3, 0, held, (mask(deal["musik"]),), table, golden=True)
    game = deal_hand_of(game, hand)
    view = rules.view(game, 1, history=True)
    assert view["hand"] is not None and view["hand"]["golden"]
    assert view["legal"].get("resign") is True
    return view


def strong_move(view: rules.GameView, seed: int) -> dict[str, Any]:
    return strong.choose(view, random.Random(seed), plan_samples=12)


# --- V15: the golden hand -------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(3))
def test_the_strong_bot_resigns_a_hopeless_golden_hand_and_plays_a_strong_one(
    seed: int,
) -> None:
    assert strong_move(golden_view(HOPELESS), seed) == {"type": "resign"}
    played = strong_move(golden_view(STRONG), seed)
    assert played["type"] == "give" and sorted(played["cards"]) == ["0", "2"]
    # the same judgement without the shortcut for a likely contract (RESIGN_BELOW)
    view = golden_view(STRONG)
    gifts = {int(s): parse_card(c) for s, c in played["cards"].items()}
    cards = view["hand"]["cards"] if view["hand"] is not None else None
    kept = mask(" ".join(c for c in cards or [] if c not in played["cards"].values()))
    assert not strong.resign_pays(view, random.Random(seed), 12, kept, gifts)


def test_the_strong_bot_compares_playing_with_resigning_in_the_same_measure() -> None:
    """Resigning: -240 for the seat, +120 for each opponent, so -360 relative to them; a
    failed 120 in which the opponents take every card point, doubled (120 each), and a
    marriage of 100 between them (50 on average) is worth -410."""
    view = golden_view(HOPELESS)
    options = rules.options_from_json(view["options"])
    assert strong._resigning(view, options) == -360
    # seat 0 holds the hearts and the clubs marriages (160), seat 2 none: 80 on average
    held = {
        1: mask("JS JC JD QS 9D KD 9H JH"),
        2: mask("AS TS KS AC TC 9S AH TH"),
        0: mask("AD TD QD KH QH KC QC 9C"),
    }
    assert strong._playing(view, options, 0, held) == -240 - (120 + 80)
    assert strong._playing(view, options, 120, held) > 0  # made: +240 less their few points


def test_the_strong_bot_never_resigns_the_last_golden_hand_while_none_was_made() -> None:
    """Resigning saves nothing there: every score goes back to 0 unless it is made."""
    view = golden_view(HOPELESS, golden=2)
    assert strong_move(view, 0)["type"] == "give"
    assert medium.choose(view, random.Random(0))["type"] == "give"


def test_a_barrel_caps_what_resigning_gives_an_opponent() -> None:
    """R25: an opponent at 750 gains only 50 of the 120, one on the barrel nothing; so
    resigning costs the seat less than -360 relative to them. V16: no cap."""
    capped = golden_view(HOPELESS, scores=(750, 0, 800))
    options = rules.options_from_json(capped["options"])
    assert strong._resigning(capped, options) == -240 - (50 + 0) / 2
    free = golden_view(HOPELESS, {"barrel": "off"}, scores=(750, 0, 800))
    assert strong._resigning(free, rules.options_from_json(free["options"])) == -360


def test_under_v16_resigning_that_hands_an_opponent_the_game_counts_the_loss() -> None:
    """The short game: an opponent at 400 reaches 500 with the +120 and wins."""
    view = golden_view(HOPELESS, {"barrel": "off"}, (0, 0, 400), 1, rules.game.SHORT_TARGET)
    options = rules.options_from_json(view["options"])
    assert strong._resigning(view, options) == -360 - strong.WIN_BONUS


def test_the_medium_bot_resigns_a_hopeless_golden_hand_only() -> None:
    assert medium.choose(golden_view(HOPELESS), random.Random(0)) == {"type": "resign"}
    assert medium.choose(golden_view(STRONG), random.Random(0))["type"] == "give"


def test_the_easy_bot_never_resigns() -> None:
    view = golden_view(HOPELESS)
    moves = {easy.choose(view, random.Random(seed))["type"] for seed in range(50)}
    assert moves == {"give"}


# --- V16: no barrel, the first to the target wins ---------------------------------------


def bidding_view(scores: Sequence[int], barrel: str = "off") -> rules.GameView:
    """Seat 2's view in the bidding of a three-player hand (dealer 0, seat 1 the mus)."""
    table = rules.options_from_json({"barrel": barrel})
    game = rules.new_game(3, 0, options=table, scores=scores)
    game = rules.deal(game, rules.shuffle(random.Random(1)))
    view = rules.view(game, 2, history=True)
    assert view["legal"].get("bid") and view["legal"].get("pass")
    return view


MISSED = [80] * 10  # the seat takes 80 of a contract of 100 in every deal: 20 each to them
SURE = [130] * 10


def test_under_v16_an_opponent_near_the_target_makes_declaring_dangerous() -> None:
    """The contract missed either way; at 980 the opponent's 20 as a defender wins it the
    game, which costs the seat WIN_BONUS more than at 500."""
    far = strong._worth(bidding_view((500, 0, 0)), MISSED, 100)
    near = strong._worth(bidding_view((980, 0, 0)), MISSED, 100)
    assert far == -100 - strong.DEFENCE[3]
    assert near == far - strong.WIN_BONUS
    # a sure contract leaves the defenders nothing: no danger
    assert strong._worth(bidding_view((980, 0, 0)), SURE, 100) == 100 - strong.DEFENCE[3]


def test_under_v16_a_defender_is_not_capped_below_the_barrel() -> None:
    """At 790 a defender's usual 30 would be capped to 10 by the barrel at 800 (R25);
    without the barrel it is all given up by declaring."""
    with_barrel = strong._worth(bidding_view((0, 0, 790), "800"), SURE, 100)
    without = strong._worth(bidding_view((0, 0, 790)), SURE, 100)
    assert with_barrel - without == strong.DEFENCE[3] - 10


def test_under_v16_a_seat_near_the_target_prefers_to_defend(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At 980 a defender's usual 30 wins the game (V16), while a contract made in 60 % of
    the deals wins it only then: it passes. On the barrel (R25) defending brings nothing,
    so the same cards bid."""
    outcomes = [120] * 6 + [80] * 4

    def forecast(*args: Any, **kwargs: Any) -> list[int]:
        return outcomes

    monkeypatch.setattr(strong, "_deal_outcomes", forecast)
    near = bidding_view((0, 0, 980))
    assert strong._worth(near, outcomes, 110) < 0
    assert strong.bid(near, random.Random(0))["type"] == "pass"
    on_barrel = bidding_view((0, 0, 980), "800")  # with a barrel the model may decide:
    assert strong.bid(on_barrel, random.Random(0), learned=False)["type"] == "bid"  # the rule


def test_the_learned_worth_counts_no_defence_on_the_barrel() -> None:
    """R25 in the model's rule too: on the barrel defending brings nothing, so declaring
    is weighed against 0; off it, against the model's value of defending these cards."""
    model = bidding.model(3)
    assert model is not None
    outcomes = [120] * 6 + [80] * 4
    for scores, defence in (((0, 0, 980), False), ((0, 0, 500), True)):
        view = bidding_view(scores, "800")
        cards = view["hand"]["cards"]
        declaring = model.declaring(cards, outcomes, 110)
        if scores[2] + 110 >= view["target"]:
            declaring += strong.WIN_BONUS * model.chance(cards, outcomes, 110)
        expected = declaring - (max(0.0, model.defending(cards)) if defence else 0.0)
        assert view["on_barrel"][2] is not defence
        assert strong._learned_worth(view, model, cards, outcomes, 110) == pytest.approx(expected)


def test_medium_and_easy_never_read_the_barrel() -> None:
    """V16: ``view["barrel"]`` is None; the simpler levels decide without it."""
    view = bidding_view((0, 0, 980))
    assert view["barrel"] is None
    for level in ("easy", "medium"):
        assert bots.is_legal(view, bots.choose(level, view, random.Random(0)))
