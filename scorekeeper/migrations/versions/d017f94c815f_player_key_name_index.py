"""players' keys with their names, in an index

A player's page names each partner as their latest game does; nearly every player is written
one way in all their games, which this index tells from their keys alone (`tallies.names_of`):
a member of a five-year club has 80 partners, whose 37,000 rows were read for it.

Revision ID: d017f94c815f
Revises: 7c2e9a4f1b63
Create Date: 2026-12-06 13:10:00

"""

from alembic import op

revision = "d017f94c815f"
down_revision = "7c2e9a4f1b63"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("player", schema=None) as batch_op:
        batch_op.create_index("ix_player_key_name", ["key", "name"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("player", schema=None) as batch_op:
        batch_op.drop_index("ix_player_key_name")
