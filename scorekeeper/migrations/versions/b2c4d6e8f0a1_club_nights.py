"""club nights: pairs at numbered tables, rounds and seatings, each table's round a game

A night keeps its pairs, its tables (each with its card's token), its rounds and who sits where
in each; every round's game is an ordinary game marked with its night (`game.night_id`).

Revision ID: b2c4d6e8f0a1
Revises: b2f7c4e9d1a6
Create Date: 2026-11-27 09:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "b2c4d6e8f0a1"
down_revision = "b2f7c4e9d1a6"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "night",
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("system_id", sa.String(length=20), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("house_rules", sa.JSON(), nullable=True),
        sa.Column("movement", sa.String(length=20), nullable=False),
        sa.Column("ranking", sa.String(length=20), nullable=False),
        sa.Column("round_count", sa.Integer(), nullable=False),
        sa.Column("round_hands", sa.Integer(), nullable=True),
        sa.Column("round_minutes", sa.Integer(), nullable=True),
        sa.Column("current_round", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("ended_at", sa.DateTime(), nullable=True),
        sa.Column("revision", sa.String(length=16), nullable=False),
        sa.Column("follow_token", sa.String(length=24), nullable=False),
        sa.Column("token", sa.String(length=40), nullable=True),
        sa.Column("deleted_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_night")),
        sa.UniqueConstraint("follow_token", name=op.f("uq_night_follow_token")),
        sa.UniqueConstraint("token", name=op.f("uq_night_token")),
    )
    op.create_index(op.f("ix_night_deleted_at"), "night", ["deleted_at"])
    for name, columns in (
        (
            "pair",
            [
                sa.Column("first", sa.String(length=40), nullable=False),
                sa.Column("second", sa.String(length=40), nullable=False),
                sa.Column("present", sa.Boolean(), nullable=False),
            ],
        ),
        ("night_table", [sa.Column("token", sa.String(length=24), nullable=False)]),
        (
            "night_round",
            [
                sa.Column("started_at", sa.DateTime(), nullable=True),
                sa.Column("ended_at", sa.DateTime(), nullable=True),
            ],
        ),
    ):
        op.create_table(
            name,
            sa.Column("id", sa.Integer(), nullable=False),
            sa.Column("night_id", sa.String(length=24), nullable=False),
            sa.Column("number", sa.Integer(), nullable=False),
            *columns,
            sa.ForeignKeyConstraint(
                ["night_id"], ["night.id"], name=op.f(f"fk_{name}_night_id_night")
            ),
            sa.PrimaryKeyConstraint("id", name=op.f(f"pk_{name}")),
            sa.UniqueConstraint("night_id", "number", name=op.f(f"uq_{name}_night_id")),
            *(
                [sa.UniqueConstraint("token", name=op.f("uq_night_table_token"))]
                if name == "night_table"
                else []
            ),
        )
        op.create_index(op.f(f"ix_{name}_night_id"), name, ["night_id"])
    op.create_table(
        "seating",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("table", sa.Integer(), nullable=False),
        sa.Column("ns", sa.Integer(), nullable=False),
        sa.Column("ew", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=24), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_seating_game_id_game")),
        sa.ForeignKeyConstraint(
            ["round_id"], ["night_round.id"], name=op.f("fk_seating_round_id_night_round")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seating")),
        sa.UniqueConstraint("round_id", "table", name=op.f("uq_seating_round_id")),
    )
    op.create_index(op.f("ix_seating_round_id"), "seating", ["round_id"])
    op.create_index(op.f("ix_seating_game_id"), "seating", ["game_id"])
    with op.batch_alter_table("game") as batch_op:
        batch_op.add_column(sa.Column("night_id", sa.String(length=24), nullable=True))
        batch_op.create_index(batch_op.f("ix_game_night_id"), ["night_id"])
        batch_op.create_foreign_key(
            batch_op.f("fk_game_night_id_night"), "night", ["night_id"], ["id"]
        )


def downgrade() -> None:
    with op.batch_alter_table("game") as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_game_night_id_night"), type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_game_night_id"))
        batch_op.drop_column("night_id")
    op.drop_table("seating")
    op.drop_table("night_round")
    op.drop_table("night_table")
    op.drop_table("pair")
    op.drop_table("night")
