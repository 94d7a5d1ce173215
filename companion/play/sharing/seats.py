"""Who each device is in each game: one player, the scorekeeper, or a watcher.

A player's seat and the scorekeeper's are held by one device at a time; any number watch.
Seats are kept per device, not per connection, so a reload or a phone waking up finds its
seat again; and in the database (companion/store/tables.py), so every server process on it
sees the same seats.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.language import Message
from companion.language.render import Language
from companion.play.language_setting import ENGLISH
from companion.store.tables import TableRecords

SCOREKEEPER = "scorekeeper"
WATCHER = "watcher"


def seat_naming(seat: str, labels: Mapping[str, str]) -> Message | str:
    """A seat as a sentence names it: the player's name, 'the scorekeeper' or 'a watcher'."""
    if seat == SCOREKEEPER:
        return Message("app.seat.the_scorekeeper")
    if seat == WATCHER:
        return Message("app.seat.a_watcher")
    return labels.get(seat, seat)


class SeatRegistry:
    """The seats taken in every game of one shared table, by device id."""

    def __init__(self, records: TableRecords, table_id: str) -> None:
        self.records = records
        self.table_id = table_id

    def take(
        self,
        game_id: str,
        device: str,
        seat: str,
        players: tuple[str, ...],
        words: Language = ENGLISH,
    ) -> str | None:
        """Seat `device` in a game as `seat`; None if done, else the reason it was not."""
        if seat not in (*players, SCOREKEEPER, WATCHER):
            return words.render(Message("app.seat.not_in_game"))
        if not self.records.take_seat(self.table_id, game_id, device, seat, seat == WATCHER):
            return words.render(Message("app.seat.taken_refused"))
        return None

    def leave(self, game_id: str, device: str) -> None:
        """Give up the device's seat in a game (it then picks again)."""
        self.records.leave_seat(self.table_id, game_id, device)

    def seat_of(self, game_id: str, device: str) -> str | None:
        """The device's seat in a game, if it has one."""
        return self.records.seat_of(self.table_id, game_id, device)

    def taken(self, game_id: str) -> dict[str, str]:
        """Every held seat of a game but the watchers': seat -> device id."""
        held = self.records.seats(self.table_id, game_id)
        return {seat: device for device, seat in held.items() if seat != WATCHER}

    def of_device(self, device: str) -> dict[str, str]:
        """Every seat a device holds: game id -> seat."""
        return self.records.seats_of_device(self.table_id, device)

    def forget(self, game_id: str) -> None:
        """Free every seat of a game (it was deleted)."""
        self.records.forget_game(self.table_id, game_id, deleted=False)

    def keep_only(self, devices: set[str]) -> None:
        """Free every seat but those of `devices` (a new code keeps the host's seats)."""
        self.records.keep_seats_of(self.table_id, devices)
