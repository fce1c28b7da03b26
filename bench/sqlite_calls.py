"""What one SQLite statement costs the event loop: through aiosqlite's thread, or called here.

    python bench/sqlite_calls.py [--calls 5000]

aiosqlite runs every statement in a thread of its own and hands the result back to the
event loop; the group commit (``store/commits.py``) runs a move's small writes on the
loop's thread instead. This prints the CPU time (the whole process's) and the wall time
per ``SELECT 1`` both ways, so the hop's own cost can be read off.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import tempfile
import time
from pathlib import Path

import aiosqlite


async def through_aiosqlite(path: Path, calls: int) -> tuple[float, float]:
    async with aiosqlite.connect(path) as db:
        await db.execute("SELECT 1")
        cpu, wall = time.process_time(), time.perf_counter()
        for _ in range(calls):
            await db.execute("SELECT 1")
        return time.process_time() - cpu, time.perf_counter() - wall


def called_here(path: Path, calls: int) -> tuple[float, float]:
    db = sqlite3.connect(path, isolation_level=None)
    try:
        cpu, wall = time.process_time(), time.perf_counter()
        for _ in range(calls):
            db.execute("SELECT 1")
        return time.process_time() - cpu, time.perf_counter() - wall
    finally:
        db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=5000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "calls.db"
        for name, (cpu, wall) in (
            ("through aiosqlite", asyncio.run(through_aiosqlite(path, args.calls))),
            ("called on the loop's thread", called_here(path, args.calls)),
        ):
            print(
                f"{name:28} CPU {cpu / args.calls * 1e6:6.1f} µs/statement"
                f"   wall {wall / args.calls * 1e6:6.1f} µs/statement"
            )


if __name__ == "__main__":
    main()
