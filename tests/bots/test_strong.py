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

from .test_bots import check_house_rules, moves_of_the_play, play_game, random_options
from .test_solver import counted


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


def defenders_on_lead_with_a_marriage(seed: int, games: int) -> Iterator[rules.Game]:
    """Every defender about to lead while holding a meld it may declare (not on the
    barrel), in games of medium bots."""
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
        if variants.meld_cards(options, held, hand["last_trick"] is None):
            yield game


def play_out(game: rules.Game, seat: int, level: str, rng: random.Random) -> rules.Game:
    """The hand played on from ``game`` to its end, ``seat`` by ``level`` and the others
    by medium (the game keeps the finished hand)."""
    while not game.awaiting_deal and not game.is_over:
        to_move = game.to_move
        assert to_move is not None
        name = level if to_move == seat else "medium"
        action = bots.choose(name, rules.view(game, to_move, history=True), rng)
        game = rules.apply(game, rules.action_from_json(action))
    return game


def test_a_defender_on_lead_melds_its_own_marriage() -> None:
    """R21: a meld scores for the defender who leads it. Counted among the defender's own
    points and weighed against the contract's chance, it is melded, at once or later in
    the hand (a lead that wins a trick first keeps the marriage for the next)."""
    found = list(defenders_on_lead_with_a_marriage(5, 60))
    assert len(found) >= 20
    melded = 0
    for number, game in enumerate(found):
        seat = game.to_move
        assert seat is not None and game.hand is not None
        before = game.hand.meld_points(seat)
        end = play_out(game, seat, "strong", random.Random(number)).hand
        melded += end is not None and end.meld_points(seat) > before
    # Counting only the declarer's points, strong melded 26 of these 28 by the end.
    assert melded >= 0.95 * len(found)


def test_a_defenders_points_score_rounded_nothing_on_the_barrel_and_capped_below_it() -> None:
    game = next(defenders_on_lead_with_a_marriage(5, 60))
    seat = game.to_move
    assert seat is not None
    view = rules.view(game, seat, history=True)
    assert view["barrel"] is not None and not view["on_barrel"][seat]
    options = rules.Options()  # R24: to the nearest ten, fives up
    below = copy.deepcopy(view)
    below["scores"][seat] = 0
    assert [strong._scored_as_defender(below, options, t) for t in (44, 45, 120)] == [40, 50, 120]
    on_barrel = copy.deepcopy(view)
    on_barrel["on_barrel"][seat] = True  # R25: a defender on the barrel scores nothing
    assert strong._scored_as_defender(on_barrel, options, 60) == 0
    near = copy.deepcopy(view)
    near["scores"][seat] = view["barrel"] - 30  # R25: no more than the room below it
    assert strong._scored_as_defender(near, options, 60) == 30
    no_barrel = copy.deepcopy(near)
    no_barrel["barrel"] = None  # V16: every point counts
    assert strong._scored_as_defender(no_barrel, options, 64) == 60


def settled_hands(seed: int, games: int) -> Iterator[tuple[rules.Game, int]]:
    """In three-player hands of medium bots, the first defender to move, holding four cards
    or more, after the declarer has already made its contract."""
    seen: set[tuple[int, ...]] = set()
    for game in moves_of_the_play(seed, games, hands=4):
        hand = game.hand
        seat = game.to_move
        assert hand is not None and seat is not None and hand.contract is not None
        if hand.dealt in seen or seat == hand.declarer or len(hand.active) != 3:
            continue
        if hand.held[seat].bit_count() >= 4 and counted(hand, hand.declarer) >= hand.contract:
            seen.add(hand.dealt)
            yield game, seat


def defenders_score(game: rules.Game, seat: int, level: str, rng: random.Random) -> int:
    """What ``seat`` scores as a defender (R24) for the hand played out (``play_out``)."""
    return play_out(game, seat, level, rng).results[-1].delta[seat]


@pytest.mark.slow
def test_a_defender_plays_for_its_own_points_once_the_contract_is_made() -> None:
    """Once the declarer has its contract nothing changes what it scores, while what a
    defender takes still counts for the defender (R24): strong, weighing its own points,
    scores more from here than medium. (A defender that only kept the declarer's points
    down, the solver's one count, scored 5,690 here against medium's 5,771.)"""
    found = list(settled_hands(6, 300))
    assert len(found) >= 100
    scored = {
        level: sum(defenders_score(g, s, level, random.Random(n)) for n, (g, s) in enumerate(found))
        for level in ("medium", "strong")
    }
    assert scored["strong"] >= 1.03 * scored["medium"], scored


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
