"""Energy and Reset drafts kept per game; a secret per game for its dice.

Revision ID: 0002
Revises: 0001

A table's draft belongs to the game, so every device sees it and it survives a
restart. Dice come from a secret the store keeps, not from the game's id (which is
in every address); games saved before get one here.
"""

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

SECRET_BYTES = 32


def upgrade() -> None:
    """Add games.secret (filled for every game) and the reset_drafts table."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("secret", sa.String(length=64), nullable=True))
    games = sa.table("games", sa.column("id", sa.String), sa.column("secret", sa.String))
    connection = op.get_bind()
    for (game_id,) in connection.execute(sa.select(games.c.id)).all():
        connection.execute(
            games.update()
            .where(games.c.id == game_id)
            .values(secret=secrets.token_hex(SECRET_BYTES))
        )
    op.create_table(
        "reset_drafts",
        sa.Column("game_id", sa.String(length=32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("entries", sa.JSON(), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop the drafts and the secrets."""
    op.drop_table("reset_drafts")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("secret")
