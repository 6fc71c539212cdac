"""share links and the table's PIN: who may follow or change a game

Each game gets two unguessable tokens, distinct from its id: the follow link's (read only) and
the join link's (may record, correct and delete its hands); renewing them makes the old links
stop working. `table_setting` holds the table's own settings (the PIN, hashed); `pin_attempt`
counts wrong PINs per address, so that guessing is slowed across every server process.

Revision ID: f6a7b8c9d0e1
Revises: e1f2a3b4c5d6
Create Date: 2026-11-26 11:40:00

"""

import secrets

import sqlalchemy as sa
from alembic import op

revision = "f6a7b8c9d0e1"
down_revision = "e1f2a3b4c5d6"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("follow_token", sa.String(length=24), nullable=True))
        batch_op.add_column(sa.Column("join_token", sa.String(length=24), nullable=True))
    game = sa.table(
        "game",
        sa.column("id", sa.String),
        sa.column("follow_token", sa.String),
        sa.column("join_token", sa.String),
    )
    connection = op.get_bind()
    for (game_id,) in connection.execute(sa.select(game.c.id)).all():
        connection.execute(
            game.update()
            .where(game.c.id == game_id)
            .values(follow_token=secrets.token_urlsafe(16), join_token=secrets.token_urlsafe(16))
        )
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.alter_column("follow_token", existing_type=sa.String(length=24), nullable=False)
        batch_op.alter_column("join_token", existing_type=sa.String(length=24), nullable=False)
        batch_op.create_unique_constraint(batch_op.f("uq_game_follow_token"), ["follow_token"])
        batch_op.create_unique_constraint(batch_op.f("uq_game_join_token"), ["join_token"])
    op.create_table(
        "table_setting",
        sa.Column("key", sa.String(length=40), nullable=False),
        sa.Column("value", sa.String(length=400), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )
    op.create_table(
        "pin_attempt",
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("last_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("address"),
    )


def downgrade() -> None:
    op.drop_table("pin_attempt")
    op.drop_table("table_setting")
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_game_join_token"), type_="unique")
        batch_op.drop_constraint(batch_op.f("uq_game_follow_token"), type_="unique")
        batch_op.drop_column("join_token")
        batch_op.drop_column("follow_token")
