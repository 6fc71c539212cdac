"""undo where it hurts: games deleted for a while, merges of players recorded

Deleting a game now sets `deleted_at` (None for every existing game) and keeps its rows, so that
it can be brought back until it is purged; each merge of players is kept in `player_merge` with
the rows it changed, so that it can be undone.

Revision ID: e1f2a3b4c5d6
Revises: d5a8c3f1e7b2
Create Date: 2026-11-26 11:45:00

"""

import sqlalchemy as sa
from alembic import op

revision = "e1f2a3b4c5d6"
down_revision = "d5a8c3f1e7b2"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("deleted_at", sa.DateTime(), nullable=True))
        batch_op.create_index(batch_op.f("ix_game_deleted_at"), ["deleted_at"], unique=False)
    op.create_table(
        "player_merge",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=120), nullable=False),
        sa.Column("into", sa.String(length=120), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("names", sa.JSON(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("undone_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("player_merge", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_player_merge_into"), ["into"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("player_merge", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_player_merge_into"))
    op.drop_table("player_merge")
    # Before this revision a deleted game was gone for good: so it is, rows and all.
    deleted = "SELECT id FROM game WHERE deleted_at IS NOT NULL"
    hands = f"SELECT id FROM hand WHERE game_id IN ({deleted})"
    sides = f"SELECT id FROM side WHERE game_id IN ({deleted})"
    op.execute(f"DELETE FROM correction WHERE hand_id IN ({hands})")
    op.execute(f"DELETE FROM entry WHERE hand_id IN ({hands})")
    op.execute(f"DELETE FROM hand WHERE game_id IN ({deleted})")
    op.execute(f"DELETE FROM player WHERE side_id IN ({sides})")
    op.execute(f"DELETE FROM side WHERE game_id IN ({deleted})")
    op.execute(f"DELETE FROM game WHERE id IN ({deleted})")
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_game_deleted_at"))
        batch_op.drop_column("deleted_at")
