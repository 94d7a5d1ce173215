"""The boards of hosted tables, in the database: each table's own.

A board entered in New game or drawn in the board editor at a hosted table is kept in the
table's rows (`table_boards`), so every server process on the database lists it to that
table's devices, and to no other table; it goes when the table goes. A table keeps at most
TABLE_BOARDS of them. The rules of a board's name are `companion.boards.user`'s, as for the
boards a device keeps in its own folder.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Connection, delete, func, insert, select, update
from sqlalchemy.exc import DBAPIError

from companion.boards import BoardError, parse_board, shipped_board_ids
from companion.boards.user import BoardExists, board_name
from companion.language import Message
from companion.store.database import Database, first_line
from companion.store.errors import StoreError
from companion.store.table_storage import ROW_BYTES, give_back, size, spend
from models.board import Board
from models.records import SharedTableRecord, TableBoardRecord, utc_now
from models.text import STORED

# The most boards one hosted table keeps: a table plays on a few boards of its own.
TABLE_BOARDS = 20

_boards = TableBoardRecord.metadata.tables["table_boards"]
_tables = SharedTableRecord.metadata.tables["shared_tables"]


class TableBoards:
    """The boards of every hosted table of one database; safe to share between threads."""

    def __init__(self, database: Database, most: int = TABLE_BOARDS) -> None:
        self._database = database
        self._writer = database.engine.execution_options(write=True)
        self._reader = database.single_reads
        self.most = most

    def boards(self, table_id: str) -> list[Board]:
        """A table's boards, by name."""
        query = select(_boards.c.board).where(_boards.c.table_id == table_id)
        with self._read() as connection:
            rows: list[object] = list(connection.execute(query).scalars())
        boards = [_board(data) for data in rows]
        found = [board for board in boards if board is not None]
        return sorted(found, key=lambda board: board.name.lower())

    def saved(self, table_id: str, board_id: str) -> Board | None:
        """A table's board with this id, if it keeps one."""
        query = select(_boards.c.board).where(
            _boards.c.table_id == table_id, _boards.c.id == board_id
        )
        with self._read() as connection:
            data = connection.execute(query).scalar()
        return None if data is None else _board(data)

    def save(self, table_id: str, board: Board, replace: bool = False) -> None:
        """Keep a board at a table: BoardExists if the table keeps one under its id and
        `replace` is not given; BoardError if its name is not a board's or the table keeps
        as many as it may."""
        board_name(board.name)
        row = {
            "table_id": table_id,
            "id": board.id,
            "name": board.name,
            "board": board.model_dump(mode="json", exclude_defaults=True),
            "updated": utc_now(),
        }
        mine = (_boards.c.table_id == table_id) & (_boards.c.id == board.id)
        with self._write() as connection:
            # The table's row is locked: two devices saving at once count one after the other.
            locked = select(_tables.c.id).where(_tables.c.id == table_id).with_for_update()
            if connection.execute(locked).first() is None:
                raise StoreError(f"the table {table_id} is gone")
            held = connection.execute(select(_boards.c.board).where(mine)).scalar()
            if held is not None:
                if not replace:
                    raise BoardExists(_board(held) or board)
                give_back(connection, table_id, ROW_BYTES + size(held))
                spend(connection, table_id, ROW_BYTES + size(row["board"]))
                connection.execute(update(_boards).where(mine).values(row))
                return
            count = select(func.count()).select_from(_boards).where(_boards.c.table_id == table_id)
            if connection.execute(count).scalar_one() >= self.most:
                raise BoardError(Message("limit.boards.table_full", most=self.most))
            spend(connection, table_id, ROW_BYTES + size(row["board"]))
            connection.execute(insert(_boards), row)

    def delete(self, table_id: str, board_id: str) -> None:
        """Delete a table's board; BoardError for a shipped layout or a board it does not keep."""
        if board_id in shipped_board_ids():
            raise BoardError(Message("problem.board.shipped", id=board_id))
        where = (_boards.c.table_id == table_id) & (_boards.c.id == board_id)
        with self._write() as connection:
            held = connection.execute(select(_boards.c.board).where(where)).scalar()
            if held is None or connection.execute(delete(_boards).where(where)).rowcount != 1:
                raise BoardError(Message("problem.board.not_found", id=repr(board_id)))
            give_back(connection, table_id, ROW_BYTES + size(held))

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        try:
            with self._writer.begin() as connection:
                yield connection
        except DBAPIError as error:
            raise StoreError(
                Message("store.cannot_save", database=self._database.label, error=first_line(error))
            ) from None

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        try:
            with self._reader.connect() as connection:
                yield connection
        except DBAPIError as error:
            raise StoreError(
                Message("store.cannot_read", database=self._database.label, error=first_line(error))
            ) from None


class TableShelf:
    """One hosted table's boards, as its pages keep and list them (a `companion.boards.user.
    Shelf`); a refusal of the database is a BoardError too, said as the store says it."""

    def __init__(self, records: TableBoards, table_id: str) -> None:
        self.records = records
        self.table_id = table_id

    def boards(self) -> list[Board]:
        """Every board the table keeps, by name."""
        return self.records.boards(self.table_id)

    def saved(self, board_id: str) -> Board | None:
        """The table's board with this id, if it keeps one."""
        return self.records.saved(self.table_id, board_id)

    def save(self, board: Board, replace: bool = False) -> None:
        """Keep a board at the table (see `TableBoards.save`)."""
        try:
            self.records.save(self.table_id, board, replace)
        except StoreError as error:
            raise BoardError(error.message) from None

    def delete(self, board_id: str) -> None:
        """Delete one of the table's boards (see `TableBoards.delete`)."""
        try:
            self.records.delete(self.table_id, board_id)
        except StoreError as error:
            raise BoardError(error.message) from None


def _board(data: object) -> Board | None:
    """A stored board as a Board, shown safely; None if it no longer reads as one."""
    try:
        return parse_board(data, STORED)
    except BoardError:
        return None
