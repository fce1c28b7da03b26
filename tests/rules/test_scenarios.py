"""Hand-checked scenario files (tests/rules/scenarios/*.json) through the replay CLI.

Each file is ``{"description", "rules": ["R19", ...], "input": <replay input>,
"expected": <replay output>}``; ``legal`` is compared as a set.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tysiac.rules.replay import replay

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))
SRC = Path(__file__).resolve().parents[2] / "src"


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def normalise(output: dict[str, Any]) -> dict[str, Any]:
    return {**output, "legal": sorted(output["legal"])}


def test_there_are_scenarios() -> None:
    assert len(SCENARIOS) >= 20


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    scenario = load(path)
    assert scenario["rules"], "name the rules the scenario checks"
    assert normalise(replay(scenario["input"])) == normalise(scenario["expected"])


def test_all_scenarios_through_the_cli_in_one_jsonl_run() -> None:
    """The CLI with nothing but the standard library and src/ on the path."""
    scenarios = [load(p) for p in SCENARIOS]
    lines = "".join(json.dumps(s["input"]) + "\n" for s in scenarios)
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    done = subprocess.run(
        [sys.executable, "-S", "-m", "tysiac.rules", "replay", "--jsonl"],
        input=lines,
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    outputs = [json.loads(line) for line in done.stdout.splitlines()]
    assert [normalise(o) for o in outputs] == [normalise(s["expected"]) for s in scenarios]
