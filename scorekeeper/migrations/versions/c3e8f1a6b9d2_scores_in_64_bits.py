"""scores in 64 bits: a total, a side's best hand and a hand's score

A game file's hand may hold up to 10^9 card points melded or in hand, so a few of them pass
2^31 - 1, the largest number PostgreSQL's `integer` holds: the import was a 500. `bigint` holds
every score the app keeps (store/columns.py: up to 2^62 either way). SQLite stores any number in
64 bits already; there only the declared type changes, so that the database is still the one the
models describe.

Revision ID: c3e8f1a6b9d2
Revises: c9e4b2d7a1f3
Create Date: 2026-11-27 10:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "c3e8f1a6b9d2"
down_revision = "c9e4b2d7a1f3"
branch_labels = None
depends_on = None

SCORES = {"side": ("total", "best"), "entry": ("hand_score",)}


def upgrade() -> None:
    for table, columns in SCORES.items():
        with op.batch_alter_table(table, schema=None) as batch_op:
            for column in columns:
                batch_op.alter_column(
                    column, existing_type=sa.Integer(), type_=sa.BigInteger(), nullable=True
                )


def downgrade() -> None:
    # On PostgreSQL a score past 32 bits stops the downgrade (out of range): it would not fit.
    for table, columns in SCORES.items():
        with op.batch_alter_table(table, schema=None) as batch_op:
            for column in columns:
                batch_op.alter_column(
                    column, existing_type=sa.BigInteger(), type_=sa.Integer(), nullable=True
                )
