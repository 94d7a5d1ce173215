"""What a hosted table stores and writes, and whether anyone used it.

Revision ID: 0007
Revises: 0006

A hosted table's games, records and boards are bounded in bytes, what it keeps
(`shared_tables.stored`) and what it writes within an hour (`written`, since
`written_since`: companion/store/table_storage.py), and a table nobody joined or played in
(`shared_tables.in_use` false) is removed within hours and not counted against the
server's most tables. Tables kept before count as in use; what they store is counted now.
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

# As companion/store/table_storage.py counts them (a migration keeps its own copy).
ROW_BYTES = 128


def _size(value: object) -> int:
    """The bytes of a stored JSON value or text, as the store counts them."""
    if isinstance(value, str):
        return len(value.encode("utf-8"))
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return len(text.encode("utf-8"))


def upgrade() -> None:
    """Add shared_tables.stored, written, written_since and in_use; count what tables hold."""
    with op.batch_alter_table("shared_tables") as batch:
        batch.add_column(sa.Column("stored", sa.BigInteger(), nullable=False, server_default="0"))
        batch.add_column(
            sa.Column("in_use", sa.Boolean(), nullable=False, server_default=sa.true())
        )
        batch.add_column(sa.Column("written", sa.BigInteger(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("written_since", sa.Float(), nullable=False, server_default="0"))
    connection = op.get_bind()
    tables = sa.table("shared_tables", sa.column("id"), sa.column("stored"))
    games = sa.table("games", sa.column("id"), sa.column("setup", sa.JSON), sa.column("table_id"))
    commands = sa.table(
        "commands",
        sa.column("game_id"),
        sa.column("command", sa.JSON),
        sa.column("description"),
    )
    boards = sa.table("table_boards", sa.column("table_id"), sa.column("board", sa.JSON))
    stored: dict[str, int] = {}
    for game_id, setup, table_id in connection.execute(
        sa.select(games.c.id, games.c.setup, games.c.table_id).where(games.c.table_id.is_not(None))
    ):
        held = ROW_BYTES + _size(setup)
        rows = connection.execute(
            sa.select(commands.c.command, commands.c.description).where(
                commands.c.game_id == game_id
            )
        )
        held += sum(ROW_BYTES + _size(command) + _size(said) for command, said in rows)
        stored[str(table_id)] = stored.get(str(table_id), 0) + held
    for table_id, board in connection.execute(sa.select(boards.c.table_id, boards.c.board)):
        stored[str(table_id)] = stored.get(str(table_id), 0) + ROW_BYTES + _size(board)
    for table_id, held in stored.items():
        connection.execute(sa.update(tables).where(tables.c.id == table_id).values(stored=held))


def downgrade() -> None:
    """Drop them again."""
    with op.batch_alter_table("shared_tables") as batch:
        batch.drop_column("written_since")
        batch.drop_column("written")
        batch.drop_column("in_use")
        batch.drop_column("stored")
