"""Moderation (offenders, violations, the admin log), operator deletions with a reason,
the contact form's daily limit and the anonymous daily statistics.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    op.create_table(
        "offenders",
        sa.Column("kind", sa.String(6), primary_key=True),
        sa.Column("hash", sa.String(64), primary_key=True),
        sa.Column("violations", sa.Integer, nullable=False),
        sa.Column("last_violation", sa.DateTime(timezone=True), nullable=False),
        sa.Column("blocked_until", sa.DateTime(timezone=True)),
    )
    op.create_table(
        "violations",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("device", sa.String(64), nullable=False),
        sa.Column("ip", sa.String(64), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Index("violations_ip_at", "ip", "at"),
    )
    op.create_table(
        "moderation_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("field", sa.String(10), nullable=False),
        sa.Column("text", sa.String(500), nullable=False),
        sa.Column("nick", sa.String(40)),
        sa.Column("reporter", sa.String(40)),
        sa.Column("code", sa.String(6)),
        sa.Column("device", sa.String(64)),
        sa.Index("moderation_log_at", "at"),
    )
    op.add_column("deleted_games", sa.Column("message", sa.String(300)))
    op.create_table(
        "contact_sends",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("ip", sa.String(64), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Index("contact_sends_ip_at", "ip", "at"),
    )
    op.create_table(
        "daily_stats",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("started", sa.Integer, nullable=False),
        sa.Column("finished", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("daily_stats")
    op.drop_table("contact_sends")
    op.drop_column("deleted_games", "message")
    op.drop_table("moderation_log")
    op.drop_table("violations")
    op.drop_table("offenders")
