"""the game a table played next, so that its phones follow the table to it

"Play again" starts a new game at the same table; the phones following the old one (a join
link's, a follow link's, the table display) are brought to the new one by the old game's page,
which names it (scorekeeper/web/http/access.py, `played_on`). The old game keeps the new one's
id. No foreign key: it is a way on, not a part of the game, and a purged game leaves nothing to
follow (the page names only a game that is there).

Revision ID: d1e5a9c3b7f2
Revises: b2c4d6e8f0a1
Create Date: 2026-11-28 10:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "d1e5a9c3b7f2"
down_revision = "b2c4d6e8f0a1"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("next_game_id", sa.String(length=24), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_column("next_game_id")
