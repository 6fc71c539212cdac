"""each side keeps its game's system, end and start, and one index holds what statistics add up

Statistics grouped the sides by team and by their game's system, joining every side's game and
sorting ~20 summed figures of every side: on SQLite the sort alone was most of /stats. Each side
now keeps a copy of its game's system, whether it is over and when it began (written with its
other copied figures, services.figures.store_figures), and a partial index on the named sides
holds every figure statistics read, in the order they group them: the statement reads the index
alone, in order, with no join and no sort. Filled here in one statement.

Revision ID: a8d4f2c6e1b3
Revises: c3e8f1a6b9d2
Create Date: 2026-11-27 12:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "a8d4f2c6e1b3"
down_revision = "c3e8f1a6b9d2"
branch_labels = None
depends_on = None

SETS = (
    "natural_canastas", "mixed_canastas", "sambas", "black_sambas", "super_sambas",
    "wild_canastas", "sevens_canastas", "red_three_canastas",
)  # fmt: skip
# As models.SIDE_STATISTICS says them (a migration keeps its own copy: the models move on).
INDEXED = (
    "team", "system_id", "created_at", "over", "won", "total", "start_score",
    "hands", "best", "went_out", "red_threes", *SETS, "game_id",
)  # fmt: skip
NAMED = sa.text("team IS NOT NULL")


def upgrade() -> None:
    with op.batch_alter_table("side", schema=None) as batch_op:
        batch_op.add_column(sa.Column("system_id", sa.String(length=20), nullable=True))
        batch_op.add_column(sa.Column("over", sa.Boolean(), nullable=True))
        batch_op.add_column(sa.Column("created_at", sa.DateTime(), nullable=True))
    op.execute(
        "UPDATE side SET system_id = (SELECT system_id FROM game WHERE game.id = side.game_id),"
        " over = (SELECT over FROM game WHERE game.id = side.game_id),"
        " created_at = (SELECT created_at FROM game WHERE game.id = side.game_id)"
    )
    op.create_index(
        "ix_side_statistics", "side", list(INDEXED), sqlite_where=NAMED, postgresql_where=NAMED
    )


def downgrade() -> None:
    op.drop_index("ix_side_statistics", table_name="side")
    with op.batch_alter_table("side", schema=None) as batch_op:
        batch_op.drop_column("created_at")
        batch_op.drop_column("over")
        batch_op.drop_column("system_id")
