"""The contact form's daily limit: one row per relayed message, a keyed IP hash and a time.

Rows live a day. A send first reserves its row (insert, then count in the same
transaction), so two sends at once can never both take the last place; a send whose
relay fails releases its row again, so only delivered messages use up the quota.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import delete, func, insert, select
from sqlalchemy.ext.asyncio import AsyncConnection

from .schema import contact_sends

DAY = timedelta(days=1)


async def reserve_contact_send(
    conn: AsyncConnection, ip: str, now: datetime, limit: int
) -> int | None:
    """The id of a new row for this address, or None when it already has ``limit``."""
    row_id = await conn.scalar(
        insert(contact_sends).values(ip=ip, at=now).returning(contact_sends.c.id)
    )
    assert row_id is not None
    count = await conn.scalar(
        select(func.count())
        .select_from(contact_sends)
        .where(contact_sends.c.ip == ip, contact_sends.c.at > now - DAY)
    )
    if (count or 0) > limit:
        await conn.execute(delete(contact_sends).where(contact_sends.c.id == row_id))
        return None
    return int(row_id)


async def release_contact_send(conn: AsyncConnection, row_id: int) -> None:
    """Give back a reservation whose message was not delivered."""
    await conn.execute(delete(contact_sends).where(contact_sends.c.id == row_id))


async def forget_old_contact_sends(conn: AsyncConnection, now: datetime) -> int:
    """Delete rows older than a day; returns how many went."""
    result = await conn.execute(delete(contact_sends).where(contact_sends.c.at <= now - DAY))
    return result.rowcount
