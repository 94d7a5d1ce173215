"""A shared table's rows: the tables they live in, and a table and a device as read."""

from __future__ import annotations

from dataclasses import dataclass

from models.records import (
    DeletedGameRecord,
    LeaseRecord,
    SharedTableRecord,
    TableDeviceRecord,
    TableSeatRecord,
)

# The tables by name: SQLModel sets `__table__` on its table models but does not declare it.
TABLES = SharedTableRecord.metadata.tables["shared_tables"]
DEVICES = TableDeviceRecord.metadata.tables["table_devices"]
SEATS = TableSeatRecord.metadata.tables["table_seats"]
DELETED = DeletedGameRecord.metadata.tables["table_deleted_games"]
LEASES = LeaseRecord.metadata.tables["leases"]

# Each role's code column.
HOST, JOIN, WATCH = "host", "join", "watch"


@dataclass(frozen=True, slots=True)
class TableRow:
    """A shared table as stored: its id, codes, the codes they replaced, and generation."""

    id: str
    join_code: str
    watch_code: str
    retired: tuple[str, ...]
    generation: int
    numbered: int = 0


@dataclass(frozen=True, slots=True)
class DeviceRow:
    """A device let in at a table: its id, number, role, open pages and the game it shows."""

    id: str
    number: int
    role: str
    connections: int = 0
    game: str | None = None


def table_row(found: object) -> TableRow:
    """A table's row as read (a result row of `shared_tables`)."""
    row = found._mapping  # type: ignore[attr-defined]
    retired = tuple(code for code in (row["retired_join"], row["retired_watch"]) if code)
    return TableRow(
        row["id"], row["join_code"], row["watch_code"], retired, row["generation"], row["numbered"]
    )


def device_row(found: object) -> DeviceRow:
    """A device's row as read (a result row of `table_devices`)."""
    row = found._mapping  # type: ignore[attr-defined]
    return DeviceRow(row["id"], row["number"], row["role"], row["connections"], row["game"])
