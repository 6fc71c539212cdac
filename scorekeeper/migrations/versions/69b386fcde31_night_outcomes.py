"""what each night gave each of its pairs, kept for seasons and players' pages

A season's standings and a player's nights worked out every night's standings again from all
its tables on every page view (a year's season took 0.7 s); each night's outcome for each pair
(place among the pairs that played, games, rounds counted, half-wins, points, the pair's
players' keys) is now kept on a row under the night's revision (`services.outcomes`). The table
starts empty: the app works out the nights that lack rows when it starts
(`services.outcomes.refresh_outcomes`), and until then reads them as before.

Revision ID: 69b386fcde31
Revises: a3f9c1e7d5b2
Create Date: 2026-12-06 10:20:00

"""

import sqlalchemy as sa
from alembic import op

revision = "69b386fcde31"
down_revision = "a3f9c1e7d5b2"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "night_outcome",
        sa.Column("night_id", sa.String(length=24), nullable=False),
        sa.Column("pair", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("revision", sa.String(length=16), nullable=False),
        sa.Column("first", sa.String(length=120), nullable=False),
        sa.Column("second", sa.String(length=120), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("pairs", sa.Integer(), nullable=False),
        sa.Column("level", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("half_wins", sa.Integer(), nullable=False),
        sa.Column("points", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["night_id"], ["night.id"], name=op.f("fk_night_outcome_night_id_night")
        ),
        sa.PrimaryKeyConstraint("night_id", "pair", name=op.f("pk_night_outcome")),
    )
    op.create_index("ix_night_outcome_first", "night_outcome", ["first"], unique=False)
    op.create_index("ix_night_outcome_second", "night_outcome", ["second"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_night_outcome_second", table_name="night_outcome")
    op.drop_index("ix_night_outcome_first", table_name="night_outcome")
    op.drop_table("night_outcome")
