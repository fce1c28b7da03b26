"""The daily statistics count games with computer players apart from games of people only.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"


def upgrade() -> None:
    with op.batch_alter_table("daily_stats") as batch:
        batch.add_column(sa.Column("bot_started", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("bot_finished", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("daily_stats") as batch:
        batch.drop_column("bot_finished")
        batch.drop_column("bot_started")
