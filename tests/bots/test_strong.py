"""The strong bot's reading of a view: never wrong about the real deal, and layouts that
agree with everything seen; then the strong bot in whole games under random options."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import pytest

from tysiac import bots, rules
from tysiac.bots import sampling, strong
from tysiac.bots.sampling import DEAD, Knowledge
from tysiac.rules import variants
from tysiac.rules.cards import parse_card

from .test_bots import check_house_rules, moves_of_the_play, play_game, random_options


def positions(seed: int, games: int) -> Iterator[tuple[rules.Game, int, Knowledge]]:
    """Every seat's knowledge at every move of the play in games of medium bots."""
    for game in moves_of_the_play(seed, games, hands=4):
        assert game.hand is not None
        for seat in game.hand.active:
            yield game, seat, Knowledge.of(rules.view(game, seat, history=True))


def truth(game: rules.Game, knowledge: Knowledge) -> dict[int, int]:
    """Where the hidden cards really are, place by place."""
    hand = game.hand
    assert hand is not None
    layout = {seat: hand.held[seat] for seat in knowledge.places if seat != DEAD}
    if DEAD in knowledge.places:
        layout[DEAD] = knowledge.unseen & ~sum(layout.values())
    return layout


def test_what_a_seat_infers_is_never_wrong_about_the_real_deal() -> None:
    checked = barred = held = 0
    for game, seat, knowledge in positions(11, 45):
        real = truth(game, knowledge)
        assert knowledge.mine == game.hand.held[seat]  # type: ignore[union-attr]
        assert sum(real.values()) == knowledge.unseen
        for place, cards in real.items():
            assert cards.bit_count() == knowledge.count[place]
            assert not cards & knowledge.barred[place], "a card it holds was ruled out"
            assert knowledge.held[place] & ~cards == 0, "a card it lacks was thought sure"
            barred += knowledge.barred[place].bit_count()
            held += knowledge.held[place].bit_count()
        assert sampling._legal_layout(knowledge, real)
        checked += 1
    assert checked > 2_000 and barred > 5_000 and held > 200, (checked, barred, held)


def test_layouts_agree_with_everything_seen_and_list_all_when_few() -> None:
    rng = random.Random(5)
    exact = 0
    for number, (game, _, knowledge) in enumerate(positions(12, 24)):
        if number % 7:
            continue
        drawn = list(sampling.layouts(knowledge, rng, 30))
        assert drawn, "no layout for a position that exists"
        for layout in drawn:
            assert sum(layout.values()) == knowledge.unseen
            assert sampling._legal_layout(knowledge, layout)
            for place, cards in layout.items():
                assert cards.bit_count() == knowledge.count[place]
        real = truth(game, knowledge)
        if len({tuple(sorted(layout.items())) for layout in drawn}) < len(drawn):
            continue  # drawn at random: repeats allowed
        if knowledge.unseen.bit_count() <= 8 and len(knowledge.places) <= 2:
            assert real in drawn, "an exact listing left out the real deal"
            exact += 1
    assert exact > 10


def test_a_marriage_declared_leaves_its_partner_with_its_player() -> None:
    found = 0
    for game, seat, knowledge in positions(13, 45):
        hand = game.hand
        assert hand is not None
        for who, suit in hand.melds:
            if who != seat and suit < 4:
                partner = knowledge.held.get(who, 0)
                pair = sampling.MARRIAGES[suit] & knowledge.unseen
                assert partner & pair == pair
                found += bool(pair)
    assert found > 20


def defenders_on_lead_with_a_marriage(
    seed: int, games: int
) -> Iterator[tuple[rules.GameView, set[int]]]:
    """The view of every defender about to lead while holding a meld it may declare (not
    on the barrel), in games of medium bots, with the cards that would meld."""
    for game in moves_of_the_play(seed, games, hands=4):
        seat = game.to_move
        assert seat is not None
        view = rules.view(game, seat, history=True)
        hand = view["hand"]
        assert hand is not None
        if seat == hand["declarer"] or hand["trick"] or view["on_barrel"][seat]:
            continue
        options = rules.options_from_json(view["options"])
        held = sampling.codes_mask(hand["cards"])
        meld = variants.meld_cards(options, held, hand["last_trick"] is None)
        if meld:
            yield view, {card for card, _ in meld}


def test_a_defender_on_lead_melds_its_own_marriage() -> None:
    """R21: a meld scores for the defender who leads it, which the solver (counting the
    declarer's points) does not see; weighed against the contract's chance, it is led."""
    found = list(defenders_on_lead_with_a_marriage(5, 60))
    assert len(found) >= 20
    melded = sum(
        parse_card(strong.play(view, random.Random(n))) in cards
        for n, (view, cards) in enumerate(found)
    )
    assert melded >= 0.9 * len(found)  # without its own melds counted: 19 of 28


def test_a_defenders_meld_is_worth_nothing_on_the_barrel_and_capped_below_it() -> None:
    view, cards = next(defenders_on_lead_with_a_marriage(5, 60))
    seat = view["seat"]
    assert seat is not None and view["barrel"] is not None
    options = rules.options_from_json(view["options"])
    assert set(strong._own_melds(view, options)) == cards
    on_barrel = copy.deepcopy(view)
    on_barrel["on_barrel"][seat] = True  # R25: a defender on the barrel scores nothing
    assert strong._own_melds(on_barrel, options) == {}
    near = copy.deepcopy(view)
    near["scores"][seat] = view["barrel"] - 30  # R25: no more than the room below it
    assert set(strong._own_melds(near, options).values()) == {30}


# A smaller search for the tests that check only what the strong bot may do, not how well
# it plays: the same code on every move, a few layouts and deals in place of 40 and 24.
QUICK_SEARCH = {"samples": 6, "plan_samples": 6}


def quick_strong(view: rules.GameView, rng: random.Random) -> dict[str, Any]:
    return strong.choose(view, rng, **QUICK_SEARCH)


@pytest.fixture
def quick_strong_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """The ``strong`` level searches less for the length of one test."""
    monkeypatch.setitem(bots.BOTS, "strong", quick_strong)  # type: ignore[index]


STRONG_MATRIX_SEEDS = range(8)


def strong_matrix_case(seed: int) -> tuple[random.Random, int, rules.Options]:
    """The strong option matrix's game ``seed``: its generator, players, table options."""
    rng = random.Random(100 + seed)
    return rng, (2, 3, 4)[seed % 3], random_options(rng)


@pytest.mark.slow
@pytest.mark.parametrize("seed", STRONG_MATRIX_SEEDS)
def test_strong_bots_play_whole_games_under_random_table_options(
    seed: int, quick_strong_search: None
) -> None:
    """The rule-option matrix with the strong level: whole short games of strong bots
    only, every move legal (``play_game`` checks each against the view's legal moves).
    Legality is all that is checked here, so with ``quick_strong_search``."""
    rng, players, options = strong_matrix_case(seed)
    game = play_game(["strong"] * players, rng, options, rules.game.SHORT_TARGET)
    check_house_rules(game)


def test_the_strong_option_matrix_draws_golden_hands_and_games_without_a_barrel() -> None:
    drawn = [strong_matrix_case(seed)[1:] for seed in STRONG_MATRIX_SEEDS]
    assert any(options.golden_ace and players > 2 for players, options in drawn)
    assert any(options.barrel == "off" for _, options in drawn)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("table", "players"),
    [
        ({"golden_ace": True, "barrel": "off"}, 3),
        ({"golden_ace": True, "barrel": "off", "bolts": True}, 4),
    ],
)
def test_strong_bots_play_golden_games_without_a_barrel_to_their_end(
    table: dict[str, object], players: int, quick_strong_search: None
) -> None:
    """V15 and V16 together whatever the matrix draws: short games of strong bots only,
    its golden hands (resign or play) and an end where anyone may reach the target."""
    rng = random.Random(200 + players)
    game = play_game(["strong"] * players, rng, rules.options_from_json(table), 500)
    check_house_rules(game)


def test_the_real_deal_weighs_more_than_the_layouts_drawn_beside_it() -> None:
    """Players throw cheap cards: weighting layouts by the cards thrown should favour the
    real deal over layouts drawn at random among those that agree with the view."""
    rng = random.Random(9)
    above = compared = 0
    for number, (game, _, knowledge) in enumerate(positions(14, 45)):
        if number % 3 or not knowledge.thrown:
            continue
        real = sampling.weight(knowledge, truth(game, knowledge))
        assert real > 0
        drawn = sorted(
            sampling.weight(knowledge, lay) for lay in sampling.layouts(knowledge, rng, 20)
        )
        if drawn[0] == drawn[-1]:
            continue  # nothing to tell the layouts apart
        compared += 1
        above += real >= drawn[len(drawn) // 2]
    assert compared > 100 and above / compared > 0.6, (above, compared)
