"""The review's frames: one step per move plus the deal, every card accounted for in every
step, nothing hidden, and the same effects (trick taken, marriage, result, timeout) as
the table tells its players."""

from __future__ import annotations

import ast
import itertools
import json
import random
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tests.records import recorded_game
from tysiac import rules
from tysiac.review import frames
from tysiac.review.frames import HandFrames
from tysiac.rules.cards import ALL_CARDS, card_code
from tysiac.server.game.table import Settings, apply_event, empty_table
from tysiac.store.schema import EventKind

REVIEW = Path(__file__).resolve().parents[2] / "src" / "tysiac" / "review"
AT = datetime(2026, 12, 3, tzinfo=UTC)
DECK = sorted(card_code(card) for card in ALL_CARDS)


@pytest.fixture(scope="module")
def games() -> list[tuple[dict[str, Any], list[HandFrames]]]:
    """Recorded games under random options, with timeouts and surrenders, and their
    frames (through JSON, as the page gets them)."""
    played = []
    for seed in range(40):
        record = recorded_game(seed, max_hands=6).record()
        shown = frames(rules.read_record(record))
        assert json.loads(json.dumps(shown)) == shown  # JSON-ready, nothing to convert
        played.append((record, shown))
    return played


def test_one_step_per_move_and_one_for_the_deal(
    games: list[tuple[dict[str, Any], list[HandFrames]]],
) -> None:
    for record, shown in games:
        assert [h["number"] for h in shown] == list(range(1, len(record["hands"]) + 1))
        for hand, raw in zip(shown, record["hands"], strict=True):
            assert len(hand["steps"]) == len(raw["actions"]) + 1
            assert hand["steps"][0]["event"]["kind"] == "dealt"
            assert hand["steps"][0]["event"]["dealer"] == raw["dealer"] == hand["dealer"]
            first = hand["steps"][0]
            if "golden" in first["event"]:  # V15: the musik is the declarer's from the deal
                declarer = first["event"]["declarer"]
                held = [sorted(h) for h in first["held"]]
                assert held[declarer] == sorted(raw["hands"][declarer] + raw["musik"][0])
                assert first["musik"] == [[]]
            else:
                assert first["held"] == raw["hands"]
                assert first["musik"] == raw["musik"]
            for step, action in zip(hand["steps"][1:], raw["actions"], strict=True):
                kind = step["event"]["kind"]
                assert kind == action["type"]
                full = step["event"] | {"type": kind}
                assert full.items() >= action.items()  # every field of the move
            assert hand["result"] == raw["result"]
            assert hand["end"] == (raw["result"] and raw["result"]["end"])


def test_every_card_is_somewhere_in_every_step(
    games: list[tuple[dict[str, Any], list[HandFrames]]],
) -> None:
    for _, shown in games:
        for hand in shown:
            for step in hand["steps"]:
                places = [
                    *(c for held in step["held"] for c in held),
                    *(c for musik in step["musik"] for c in musik),
                    *step["discarded"],
                    *(str(card) for _, card in step["trick"]),
                    *(c for pile in step["taken"] for c in pile),
                ]
                assert sorted(places) == DECK, (hand["number"], step["event"])


def test_a_completed_trick_stays_on_the_table_for_its_step(
    games: list[tuple[dict[str, Any], list[HandFrames]]],
) -> None:
    completed = 0
    for _, shown in games:
        for hand in shown:
            steps = hand["steps"]
            for before, step in itertools.pairwise(steps):
                if "took" not in step["event"]:
                    continue
                completed += 1
                trick = step["trick"]
                assert trick[:-1] == before["trick"]
                assert sum(step["tricks"]) == sum(before["tricks"]) + 1
                assert step["last_trick"] == before["last_trick"]
                winner = step["event"]["took"]
                assert all(card not in step["taken"][winner] for _, card in trick)
    assert completed > 1000


def test_the_give_shows_its_cards(games: list[tuple[dict[str, Any], list[HandFrames]]]) -> None:
    given = 0
    for _, shown in games:
        for hand in shown:
            for before, step in itertools.pairwise(hand["steps"]):
                event = step["event"]
                if event["kind"] == "timeout" and "move" in event:
                    event = event["move"]
                if event["kind"] != "give":
                    continue
                given += 1
                for seat, card in event["cards"].items():
                    assert card in step["held"][int(seat)]
                    assert card in before["held"][event["seat"]]
                    assert card not in step["held"][event["seat"]]
    assert given > 50


def table_events(record: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """What the server's table tells everyone of each move, hand by hand."""
    settings = Settings(
        record["players"],
        record["target"],
        None,
        True,
        False,
        60,
        rules.options_from_json(record["options"]),
    )
    table, _ = apply_event(
        empty_table("ABCDEF", settings),
        EventKind.STARTED,
        {"first_dealer": record["first_dealer"], "scores": record["scores"]},
        AT,
    )
    told = []
    for hand in record["hands"]:
        deck = [c for seat in hand["hands"] for c in seat] + [c for m in hand["musik"] for c in m]
        table, dealt = apply_event(table, EventKind.DEALT, {"deck": order(record, hand, deck)}, AT)
        events = [dict(dealt)]
        for action in hand["actions"]:
            table, public = apply_event(table, EventKind.MOVE, action, AT)
            events.append(dict(public))
        told.append(events)
    return told


def order(record: dict[str, Any], hand: dict[str, Any], deck: list[str]) -> list[str]:
    """The deck that deals ``hand``: the active seats' cards from the mus player on."""
    players, dealer = record["players"], hand["dealer"]
    seats = [(dealer + i) % players for i in range(1, players + 1)][:3]
    return [c for s in seats for c in hand["hands"][s]] + [c for m in hand["musik"] for c in m]


def test_took_meld_result_and_timeouts_as_the_table_tells_them(
    games: list[tuple[dict[str, Any], list[HandFrames]]],
) -> None:
    seen: set[str] = set()
    for record, shown in games:
        for hand, told in zip(shown, table_events(record), strict=True):
            dealt = told[0]
            assert hand["steps"][0]["event"] == {
                k: v for k, v in dealt.items() if k in ("kind", "dealer", "golden", "declarer")
            }
            for step, public in zip(hand["steps"][1:], told[1:], strict=True):
                event = step["event"]
                for key in ("took", "meld", "result", "walkover"):
                    assert event.get(key) == public.get(key), (key, event, public)
                    seen |= {key} if key in event else set()
                assert rules.public_action({**event, "type": event["kind"]}) == {
                    **{k: v for k, v in public.items() if k in ("seat", "value", "index", "card")},
                    "type": public["kind"],
                }
                if "move" in public:
                    made = event["move"]
                    assert rules.public_action({**made, "type": made["kind"]}) == {
                        **{k: v for k, v in public["move"].items() if k != "kind"},
                        "type": public["move"]["kind"],
                    }
                    seen.add("move")
    assert seen == {"took", "meld", "result", "walkover", "move"}


def test_the_review_imports_nothing_of_the_server() -> None:
    """Like the rules and the bots: pure, so a worker or a test can use it alone."""
    for path in REVIEW.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                # ``from tysiac import rules`` imports tysiac.rules
                names = [f"{node.module}.{alias.name}" for alias in node.names]
            for name in names:
                if name.split(".")[0] == "tysiac":
                    allowed = ("tysiac.rules", "tysiac.bots", "tysiac.review")
                    assert name.startswith(allowed), f"{path.name} imports {name}"
    frames_py = (REVIEW / "frames.py").read_text(encoding="utf-8")
    assert "tysiac.bots" not in frames_py  # the frames need the rules only


def test_a_surrender_after_the_hand_is_its_last_step() -> None:
    recorder = rules.Recorder(3, 500, rules.Options(), ["A", "B", "C"], 0)
    recorder.deal(rules.shuffle(random.Random(4)))
    while not recorder.game.awaiting_deal:
        made = rules.auto_action(recorder.game)
        assert made is not None
        recorder.move(rules.action_to_json(made))
    recorder.move({"seat": 0, "type": "surrender"})
    (hand,) = frames(rules.read_record(recorder.record()))
    last, before = hand["steps"][-1], hand["steps"][-2]
    assert last["event"] == {"kind": "surrender", "seat": 0}
    assert last["phase"] == "over" and last["to_move"] is None
    assert before["event"]["result"] == 0 and hand["result"] is not None
    assert last["held"] == before["held"] and last["scores"] == before["scores"]
