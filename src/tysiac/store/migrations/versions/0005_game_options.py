"""A game's house rules (table options V1-V14): one JSON object per game, every key
with its value; NULL for the games made before options existed (the defaults).

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    op.add_column("games", sa.Column("options", sa.JSON))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("options")
