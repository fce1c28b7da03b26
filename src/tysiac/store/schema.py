"""Tables. A game is a row of settings and status plus an append-only log of events."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
)

metadata = MetaData()

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
    Column("version", Integer, nullable=False),  # the number of events in the log
    Column("deadline", DateTime(timezone=True)),  # when the seat to move runs out of time
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("started_at", DateTime(timezone=True)),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("creator_ip", String(64), nullable=False),  # keyed hash, never the address
    Column("rematch_code", String(6)),
    Index("games_status_deadline", "status", "deadline"),
    Index("games_creator_ip", "creator_ip", "status"),
)

seats = Table(
    "seats",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("nick", String(20), nullable=False),
    Column("token_hash", String(64), nullable=False),
    UniqueConstraint("game_id", "nick"),
)

events = Table(
    "events",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(20), nullable=False),
    Column("data", JSON, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
)

server_secrets = Table(
    "server_secrets",
    metadata,
    Column("name", String(40), primary_key=True),
    Column("value", String(128), nullable=False),
)

deleted_games = Table(
    "deleted_games",
    metadata,
    Column("code", String(6), primary_key=True),
    Column("reason", String(20), nullable=False),  # expired (R31), later: removed by the operator
    Column("at", DateTime(timezone=True), nullable=False),
)
