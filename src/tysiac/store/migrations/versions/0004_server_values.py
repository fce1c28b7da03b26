"""``server_secrets`` is named for what it holds (``server_values``: the hashing key no
longer lives there), the unused ``games.rematch_code`` goes (a rematch is an event in
the old game's log), and a reported chat line is named by its ``seq`` in the admin log
(reports of one line are one entry, whoever wrote the same text elsewhere).

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"


def upgrade() -> None:
    op.rename_table("server_secrets", "server_values")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rematch_code")
    op.add_column("moderation_log", sa.Column("seq", sa.Integer))


def downgrade() -> None:
    with op.batch_alter_table("moderation_log") as batch:
        batch.drop_column("seq")
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("rematch_code", sa.String(6)))
    op.rename_table("server_values", "server_secrets")
