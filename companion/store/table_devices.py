"""The devices let in at a shared table since its last new code: their numbers, roles, open
pages and the game each shows."""

from __future__ import annotations

import secrets

from sqlalchemy import func, insert, select, update

from companion.store.one_look import looked
from companion.store.table_rows import DEVICES, HOST, TABLES, DeviceRow, device_row
from companion.store.table_transactions import TableTransactions
from models.records import utc_now


class TableDevices(TableTransactions):
    """The devices let in at each table."""

    def device(self, table_id: str, device: str) -> DeviceRow | None:
        """A device let in at the table since its last new code, if it was (read once per
        look)."""
        return looked(
            (id(self._database), "device", table_id, device), lambda: self._device(table_id, device)
        )

    def _device(self, table_id: str, device: str) -> DeviceRow | None:
        with self._read() as connection:
            found = connection.execute(
                select(DEVICES).where(DEVICES.c.table_id == table_id, DEVICES.c.id == device)
            ).first()
        return None if found is None else device_row(found)

    def add_device(self, table_id: str, role: str) -> DeviceRow:
        """Let a new device in with `role`: its id and number."""
        with self._write() as connection:
            number = self._lock(connection, table_id).numbered + 1
            # A device let in by a code, not the host's own: someone joined, the table is used.
            joined = {"in_use": True} if role != HOST else {}
            connection.execute(
                update(TABLES)
                .where(TABLES.c.id == table_id)
                .values(numbered=number, used=utc_now(), **joined)
            )
            device = DeviceRow(secrets.token_urlsafe(9), number, role)
            connection.execute(
                insert(DEVICES),
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
                    select(func.count()).select_from(DEVICES).where(DEVICES.c.table_id == table_id)
                ).scalar_one()
            )

    def devices(self, table_id: str) -> list[DeviceRow]:
        """Every device let in since the last new code, in the order they came."""
        with self._read() as connection:
            rows = connection.execute(
                select(DEVICES).where(DEVICES.c.table_id == table_id).order_by(DEVICES.c.number)
            ).all()
        return [device_row(found) for found in rows]

    def device_seen(
        self, table_id: str, device: str, opened: int = 0, game: str | bool | None = False
    ) -> None:
        """A device opened (`opened` 1) or closed (-1) a page, or shows `game` (False: as it
        was)."""
        values: dict[str, object] = {}
        if opened:
            values["connections"] = func.greatest(DEVICES.c.connections + opened, 0)
        if game is not False:
            values["game"] = game
        if not values:
            return
        with self._write(changes_reads=False) as connection:
            if connection.dialect.name == "sqlite" and opened:
                values["connections"] = func.max(DEVICES.c.connections + opened, 0)
            connection.execute(
                update(DEVICES)
                .where(DEVICES.c.table_id == table_id, DEVICES.c.id == device)
                .values(values)
            )
