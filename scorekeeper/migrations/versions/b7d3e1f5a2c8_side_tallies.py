"""what each side did hand by hand, copied for statistics

Statistics once added up every entry of every game; each side now keeps a copy of what its live
hands add up to (hands played, best hand score, times gone out, red threes, sets by kind), kept
right by every write like its total (services._tally_sides). The new columns start empty: the app
replays the games that lack them when it starts (services.refresh_stale).

Revision ID: b7d3e1f5a2c8
Revises: a41c7d2e9f30
Create Date: 2026-11-22 15:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "b7d3e1f5a2c8"
down_revision = "a41c7d2e9f30"
branch_labels = None
depends_on = None

COLUMNS = (
    "hands",
    "best",
    "went_out",
    "red_threes",
    "natural_canastas",
    "mixed_canastas",
    "sambas",
    "black_sambas",
    "super_sambas",
    "wild_canastas",
    "sevens_canastas",
    "red_three_canastas",
)


def upgrade() -> None:
    with op.batch_alter_table("side", schema=None) as batch_op:
        for name in COLUMNS:
            batch_op.add_column(sa.Column(name, sa.Integer(), nullable=True))
    with op.batch_alter_table("player", schema=None) as batch_op:
        batch_op.create_index("ix_player_side_id_key_name", ["side_id", "key", "name"])
    # Empty even where a column had a default: refresh_stale replays the games that lack them.
    op.get_bind().execute(sa.text(f"UPDATE side SET {', '.join(f'{c} = NULL' for c in COLUMNS)}"))


def downgrade() -> None:
    with op.batch_alter_table("player", schema=None) as batch_op:
        batch_op.drop_index("ix_player_side_id_key_name")
    with op.batch_alter_table("side", schema=None) as batch_op:
        for name in reversed(COLUMNS):
            batch_op.drop_column(name)
