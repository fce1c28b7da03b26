"""Tables. A game is a row of settings and status plus an append-only log of events.

Every time is stored as UTC and comes back as an aware UTC datetime (``UTCDateTime``:
SQLite keeps no time zone and hands back naive values).
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    Dialect,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    TypeDecorator,
    UniqueConstraint,
)

metadata = MetaData()


class GameStatus(StrEnum):
    """``games.status``: the stored strings never change."""

    WAITING = "waiting"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class EventKind(StrEnum):
    """``events.kind``: the stored strings never change (see ``server/game/table.py``)."""

    JOINED = "joined"
    STARTED = "started"
    DEALT = "dealt"
    MOVE = "move"
    CHAT = "chat"
    CHAT_REJECTED = "chat_rejected"
    CANCELLED = "cancelled"
    REMATCH = "rematch"
    REMATCH_OF = "rematch_of"
    ARRIVED = "arrived"
    LEFT = "left"


ACTIVE = (GameStatus.WAITING, GameStatus.PLAYING)


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware column whose values always come back in UTC."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("a naive datetime: every time in the store is UTC")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


games = Table(
    "games",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(6), nullable=False, unique=True),
    Column("status", String(10), nullable=False),  # waiting, playing, finished, cancelled
    Column("players", Integer, nullable=False),
    Column("name", String(40)),
    Column("public", Boolean, nullable=False),
    Column("chat", Boolean, nullable=False),
    Column("target", Integer, nullable=False),
    Column("move_seconds", Integer, nullable=False),
    Column("options", JSON),  # the house rules (V1-V16), every key; NULL: the defaults
    Column("version", Integer, nullable=False),  # the number of events in the log
    Column("deadline", UTCDateTime()),  # when the seat to move runs out of time
    Column("created_at", UTCDateTime(), nullable=False),
    Column("started_at", UTCDateTime()),
    Column("updated_at", UTCDateTime(), nullable=False),
    Column("creator_ip", String(64), nullable=False),  # keyed hash, never the address
    Index("games_status_deadline", "status", "deadline"),
    Index("games_creator_ip", "creator_ip", "status"),
)

seats = Table(
    "seats",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("nick", String(20), nullable=False),
    Column("token_hash", String(64), nullable=False),  # a bot's: "bot:<level>", no hash
    UniqueConstraint("game_id", "nick"),
)

events = Table(
    "events",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(20), nullable=False),
    Column("data", JSON, nullable=False),
    Column("at", UTCDateTime(), nullable=False),
)

# A finished game's analysis (the deal review's verdicts, one a hand), stored once it is
# complete and deleted with the game. ``version``: of the verdicts' format; a row of
# another version is computed again.
game_reviews = Table(
    "game_reviews",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("version", Integer, nullable=False),
    Column("hands", JSON, nullable=False),  # a verdict (or null) per hand
    Column("at", UTCDateTime(), nullable=False),
)

server_values = Table(
    "server_values",  # small values the server keeps for itself, e.g. the last stats mail
    metadata,
    Column("name", String(40), primary_key=True),
    Column("value", String(128), nullable=False),
)

deleted_games = Table(
    "deleted_games",
    metadata,
    Column("code", String(6), primary_key=True),
    Column("reason", String(20), nullable=False),  # expired (R31) or removed (by the operator)
    Column("at", UTCDateTime(), nullable=False),
    Column("message", String(300)),  # the operator's reason, shown to players and visitors
)

# Moderation: devices ("device", keyed hash of the ivoca_did cookie) and addresses ("ip",
# keyed hash of the IP or its /64), kept 90 days after the last violation.
offenders = Table(
    "offenders",
    metadata,
    Column("kind", String(6), primary_key=True),
    Column("hash", String(64), primary_key=True),
    Column("violations", Integer, nullable=False),
    Column("last_violation", UTCDateTime(), nullable=False),
    Column("blocked_until", UTCDateTime()),
)

# One row a violation, kept a day: three devices from one address within 24 hours block it.
violations = Table(
    "violations",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("device", String(64), nullable=False),
    Column("ip", String(64), nullable=False),
    Column("at", UTCDateTime(), nullable=False),
    Index("violations_ip_at", "ip", "at"),
)

# The admin log: rejected and reported texts, kept 30 days.
moderation_log = Table(
    "moderation_log",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", UTCDateTime(), nullable=False),
    Column("kind", String(10), nullable=False),  # rejected, reported
    Column("field", String(10), nullable=False),  # nick, name, chat
    Column("text", String(500), nullable=False),
    Column("nick", String(40)),  # the author
    Column("reporter", String(40)),  # who reported it
    Column("code", String(6)),  # the game
    Column("device", String(64)),  # keyed hash of the author's device
    Column("seq", Integer),  # a reported chat line's place in its game's log
    Index("moderation_log_at", "at"),
)

# The contact form's 5-a-day limit: keyed hash of the sender's address, kept a day.
contact_sends = Table(
    "contact_sends",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("ip", String(64), nullable=False),
    Column("at", UTCDateTime(), nullable=False),
    Index("contact_sends_ip_at", "ip", "at"),
)

# Anonymous statistics: games started and finished a day (UTC date), kept 400 days.
daily_stats = Table(
    "daily_stats",
    metadata,
    Column("day", String(10), primary_key=True),
    Column("started", Integer, nullable=False),  # games of people only
    Column("finished", Integer, nullable=False),
    Column("bot_started", Integer, nullable=False, server_default="0"),  # with a computer player
    Column("bot_finished", Integer, nullable=False, server_default="0"),
)
