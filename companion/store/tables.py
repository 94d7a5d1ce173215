"""Shared tables in the database: codes, devices, seats, wrong tries and computers' leases.

Every server process on one database reads and writes these rows, so a code, a
seat, a wrong try or a lease taken on one process holds on every other. The play layer
(companion/play/sharing/, companion/play/turns.py) decides what they mean; this module only
keeps them. Writes that must not race (a seat, new codes) lock the table's row first.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import (
    Connection,
    and_,
    bindparam,
    delete,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.exc import DBAPIError, IntegrityError

from companion.store.database import Database, first_line
from companion.store.errors import StoreError
from companion.store.one_look import looked, looking, seen, written
from models.records import (
    CommandRecord,
    DeletedGameRecord,
    DraftRecord,
    GameRecord,
    LeaseRecord,
    SharedTableRecord,
    TableBoardRecord,
    TableDeviceRecord,
    TableSeatRecord,
    TryRecord,
    utc_now,
)

_tables = SharedTableRecord.metadata.tables["shared_tables"]
_devices = TableDeviceRecord.metadata.tables["table_devices"]
_seats = TableSeatRecord.metadata.tables["table_seats"]
_deleted = DeletedGameRecord.metadata.tables["table_deleted_games"]
_leases = LeaseRecord.metadata.tables["leases"]
_tries = TryRecord.metadata.tables["address_tries"]
_boards = TableBoardRecord.metadata.tables["table_boards"]

# A table by its code or host key, and a device's row at it (none: NULLs) in the same read;
# built once, as a hundred pages may come back at once (TableRecords.find).
_known = _devices.alias("known")
_FIND = (
    select(_tables, *(column.label(f"known_{column.name}") for column in _known.c))
    .select_from(
        _tables.outerjoin(
            _known,
            and_(_known.c.table_id == _tables.c.id, _known.c.id == bindparam("device")),
        )
    )
    .where(
        or_(
            _tables.c.host_key == bindparam("hashed"),
            _tables.c.join_code == bindparam("code"),
            _tables.c.watch_code == bindparam("code"),
        )
    )
    .limit(1)
)
_FIND_AT = _FIND.where(_tables.c.id == bindparam("table_id"))
# Every seat held in a game (TableRecords.seats, read for each screen drawn).
_SEATS = select(_seats.c.device, _seats.c.seat).where(
    _seats.c.table_id == bindparam("table_id"), _seats.c.game_id == bindparam("game_id")
)
_games = GameRecord.metadata.tables["games"]
_commands = CommandRecord.metadata.tables["commands"]
_drafts = DraftRecord.metadata.tables["reset_drafts"]

ID_BYTES = 8
# How many times new codes are drawn when one is already another table's.
CODE_DRAWS = 5
# Each role's code column.
HOST, JOIN, WATCH = "host", "join", "watch"
# A table said to be used is not said so again by this process for this long.
TOUCH_EVERY_S = 60.0
# Tables whose last `touch` this process remembers before forgetting those said long ago.
MOST_TOUCHED = 4096
# A client's tries are counted under a lock of its own (PostgreSQL's advisory locks, the
# two-number form: this space, and a number drawn from the kind and the client).
_TRIES_SPACE = 0x5349_5452
_LOCK_TRIES = text("SELECT pg_advisory_xact_lock(:space, :key)")


def _key_of(kind: str, client: str) -> int:
    """A client's tries' lock number: 32 bits of the SHA-256 of the kind and the client."""
    digest = hashlib.sha256(f"{kind}\n{client}".encode("utf-8", "replace")).digest()
    return int.from_bytes(digest[:4], "big", signed=True)


def key_hash(key: str) -> str:
    """What the database keeps of a host's key: its SHA-256, in hex."""
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


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


class TableRecords:
    """The shared tables of one database; safe to share between threads and processes."""

    def __init__(self, database: Database) -> None:
        self._database = database
        self._writer = database.engine.execution_options(write=True)
        # Each read here is one statement (tables, devices, seats, tries).
        self._reader = database.single_reads
        # When this process last said each table was used (`touch`).
        self._touched: dict[str, float] = {}
        self._touch_lock = threading.Lock()

    # --- tables -------------------------------------------------------------------------

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
                    connection.execute(insert(_tables), row)
            except IntegrityError:
                continue
            return TableRow(str(row["id"]), join, watch, (), 1)
        raise StoreError("could not draw codes no other table has; try again")

    def get(self, table_id: str) -> TableRow | None:
        """A table as it is now, or None if it is gone (read once per look: one_look.py)."""
        return looked((id(self._database), "table", table_id), lambda: self._get(table_id))

    def _get(self, table_id: str) -> TableRow | None:
        with self._read() as connection:
            found = connection.execute(select(_tables).where(_tables.c.id == table_id)).first()
        return None if found is None else _table_row(found)

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
        seen((id(self._database), "table", table), _table_row(found))
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
        query = select(_tables.c.id).where(
            or_(_tables.c.retired_join == code, _tables.c.retired_watch == code)
        )
        if table_id is not None:
            query = query.where(_tables.c.id == table_id)
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
                        update(_tables)
                        .where(_tables.c.id == table_id)
                        .values(
                            join_code=join,
                            watch_code=watch,
                            retired_join=old.join_code,
                            retired_watch=old.watch_code,
                            generation=old.generation + 1,
                            used=utc_now(),
                        )
                    )
                    gone = select(_devices.c.id).where(
                        _devices.c.table_id == table_id, _devices.c.role != HOST
                    )
                    connection.execute(
                        delete(_seats).where(
                            _seats.c.table_id == table_id, _seats.c.device.in_(gone)
                        )
                    )
                    connection.execute(
                        delete(_devices).where(
                            _devices.c.table_id == table_id, _devices.c.role != HOST
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
            connection.execute(
                update(_tables).where(_tables.c.id == table_id).values(used=utc_now())
            )

    def remove_idle(self, before: datetime, unused_before: datetime | None = None) -> list[str]:
        """Remove every hosted table unused since `before`, and every one nobody joined or
        played in started before `unused_before`, with their games: their ids."""
        idle = _tables.c.used < before
        if unused_before is not None:
            idle = or_(idle, and_(~_tables.c.in_use, _tables.c.created < unused_before))
        with self._write() as connection:
            found: list[object] = list(
                connection.execute(select(_tables.c.id).where(_tables.c.hosted, idle)).scalars()
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
                connection.execute(select(_tables.c.id).where(~_tables.c.hosted)).scalars()
            )
            for table_id in found:
                self._remove(connection, str(table_id))

    def count(self) -> int:
        """How many tables there are."""
        with self._read() as connection:
            return int(connection.execute(select(func.count()).select_from(_tables)).scalar_one())

    def count_in_use(self) -> int:
        """How many tables someone joined or played in (a table started and left is not)."""
        query = select(func.count()).select_from(_tables).where(_tables.c.in_use)
        with self._read() as connection:
            return int(connection.execute(query).scalar_one())

    def stored(self, table_id: str) -> int:
        """The bytes a table's games, records and boards are counted as (table_storage.py)."""
        query = select(_tables.c.stored).where(_tables.c.id == table_id)
        with self._read() as connection:
            return int(connection.execute(query).scalar() or 0)

    # --- devices ------------------------------------------------------------------------

    def device(self, table_id: str, device: str) -> DeviceRow | None:
        """A device let in at the table since its last new code, if it was (read once per
        look)."""
        return looked(
            (id(self._database), "device", table_id, device), lambda: self._device(table_id, device)
        )

    def _device(self, table_id: str, device: str) -> DeviceRow | None:
        with self._read() as connection:
            found = connection.execute(
                select(_devices).where(_devices.c.table_id == table_id, _devices.c.id == device)
            ).first()
        return None if found is None else _device_row(found)

    def add_device(self, table_id: str, role: str) -> DeviceRow:
        """Let a new device in with `role`: its id and number."""
        with self._write() as connection:
            number = self._lock(connection, table_id).numbered + 1
            # A device let in by a code, not the host's own: someone joined, the table is used.
            joined = {"in_use": True} if role != HOST else {}
            connection.execute(
                update(_tables)
                .where(_tables.c.id == table_id)
                .values(numbered=number, used=utc_now(), **joined)
            )
            device = DeviceRow(secrets.token_urlsafe(9), number, role)
            connection.execute(
                insert(_devices),
                {
                    "table_id": table_id,
                    "id": device.id,
                    "number": number,
                    "role": role,
                    "connections": 0,
                    "game": None,
                },
            )
        return device

    def device_count(self, table_id: str) -> int:
        """How many devices were let in at the table since its last new code."""
        with self._read() as connection:
            return int(
                connection.execute(
                    select(func.count())
                    .select_from(_devices)
                    .where(_devices.c.table_id == table_id)
                ).scalar_one()
            )

    def devices(self, table_id: str) -> list[DeviceRow]:
        """Every device let in since the last new code, in the order they came."""
        with self._read() as connection:
            rows = connection.execute(
                select(_devices).where(_devices.c.table_id == table_id).order_by(_devices.c.number)
            ).all()
        return [_device_row(found) for found in rows]

    def device_seen(
        self, table_id: str, device: str, opened: int = 0, game: str | bool | None = False
    ) -> None:
        """A device opened (`opened` 1) or closed (-1) a page, or shows `game` (False: as it
        was)."""
        values: dict[str, object] = {}
        if opened:
            values["connections"] = func.greatest(_devices.c.connections + opened, 0)
        if game is not False:
            values["game"] = game
        if not values:
            return
        with self._write(changes_reads=False) as connection:
            if connection.dialect.name == "sqlite" and opened:
                values["connections"] = func.max(_devices.c.connections + opened, 0)
            connection.execute(
                update(_devices)
                .where(_devices.c.table_id == table_id, _devices.c.id == device)
                .values(values)
            )

    # --- seats --------------------------------------------------------------------------

    def take_seat(self, table_id: str, game_id: str, device: str, seat: str, shared: bool) -> bool:
        """Seat a device in a game; False if `seat` is held by another and not `shared`."""
        with self._write() as connection:
            self._lock(connection, table_id)
            if not shared:
                holder = connection.execute(
                    select(_seats.c.device).where(
                        _seats.c.table_id == table_id,
                        _seats.c.game_id == game_id,
                        _seats.c.seat == seat,
                        _seats.c.device != device,
                    )
                ).first()
                if holder is not None:
                    return False
            where = and_(
                _seats.c.table_id == table_id,
                _seats.c.game_id == game_id,
                _seats.c.device == device,
            )
            connection.execute(delete(_seats).where(where))
            connection.execute(
                insert(_seats),
                {"table_id": table_id, "game_id": game_id, "device": device, "seat": seat},
            )
        return True

    def leave_seat(self, table_id: str, game_id: str, device: str) -> None:
        """Free a device's seat in a game."""
        with self._write() as connection:
            connection.execute(
                delete(_seats).where(
                    _seats.c.table_id == table_id,
                    _seats.c.game_id == game_id,
                    _seats.c.device == device,
                )
            )

    def seat_of(self, table_id: str, game_id: str, device: str) -> str | None:
        """A device's seat in a game, if it has one (in a look, read with the game's others:
        a screen asks for them all next)."""
        if looking():
            return self.seats(table_id, game_id).get(device)
        return self._seat_of(table_id, game_id, device)

    def _seat_of(self, table_id: str, game_id: str, device: str) -> str | None:
        with self._read() as connection:
            found = connection.execute(
                select(_seats.c.seat).where(
                    _seats.c.table_id == table_id,
                    _seats.c.game_id == game_id,
                    _seats.c.device == device,
                )
            ).scalar()
        return None if found is None else str(found)

    def seats(self, table_id: str, game_id: str) -> dict[str, str]:
        """Every seat held in a game: device id -> seat (read once per look)."""
        held = looked(
            (id(self._database), "seats", table_id, game_id), lambda: self._seats(table_id, game_id)
        )
        return dict(held)

    def _seats(self, table_id: str, game_id: str) -> dict[str, str]:
        with self._read() as connection:
            rows = connection.execute(_SEATS, {"table_id": table_id, "game_id": game_id}).all()
        return {str(device): str(seat) for device, seat in rows}

    def seats_of_device(self, table_id: str, device: str) -> dict[str, str]:
        """Every seat a device holds: game id -> seat."""
        with self._read() as connection:
            rows = connection.execute(
                select(_seats.c.game_id, _seats.c.seat).where(
                    _seats.c.table_id == table_id, _seats.c.device == device
                )
            ).all()
        return {str(game): str(seat) for game, seat in rows}

    def keep_seats_of(self, table_id: str, devices: set[str]) -> None:
        """Free every seat at the table but those of `devices`."""
        with self._write() as connection:
            connection.execute(
                delete(_seats).where(
                    _seats.c.table_id == table_id, _seats.c.device.not_in(sorted(devices))
                )
            )

    def forget_game(self, table_id: str, game_id: str, deleted: bool = True) -> None:
        """Free every seat of a game; `deleted`: remember it was deleted at the table."""
        with self._write() as connection:
            connection.execute(
                delete(_seats).where(_seats.c.table_id == table_id, _seats.c.game_id == game_id)
            )
            if deleted:
                connection.execute(
                    delete(_deleted).where(
                        _deleted.c.table_id == table_id, _deleted.c.game_id == game_id
                    )
                )
                connection.execute(insert(_deleted), {"table_id": table_id, "game_id": game_id})

    def was_deleted(self, table_id: str, game_id: str) -> bool:
        """Whether a game was deleted at the table."""
        with self._read() as connection:
            return (
                connection.execute(
                    select(_deleted.c.game_id).where(
                        _deleted.c.table_id == table_id, _deleted.c.game_id == game_id
                    )
                ).first()
                is not None
            )

    # --- tries from an address ----------------------------------------------------------

    def tries(self, kind: str, client: str, since: float) -> list[float]:
        """When `client` tried `kind` after `since`, oldest first (older tries are dropped)."""
        with self._write() as connection:
            connection.execute(delete(_tries).where(_tries.c.kind == kind, _tries.c.at <= since))
            rows: list[float] = list(
                connection.execute(
                    select(_tries.c.at)
                    .where(_tries.c.kind == kind, _tries.c.client == client[:64])
                    .order_by(_tries.c.at)
                ).scalars()
            )
            return [float(at) for at in rows]

    def attempt(
        self, kind: str, client: str, now: float, window_s: float, most: int, counts: bool
    ) -> float:
        """Seconds `client` must wait before a try of `kind` at `now` is heard, past `most`
        tries within `window_s`; 0 when it is heard, and then counted if `counts`.

        The count and the try are one transaction that holds the client's lock (SQLite: the
        whole database), so tries racing on two processes are counted one after the other.
        """
        client = client[:64]
        with self._write(changes_reads=False) as connection:
            if connection.dialect.name == "postgresql":
                connection.execute(
                    _LOCK_TRIES, {"space": _TRIES_SPACE, "key": _key_of(kind, client)}
                )
            connection.execute(
                delete(_tries).where(_tries.c.kind == kind, _tries.c.at <= now - window_s)
            )
            rows: list[float] = list(
                connection.execute(
                    select(_tries.c.at)
                    .where(_tries.c.kind == kind, _tries.c.client == client)
                    .order_by(_tries.c.at)
                ).scalars()
            )
            recent = [float(at) for at in rows]
            if len(recent) >= most:
                return max(0.0, recent[-most] + window_s - now)
            if counts:
                connection.execute(insert(_tries), {"kind": kind, "client": client, "at": now})
        return 0.0

    # --- computers' leases --------------------------------------------------------------

    def lease(self, game_id: str) -> tuple[str, float] | None:
        """Who drives a game's computers and when they last said so, if anyone."""
        with self._read() as connection:
            found = connection.execute(
                select(_leases.c.device, _leases.c.renewed).where(_leases.c.game_id == game_id)
            ).first()
        return None if found is None else (str(found.device), float(found.renewed))

    def take_lease(self, game_id: str, device: str, now: float, unless_within: float) -> bool:
        """`device` drives the game from `now`, unless another renewed it within
        `unless_within` seconds (then False). Negative `unless_within`: take it anyway."""
        with self._write() as connection:
            found = connection.execute(
                select(_leases.c.device, _leases.c.renewed)
                .where(_leases.c.game_id == game_id)
                .with_for_update()
            ).first()
            if found is None:
                try:
                    with connection.begin_nested():
                        connection.execute(
                            insert(_leases),
                            {"game_id": game_id, "device": device, "renewed": now},
                        )
                except IntegrityError:
                    return False  # another took it this very moment
                return True
            if found.device == device and unless_within >= 0:
                return True  # its own: holding it is not saying it is still there
            if found.device != device and now - float(found.renewed) <= unless_within:
                return False
            connection.execute(
                update(_leases)
                .where(_leases.c.game_id == game_id)
                .values(device=device, renewed=now)
            )
        return True

    def renew_lease(self, game_id: str, device: str, now: float) -> None:
        """`device` is still there: its lease, if it holds one, runs on from `now`."""
        with self._write() as connection:
            connection.execute(
                update(_leases)
                .where(_leases.c.game_id == game_id, _leases.c.device == device)
                .values(renewed=now)
            )

    def release_lease(self, game_id: str, device: str) -> None:
        """`device` has left the game: anyone may take its computers at once."""
        with self._write() as connection:
            connection.execute(
                delete(_leases).where(_leases.c.game_id == game_id, _leases.c.device == device)
            )

    # --- the transactions ---------------------------------------------------------------

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
            select(_tables).where(_tables.c.id == table_id).with_for_update()
        ).first()
        if found is None:
            raise StoreError(f"the table {table_id} is gone")
        return _table_row(found)

    @staticmethod
    def _code_taken(connection: Connection, join: str, watch: str) -> bool:
        codes = (join, watch)
        return (
            connection.execute(
                select(_tables.c.id)
                .where(or_(_tables.c.join_code.in_(codes), _tables.c.watch_code.in_(codes)))
                .limit(1)
            ).first()
            is not None
        )

    @staticmethod
    def _remove(connection: Connection, table_id: str) -> None:
        games = select(_games.c.id).where(_games.c.table_id == table_id)
        connection.execute(delete(_leases).where(_leases.c.game_id.in_(games)))
        connection.execute(delete(_drafts).where(_drafts.c.game_id.in_(games)))
        connection.execute(delete(_commands).where(_commands.c.game_id.in_(games)))
        connection.execute(delete(_games).where(_games.c.table_id == table_id))
        for kept in (_seats, _devices, _deleted, _boards):
            connection.execute(delete(kept).where(kept.c.table_id == table_id))
        connection.execute(delete(_tables).where(_tables.c.id == table_id))


def _two_codes(new_code: Callable[[], str]) -> tuple[str, str]:
    join = new_code()
    watch = new_code()
    while watch == join:
        watch = new_code()
    return join, watch


def _table_row(found: object) -> TableRow:
    row = found._mapping  # type: ignore[attr-defined]
    retired = tuple(code for code in (row["retired_join"], row["retired_watch"]) if code)
    return TableRow(
        row["id"], row["join_code"], row["watch_code"], retired, row["generation"], row["numbered"]
    )


def _device_row(found: object) -> DeviceRow:
    row = found._mapping  # type: ignore[attr-defined]
    return DeviceRow(row["id"], row["number"], row["role"], row["connections"], row["game"])
