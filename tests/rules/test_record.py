"""The game record (docs/records.md): recorded games read back to the same results, each
hand replays alone, and a record whose results do not follow from its moves is refused
with the hand and the move named."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.records import recorded_game
from tysiac import rules
from tysiac.rules.record import (
    Recorder,
    Replayed,
    hand_input,
    read_record,
    result_json,
)
from tysiac.rules.replay import replay


def check_round_trip(record: dict[str, Any]) -> Replayed:
    """The record reads back as itself; every hand replays alone to the same result."""
    replayed = read_record(record)
    assert replayed.record == record
    assert len(replayed.hands) == len(record["hands"])
    for hand, raw in zip(replayed.hands, record["hands"], strict=True):
        assert hand.actions == raw["actions"]
        assert len(hand.games) == len(hand.actions)
        result = replay(hand_input(replayed, hand.number))
        assert result["rejected"] is None
        if hand.result is None:
            continue
        assert result["result"] is not None, hand.number
        expected = result_json(hand.result)
        for key in ("points", "melds", "made", "delta", "scores", "winner", "end"):
            assert result["result"][key] == expected[key], (hand.number, key)
        done = len(hand.before.results)
        after = next(g for g in hand.games if len(g.results) > done)
        counters = result["result"]["counters"]
        assert counters["bolts"] == list(after.counters.bolts)
        assert counters["bombs"] == list(after.counters.bombs)
        assert counters["barrel"] == after.counters.barrel
    return replayed


@pytest.mark.parametrize("seed", range(40))
def test_recorded_games_read_back_to_the_same_results(seed: int) -> None:
    recorder = recorded_game(seed, max_hands=12)
    record = recorder.record()
    replayed = check_round_trip(record)
    assert replayed.game.scores == recorder.game.scores
    assert replayed.game.outcome == recorder.game.outcome


@pytest.mark.slow
def test_a_thousand_recorded_games_read_back() -> None:
    reasons: set[str | None] = set()
    ends: set[str] = set()
    for seed in range(1000, 2000):
        record = recorded_game(seed, max_hands=60).record()
        check_round_trip(record)
        reasons.add(record["outcome"] and record["outcome"]["reason"])
        ends |= {h["result"]["end"] for h in record["hands"] if h["result"]}
    assert reasons >= {"points", "surrender", "walkover"}
    assert ends == {"played", "void", "bomb", "redeal", "resign"}


def test_a_record_so_far_reads_back_at_any_time() -> None:
    recorder = Recorder(3, 1000, rules.Options(), ["A", "B", "C"], 0)
    assert read_record(recorder.record()).hands == []
    rng = random.Random(5)
    for _ in range(60):
        check_round_trip(recorder.record())
        if recorder.game.awaiting_deal:
            recorder.deal(rules.shuffle(rng))
        else:
            recorder.move(rules.action_to_json(rng.choice(rules.legal_actions(recorder.game))))
    record = recorder.record()
    assert record["outcome"] is None and len(record["hands"]) >= 2
    assert record["hands"][-1]["result"] is None
