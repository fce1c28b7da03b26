"""Notices of deleted games: code, time and reason, kept 7 days.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    op.create_table(
        "deleted_games",
        sa.Column("code", sa.String(6), primary_key=True),
        sa.Column("reason", sa.String(20), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("deleted_games")
