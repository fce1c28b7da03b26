"""The anonymous daily statistics, and the few values the server keeps for itself."""

from __future__ import annotations

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncConnection

from .backend import upsert
from .schema import (
    daily_stats,
    server_values,
)


async def count_day(
    conn: AsyncConnection, day: str, *, started: int, finished: int, bots: bool
) -> None:
    """Add to one day's counts of games started and finished: of people only, or, with
    ``bots``, of games with a computer player."""
    columns = ("bot_started", "bot_finished") if bots else ("started", "finished")
    counts = dict(zip(columns, (started, finished), strict=True))
    zeros = dict.fromkeys(("started", "finished", "bot_started", "bot_finished"), 0)
    statement = upsert(conn, daily_stats).values(day=day, **{**zeros, **counts})
    await conn.execute(
        statement.on_conflict_do_update(
            index_elements=[daily_stats.c.day],
            set_={name: daily_stats.c[name] + value for name, value in counts.items()},
        )
    )


async def days(conn: AsyncConnection, since: str) -> list[tuple[str, int, int, int, int]]:
    """Per day from ``since``: started and finished games of people, then with bots."""
    rows = await conn.execute(
        select(daily_stats).where(daily_stats.c.day >= since).order_by(daily_stats.c.day)
    )
    return [(r.day, r.started, r.finished, r.bot_started, r.bot_finished) for r in rows]


async def forget_days(conn: AsyncConnection, before: str) -> None:
    await conn.execute(delete(daily_stats).where(daily_stats.c.day < before))


async def set_server_value(conn: AsyncConnection, name: str, value: str) -> bool:
    """Set a value unless it already holds ``value``: True when this call changed it (so,
    of processes racing to set the same value, exactly one gets True)."""
    statement = upsert(conn, server_values).values(name=name, value=value)
    result = await conn.execute(
        statement.on_conflict_do_update(
            index_elements=[server_values.c.name],
            set_={"value": value},
            where=server_values.c.value != value,
        )
    )
    return result.rowcount == 1


async def take_server_value(conn: AsyncConnection, name: str) -> str | None:
    """Read a server value and delete it (in the caller's transaction)."""
    where = server_values.c.name == name
    value = await conn.scalar(select(server_values.c.value).where(where))
    if value is not None:
        await conn.execute(delete(server_values).where(where))
    return None if value is None else str(value)
