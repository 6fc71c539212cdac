"""a club's seasons and every player's and pair's rating

A season has a name and a rule (what each night gives, the best nights that count, the nights
one must play); a night names the one season it counts in (`night.season_id`). Ratings are kept
per player or pair and pool, updated as each game ends (`rated_game` marks a game rated once).

Revision ID: a3f9c1e7d5b2
Revises: f2b8d4e6a1c3
Create Date: 2026-12-06 07:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "a3f9c1e7d5b2"
down_revision = "f2b8d4e6a1c3"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "season",
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("measure", sa.String(length=20), nullable=False),
        sa.Column("best", sa.Integer(), nullable=True),
        sa.Column("minimum", sa.Integer(), nullable=False),
        sa.Column("planned", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("revision", sa.String(length=16), nullable=False),
        sa.Column("follow_token", sa.String(length=24), nullable=False),
        sa.Column("token", sa.String(length=40), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_season")),
        sa.UniqueConstraint("follow_token", name=op.f("uq_season_follow_token")),
        sa.UniqueConstraint("token", name=op.f("uq_season_token")),
    )
    op.create_table(
        "rating",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("pool", sa.String(length=20), nullable=False),
        sa.Column("first", sa.String(length=120), nullable=False),
        sa.Column("second", sa.String(length=120), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating")),
        sa.UniqueConstraint("pool", "first", "second", name=op.f("uq_rating_pool")),
    )
    op.create_table(
        "rated_game",
        sa.Column("game_id", sa.String(length=24), nullable=False),
        sa.Column("rated_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_rated_game_game_id_game")),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_rated_game")),
    )
    with op.batch_alter_table("night", schema=None) as batch_op:
        batch_op.add_column(sa.Column("season_id", sa.String(length=24), nullable=True))
        batch_op.create_index(batch_op.f("ix_night_season_id"), ["season_id"], unique=False)
        batch_op.create_foreign_key(
            batch_op.f("fk_night_season_id_season"), "season", ["season_id"], ["id"]
        )


def downgrade() -> None:
    with op.batch_alter_table("night", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_night_season_id_season"), type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_night_season_id"))
        batch_op.drop_column("season_id")
    op.drop_table("rated_game")
    op.drop_table("rating")
    op.drop_table("season")
