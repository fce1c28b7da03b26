"""Anonymous statistics: how many games started and finished each day (UTC), nothing else;
games with a computer player are counted apart ("with bots"), so the figures of people
playing people stay what they were.

The counts are kept 400 days. ``tysiac admin stats`` prints them; with ``stats_email``
set, the server mails the operator the summary once a day.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncConnection

from tysiac.server.config import Settings
from tysiac.server.contact.mail import send_mail
from tysiac.store import statsdb

SUBJECT = "Tysiąc: statystyki dzienne"
MAILED_KEY = "stats_mailed_for"  # the last day whose summary was mailed


class DailyQuota:
    """Which games' starts and ends go into the day's counts.

    As the description's statistics gateway does: at most ``per_address`` events a day
    from the games of one address, so one address churning through games cannot inflate
    the counts. The address's hash is kept in memory for the day only.
    """

    def __init__(self, per_address: int) -> None:
        self.per_address = per_address
        self._day = ""
        self._events: Counter[str] = Counter()  # events counted today, by address hash

    def counts(self, creator_ip: str, day: str) -> bool:
        if self._day != day:
            self._day, self._events = day, Counter()
        self._events[creator_ip] += 1
        return self._events[creator_ip] <= self.per_address


async def summary_text(conn: AsyncConnection, now: datetime, days: int) -> str:
    """A table of the last ``days`` days (today included) with totals."""
    first = (now - timedelta(days=days - 1)).date()
    rows = await statsdb.days(conn, first.isoformat())
    counts = {day: tuple(figures) for day, *figures in rows}
    lines = ["day         started  finished  with bots: started  finished"]
    totals = [0, 0, 0, 0]
    for offset in range(days):
        day = (first + timedelta(days=offset)).isoformat()
        figures = counts.get(day, (0, 0, 0, 0))
        totals = [t + f for t, f in zip(totals, figures, strict=True)]
        lines.append(_line(day, figures))
    lines.append(_line("total", totals))
    return "\n".join(lines)


def _line(day: str, figures: Sequence[int]) -> str:
    started, finished, bot_started, bot_finished = figures
    return f"{day:10}  {started:7}  {finished:8}  {bot_started:18}  {bot_finished:8}"


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
