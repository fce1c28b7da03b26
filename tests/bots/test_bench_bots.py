"""bench/bots.py, the strength benchmark, on a handful of deals: its report's shape, and
that hands are paired by deal (a bot against itself differs by exactly 0)."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tysiac import bots, rules

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "bots.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_bots", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_bots"] = module  # the worker processes find its functions by name
    spec.loader.exec_module(module)
    return module


def test_a_bot_against_itself_differs_by_exactly_zero_in_every_seating(bench: Any) -> None:
    for name, players in (("medium", 3), ("random", 2), ("easy", 4)):
        setup = bench.Setup(name, name, players, seed=5)
        for index in range(3):
            deal = bench.play_deal(setup, index)
            assert set(deal.differences) == set(bench.seatings(players))
            assert all(value == 0 for value in deal.differences.values()), deal
            assert deal.value == 0
            seats = sum(seating.count("C") for seating in deal.differences)
            assert deal.candidate.declared * players == deal.opponent.declared * seats


def test_the_seatings_put_candidates_alone_and_in_pairs_with_three_players(bench: Any) -> None:
    assert bench.seatings(2) == ["Co", "oC"]
    assert bench.seatings(3) == ["Coo", "oCo", "ooC", "oCC", "CoC", "CCo"]
    assert bench.seatings(4) == ["Cooo", "oCoo", "ooCo", "oooC"]


def test_each_deal_is_a_fixed_deck_and_dealer_whoever_plays_it(bench: Any) -> None:
    setup = bench.Setup("medium", "random", 3, seed=2)
    clock = bench.Clock()
    assert bench.deal_deck(2, 0) == bench.deal_deck(2, 0) != bench.deal_deck(2, 1)
    assert bench.deal_deck(2, 0) != bench.deal_deck(3, 0)
    for index in range(4):
        played = bench.play_hand(setup, index, ["medium"] * 3, clock)
        two, _ = bench.play_hand(setup, index, ["random", "medium", "random"], clock)
        assert played[0].dealer == two.dealer == index % 3
        assert played == bench.play_hand(setup, index, ["medium"] * 3, clock)
    assert set(clock.seconds) == {"medium", "random"}


def test_the_random_baseline_only_makes_legal_moves(bench: Any) -> None:
    rng = random.Random(3)
    options = rules.Options(bomb="free", redeal=True, blind=True)
    for _ in range(20):
        game = rules.deal(rules.new_game(3, rng.randrange(3), options=options), rules.shuffle(rng))
        while not game.results:
            seat = game.to_move
            assert seat is not None
            seen = rules.view(game, seat, history=True)
            action = bench.random_move(seen, rng)
            assert bots.is_legal(seen, action), action
            game = rules.apply(game, rules.action_from_json({**action, "seat": seat}))


def test_the_report_has_every_figure_and_does_not_depend_on_the_jobs(bench: Any) -> None:
    setup = bench.Setup("medium", "random", 3, seed=1, options={"bomb": "penalty"})
    one = bench.run(setup, deals=6, games=2, jobs=1)
    two = bench.run(setup, deals=6, games=2, jobs=2)
    times = one.pop("times_ms"), two.pop("times_ms")
    assert one == two
    json.dumps(one)
    duplicate = one["duplicate"]
    assert duplicate["deals"] == 6 and duplicate["seatings"] == 6
    assert len(duplicate["per_deal"]) == 6
    low, high = duplicate["t_interval"]
    assert low <= duplicate["mean"] <= high
    low, high = duplicate["bootstrap_interval"]
    assert low <= duplicate["mean"] <= high
    for side in ("candidate", "opponent"):
        figures = duplicate["declarer"][side]
        assert {"declarer_share", "make_rate", "mean_margin", "missed_by_20_rate"} <= set(figures)
    games = one["games"]
    assert games["games"] == 2 and games["finished"] + games["unfinished"] == 2
    assert games["fair_share"] == pytest.approx(1 / 3)
    assert set(times[0]) == {"medium", "random"}
    assert set(times[0]["medium"]) == {"play", "other"}
    assert {"moves", "p50", "p95", "p99", "max"} == set(times[0]["medium"]["play"])
    text = bench.render({**one, "times_ms": times[0]})
    assert "95% t" in text and "Wilson" in text and "fair share 33.3%" in text


def test_the_cheat_makes_every_contract_it_chose(bench: Any) -> None:
    """Its bids and contract are what the solver says it makes against any defence: only
    the mus player's forced 100 (R10) can fail."""
    setup = bench.Setup("cheat", "medium", 3, seed=4)
    clock = bench.Clock()
    chosen = 0
    for index in range(15):
        for seat in range(3):
            lineup = ["medium"] * 3
            lineup[seat] = "cheat"
            result, _ = bench.play_hand(setup, index, lineup, clock)
            if result.declarer == seat and result.end is rules.End.PLAYED and result.contract > 100:
                chosen += 1
                assert result.made, (index, seat, result)
    assert chosen >= 5 and "cheat" in clock.seconds


def test_the_statistics(bench: Any) -> None:
    assert bench.t975(1) == 12.706 and bench.t975(30) == 2.042
    assert bench.t975(60) == pytest.approx(2.000, abs=0.001)
    assert bench.t975(1000) == pytest.approx(1.962, abs=0.001)
    low, high = bench.wilson(8, 10)
    assert low == pytest.approx(0.490, abs=0.001) and high == pytest.approx(0.943, abs=0.001)
    assert bench.t_interval([1.0, 1.0, 1.0]) == (1.0, 1.0)
    assert bench.bootstrap_interval([2.0] * 5, seed=1) == (2.0, 2.0)
    assert bench.percentiles([0.001 * i for i in range(1, 101)])["p95"] == pytest.approx(95)


def test_a_forced_100_nobody_bid_over_is_counted_apart(bench: Any) -> None:
    """R10: easy bots pass in the bidding, so every contract is the mus player's forced 100;
    medium bots bid, so some of theirs are not."""
    for name, everyone_passes in (("easy", True), ("medium", False)):
        deals = [bench.play_deal(bench.Setup(name, name, 3, seed=3), i) for i in range(6)]
        declared = sum(d.candidate.declared for d in deals)
        forced = sum(d.candidate.forced for d in deals)
        assert declared > 0 and (forced == declared) is everyone_passes, (name, forced, declared)
        made = sum(d.candidate.forced_made for d in deals)
        assert made <= forced


def test_the_search_contender_draws_as_the_strong_bot(bench: Any) -> None:
    """So the two compare deal by deal with the same layouts: only their bids differ."""
    draws = {name: bench.seat_rngs("k", [name, "medium"]) for name in ("search", "strong")}
    assert [r.random() for r in draws["search"]] == [r.random() for r in draws["strong"]]
    assert (
        bench.seat_rngs("k", ["medium"])[0].random() != bench.seat_rngs("k", ["easy"])[0].random()
    )


def test_the_gifts_contender_gives_what_the_open_cards_like_best(bench: Any) -> None:
    """It draws as the strong bot, and where the strong bot gives, it gives one of the same
    candidates with at least as many points by the open-card solve (more, somewhere)."""
    draws = {name: bench.seat_rngs("k", [name, "medium"]) for name in ("gifts", "strong")}
    assert [r.random() for r in draws["gifts"]] == [r.random() for r in draws["strong"]]
    compared = better = 0
    for index in range(8):
        game = rules.deal(rules.new_game(3, index % 3), bench.deal_deck(1, index))
        while game.hand.phase is rules.Phase.BIDDING:  # the mus player's forced 100
            game = rules.apply(game, rules.Pass(game.hand.to_move))
        seat = game.hand.to_move
        assert "give" in rules.view(game, seat)["legal"]  # three players: the musik is shown
        own, chosen = (
            bench.move(name, game, seat, random.Random(index), bench.Clock())
            for name in ("strong", "gifts")
        )
        own_points, chosen_points = (
            max(bench.open_hand_gain(rules.apply(game, action), seat)) for action in (own, chosen)
        )
        assert chosen_points >= own_points
        compared += 1
        better += chosen_points > own_points
    assert compared == 8 and better >= 1, (compared, better)
