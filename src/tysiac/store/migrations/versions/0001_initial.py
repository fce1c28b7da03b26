"""Games, seats, the event log and server secrets.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("code", sa.String(6), nullable=False, unique=True),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("name", sa.String(40)),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("chat", sa.Boolean, nullable=False),
        sa.Column("target", sa.Integer, nullable=False),
        sa.Column("move_seconds", sa.Integer, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("deadline", sa.DateTime(timezone=True)),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True)),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("creator_ip", sa.String(64), nullable=False),
        sa.Column("rematch_code", sa.String(6)),
    )
    op.create_index("games_status_deadline", "games", ["status", "deadline"])
    op.create_index("games_creator_ip", "games", ["creator_ip", "status"])
    op.create_table(
        "seats",
        sa.Column(
            "game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("nick", sa.String(20), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.UniqueConstraint("game_id", "nick"),
    )
    op.create_table(
        "events",
        sa.Column(
            "game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("server_secrets")
    op.drop_table("events")
    op.drop_table("seats")
    op.drop_table("games")
