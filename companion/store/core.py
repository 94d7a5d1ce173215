"""A store's hold on one database, the base of every part of the store: its connections,
the games kept in memory, the hosted table it is scoped to, and its writes, each in one
transaction."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, Self

from sqlalchemy import Connection, func
from sqlalchemy.exc import DBAPIError
from sqlmodel import select

from companion.language import Message
from companion.store.cache import GameCache
from companion.store.database import Database, first_line
from companion.store.errors import GameNotFound, StoreError
from companion.store.one_look import written
from companion.store.rows import GAMES
from companion.store.saved import SavedGame
from companion.store.table_boards import TableBoards
from companion.store.table_storage import spend
from companion.store.tables import TableRecords

# The most games one hosted table keeps: a table deletes one to start another.
TABLE_GAMES = 200


class StoreCore:
    """A store's hold on one database: its connections, the games it keeps in memory, the
    hosted table it is scoped to, and its writes, each in one transaction."""

    def __init__(self, database: Database) -> None:
        self._database = database
        engine = database.engine
        # On PostgreSQL a read sees one snapshot, so a game row and its log always agree.
        self._reader = (
            engine
            if database.is_sqlite
            else engine.execution_options(isolation_level="REPEATABLE READ")
        )
        self._writer = engine.execution_options(write=True)
        # The games kept in memory, shared with the store's table views.
        self._cache = GameCache()
        # The database's own keys, read once (dice_secrets.py), shared with the table views.
        self._keys: dict[str, str] = {}
        # Shared tables' codes, devices, seats, wrong tries and computers' leases.
        self.tables = TableRecords(database)
        # The boards hosted tables entered or drew, each table's own.
        self.boards = TableBoards(database)
        # The hosted table whose games this store sees and writes (`scoped`); None: all.
        self.table_id: str | None = None

    def scoped(self, table_id: str) -> Self:
        """This store as one hosted table's devices see it: only its games are
        listed, opened, written or deleted, and the games it starts or imports are its own.
        The connections and the games kept in memory are shared with this store."""
        view = copy.copy(self)
        view.table_id = table_id
        return view

    @property
    def shared_url(self) -> str | None:
        """The URL of a database other server processes may share (PostgreSQL), password
        included, for the bus between them; None for a SQLite file, one process's own."""
        if self._database.is_sqlite:
            return None
        return self._database.engine.url.render_as_string(hide_password=False)

    @property
    def notices(self) -> list[Message]:
        """What the user must be told about opening the database (a damaged file moved aside)."""
        return self._database.notices

    @property
    def label(self) -> str:
        """Where the games are kept, password hidden."""
        return self._database.label

    def ping(self) -> None:
        """Reach the database once (a health check); StoreError if it cannot be."""
        with self._failures("reach"), self._reader.connect() as connection:
            connection.exec_driver_sql("SELECT 1")

    def close(self) -> None:
        """Release the database connections."""
        self._database.engine.dispose()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- for every part of the store ------------------------------------------------

    def _check_room(self, connection: Connection) -> None:
        """StoreError if this view's table already has TABLE_GAMES games (a hosted table's
        games are bounded, so one table cannot fill a public server's database)."""
        if self.table_id is None:
            return
        held = connection.execute(
            select(func.count()).select_from(GAMES).where(GAMES.c.table_id == self.table_id)
        ).scalar_one()
        if held >= TABLE_GAMES:
            raise StoreError(Message("app.hosted.table_full", most=TABLE_GAMES))

    def _spend(
        self, connection: Connection, stored: int, written: int | None = None, playing: bool = False
    ) -> None:
        """Count what a write of this view's hosted table stores and writes
        (table_storage.py)."""
        if self.table_id is not None:
            spend(connection, self.table_id, stored, written, playing=playing)

    def _check_mine(self, connection: Connection, game_id: str) -> None:
        """GameNotFound unless the game is this view's table's."""
        found = connection.execute(select(GAMES.c.table_id).where(GAMES.c.id == game_id)).first()
        if found is None or found[0] != self.table_id:
            raise GameNotFound(game_id)

    def _save(self, write: Callable[[Connection], Any]) -> None:
        """Run `write` in one transaction and commit it durably, or leave nothing behind."""
        try:
            with self._failures("store.cannot_save"), self._writer.begin() as connection:
                write(connection)
        finally:
            written()

    @contextmanager
    def _failures(self, saying: str) -> Iterator[None]:
        """Database errors (server gone, disk full, locked too long) as one StoreError line,
        said by the message `saying` (reading or saving)."""
        try:
            yield
        except DBAPIError as error:
            said = Message(saying, database=self.label, error=first_line(error))
            raise StoreError(said) from None

    def _trusted(self, game_id: str, revision: int) -> SavedGame | None:
        """The game kept in memory if it is at `revision` and this view's table's; else None."""
        return self._cache.trusted(game_id, revision, self.table_id)

    def _remember(self, saved: SavedGame) -> SavedGame:
        """Keep `saved` (just written by this view) as the game's latest, unless a newer one is."""
        self._cache.remember(saved, self.table_id)
        return self._handout(saved)

    @staticmethod
    def _handout(saved: SavedGame) -> SavedGame:
        return replace(saved, state=saved.state.clone())
