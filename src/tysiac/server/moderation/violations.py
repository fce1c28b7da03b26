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
from tysiac.server.moderation.authors import Author
from tysiac.store import moderationdb

APPEAL = (
    " Jeśli uważasz, że to pomyłka (na przykład dzielisz adres IP z innymi), napisz do"
    " operatora przez formularz kontaktowy: /kontakt."
)

WARNINGS = 2  # violations that only warn
FIRST_BLOCK = timedelta(hours=24)
LATER_BLOCK = timedelta(days=7)
IP_DEVICES = 3  # devices with violations from one address within IP_WINDOW block it
IP_WINDOW = timedelta(hours=24)
IP_BLOCK = timedelta(hours=24)
KEEP_OFFENDERS = timedelta(days=90)  # after the last violation
KEEP_TEXTS = timedelta(days=30)  # rejected and reported texts in the admin log

# What was refused, as the writer is told.
REFUSED = {
    "nick": "Ten nick zawiera niedozwolone słowo i został odrzucony.",
    "name": "Nazwa gry zawiera niedozwolone słowo i została odrzucona.",
    "chat": "Wiadomość nie została wysłana: zawiera niedozwolone słowo.",
}

try:
    POLISH_TIME: ZoneInfo | None = ZoneInfo("Europe/Warsaw")
except ZoneInfoNotFoundError:  # pragma: no cover - a system without time zone data
    POLISH_TIME = None


class Refused(Exception):
    """A text or an author refused by moderation; ``message`` is Polish, for the writer."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def until_text(moment: datetime) -> str:
    """A block's end as a Pole reads it: "30.11.2026, 21:05"."""
    local = moment.astimezone(POLISH_TIME) if POLISH_TIME is not None else moment
    suffix = "" if POLISH_TIME is not None else " UTC"
    return local.strftime("%d.%m.%Y, %H:%M") + suffix


def is_vulgar(text: str) -> bool:
    return wordfilter.find_vulgarity(text) is not None


async def check_not_blocked(conn: AsyncConnection, author: Author, now: datetime) -> None:
    """Refuse a blocked device or address, saying until when."""
    for kind, hash_, who in (
        ("device", author.device, "To urządzenie jest zablokowane"),
        ("ip", author.ip, "Twój adres IP jest zablokowany"),
    ):
        until = await moderationdb.blocked_until(conn, kind, hash_, now)
        if until is not None:
            raise Refused(
                "blocked",
                f"{who} za naruszenia regulaminu do {until_text(until)}. Do tego czasu nie "
                f"możesz zakładać gier, dołączać do nich ani pisać na czacie.{APPEAL}",
            )


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
    message = f"{REFUSED[field]} {_consequence(count, now)}"
    if await moderationdb.devices_with_violations(conn, author.ip, now - IP_WINDOW) >= IP_DEVICES:
        await moderationdb.block(conn, "ip", author.ip, now + IP_BLOCK)
        message += (
            f" Z Twojego adresu IP naruszenia popełniło kilka urządzeń: adres jest zablokowany "
            f"do {until_text(now + IP_BLOCK)}.{APPEAL}"
        )
    return Refused("vulgar", message)


def _consequence(count: int, now: datetime) -> str:
    if count == 1:
        return (
            "To pierwsze ostrzeżenie: przy trzecim naruszeniu to urządzenie zostanie "
            "zablokowane na 24 godziny."
        )
    if count == WARNINGS:
        return (
            "To drugie, ostatnie ostrzeżenie: przy następnym naruszeniu to urządzenie "
            "zostanie zablokowane na 24 godziny."
        )
    block = FIRST_BLOCK if count == WARNINGS + 1 else LATER_BLOCK
    length = "24 godziny" if block == FIRST_BLOCK else "tydzień"
    return (
        f"To urządzenie jest zablokowane na {length}, do {until_text(now + block)}: "
        f"do tego czasu nie możesz zakładać gier, dołączać do nich ani pisać na czacie.{APPEAL}"
    )
