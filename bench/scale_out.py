"""Server load on one process with SQLite against several on PostgreSQL and Redis.

    python bench/scale_out.py [--games 50] [--players 3] [--seconds 20] [--processes 2]
        [--postgres postgresql://postgres@127.0.0.1:5432/postgres]
        [--redis redis://127.0.0.1:6379/14]

Runs the load of bench/server.py (bots on real WebSockets, moving as soon as it is their
turn) three times, each on fresh servers and a fresh database: one process on SQLite
(the default setup), one process on PostgreSQL + Redis, then PROCESSES processes on
PostgreSQL + Redis with the players of every game spread over them (seat i on process
i mod PROCESSES), as behind a proxy without sticky sessions. ``--postgres`` names a
database to create the throwaway ones from.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import asyncpg

from local_server import running_server
from server import run


async def _execute(url: str, statement: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(statement)
    finally:
        await conn.close()


@contextmanager
def fresh_database(admin_url: str) -> Iterator[str]:
    """A new PostgreSQL database (its SQLAlchemy URL), dropped afterwards."""
    name = f"tysiac_bench_{secrets.token_hex(4)}"
    asyncio.run(_execute(admin_url, f"CREATE DATABASE {name}"))
    try:
        base = admin_url.rpartition("/")[0].replace("postgresql://", "postgresql+asyncpg://")
        yield f"{base}/{name}"
    finally:
        asyncio.run(_execute(admin_url, f"DROP DATABASE {name} WITH (FORCE)"))


def scale_out_run(args: argparse.Namespace, processes: int) -> None:
    with ExitStack() as stack:
        env = {
            "TYSIAC_DATABASE_URL": stack.enter_context(fresh_database(args.postgres)),
            "TYSIAC_REDIS_URL": args.redis,
            "TYSIAC_HASHING_SECRET": secrets.token_hex(32),  # every process hashes alike
        }
        bases = [stack.enter_context(running_server(**env)) for _ in range(processes)]
        asyncio.run(run(bases, args.games, args.players, args.seconds))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--players", type=int, default=3, choices=(2, 3, 4))
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--postgres", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/14")
    args = parser.parse_args()
    print("== one process, SQLite")
    with running_server() as base:
        asyncio.run(run([base], args.games, args.players, args.seconds))
    print("== one process, PostgreSQL + Redis")
    scale_out_run(args, 1)
    print(f"== {args.processes} processes, PostgreSQL + Redis, each game's players spread")
    scale_out_run(args, args.processes)


if __name__ == "__main__":
    main()
