"""How every part of a shared table's records reads and writes: one statement per read, each
write one transaction that ends a look's memory (one_look.py), and the table's row locked
where writes must not race."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Connection, select
from sqlalchemy.exc import DBAPIError, IntegrityError

from companion.store.database import Database, first_line
from companion.store.errors import StoreError
from companion.store.one_look import written
from companion.store.table_rows import TABLES, TableRow, table_row


class TableTransactions:
    """The reads and writes of one database's shared tables; safe to share between threads."""

    def __init__(self, database: Database) -> None:
        self._database = database
        self._writer = database.engine.execution_options(write=True)
        # Each read here is one statement (tables, devices, seats, tries).
        self._reader = database.single_reads

    @contextmanager
    def _write(self, *, changes_reads: bool = True) -> Iterator[Connection]:
        """A transaction; `changes_reads`: whether it may change what a look read (a table's
        codes, seats; not when a table was used, nor a device's open pages)."""
        try:
            with self._writer.begin() as connection:
                yield connection
        except IntegrityError:
            raise
        except DBAPIError as error:
            raise StoreError(
                f"could not save to {self._database.label}: {first_line(error)}"
            ) from None
        finally:
            if changes_reads:
                written()

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        try:
            with self._reader.connect() as connection:
                yield connection
        except DBAPIError as error:
            raise StoreError(
                f"could not read from {self._database.label}: {first_line(error)}"
            ) from None

    @staticmethod
    def _lock(connection: Connection, table_id: str) -> TableRow:
        """The table's row, locked until the transaction ends (SQLite: the whole database)."""
        found = connection.execute(
            select(TABLES).where(TABLES.c.id == table_id).with_for_update()
        ).first()
        if found is None:
            raise StoreError(f"the table {table_id} is gone")
        return table_row(found)
