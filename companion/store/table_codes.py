"""Shared tables and their codes: a table started with a join and a watch code, found by a
code or its host's key, given new codes, said to be used, and removed with its games."""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections.abc import Callable
from datetime import datetime

from sqlalchemy import Connection, and_, bindparam, delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from companion.store.database import Database
from companion.store.errors import StoreError
from companion.store.one_look import looked, seen
from companion.store.table_rows import (
    DELETED,
    DEVICES,
    HOST,
    JOIN,
    LEASES,
    SEATS,
    TABLES,
    WATCH,
    DeviceRow,
    TableRow,
    table_row,
)
from companion.store.table_transactions import TableTransactions
from models.records import CommandRecord, DraftRecord, GameRecord, TableBoardRecord, utc_now

_boards = TableBoardRecord.metadata.tables["table_boards"]
_games = GameRecord.metadata.tables["games"]
_commands = CommandRecord.metadata.tables["commands"]
_drafts = DraftRecord.metadata.tables["reset_drafts"]

# A table by its code or host key, and a device's row at it (none: NULLs) in the same read;
# built once, as a hundred pages may come back at once (TableRecords.find).
_known = DEVICES.alias("known")
_FIND = (
    select(TABLES, *(column.label(f"known_{column.name}") for column in _known.c))
    .select_from(
        TABLES.outerjoin(
            _known,
            and_(_known.c.table_id == TABLES.c.id, _known.c.id == bindparam("device")),
        )
    )
    .where(
        or_(
            TABLES.c.host_key == bindparam("hashed"),
            TABLES.c.join_code == bindparam("code"),
            TABLES.c.watch_code == bindparam("code"),
        )
    )
    .limit(1)
)
_FIND_AT = _FIND.where(TABLES.c.id == bindparam("table_id"))

ID_BYTES = 8
# How many times new codes are drawn when one is already another table's.
CODE_DRAWS = 5
# A table said to be used is not said so again by this process for this long.
TOUCH_EVERY_S = 60.0
# Tables whose last `touch` this process remembers before forgetting those said long ago.
MOST_TOUCHED = 4096


def key_hash(key: str) -> str:
    """What the database keeps of a host's key: its SHA-256, in hex."""
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


class TableCodes(TableTransactions):
    """The shared tables themselves: started, found by a code, given new codes, removed."""

    def __init__(self, database: Database) -> None:
        super().__init__(database)
        # When this process last said each table was used (`touch`).
        self._touched: dict[str, float] = {}
        self._touch_lock = threading.Lock()

    def create(
        self,
        host_key: str,
        new_code: Callable[[], str],
        *,
        hosted: bool = False,
        started_by: str = "",
    ) -> TableRow:
        """Start a table opened by `host_key`, with two fresh codes no other table has."""
        now = utc_now()
        for _ in range(CODE_DRAWS):
            join, watch = _two_codes(new_code)
            row = {
                "id": secrets.token_hex(ID_BYTES),
                "host_key": key_hash(host_key),
                "join_code": join,
                "watch_code": watch,
                "generation": 1,
                "numbered": 0,
                "hosted": hosted,
                "started_by": started_by[:64],
                "created": now,
                "used": now,
            }
            try:
                with self._write() as connection:
                    if self._code_taken(connection, join, watch):
                        continue
                    connection.execute(insert(TABLES), row)
            except IntegrityError:
                continue
            return TableRow(str(row["id"]), join, watch, (), 1)
        raise StoreError("could not draw codes no other table has; try again")

    def get(self, table_id: str) -> TableRow | None:
        """A table as it is now, or None if it is gone (read once per look: one_look.py)."""
        return looked((id(self._database), "table", table_id), lambda: self._get(table_id))

    def _get(self, table_id: str) -> TableRow | None:
        with self._read() as connection:
            found = connection.execute(select(TABLES).where(TABLES.c.id == table_id)).first()
        return None if found is None else table_row(found)

    def find(
        self, code: str, key: str, table_id: str | None = None, device: str = ""
    ) -> tuple[str, str] | None:
        """The table and role a code (read loosely: `code`) or a host key (exactly: `key`)
        opens, among all tables or only `table_id`'s: (table id, 'host'|'join'|'watch').
        `device`'s row at that table is read along: `device` asks for it next (admit_at)."""
        hashed = key_hash(key)
        query, values = _FIND, {"hashed": hashed, "code": code, "device": device}
        if table_id is not None:
            query, values["table_id"] = _FIND_AT, table_id
        with self._read() as connection:
            found = connection.execute(query, values).first()
        if found is None:
            return None
        # The table's row, read whole: its codes' generation is asked for next (admit_at).
        table = str(found.id)
        seen((id(self._database), "table", table), table_row(found))
        if device:
            row = found._mapping
            seen(
                (id(self._database), "device", table, device),
                None
                if row["known_id"] is None
                else DeviceRow(
                    row["known_id"],
                    row["known_number"],
                    row["known_role"],
                    row["known_connections"],
                    row["known_game"],
                ),
            )
        if secrets.compare_digest(found.host_key, hashed):
            return table, HOST
        return table, JOIN if found.join_code == code else WATCH

    def retired(self, code: str, table_id: str | None = None) -> bool:
        """Whether `code` is one a new code replaced (at `table_id`, or any table)."""
        query = select(TABLES.c.id).where(
            or_(TABLES.c.retired_join == code, TABLES.c.retired_watch == code)
        )
        if table_id is not None:
            query = query.where(TABLES.c.id == table_id)
        with self._read() as connection:
            return connection.execute(query.limit(1)).first() is not None

    def renew(self, table_id: str, new_code: Callable[[], str]) -> TableRow:
        """New join and watch codes: only the host's devices stay, with their seats."""
        for _ in range(CODE_DRAWS):
            join, watch = _two_codes(new_code)
            try:
                with self._write() as connection:
                    old = self._lock(connection, table_id)
                    if self._code_taken(connection, join, watch):
                        continue
                    connection.execute(
                        update(TABLES)
                        .where(TABLES.c.id == table_id)
                        .values(
                            join_code=join,
                            watch_code=watch,
                            retired_join=old.join_code,
                            retired_watch=old.watch_code,
                            generation=old.generation + 1,
                            used=utc_now(),
                        )
                    )
                    gone = select(DEVICES.c.id).where(
                        DEVICES.c.table_id == table_id, DEVICES.c.role != HOST
                    )
                    connection.execute(
                        delete(SEATS).where(SEATS.c.table_id == table_id, SEATS.c.device.in_(gone))
                    )
                    connection.execute(
                        delete(DEVICES).where(
                            DEVICES.c.table_id == table_id, DEVICES.c.role != HOST
                        )
                    )
            except IntegrityError:
                continue
            return TableRow(
                table_id, join, watch, (old.join_code, old.watch_code), old.generation + 1
            )
        raise StoreError("could not draw codes no other table has; try again")

    def touch(self, table_id: str) -> None:
        """Someone did something at the table: it is not idle (said once a minute at most:
        a table is idle after days, and a hundred pages may come in at once)."""
        now = time.monotonic()
        with self._touch_lock:
            if now - self._touched.get(table_id, -TOUCH_EVERY_S) < TOUCH_EVERY_S:
                return
            if len(self._touched) >= MOST_TOUCHED:
                recent = {t: at for t, at in self._touched.items() if now - at < TOUCH_EVERY_S}
                # Still too many: forget them all (the next touches are written, no harm).
                self._touched = recent if len(recent) < MOST_TOUCHED else {}
            self._touched[table_id] = now
        with self._write(changes_reads=False) as connection:
            connection.execute(update(TABLES).where(TABLES.c.id == table_id).values(used=utc_now()))

    def remove_idle(self, before: datetime, unused_before: datetime | None = None) -> list[str]:
        """Remove every hosted table unused since `before`, and every one nobody joined or
        played in started before `unused_before`, with their games: their ids."""
        idle = TABLES.c.used < before
        if unused_before is not None:
            idle = or_(idle, and_(~TABLES.c.in_use, TABLES.c.created < unused_before))
        with self._write() as connection:
            found: list[object] = list(
                connection.execute(select(TABLES.c.id).where(TABLES.c.hosted, idle)).scalars()
            )
            ids = [str(table_id) for table_id in found]
            for table_id in ids:
                self._remove(connection, table_id)
        return ids

    def remove(self, table_id: str) -> None:
        """Remove a table, with its games."""
        with self._write() as connection:
            self._remove(connection, table_id)

    def remove_local(self) -> None:
        """Remove the tables a host's terminal started (`--share`): a new run starts anew.
        Their games belong to no table and stay."""
        with self._write() as connection:
            found: list[object] = list(
                connection.execute(select(TABLES.c.id).where(~TABLES.c.hosted)).scalars()
            )
            for table_id in found:
                self._remove(connection, str(table_id))

    def count(self) -> int:
        """How many tables there are."""
        with self._read() as connection:
            return int(connection.execute(select(func.count()).select_from(TABLES)).scalar_one())

    def count_in_use(self) -> int:
        """How many tables someone joined or played in (a table started and left is not)."""
        query = select(func.count()).select_from(TABLES).where(TABLES.c.in_use)
        with self._read() as connection:
            return int(connection.execute(query).scalar_one())

    def stored(self, table_id: str) -> int:
        """The bytes a table's games, records and boards are counted as (table_storage.py)."""
        query = select(TABLES.c.stored).where(TABLES.c.id == table_id)
        with self._read() as connection:
            return int(connection.execute(query).scalar() or 0)

    @staticmethod
    def _code_taken(connection: Connection, join: str, watch: str) -> bool:
        codes = (join, watch)
        return (
            connection.execute(
                select(TABLES.c.id)
                .where(or_(TABLES.c.join_code.in_(codes), TABLES.c.watch_code.in_(codes)))
                .limit(1)
            ).first()
            is not None
        )

    @staticmethod
    def _remove(connection: Connection, table_id: str) -> None:
        games = select(_games.c.id).where(_games.c.table_id == table_id)
        connection.execute(delete(LEASES).where(LEASES.c.game_id.in_(games)))
        connection.execute(delete(_drafts).where(_drafts.c.game_id.in_(games)))
        connection.execute(delete(_commands).where(_commands.c.game_id.in_(games)))
        connection.execute(delete(_games).where(_games.c.table_id == table_id))
        for kept in (SEATS, DEVICES, DELETED, _boards):
            connection.execute(delete(kept).where(kept.c.table_id == table_id))
        connection.execute(delete(TABLES).where(TABLES.c.id == table_id))


def _two_codes(new_code: Callable[[], str]) -> tuple[str, str]:
    join = new_code()
    watch = new_code()
    while watch == join:
        watch = new_code()
    return join, watch
