"""who played on each side, copied for statistics

Statistics grouped the sides by their players, spelling every player of every game in each
request: the page's cost grew with the games. Each side now keeps that spelling (`Side.team`),
written with its other copied figures and after a rename or a merge (services.figures), so
statistics add up the sides alone. Filled here in one statement per database; a side with no
named player keeps none.

Revision ID: c9e4b2d7a1f3
Revises: f6a7b8c9d0e1
Create Date: 2026-11-26 14:10:00

"""

import sqlalchemy as sa
from alembic import op

revision = "c9e4b2d7a1f3"
down_revision = "f6a7b8c9d0e1"
branch_labels = None
depends_on = None

# A text's UTF-8 bytes in upper-case hexadecimal (as services.figures.team_of spells them),
# and the aggregate that joins a side's players, in each database's own words.
# The order is Python's, by code point (PostgreSQL's own collation may pass over the colons).
SPELLED = {
    "sqlite": ("hex({})", "group_concat({}, ',')", ""),
    "postgresql": (
        "upper(encode(convert_to({}, 'UTF8'), 'hex'))",
        "string_agg({}, ',')",
        ' COLLATE "C"',
    ),
}


def upgrade() -> None:
    with op.batch_alter_table("side", schema=None) as batch_op:
        batch_op.add_column(sa.Column("team", sa.Text(), nullable=True))
    bind = op.get_bind()
    spelled, joined, collation = SPELLED[bind.dialect.name]
    key = 'player."key"'  # a word of SQL (SQLite's), so quoted
    member = f"({spelled.format(key)} || ':' || {spelled.format('player.name')}){collation}"
    # In order, as services.figures.team_of spells them.
    bind.execute(
        sa.text(
            f"UPDATE side SET team = (SELECT {joined.format('member')} FROM"
            f" (SELECT {member} AS member FROM player"
            f" WHERE player.side_id = side.id AND {key} != '' ORDER BY member) AS members)"
        )
    )


def downgrade() -> None:
    with op.batch_alter_table("side", schema=None) as batch_op:
        batch_op.drop_column("team")
