"""Each command row names the tap that recorded it.

Revision ID: 0003
Revises: 0002

Undo takes back what one tap recorded, and that was told apart by the rows'
timestamps. Rows saved before are given their tap here, once, the way the store told them
apart until now: a skip and the command saved right after it in the same write are one tap,
any other row a tap of its own. From now on the store writes each row's tap itself.
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add commands.tap and fill it for every row."""
    with op.batch_alter_table("commands") as batch:
        batch.add_column(sa.Column("tap", sa.Integer(), nullable=True))
    commands = sa.table(
        "commands",
        sa.column("game_id", sa.String),
        sa.column("seq", sa.Integer),
        sa.column("command", sa.JSON),
        sa.column("created", sa.DateTime(timezone=True)),
        sa.column("tap", sa.Integer),
    )
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(
            commands.c.game_id, commands.c.seq, commands.c.command, commands.c.created
        ).order_by(commands.c.game_id, commands.c.seq)
    ).all()
    taps: list[dict[str, object]] = []
    # The row before, as (game id, seq, type, created, tap).
    before: tuple[str, int, str, object, int] | None = None
    for row in rows:
        game_id, seq, created = str(row.game_id), int(row.seq), row.created
        kind = str(dict(row.command).get("type"))
        tap = seq
        if (
            before is not None
            and before[:2] == (game_id, seq - 1)
            and before[2] == "skip"
            and kind != "skip"
            and before[3] == created
        ):
            tap = before[4]
        taps.append({"of_game": game_id, "at": seq, "tap": tap})
        before = (game_id, seq, kind, created, tap)
    if taps:
        connection.execute(
            commands.update()
            .where(
                commands.c.game_id == sa.bindparam("of_game"),
                commands.c.seq == sa.bindparam("at"),
            )
            .values(tap=sa.bindparam("tap")),
            taps,
        )


def downgrade() -> None:
    """Drop the taps: the timestamps tell them apart again."""
    with op.batch_alter_table("commands") as batch:
        batch.drop_column("tap")
