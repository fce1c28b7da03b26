"""docs/records.md: its example is a real record, and what the page says of it holds."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tysiac import rules
from tysiac.rules.record import hand_input

DOC = Path(__file__).resolve().parents[2] / "docs" / "records.md"


def blocks(language: str) -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    return re.findall(rf"```{language}\n(.*?)\n```", text, re.S)


def example() -> dict[str, Any]:
    record: dict[str, Any] = json.loads(blocks("json")[0])
    return record


def test_the_example_replays_and_is_canonical() -> None:
    record = example()
    replayed = rules.read_record(record)
    assert replayed.record == record
    assert replayed.game.outcome == rules.Outcome(rules.Reason.SURRENDER, 0, 2)


def test_the_example_says_what_the_command_prints() -> None:
    replayed = rules.read_record(example())
    shell = blocks("sh")[0].splitlines()
    assert shell[0].startswith("$ .venv/bin/python -m tysiac.rules record ")
    summary = {
        "hands": len(replayed.hands),
        "scores": list(replayed.game.scores),
        "outcome": replayed.record["outcome"],
    }
    assert json.loads(shell[1]) == summary


def test_the_story_of_the_example() -> None:
    replayed = rules.read_record(example())
    first, second = replayed.hands
    assert first.actions[12] == {"seat": 1, "type": "timeout"}
    made = hand_input(replayed, 1)["actions"][12]
    assert made == {"seat": 1, "type": "play", "card": "QC"}  # R28: the weakest card
    assert first.result is not None and first.result.made
    assert first.result.points[1] == 52 and first.result.melds[1] == 160
    assert first.result.delta == (140, 120, 50)
    assert second.result is None and second.actions[-1]["type"] == "surrender"
