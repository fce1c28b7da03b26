"""The benchmark scripts run and print their figures (speed itself is never asserted)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

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


QUICK_LOAD = ["--games", "4", "--think", "0.2", "--ramp", "1", "--duration", "3"]
FIGURES = re.compile(
    r"moves/s (?P<rate>[\d.]+) \([\d,]+ moves\)   latency move -> every seat's state:"
    r" p50 [\d.]+ ms  p95 [\d.]+ ms  p99 [\d.]+ ms  max [\d.]+ ms"
)


@pytest.mark.parametrize(
    "options",
    [["--players", "3"], ["--players", "2", "--clients", "2"]],
    ids=["3-players", "2-players-2-clients"],
)
@pytest.mark.slow
def test_load_bench_plays_at_human_pace_without_errors(options: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / "load.py"), *QUICK_LOAD, *options],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    figures = FIGURES.search(done.stdout)
    assert figures is not None, done.stdout
    assert float(figures["rate"]) > 0
    assert "errors 0   dropped sockets 0" in done.stdout
    assert "server CPU per move" in done.stdout and "RSS peak" in done.stdout
    assert re.search(r"^\| 4 \(\d+\) \| \d+ \|", done.stdout, re.MULTILINE), done.stdout


def test_review_bench_prints_the_cost_per_table_size() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / "review.py"), "--hands", "2"],
        capture_output=True,
        text=True,
        check=True,
    )
    rows = [line.split() for line in done.stdout.splitlines()[1:]]
    assert [row[:2] for row in rows] == [["2", "2"], ["3", "2"], ["4", "2"]]
    assert all(re.fullmatch(r"\d+\.\d{4}", cell) for row in rows for cell in row[2:5])
    assert all(re.fullmatch(r"[\d,]+", cell) for row in rows for cell in row[5:])


QUICK_BOTS = ["--bot-games", "1", "--people-games", "1", "--seconds", "8"]
BOT_ROW = re.compile(r"^all +(?P<moves>\d+)( +[\d,]+ ms){4}$", re.MULTILINE)


@pytest.mark.slow
def test_bot_latency_bench_measures_the_strong_bots_moves() -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(BENCH / "bot_latency.py"),
            *QUICK_BOTS,
            *["--pause", "0.2", "--think", "0.1-0.2"],
        ],
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    row = BOT_ROW.search(done.stdout)
    assert row is not None and int(row["moves"]) > 0, done.stdout
    for line in ("bot moves measured:", "goal p95 <= 1,000 ms:", "people games:", "server log:"):
        assert line in done.stdout, done.stdout
    assert "machine load" in done.stdout
