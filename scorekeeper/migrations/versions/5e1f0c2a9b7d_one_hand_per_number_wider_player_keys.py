"""one hand per number, wider player keys, hands brought back, cached figures replayed again

Databases written before this revision may hold two hands with the same number in a game (two
phones saving at once) and cached totals that leave a hand out. This revision numbers each game's
hands again in the order they were recorded, then makes a repeated number impossible with a
unique constraint, and forgets every cached figure so that the app replays every game once when
it starts (services.refresh_stale).

Tokens longer than their column (the hand form once took any) are made new.

A player key is a casefolded name, which can be up to three times as long as the name. A
correction with no `before` records a deleted hand brought back.

Revision ID: 5e1f0c2a9b7d
Revises: 3730b7de11fd
Create Date: 2026-11-22 11:55:00

"""

import secrets

import sqlalchemy as sa
from alembic import op

revision = "5e1f0c2a9b7d"
down_revision = "3730b7de11fd"
branch_labels = None
depends_on = None


def upgrade() -> None:
    connection = op.get_bind()
    rows = connection.execute(
        sa.text("SELECT id, game_id FROM hand ORDER BY game_id, position, id")
    ).all()
    numbers: dict[str, int] = {}
    for hand_id, game_id in rows:
        numbers[game_id] = numbers.get(game_id, 0) + 1
        connection.execute(
            sa.text("UPDATE hand SET position = :position WHERE id = :id"),
            {"position": numbers[game_id], "id": hand_id},
        )
    # The hand form once took any token; one longer than the column's 40 would not restore.
    long_tokens = connection.execute(sa.text("SELECT id FROM hand WHERE length(token) > 40"))
    for (hand_id,) in long_tokens.all():
        connection.execute(
            sa.text("UPDATE hand SET token = :token WHERE id = :id"),
            {"token": secrets.token_urlsafe(16), "id": hand_id},
        )
    with op.batch_alter_table("hand", schema=None) as batch_op:
        batch_op.create_unique_constraint("uq_hand_game_position", ["game_id", "position"])
    with op.batch_alter_table("player", schema=None) as batch_op:
        batch_op.alter_column(
            "key", existing_type=sa.String(length=40), type_=sa.String(length=120)
        )
    with op.batch_alter_table("correction", schema=None) as batch_op:
        batch_op.alter_column("before", existing_type=sa.JSON(), nullable=True)
    connection.execute(sa.text("UPDATE side SET total = NULL, won = NULL"))


def downgrade() -> None:
    with op.batch_alter_table("correction", schema=None) as batch_op:
        batch_op.alter_column("before", existing_type=sa.JSON(), nullable=False)
    with op.batch_alter_table("player", schema=None) as batch_op:
        batch_op.alter_column(
            "key", existing_type=sa.String(length=120), type_=sa.String(length=40)
        )
    with op.batch_alter_table("hand", schema=None) as batch_op:
        batch_op.drop_constraint("uq_hand_game_position", type_="unique")
