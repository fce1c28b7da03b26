"""``tysiac admin …``: the operator's command line, working on the configured database.

    tysiac admin log [--days N]           rejected and reported texts (kept 30 days)
    tysiac admin blocks                   devices and addresses blocked now
    tysiac admin unblock HASH             lift the block of a device or an address
    tysiac admin delete CODE --reason …   remove a game now; its players are told why
    tysiac admin stats [--days N] [--mail]
                                          games started and finished a day

A running server tells a removed game's players within a second (its sweeper looks
for removals), whichever process removed it.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from typing import TextIO

from sqlalchemy.ext.asyncio import AsyncConnection

from tysiac.server.clock import utc_now
from tysiac.server.config import ConfigError, Settings
from tysiac.server.security import normalise_code
from tysiac.server.stats import mail_summary, summary_text
from tysiac.store import backend, moderationdb, sweeps

REASON_MAX = 300


async def show_log(settings: Settings, out: TextIO, days: int, now: datetime) -> None:
    async with _connection(settings) as conn:
        entries = await moderationdb.moderation_entries(conn, now - timedelta(days=days))
    if not entries:
        print(f"No rejected or reported texts in the last {days} days.", file=out)
    for entry in entries:
        who = entry.nick or "-"
        if entry.kind == "reported":
            who += f" (reported by {entry.reporter})"
        print(
            f"{entry.at:%Y-%m-%d %H:%M} {entry.kind:8} {entry.field:4} "
            f"game {entry.code or '-':6} {who}: {entry.text!r}  device {entry.device or '-'}",
            file=out,
        )


async def show_blocks(settings: Settings, out: TextIO, now: datetime) -> None:
    async with _connection(settings) as conn:
        blocked = await moderationdb.blocks(conn, now)
    if not blocked:
        print("Nothing is blocked.", file=out)
    for row in blocked:
        assert row.blocked_until is not None
        print(
            f"{row.kind:6} {row.hash}  until {row.blocked_until:%Y-%m-%d %H:%M} UTC, "
            f"{row.violations} violation(s)",
            file=out,
        )


async def unblock(settings: Settings, out: TextIO, hash_: str) -> bool:
    async with _connection(settings, write=True) as conn:
        lifted = await moderationdb.unblock(conn, hash_)
    print("Block lifted." if lifted else "No block with that hash.", file=out)
    return bool(lifted)


async def delete_game(
    settings: Settings, out: TextIO, code_text: str, reason: str, now: datetime
) -> bool:
    code = normalise_code(code_text)
    reason = " ".join(reason.split())
    if code is None:
        print(f"Not a game code: {code_text!r}.", file=out)
        return False
    if not reason or len(reason) > REASON_MAX:
        print(f"Give a reason of 1 to {REASON_MAX} characters: players will read it.", file=out)
        return False
    async with _connection(settings, write=True) as conn:
        removed = await sweeps.remove_game(conn, code, reason, now)
    print(f"Game {code} removed." if removed else f"No game {code}.", file=out)
    return removed


async def show_stats(settings: Settings, out: TextIO, days: int, mail: bool, now: datetime) -> None:
    async with _connection(settings) as conn:
        text = await summary_text(conn, now, days)
    print(text, file=out)
    if mail:
        await mail_summary(settings, text, now)
        print(f"Sent to {settings.operator_email}.", file=out)


@asynccontextmanager
async def _connection(settings: Settings, write: bool = False) -> AsyncIterator[AsyncConnection]:
    """A connection to the configured database (migrated first)."""
    engine = backend.create_engine(settings.database_url)
    try:
        await backend.migrate(engine)
        async with backend.writer(engine).begin() if write else engine.connect() as conn:
            yield conn
    finally:
        await engine.dispose()


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="tysiac admin", description=__doc__.split("\n")[0])
    commands = root.add_subparsers(dest="command", required=True)
    log = commands.add_parser("log", help="rejected and reported texts")
    log.add_argument("--days", type=int, default=30)
    commands.add_parser("blocks", help="devices and addresses blocked now")
    lift = commands.add_parser("unblock", help="lift a block")
    lift.add_argument("hash", help="the device or address hash, as `log` or `blocks` shows it")
    remove = commands.add_parser("delete", help="remove a game; its players see the reason")
    remove.add_argument("code")
    remove.add_argument("--reason", required=True, help="shown to players (Polish)")
    stats = commands.add_parser("stats", help="games started and finished a day")
    stats.add_argument("--days", type=int, default=30)
    stats.add_argument("--mail", action="store_true", help="also e-mail it to the operator")
    return root


def run(
    argv: Sequence[str],
    settings: Settings,
    out: TextIO = sys.stdout,
    clock: Callable[[], datetime] = utc_now,
) -> int:
    """Carry out one admin command; the exit status. ``clock``: the time (tests pass theirs)."""
    args = parser().parse_args(argv)
    now = clock()
    match args.command:
        case "log":
            asyncio.run(show_log(settings, out, args.days, now))
        case "blocks":
            asyncio.run(show_blocks(settings, out, now))
        case "unblock":
            return 0 if asyncio.run(unblock(settings, out, args.hash)) else 1
        case "delete":
            return 0 if asyncio.run(delete_game(settings, out, args.code, args.reason, now)) else 1
        case "stats":
            asyncio.run(show_stats(settings, out, args.days, args.mail, now))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    try:
        settings = Settings.from_env()
    except ConfigError as error:
        print("Configuration error:\n  - " + "\n  - ".join(error.problems), file=sys.stderr)
        return 2
    return run(sys.argv[1:] if argv is None else argv, settings)
