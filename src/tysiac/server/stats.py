"""Anonymous statistics: how many games started and finished each day (UTC), nothing else.

The counts are kept 400 days. ``tysiac admin stats`` prints them; with ``stats_email``
set, the server mails the operator the summary once a day.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncConnection

from tysiac.store import statsdb

from .config import Settings
from .contact.mail import send_mail

SUBJECT = "Tysiąc: statystyki dzienne"
MAILED_KEY = "stats_mailed_for"  # the last day whose summary was mailed


async def summary_text(conn: AsyncConnection, now: datetime, days: int) -> str:
    """A table of the last ``days`` days (today included) with totals."""
    first = (now - timedelta(days=days - 1)).date()
    rows = await statsdb.days(conn, first.isoformat())
    counts = {day: (started, finished) for day, started, finished in rows}
    lines = ["day         started  finished"]
    total_started = total_finished = 0
    for offset in range(days):
        day = (first + timedelta(days=offset)).isoformat()
        started, finished = counts.get(day, (0, 0))
        total_started += started
        total_finished += finished
        lines.append(f"{day}  {started:7}  {finished:8}")
    lines.append(f"{'total':10}  {total_started:7}  {total_finished:8}")
    return "\n".join(lines)


async def mail_summary(settings: Settings, text: str, now: datetime) -> None:
    await send_mail(settings, SUBJECT, text, now)


async def due_summary(conn: AsyncConnection, now: datetime) -> str | None:
    """Once a day: the summary of yesterday and the week before it, else None.

    The day is marked as mailed at once, so a failing mail server gets no storm of retries,
    and only the process that marks it mails it.
    """
    yesterday = (now - timedelta(days=1)).date().isoformat()
    if not await statsdb.set_server_value(conn, MAILED_KEY, yesterday):
        return None
    return await summary_text(conn, now - timedelta(days=1), 8)
