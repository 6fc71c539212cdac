"""drop the game's copied totals and winner

`game.totals` repeated `side.total`, and `game.winner` was written and never read (a side's `won`
says it). Both columns go; the sides keep the replay's figures.

Going back adds them again, empty, and forgets the sides' copied figures, so that the earlier app
replays every game once when it starts (services.refresh_stale) and fills them in.

Revision ID: cf28a25e6dd4
Revises: 5e1f0c2a9b7d
Create Date: 2026-11-22 13:20:00

"""

import sqlalchemy as sa
from alembic import op

revision = "cf28a25e6dd4"
down_revision = "5e1f0c2a9b7d"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_column("totals")
        batch_op.drop_column("winner")


def downgrade() -> None:
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("totals", sa.JSON(), nullable=False, server_default="[]"))
        batch_op.add_column(sa.Column("winner", sa.Integer(), nullable=True))
    op.get_bind().execute(sa.text("UPDATE side SET total = NULL, won = NULL"))
