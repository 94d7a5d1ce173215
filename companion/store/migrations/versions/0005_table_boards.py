"""The boards a hosted table entered or drew, kept with the table.

Revision ID: 0005
Revises: 0004

A board saved at a hosted table belongs to that table: every server process on the database
lists it to that table's devices only, and it goes when the table goes.
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add table_boards."""
    op.create_table(
        "table_boards",
        sa.Column("table_id", sa.String(length=32), primary_key=True),
        sa.Column("id", sa.String(length=64), primary_key=True),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("board", sa.JSON(), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop it again."""
    op.drop_table("table_boards")
