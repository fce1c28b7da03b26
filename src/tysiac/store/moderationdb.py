"""Moderation: offenders (device and address hashes), their violations and blocks, and
the admin log of refused and reported texts."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from .backend import upsert
from .schema import (
    moderation_log,
    offenders,
    violations,
)


async def blocked_until(
    conn: AsyncConnection, kind: str, hash_: str, now: datetime
) -> datetime | None:
    until = await conn.scalar(
        select(offenders.c.blocked_until).where(offenders.c.kind == kind, offenders.c.hash == hash_)
    )
    until = until
    return until if until is not None and until > now else None


async def add_violation(conn: AsyncConnection, kind: str, hash_: str, now: datetime) -> int:
    """One more violation of a device or an address: its count now."""
    statement = upsert(conn, offenders).values(
        kind=kind, hash=hash_, violations=1, last_violation=now
    )
    counted = statement.on_conflict_do_update(
        index_elements=[offenders.c.kind, offenders.c.hash],
        set_={"violations": offenders.c.violations + 1, "last_violation": now},
    ).returning(offenders.c.violations)
    return int((await conn.execute(counted)).scalar_one())


async def block(conn: AsyncConnection, kind: str, hash_: str, until: datetime) -> None:
    await conn.execute(
        update(offenders)
        .where(offenders.c.kind == kind, offenders.c.hash == hash_)
        .values(blocked_until=until)
    )


async def unblock(conn: AsyncConnection, hash_: str) -> int:
    """Lift the block of a device or an address (by its hash); how many were lifted."""
    result = await conn.execute(
        update(offenders)
        .where(offenders.c.hash == hash_, offenders.c.blocked_until.is_not(None))
        .values(blocked_until=None)
    )
    return result.rowcount


@dataclass(frozen=True, slots=True)
class OffenderRow:
    kind: str
    hash: str
    violations: int
    last_violation: datetime
    blocked_until: datetime | None


async def blocks(conn: AsyncConnection, now: datetime) -> list[OffenderRow]:
    rows = await conn.execute(
        select(offenders).where(offenders.c.blocked_until > now).order_by(offenders.c.blocked_until)
    )
    return [
        OffenderRow(r.kind, r.hash, r.violations, r.last_violation, r.blocked_until) for r in rows
    ]


async def note_violation(conn: AsyncConnection, device: str, ip: str, now: datetime) -> None:
    await conn.execute(insert(violations).values(device=device, ip=ip, at=now))


async def devices_with_violations(conn: AsyncConnection, ip: str, since: datetime) -> int:
    return int(
        await conn.scalar(
            select(func.count(violations.c.device.distinct())).where(
                violations.c.ip == ip, violations.c.at > since
            )
        )
        or 0
    )


async def log_text(conn: AsyncConnection, **values: Any) -> None:
    """A rejected or reported text in the admin log."""
    await conn.execute(insert(moderation_log).values(**values))


@dataclass(frozen=True, slots=True)
class LogRow:
    at: datetime
    kind: str
    field: str
    text: str
    nick: str | None
    reporter: str | None
    code: str | None
    device: str | None


async def moderation_entries(conn: AsyncConnection, since: datetime) -> list[LogRow]:
    rows = await conn.execute(
        select(moderation_log).where(moderation_log.c.at > since).order_by(moderation_log.c.at)
    )
    return [
        LogRow(r.at, r.kind, r.field, r.text, r.nick, r.reporter, r.code, r.device) for r in rows
    ]


async def already_reported(conn: AsyncConnection, code: str, seq: int, reporter: str) -> bool:
    """Whether this reporter already reported that chat line (its ``seq`` in the game)."""
    found = await conn.scalar(
        select(func.count()).where(
            moderation_log.c.kind == "reported",
            moderation_log.c.code == code,
            moderation_log.c.seq == seq,
            moderation_log.c.reporter == reporter,
        )
    )
    return bool(found)


async def forget_moderation(
    conn: AsyncConnection,
    now: datetime,
    *,
    texts_before: datetime,
    offenders_before: datetime,
    violations_before: datetime,
) -> None:
    """Retention: texts after 30 days, hashes 90 days after the last violation, ended blocks."""
    await conn.execute(delete(moderation_log).where(moderation_log.c.at <= texts_before))
    await conn.execute(delete(violations).where(violations.c.at <= violations_before))
    await conn.execute(
        update(offenders).where(offenders.c.blocked_until <= now).values(blocked_until=None)
    )
    await conn.execute(
        delete(offenders).where(
            offenders.c.last_violation <= offenders_before, offenders.c.blocked_until.is_(None)
        )
    )
