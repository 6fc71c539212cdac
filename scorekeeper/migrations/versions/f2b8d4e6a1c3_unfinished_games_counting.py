"""what a game stopped unfinished by the end of its round counts as

Ending a round with tables unfinished counted every one of them as it stood, and a game with no
hand as a draw. The director now chooses what each counts as (as it stands, or not played),
kept on its seat (`seating.counting`); a seat of a round ended before has none, and its game
counts as played (a game without a hand, as not played).

Revision ID: f2b8d4e6a1c3
Revises: e4c7a2d9b5f1
Create Date: 2027-01-13 10:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "f2b8d4e6a1c3"
down_revision = "e4c7a2d9b5f1"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seating", schema=None) as batch_op:
        batch_op.add_column(sa.Column("counting", sa.String(length=20), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seating", schema=None) as batch_op:
        batch_op.drop_column("counting")
