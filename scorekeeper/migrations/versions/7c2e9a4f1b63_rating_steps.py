"""each rated game's place in the order, its totals, and what it did to each rating

A rated game keeps its place in the order games were rated (`sequence`) and the sides' totals
it was rated on, so that the ratings can be replayed in order when players merge; and each
player's (or pair's) rating before and after it in each pool (`rating_step`), which the
player's chart draws. Games rated before this revision get their place (by when they were
rated) and their sides' totals as kept; what they did to each rating was not kept, so a chart
begins with the games rated since (a merge of players replays them all and fills it in).

Revision ID: 7c2e9a4f1b63
Revises: 69b386fcde31
Create Date: 2026-12-06 10:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "7c2e9a4f1b63"
down_revision = "69b386fcde31"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rated_game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("sequence", sa.Integer(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("totals", sa.JSON(), nullable=False, server_default="[]"))
        batch_op.create_index(batch_op.f("ix_rated_game_sequence"), ["sequence"], unique=False)
    connection = op.get_bind()
    rated = sa.table(
        "rated_game",
        sa.column("game_id", sa.String()),
        sa.column("rated_at", sa.DateTime()),
        sa.column("sequence", sa.Integer()),
        sa.column("totals", sa.JSON()),
    )
    side = sa.table(
        "side",
        sa.column("game_id", sa.String()),
        sa.column("position", sa.Integer()),
        sa.column("total", sa.BigInteger()),
    )
    order = connection.execute(
        sa.select(rated.c.game_id).order_by(rated.c.rated_at, rated.c.game_id)
    ).scalars()
    for number, game_id in enumerate(list(order), 1):
        totals = connection.execute(
            sa.select(side.c.total).where(side.c.game_id == game_id).order_by(side.c.position)
        ).scalars()
        connection.execute(
            rated.update()
            .where(rated.c.game_id == game_id)
            .values(sequence=number, totals=[total or 0 for total in totals])
        )
    op.create_table(
        "rating_step",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=24), nullable=False),
        sa.Column("pool", sa.String(length=20), nullable=False),
        sa.Column("first", sa.String(length=120), nullable=False),
        sa.Column("second", sa.String(length=120), nullable=False),
        sa.Column("mu_before", sa.Double(), nullable=False),
        sa.Column("sigma_before", sa.Double(), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["rated_game.game_id"], name=op.f("fk_rating_step_game_id_rated_game")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating_step")),
        sa.UniqueConstraint(
            "game_id", "pool", "first", "second", name=op.f("uq_rating_step_game_id")
        ),
    )
    with op.batch_alter_table("rating_step", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_rating_step_game_id"), ["game_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_rating_step_first"), ["first"], unique=False)


def downgrade() -> None:
    op.drop_table("rating_step")
    with op.batch_alter_table("rated_game", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_rated_game_sequence"))
        batch_op.drop_column("totals")
        batch_op.drop_column("sequence")
