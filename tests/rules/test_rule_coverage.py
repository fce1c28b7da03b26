"""Every rule of docs/rules.md, R1 to R32, is named by at least one test (or scenario file);
every table option, V1 to V16, by at least three scenario files (in the file name)."""

from __future__ import annotations

import json
import re
from pathlib import Path

HERE = Path(__file__).parent
SCENARIOS = sorted((HERE / "scenarios").glob("*.json"))


def test_every_rule_id_is_named_by_a_test() -> None:
    named: set[int] = set()
    for path in HERE.glob("test_*.py"):
        for match in re.finditer(r"def test_((?:r\d+_)+)", path.read_text(encoding="utf-8")):
            named |= {int(n) for n in re.findall(r"r(\d+)_", match.group(1))}
    for path in SCENARIOS:
        rules = json.loads(path.read_text(encoding="utf-8"))["rules"]
        named |= {int(r[1:]) for r in rules if r.startswith("R")}
    assert set(range(1, 33)) - named == set()


def option_ids(name: str) -> set[int]:
    """The V ids a scenario file's name carries: ``v7_v9_bomb....json`` -> {7, 9}."""
    return {int(n) for n in re.findall(r"(?:^|_)v(\d+)(?=_)", name)}


def test_every_option_id_is_named_by_three_scenario_files() -> None:
    files: dict[int, list[str]] = {v: [] for v in range(1, 17)}
    for path in SCENARIOS:
        rules = set(json.loads(path.read_text(encoding="utf-8"))["rules"])
        for v in option_ids(path.stem):
            assert f"V{v}" in rules, f"{path.name} names V{v} but its rules do not"
            files.setdefault(v, []).append(path.name)
    assert set(files) == set(range(1, 17)), "only V1..V16 exist"
    short = {f"V{v}": names for v, names in files.items() if len(names) < 3}
    assert not short, short


def test_a_scenario_with_options_names_an_option() -> None:
    for path in SCENARIOS:
        data = json.loads(path.read_text(encoding="utf-8"))
        if "options" in data["input"]:
            assert option_ids(path.stem), path.name
