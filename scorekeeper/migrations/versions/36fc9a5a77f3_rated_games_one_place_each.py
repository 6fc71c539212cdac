"""each rated game's place in the order its own

A rated game's place (`rated_game.sequence`) is unique: the ratings are replayed in that order,
and two games at one place would be replayed in the order of their ids, which need not be the
order they were rated in. Games rated at once before the order was locked may share a place:
they are numbered again first, in the order a replay reads them (place, then id), so that
every rating replays as before.

Revision ID: 36fc9a5a77f3
Revises: d017f94c815f
Create Date: 2026-12-06 19:30:00

"""

import sqlalchemy as sa
from alembic import op

revision = "36fc9a5a77f3"
down_revision = "d017f94c815f"
branch_labels = None
depends_on = None

RATED = sa.table(
    "rated_game", sa.column("game_id", sa.String()), sa.column("sequence", sa.Integer())
)


def upgrade() -> None:
    connection = op.get_bind()
    order = connection.execute(
        sa.select(RATED.c.game_id, RATED.c.sequence).order_by(RATED.c.sequence, RATED.c.game_id)
    ).all()
    if len({sequence for _game_id, sequence in order}) < len(order):
        for number, (game_id, _sequence) in enumerate(order, 1):
            connection.execute(
                RATED.update().where(RATED.c.game_id == game_id).values(sequence=number)
            )
    with op.batch_alter_table("rated_game", schema=None) as batch_op:
        batch_op.drop_index("ix_rated_game_sequence")
        batch_op.create_index("ix_rated_game_sequence", ["sequence"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("rated_game", schema=None) as batch_op:
        batch_op.drop_index("ix_rated_game_sequence")
        batch_op.create_index("ix_rated_game_sequence", ["sequence"], unique=False)
