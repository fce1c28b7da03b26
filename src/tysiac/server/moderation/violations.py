"""Moderation (Regulamin §4.6-7): vulgar words are refused, offenders collect points.

Each violation is a point of its author (``authors.Author``): the first two are
warnings, the third blocks the device for 24 hours, every later one (necessarily after
the block ended) for a week. Three or more devices with violations from one address
within 24 hours block the address for 24 hours. A blocked device or address cannot
create games, join them or write in chat.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy.ext.asyncio import AsyncConnection

from tysiac import wordfilter
from tysiac.catalogue import Word, spell
from tysiac.server.moderation.authors import Author
from tysiac.store import moderationdb

APPEAL = Word("moderation.appeal")  # said after every block

WARNINGS = 2  # violations that only warn
FIRST_BLOCK = timedelta(hours=24)
LATER_BLOCK = timedelta(days=7)
IP_DEVICES = 3  # devices with violations from one address within IP_WINDOW block it
IP_WINDOW = timedelta(hours=24)
IP_BLOCK = timedelta(hours=24)
KEEP_OFFENDERS = timedelta(days=90)  # after the last violation
KEEP_TEXTS = timedelta(days=30)  # rejected and reported texts in the admin log

# Where the refused text came (the request's field), by the kind of text.
FIELDS = {"nick": "nick", "name": "name", "chat": "text"}

try:
    POLISH_TIME: ZoneInfo | None = ZoneInfo("Europe/Warsaw")
except ZoneInfoNotFoundError:  # pragma: no cover - a system without time zone data
    POLISH_TIME = None


class Refused(Exception):
    """A text or an author refused by moderation: ``words`` say it (the catalogue's
    ``error.<code>.<kind>`` and the sentences that follow), ``message`` in Polish;
    ``field`` is the refused text's request field (None for a blocked author)."""

    def __init__(self, words: tuple[Word, ...], field: str | None = None) -> None:
        self.words = words
        self.message = spell(words)
        super().__init__(self.message)
        self.code = words[0].key.split(".")[1]
        self.field = field


def until_text(moment: datetime) -> Word:
    """A block's end in Polish time, "30.11.2026, 21:05", which a reader of another
    language is told is Polish time (``moment.polish``); UTC where the system has no
    time zone data."""
    if POLISH_TIME is None:  # pragma: no cover - a system without time zone data
        return Word("moment.utc", {"moment": moment.strftime("%d.%m.%Y, %H:%M")})
    return Word(
        "moment.polish", {"moment": moment.astimezone(POLISH_TIME).strftime("%d.%m.%Y, %H:%M")}
    )


def is_vulgar(text: str) -> bool:
    return wordfilter.find_vulgarity(text) is not None


async def check_not_blocked(conn: AsyncConnection, author: Author, now: datetime) -> None:
    """Refuse a blocked device or address, saying until when."""
    for kind, hash_, key in (
        ("device", author.device, "error.blocked.device"),
        ("ip", author.ip, "error.blocked.ip"),
    ):
        until = await moderationdb.blocked_until(conn, kind, hash_, now)
        if until is not None:
            raise Refused((Word(key, {"until": until_text(until)}), APPEAL))


async def record_violation(
    conn: AsyncConnection,
    author: Author,
    now: datetime,
    *,
    field: str,
    text: str,
    nick: str | None,
    code: str | None,
) -> Refused:
    """Log the refused text, give the device its point, block as the rules say.

    Returns the refusal to raise once the transaction is committed.
    """
    await moderationdb.log_text(
        conn,
        at=now,
        kind="rejected",
        field=field,
        text=text,
        nick=nick,
        code=code,
        device=author.device,
    )
    count = await moderationdb.add_violation(conn, "device", author.device, now)
    await moderationdb.add_violation(conn, "ip", author.ip, now)
    await moderationdb.note_violation(conn, author.device, author.ip, now)
    if count > WARNINGS:
        until = now + (FIRST_BLOCK if count == WARNINGS + 1 else LATER_BLOCK)
        await moderationdb.block(conn, "device", author.device, until)
    words = (Word(f"error.vulgar.{field}"), *_consequence(count, now))
    if await moderationdb.devices_with_violations(conn, author.ip, now - IP_WINDOW) >= IP_DEVICES:
        await moderationdb.block(conn, "ip", author.ip, now + IP_BLOCK)
        words += (Word("moderation.block.ip", {"until": until_text(now + IP_BLOCK)}), APPEAL)
    return Refused(words, FIELDS[field])


def _consequence(count: int, now: datetime) -> tuple[Word, ...]:
    if count == 1:
        return (Word("moderation.warning.first"),)
    if count == WARNINGS:
        return (Word("moderation.warning.second"),)
    block = FIRST_BLOCK if count == WARNINGS + 1 else LATER_BLOCK
    key = "moderation.block.first" if block == FIRST_BLOCK else "moderation.block.later"
    return Word(key, {"until": until_text(now + block)}), APPEAL
