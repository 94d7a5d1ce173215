"""Shared tables, their devices, seats, wrong tries and the computers' leases in the database.

Revision ID: 0004
Revises: 0003

Several server processes share one PostgreSQL database, so what one process must
see of another (a table's codes, who sits where, wrong-code counts, which device drives a
game's computers) lives here, not in a process's memory. Games may belong to a hosted table.
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add games.table_id and the tables of shared tables, seats, tries and leases."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("table_id", sa.String(length=32), nullable=True))
        batch.create_index("ix_games_table_id", ["table_id"])
    op.create_table(
        "shared_tables",
        sa.Column("id", sa.String(length=32), primary_key=True),
        sa.Column("host_key", sa.String(length=64), nullable=False, unique=True),
        sa.Column("join_code", sa.String(length=16), nullable=False, unique=True),
        sa.Column("watch_code", sa.String(length=16), nullable=False, unique=True),
        sa.Column("retired_join", sa.String(length=16), nullable=True),
        sa.Column("retired_watch", sa.String(length=16), nullable=True),
        sa.Column("generation", sa.Integer(), nullable=False),
        sa.Column("numbered", sa.Integer(), nullable=False),
        sa.Column("hosted", sa.Boolean(), nullable=False),
        sa.Column("started_by", sa.String(length=64), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_shared_tables_used", "shared_tables", ["used"])
    op.create_table(
        "table_devices",
        sa.Column("table_id", sa.String(length=32), primary_key=True),
        sa.Column("id", sa.String(length=32), primary_key=True),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("connections", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=True),
    )
    op.create_table(
        "table_seats",
        sa.Column("table_id", sa.String(length=32), primary_key=True),
        sa.Column("game_id", sa.String(length=32), primary_key=True),
        sa.Column("device", sa.String(length=32), primary_key=True),
        sa.Column("seat", sa.String(length=32), nullable=False),
    )
    op.create_table(
        "table_deleted_games",
        sa.Column("table_id", sa.String(length=32), primary_key=True),
        sa.Column("game_id", sa.String(length=32), primary_key=True),
    )
    op.create_table(
        "leases",
        sa.Column("game_id", sa.String(length=32), primary_key=True),
        sa.Column("device", sa.String(length=64), nullable=False),
        sa.Column("renewed", sa.Float(), nullable=False),
    )
    op.create_table(
        "address_tries",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("client", sa.String(length=64), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_index("ix_address_tries_kind_client_at", "address_tries", ["kind", "client", "at"])


def downgrade() -> None:
    """Drop them again."""
    for table in (
        "address_tries",
        "leases",
        "table_deleted_games",
        "table_seats",
        "table_devices",
        "shared_tables",
    ):
        op.drop_table(table)
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_table_id")
        batch.drop_column("table_id")
