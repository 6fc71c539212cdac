"""games people can tell apart and manage: a name, archiving, a one-time token, the first dealer

A game may get a name; archiving puts it off the home page (`archived_at`); the form that started
a game leaves its one-time token on it, so that the form sent twice starts one game (unique; None
for games started before, and for imported ones); `first_dealer` is the place in the order of play
of whoever dealt the first hand (0 for every existing game, as the app dealt them).

Revision ID: d5a8c3f1e7b2
Revises: b7d3e1f5a2c8
Create Date: 2026-11-22 20:30:00

"""

import sqlalchemy as sa
from alembic import op

revision = "d5a8c3f1e7b2"
down_revision = "b7d3e1f5a2c8"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("name", sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column("archived_at", sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column("token", sa.String(length=40), nullable=True))
        batch_op.add_column(
            sa.Column("first_dealer", sa.Integer(), nullable=False, server_default="0")
        )
        batch_op.create_index(batch_op.f("ix_game_archived_at"), ["archived_at"], unique=False)
        batch_op.create_unique_constraint(batch_op.f("uq_game_token"), ["token"])


def downgrade() -> None:
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_game_token"), type_="unique")
        batch_op.drop_index(batch_op.f("ix_game_archived_at"))
        batch_op.drop_column("first_dealer")
        batch_op.drop_column("token")
        batch_op.drop_column("archived_at")
        batch_op.drop_column("name")
