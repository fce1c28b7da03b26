"""The replay CLI as reviewers run it: stdin to stdout, exit 2 on an invalid deal."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
EXAMPLE: dict[str, Any] = {
    "players": 3,
    "dealer": 2,
    "target": 1000,
    "scores": [0, 0, 0],
    "hands": [
        ["AS", "TS", "KS", "QS", "JS", "9S", "AH"],
        ["KH", "QH", "AD", "TD", "KD", "QD", "JD"],
        ["9D", "AC", "TC", "KC", "QC", "JC", "9C"],
    ],
    "musik": [["9H", "JH", "TH"]],
    "actions": [
        {"seat": 1, "type": "bid", "value": 110},
        {"seat": 2, "type": "pass"},
        {"seat": 0, "type": "pass"},
        {"seat": 1, "type": "give", "cards": {"2": "9H", "0": "JH"}},
        {"seat": 1, "type": "declare", "value": 120},
        {"seat": 1, "type": "play", "card": "KH"},
    ],
}
EXPECTED = {
    "rejected": None,
    "phase": "play",
    "to_move": 2,
    "bid": 110,
    "declarer": 1,
    "contract": 120,
    "trump": "H",
    "legal": ["9H"],
    "result": None,
}


def run(stdin: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    return subprocess.run(
        [sys.executable, "-S", "-m", "tysiac.rules", "replay", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )


def test_rules_md_example() -> None:
    done = run(json.dumps(EXAMPLE))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == EXPECTED


def test_console_script_is_installed() -> None:
    script = shutil.which("tysiac-rules", path=str(Path(sys.executable).parent))
    assert script is not None
    done = subprocess.run(
        [script, "replay"], input=json.dumps(EXAMPLE), capture_output=True, text=True, check=True
    )
    assert json.loads(done.stdout) == EXPECTED


def test_jsonl_one_result_per_line_in_order() -> None:
    short = {**EXAMPLE, "actions": EXAMPLE["actions"][:1]}
    done = run(json.dumps(EXAMPLE) + "\n" + json.dumps(short) + "\n", "--jsonl")
    assert done.returncode == 0, done.stderr
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert first == EXPECTED
    assert second["phase"] == "bidding" and second["to_move"] == 2 and second["bid"] == 110


def swap(hands: list[list[str]], seat: int, index: int, card: str) -> list[list[str]]:
    changed = [list(h) for h in hands]
    changed[seat][index] = card
    return changed


@pytest.mark.parametrize(
    "change",
    [
        {"hands": swap(EXAMPLE["hands"], 0, 0, "AS ")},  # unknown code
        {"hands": swap(EXAMPLE["hands"], 0, 0, "TS")},  # duplicate
        {"hands": [h[:6] for h in EXAMPLE["hands"]]},  # wrong card count
        {"musik": [["9H", "JH"]]},
        {"musik": [["9H", "JH", "TH"], []]},
        {"players": 5},
        {"players": "3"},
        {"dealer": 3},
        {"target": 800},
        {"scores": [0, 0]},
        {"scores": [0, 0, 1.5]},
        {"actions": {}},
    ],
)
def test_invalid_deal_exits_2_with_a_message_and_no_json(change: dict[str, Any]) -> None:
    done = run(json.dumps({**EXAMPLE, **change}))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip()


def test_not_json_exits_2() -> None:
    done = run("{not json")
    assert done.returncode == 2 and done.stdout == "" and done.stderr.strip()


def test_jsonl_stops_at_an_invalid_line_after_printing_the_earlier_ones() -> None:
    bad = {**EXAMPLE, "players": 7}
    done = run(
        json.dumps(EXAMPLE) + "\n" + json.dumps(bad) + "\n" + json.dumps(EXAMPLE) + "\n", "--jsonl"
    )
    assert done.returncode == 2
    assert [json.loads(line) for line in done.stdout.splitlines()] == [EXPECTED]
    assert "line 2" in done.stderr


def test_four_player_dealer_hand_must_be_empty() -> None:
    four = {
        "players": 4,
        "dealer": 0,
        "hands": [["9S"], *EXAMPLE["hands"]],
        "musik": [["9H", "JH", "TH"]],
        "actions": [],
    }
    assert run(json.dumps(four)).returncode == 2


@pytest.mark.parametrize(
    "action",
    [
        {"seat": 1, "type": "bid", "value": "110"},
        {"seat": 1, "type": "bid", "value": 110.0},
        {"seat": 1, "type": "bid", "value": True},
        {"seat": 1, "type": "bid"},
        {"seat": "1", "type": "pass"},
        {"seat": 1, "type": "fold"},
        {"seat": 1, "type": "pass", "extra": 1},
        {"seat": 1, "type": "surrender"},
        "pass",
        None,
    ],
)
def test_malformed_action_is_rejected_not_a_crash(action: Any) -> None:
    done = run(json.dumps({**EXAMPLE, "actions": [action]}))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["rejected"]["index"] == 0 and out["rejected"]["reason"]
    assert out["phase"] == "bidding" and out["to_move"] == 1 and out["bid"] == 100


@pytest.mark.parametrize(
    "change",
    [
        {"options": {"bid_step": 5.0}},
        {"options": {"bid_step": "5"}},
        {"options": {"rounding": 5}},
        {"options": {"barrel": 880}},
        {"options": {"mus": 0}},
        {"options": {"colour": True}},
        {"options": []},
        {"counters": {"bolts": [0, 3, 0]}},
        {"counters": {"bolts": [0, 0]}},
        {"counters": {"bombs": [0, -1, 0]}},
        {"counters": {"barrel": 3}},
        {"counters": {"tries": 3}},
        {"counters": {"tries": True}},
        {"counters": {"barel": 1}},
        {"counters": []},
        {"options": {"golden_ace": 1}},
        {"options": {"barrel": False}},
        {"options": {"golden_ace": True}, "counters": {"golden": -1}},
        {"options": {"golden_ace": True}, "counters": {"golden": 1.0}},
        {"options": {"golden_ace": True}, "counters": {"golden": None}},
        {"options": {"golden_ace": True}, "counters": {"golden_made": 1}},
        {"options": {"golden_ace": False}, "counters": {"golden": -2}},  # validated anyway
        {"counters": {"golden_made": "false"}},
    ],
)
def test_v1_v14_v15_v16_bad_options_or_counters_exit_2(change: dict[str, Any]) -> None:
    done = run(json.dumps({**EXAMPLE, **change}))
    assert done.returncode == 2 and done.stdout == "" and done.stderr.strip()


def test_v1_v14_empty_options_add_end_and_counters_to_the_result() -> None:
    played = {**EXAMPLE, "actions": EXAMPLE["actions"][:3]}
    plain = json.loads(run(json.dumps(played)).stdout)
    assert plain["result"] is None and "end" not in json.dumps(plain)
    voided = {**EXAMPLE, "options": {"mus": False}, "actions": []}
    for seat in (0, 1, 2):
        voided["actions"].append({"seat": seat, "type": "pass"})
    out = json.loads(run(json.dumps(voided)).stdout)
    assert out["phase"] == "over" and out["bid"] is None and out["to_move"] is None
    assert out["result"]["end"] == "void" and out["result"]["made"] is None
    assert out["result"]["counters"] == {
        "bolts": [0, 0, 0],
        "bombs": [0, 0, 0],
        "barrel": None,
        "tries": 0,
    }
    same = json.loads(run(json.dumps({**EXAMPLE, "options": {}})).stdout)
    assert same == EXPECTED  # not over yet: the same output


def test_v15_golden_counters_are_output_only_with_golden_ace_and_any_golden_from_0() -> None:
    resign = {"seat": 0, "type": "resign"}
    over = {**EXAMPLE, "options": {"golden_ace": True}, "actions": [resign]}
    out = json.loads(run(json.dumps({**over, "counters": {"golden": 7}})).stdout)
    # golden 7 >= 3 players: the golden hands are over, bidding as usual, resign refused
    assert out["phase"] == "bidding" and out["rejected"]["index"] == 0
    out = json.loads(run(json.dumps(over)).stdout)
    assert out["result"]["end"] == "resign" and out["result"]["made"] is None
    assert out["result"]["counters"]["golden"] == 1
    assert out["result"]["counters"]["golden_made"] is False
    off = {**EXAMPLE, "options": {"bomb": "penalty"}, "counters": {"golden": 2}}
    off["actions"] = [
        {"seat": 1, "type": "pass"},
        {"seat": 2, "type": "pass"},
        {"seat": 0, "type": "bomb"},
    ]
    out = json.loads(run(json.dumps(off)).stdout)
    assert set(out["result"]["counters"]) == {"bolts", "bombs", "barrel", "tries"}
