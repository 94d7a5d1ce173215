"""Computers' leases: which device drives a game's computer players, and since when it
last said so."""

from __future__ import annotations

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from companion.store.table_rows import LEASES
from companion.store.table_transactions import TableTransactions


class TableLeases(TableTransactions):
    """Who drives each game's computers."""

    def lease(self, game_id: str) -> tuple[str, float] | None:
        """Who drives a game's computers and when they last said so, if anyone."""
        with self._read() as connection:
            found = connection.execute(
                select(LEASES.c.device, LEASES.c.renewed).where(LEASES.c.game_id == game_id)
            ).first()
        return None if found is None else (str(found.device), float(found.renewed))

    def take_lease(self, game_id: str, device: str, now: float, unless_within: float) -> bool:
        """`device` drives the game from `now`, unless another renewed it within
        `unless_within` seconds (then False). Negative `unless_within`: take it anyway."""
        with self._write() as connection:
            found = connection.execute(
                select(LEASES.c.device, LEASES.c.renewed)
                .where(LEASES.c.game_id == game_id)
                .with_for_update()
            ).first()
            if found is None:
                try:
                    with connection.begin_nested():
                        connection.execute(
                            insert(LEASES),
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
                update(LEASES).where(LEASES.c.game_id == game_id).values(device=device, renewed=now)
            )
        return True

    def renew_lease(self, game_id: str, device: str, now: float) -> None:
        """`device` is still there: its lease, if it holds one, runs on from `now`."""
        with self._write() as connection:
            connection.execute(
                update(LEASES)
                .where(LEASES.c.game_id == game_id, LEASES.c.device == device)
                .values(renewed=now)
            )

    def release_lease(self, game_id: str, device: str) -> None:
        """`device` has left the game: anyone may take its computers at once."""
        with self._write() as connection:
            connection.execute(
                delete(LEASES).where(LEASES.c.game_id == game_id, LEASES.c.device == device)
            )
