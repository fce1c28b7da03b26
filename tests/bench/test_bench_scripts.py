"""The benchmark scripts run and print their figures (speed itself is never asserted)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"


def test_engine_bench_prints_a_row_per_table_size_and_options() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / "engine.py"), "--seconds", "0.05"],
        capture_output=True,
        text=True,
        check=True,
    )
    rows = [line.split() for line in done.stdout.splitlines()[1:]]
    assert [row[:2] for row in rows] == [
        [options, players] for options in ("defaults", "heavy") for players in ("2", "3", "4")
    ]
    assert all(re.fullmatch(r"[\d,]+/s", cell) for row in rows for cell in row[2:])
