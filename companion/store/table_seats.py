"""Seats at a shared table's games: which device plays which seat, and the games deleted at
the table."""

from __future__ import annotations

from sqlalchemy import and_, bindparam, delete, insert, select

from companion.store.one_look import looked, looking
from companion.store.table_rows import DELETED, SEATS
from companion.store.table_transactions import TableTransactions

# Every seat held in a game (TableRecords.seats, read for each screen drawn).
_SEATS = select(SEATS.c.device, SEATS.c.seat).where(
    SEATS.c.table_id == bindparam("table_id"), SEATS.c.game_id == bindparam("game_id")
)


class TableSeats(TableTransactions):
    """The seats held in each table's games."""

    def take_seat(self, table_id: str, game_id: str, device: str, seat: str, shared: bool) -> bool:
        """Seat a device in a game; False if `seat` is held by another and not `shared`."""
        with self._write() as connection:
            self._lock(connection, table_id)
            if not shared:
                holder = connection.execute(
                    select(SEATS.c.device).where(
                        SEATS.c.table_id == table_id,
                        SEATS.c.game_id == game_id,
                        SEATS.c.seat == seat,
                        SEATS.c.device != device,
                    )
                ).first()
                if holder is not None:
                    return False
            where = and_(
                SEATS.c.table_id == table_id,
                SEATS.c.game_id == game_id,
                SEATS.c.device == device,
            )
            connection.execute(delete(SEATS).where(where))
            connection.execute(
                insert(SEATS),
                {"table_id": table_id, "game_id": game_id, "device": device, "seat": seat},
            )
        return True

    def leave_seat(self, table_id: str, game_id: str, device: str) -> None:
        """Free a device's seat in a game."""
        with self._write() as connection:
            connection.execute(
                delete(SEATS).where(
                    SEATS.c.table_id == table_id,
                    SEATS.c.game_id == game_id,
                    SEATS.c.device == device,
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
                select(SEATS.c.seat).where(
                    SEATS.c.table_id == table_id,
                    SEATS.c.game_id == game_id,
                    SEATS.c.device == device,
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
                select(SEATS.c.game_id, SEATS.c.seat).where(
                    SEATS.c.table_id == table_id, SEATS.c.device == device
                )
            ).all()
        return {str(game): str(seat) for game, seat in rows}

    def keep_seats_of(self, table_id: str, devices: set[str]) -> None:
        """Free every seat at the table but those of `devices`."""
        with self._write() as connection:
            connection.execute(
                delete(SEATS).where(
                    SEATS.c.table_id == table_id, SEATS.c.device.not_in(sorted(devices))
                )
            )

    def forget_game(self, table_id: str, game_id: str, deleted: bool = True) -> None:
        """Free every seat of a game; `deleted`: remember it was deleted at the table."""
        with self._write() as connection:
            connection.execute(
                delete(SEATS).where(SEATS.c.table_id == table_id, SEATS.c.game_id == game_id)
            )
            if deleted:
                connection.execute(
                    delete(DELETED).where(
                        DELETED.c.table_id == table_id, DELETED.c.game_id == game_id
                    )
                )
                connection.execute(insert(DELETED), {"table_id": table_id, "game_id": game_id})

    def was_deleted(self, table_id: str, game_id: str) -> bool:
        """Whether a game was deleted at the table."""
        with self._read() as connection:
            return (
                connection.execute(
                    select(DELETED.c.game_id).where(
                        DELETED.c.table_id == table_id, DELETED.c.game_id == game_id
                    )
                ).first()
                is not None
            )
