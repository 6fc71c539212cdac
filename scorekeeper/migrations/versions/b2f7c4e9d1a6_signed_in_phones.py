"""a row per signed-in phone, so that signing a phone out revokes its cookie on the server

A phone's session said what it may do (the PIN's mark, its share links) and nothing on the
server could take that back: a copy of the cookie taken before "Sign this phone out" still did
everything. Now the session also names a row of `phone`, and counts only while that row is
there (scorekeeper/web/http/access.py).

Revision ID: b2f7c4e9d1a6
Revises: a8d4f2c6e1b3
Create Date: 2026-11-27 09:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "b2f7c4e9d1a6"
down_revision = "a8d4f2c6e1b3"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "phone",
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.Column("signed_in_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )


def downgrade() -> None:
    op.drop_table("phone")
