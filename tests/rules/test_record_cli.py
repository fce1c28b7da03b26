"""``python -m tysiac.rules record [FILE]`` as a reviewer runs it: a summary on stdout, or
exit 2 with the hand and the move named on stderr."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.records import recorded_game

SRC = Path(__file__).resolve().parents[2] / "src"


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    return subprocess.run(
        [sys.executable, "-S", "-m", "tysiac.rules", "record", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )


@pytest.fixture(scope="module")
def game() -> dict[str, Any]:
    """A finished game of several hands."""
    for seed in range(50):
        record = recorded_game(seed, players=3, target=500).record()
        if record["outcome"] is not None and len(record["hands"]) >= 3:
            return record
    raise AssertionError("no such game")


def summary(record: dict[str, Any]) -> dict[str, Any]:
    return {
        "hands": len(record["hands"]),
        "scores": record["hands"][-1]["result"]["scores"],
        "outcome": record["outcome"],
    }


def test_a_record_from_a_file_replays(game: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "tysiac-G00001.json"
    path.write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    done = run(str(path))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == summary(game)
    assert done.stderr == ""


def test_a_record_on_stdin_replays(game: dict[str, Any]) -> None:
    done = run(stdin=json.dumps(game))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == summary(game)


def test_a_tampered_record_exits_2_naming_the_hand(game: dict[str, Any], tmp_path: Path) -> None:
    tampered = copy.deepcopy(game)
    result = tampered["hands"][1]["result"]
    result["delta"] = [d + 10 for d in result["delta"]]
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(tampered), encoding="utf-8")
    for done in (run(str(path)), run(stdin=json.dumps(tampered))):
        assert done.returncode == 2
        assert done.stdout == ""
        assert done.stderr.startswith("tysiac-rules: invalid record: hand 2: the result says delta")


def test_a_refused_move_exits_2_naming_hand_and_move(game: dict[str, Any]) -> None:
    tampered = copy.deepcopy(game)
    tampered["hands"][0]["actions"].append({"seat": 0, "type": "pass"})
    number = len(tampered["hands"][0]["actions"])
    done = run(stdin=json.dumps(tampered))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (
        f"tysiac-rules: invalid record: hand 1, move {number}: the hand is over; "
        "the record goes on.\n"
    )


@pytest.mark.parametrize("text", ["{not json", "", "[1, 2]", '{"format": "tysiac-record"}'])
def test_not_a_record_exits_2(text: str) -> None:
    done = run(stdin=text)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("tysiac-rules: invalid record: ")


def test_a_missing_file_exits_2(tmp_path: Path) -> None:
    done = run(str(tmp_path / "none.json"))
    assert done.returncode == 2 and done.stdout == "" and "none.json" in done.stderr
