"""the game's revision, under which its replay and scoreboard are kept in memory

Every write to a game gives it a new random `revision` (services._remember); the pages keep
what they work out from a game under its id and revision. Existing games start with an empty
one: the server starts afresh after an upgrade, so nothing is kept under it yet.

Revision ID: a41c7d2e9f30
Revises: cf28a25e6dd4
Create Date: 2026-11-22 14:40:00

"""

import sqlalchemy as sa
from alembic import op

revision = "a41c7d2e9f30"
down_revision = "cf28a25e6dd4"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("revision", sa.String(length=16), nullable=False, server_default="")
        )


def downgrade() -> None:
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_column("revision")
