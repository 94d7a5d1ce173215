"""The first schema: games and their append-only command log.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the games and commands tables."""
    op.create_table(
        "games",
        sa.Column("id", sa.String(length=32), primary_key=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.Column("board", sa.String(length=64), nullable=False),
        sa.Column("setup", sa.JSON(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("winner", sa.String(length=32), nullable=True),
        sa.Column("summoner", sa.Boolean(), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
    )
    op.create_index("ix_games_status_updated", "games", ["status", "updated"])
    op.create_table(
        "commands",
        sa.Column("game_id", sa.String(length=32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("command", sa.JSON(), nullable=False),
        sa.Column("description", sa.String(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("mark", sa.String(length=16), nullable=True),
        sa.PrimaryKeyConstraint("game_id", "seq"),
    )


def downgrade() -> None:
    """Drop both tables."""
    op.drop_table("commands")
    op.drop_index("ix_games_status_updated", table_name="games")
    op.drop_table("games")
