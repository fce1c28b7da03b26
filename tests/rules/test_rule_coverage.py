"""Every rule of docs/rules.md, R1 to R32, is named by at least one test (or scenario file)."""

from __future__ import annotations

import json
import re
from pathlib import Path

HERE = Path(__file__).parent


def test_every_rule_id_is_named_by_a_test() -> None:
    named: set[int] = set()
    for path in HERE.glob("test_*.py"):
        for match in re.finditer(r"def test_((?:r\d+_)+)", path.read_text(encoding="utf-8")):
            named |= {int(n) for n in re.findall(r"r(\d+)_", match.group(1))}
    for path in (HERE / "scenarios").glob("*.json"):
        named |= {int(r[1:]) for r in json.loads(path.read_text(encoding="utf-8"))["rules"]}
    assert set(range(1, 33)) - named == set()
