"""What a hosted table stores and writes, counted in bytes and bounded.

A table's games (their setups, a board drawn in one included), their records (undone and
abandoned ones too: they stay in the database) and its boards are counted in
`shared_tables.stored` as they are written, in the same transaction, and given back when a
game or a board goes (at most TABLE_BYTES). What it writes within an hour is counted apart
(`written`, since `written_since`), and not given back by a delete (at most HOURLY_BYTES):
a database does not shrink when rows are deleted, it reuses their room later, so writing
and deleting at once would grow it as much as keeping. A write past either bound is refused
in a sentence. So one table adds at most about HOURLY_BYTES to the database in an hour,
however it writes, and one address, which starts at most 10 tables an hour, ten times that.

Counted as stored: a JSON value's compact UTF-8 text or a text's UTF-8 bytes, and ROW_BYTES
for each row (its keys, times and index entries).
"""

from __future__ import annotations

import json
import math
import time

from sqlalchemy import Connection, bindparam, select, update

from companion.language import Message
from companion.store.errors import StoreError
from models.records import SharedTableRecord

MIB = 1024 * 1024
HOUR_S = 3600.0
# The most one hosted table stores: about 50 long games on a shipped board ...
TABLE_BYTES = 8 * MIB
# ... and writes within an hour (from its first write of the hour), deleted or not: what
# a delete gives back may be stored again, but not written again at once. Undone and
# redone records count their rows as written too (they are written anew).
HOURLY_BYTES = 8 * MIB
# What a row costs beside its values (migration 0007 keeps its own copy of it).
ROW_BYTES = 128
# The most games one hosted table imports in an hour (what the address-tries count it as).
IMPORTS_PER_HOUR = 6
IMPORT_TRIES = "import"

_tables = SharedTableRecord.metadata.tables["shared_tables"]
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
    connection: Connection,
    table_id: str,
    stored: int,
    written: int | None = None,
    *,
    playing: bool = False,
    now: float | None = None,
) -> None:
    """Count what a write at the table stores (`stored` more bytes) and writes (`written`,
    by default as much), in the write's transaction, the table's row locked; StoreError if
    that passes what it may store or write within the hour (nothing is then written).
    `playing`: a record taken in play, so the table is in use."""
    written = stored if written is None else written
    now = time.time() if now is None else now
    row = connection.execute(
        select(_tables.c.stored, _tables.c.written, _tables.c.written_since)
        .where(_tables.c.id == table_id)
        .with_for_update()
    ).first()
    if row is None:
        raise StoreError(f"the table {table_id} is gone")
    fresh = row.written_since <= now - HOUR_S
    before = 0 if fresh else row.written
    since = now if fresh else row.written_since
    if row.stored + stored > TABLE_BYTES:
        raise StoreError(Message("limit.table.storage", most=round(TABLE_BYTES / MIB)))
    if before + written > HOURLY_BYTES:
        minutes = max(1, math.ceil((since + HOUR_S - now) / 60))
        said = Message("limit.table.writes", most=round(HOURLY_BYTES / MIB), minutes=minutes)
        raise StoreError(said)
    values: dict[str, object] = {
        "stored": row.stored + stored,
        "written": before + written,
        "written_since": since,
    }
    if playing:
        values["in_use"] = True
    connection.execute(update(_tables).where(_tables.c.id == table_id).values(values))


def give_back(connection: Connection, table_id: str, amount: int) -> None:
    """Count `amount` bytes fewer at the table (a game or a board went)."""
    if amount:
        connection.execute(_GIVE_BACK, {"table": table_id, "amount": amount})
