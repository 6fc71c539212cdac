"""each round of a club night keeps who sat out and who had left when it started

Until now a round's seating was read against the pairs as they are now, so a pair that left
(or arrived) after round 1 rewrote round 1 on every page. A round now keeps, when it starts,
the pairs that sat out and those that had left (`night_round.sitting_out`, `absent`); its
tables as played are the seats that got a game.

A round started before keeps what can be told of it (`nights.recorded_before`): a pair of the
night at a table without a game sat out; who had left then was not noted.

Revision ID: e4c7a2d9b5f1
Revises: d1e5a9c3b7f2
Create Date: 2027-01-12 10:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "e4c7a2d9b5f1"
down_revision = "d1e5a9c3b7f2"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("night_round", schema=None) as batch_op:
        batch_op.add_column(sa.Column("sitting_out", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("absent", sa.JSON(), nullable=True))
    connection = op.get_bind()
    pairs: dict[str, int] = dict(
        connection.execute(sa.text("SELECT night_id, COUNT(*) FROM pair GROUP BY night_id")).all()
    )
    started = connection.execute(
        sa.text(
            "SELECT night_round.id, night_round.night_id, seating.ns, seating.ew, seating.game_id"
            " FROM night_round JOIN seating ON seating.round_id = night_round.id"
            " WHERE night_round.started_at IS NOT NULL"
        )
    ).all()
    out: dict[int, set[int]] = {}
    for round_id, night_id, ns, ew, game_id in started:
        sat_out = out.setdefault(round_id, set())
        if game_id is None:  # a table without a game: its pairs of the night sat out
            sat_out.update(pair for pair in (ns, ew) if pair <= pairs.get(night_id, 0))
    rounds = sa.table(
        "night_round",
        sa.column("id", sa.Integer()),
        sa.column("sitting_out", sa.JSON()),
        sa.column("absent", sa.JSON()),
    )
    for round_id, sat_out in out.items():
        connection.execute(
            rounds.update()
            .where(rounds.c.id == round_id)
            .values(sitting_out=sorted(sat_out), absent=[])
        )


def downgrade() -> None:
    with op.batch_alter_table("night_round", schema=None) as batch_op:
        batch_op.drop_column("absent")
        batch_op.drop_column("sitting_out")
