"""Dice drawn from the whole command; an imported game's secret drawn from what it is.

Revision ID: 0006
Revises: 0005

An attack's dice depend on its target too, so a roll seen, undone and spent on the target
it beats is another roll; games saved before keep the way they rolled (games.dice stays
NULL for them). The database gets a secret of its own, with which an imported game's dice
secret is drawn from the game it is (companion/store/dice.py).
"""

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

KEY_BYTES = 32


def upgrade() -> None:
    """Add games.dice and store_keys, with the key of imported games' dice."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("dice", sa.Integer(), nullable=True))
    keys = op.create_table(
        "store_keys",
        sa.Column("name", sa.String(length=32), primary_key=True),
        sa.Column("value", sa.String(length=64), nullable=False),
    )
    op.bulk_insert(keys, [{"name": "copies", "value": secrets.token_hex(KEY_BYTES)}])


def downgrade() -> None:
    """Drop them again."""
    op.drop_table("store_keys")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("dice")
