"""What a hosted table stores, counted in bytes and bounded (`TABLE_BYTES`).

A table's games (their setups, a board drawn in one included), their records (undone and
abandoned ones too: they stay in the database) and its boards are counted in
`shared_tables.stored` as they are written, in the same transaction, and given back when a
game or a board goes; a write past the bound is refused in a sentence. So one table adds at
most TABLE_BYTES to the database, however it writes, and one address, which starts at most
10 tables an hour, at most ten times that in an hour.

Counted as stored: a JSON value's compact UTF-8 text or a text's UTF-8 bytes, and ROW_BYTES
for each row (its keys, times and index entries).
"""

from __future__ import annotations

import json

from sqlalchemy import Connection, bindparam, update

from companion.language import Message
from companion.store.errors import StoreError
from models.records import SharedTableRecord

# The most one hosted table stores: about 50 long games on a shipped board.
TABLE_BYTES = 8 * 1024 * 1024
# What a row costs beside its values (migration 0007 keeps its own copy of it).
ROW_BYTES = 128
# The most games one hosted table imports in an hour (what the address-tries count it as).
IMPORTS_PER_HOUR = 6
IMPORT_TRIES = "import"

_tables = SharedTableRecord.metadata.tables["shared_tables"]
# Spent only while the table stays within its bound; a record taken in play marks it used.
_SPEND = (
    update(_tables)
    .where(
        _tables.c.id == bindparam("table"),
        _tables.c.stored + bindparam("amount") <= bindparam("most"),
    )
    .values(stored=_tables.c.stored + bindparam("amount"))
)
_SPEND_PLAYING = _SPEND.values(stored=_tables.c.stored + bindparam("amount"), in_use=True)
_GIVE_BACK = (
    update(_tables)
    .where(_tables.c.id == bindparam("table"))
    .values(stored=_tables.c.stored - bindparam("amount"))
)


def size(value: object) -> int:
    """The bytes a stored JSON value or text is counted as."""
    if isinstance(value, str):
        return len(value.encode("utf-8", "replace"))
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return len(text.encode("utf-8", "replace"))


def record_bytes(command: object, description: str) -> int:
    """What one record's row is counted as."""
    return ROW_BYTES + size(command) + size(description)


def spend(
    connection: Connection, table_id: str, amount: int, *, playing: bool = False, most: int = 0
) -> None:
    """Count `amount` more bytes at the table, in the write's transaction; StoreError if
    that passes its bound (nothing is then written). `playing`: a record taken in play, so
    the table is in use."""
    most = most or TABLE_BYTES
    statement = _SPEND_PLAYING if playing else _SPEND
    done = connection.execute(statement, {"table": table_id, "amount": amount, "most": most})
    if done.rowcount != 1:
        mib = round(most / (1024 * 1024))
        raise StoreError(Message("limit.table.storage", most=mib))


def give_back(connection: Connection, table_id: str, amount: int) -> None:
    """Count `amount` bytes fewer at the table (a game or a board went)."""
    if amount:
        connection.execute(_GIVE_BACK, {"table": table_id, "amount": amount})
