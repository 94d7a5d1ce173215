"""Who each device is in each game: one player, the scorekeeper, or a watcher.

A player's seat and the scorekeeper's are held by one device at a time; any number watch.
Seats are kept per device, not per connection, so a reload or a phone waking up finds its
seat again.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping

from companion.language import Message
from companion.language.render import Language
from companion.play.language_setting import ENGLISH

SCOREKEEPER = "scorekeeper"
WATCHER = "watcher"


def seat_name(seat: str, labels: Mapping[str, str], words: Language = ENGLISH) -> str:
    """A seat in words: the player's name, 'the scorekeeper' or 'a watcher'."""
    if seat == SCOREKEEPER:
        return words.render(Message("app.seat.the_scorekeeper"))
    if seat == WATCHER:
        return words.render(Message("app.seat.a_watcher"))
    return labels.get(seat, seat)


class SeatRegistry:
    """The seats taken in every shared game, by device id."""

    def __init__(self) -> None:
        self._seats: dict[str, dict[str, str]] = {}  # game id -> device id -> seat
        self._lock = threading.Lock()

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
        with self._lock:
            seats = self._seats.setdefault(game_id, {})
            holder = next((d for d, s in seats.items() if s == seat and d != device), None)
            if holder is not None and seat != WATCHER:
                return words.render(Message("app.seat.taken_refused"))
            seats[device] = seat
        return None

    def leave(self, game_id: str, device: str) -> None:
        """Give up the device's seat in a game (it then picks again)."""
        with self._lock:
            self._seats.get(game_id, {}).pop(device, None)

    def seat_of(self, game_id: str, device: str) -> str | None:
        """The device's seat in a game, if it has one."""
        with self._lock:
            return self._seats.get(game_id, {}).get(device)

    def taken(self, game_id: str) -> dict[str, str]:
        """Every held seat of a game but the watchers': seat -> device id."""
        with self._lock:
            return {s: d for d, s in self._seats.get(game_id, {}).items() if s != WATCHER}

    def of_device(self, device: str) -> dict[str, str]:
        """Every seat a device holds: game id -> seat."""
        with self._lock:
            return {g: seats[device] for g, seats in self._seats.items() if device in seats}

    def forget(self, game_id: str) -> None:
        """Free every seat of a game (it was deleted)."""
        with self._lock:
            self._seats.pop(game_id, None)

    def keep_only(self, devices: set[str]) -> None:
        """Free every seat but those of `devices` (a new code keeps the host's seats)."""
        with self._lock:
            for seats in self._seats.values():
                for device in [d for d in seats if d not in devices]:
                    del seats[device]

    def clear(self) -> None:
        """Free every seat (a new table code sends everyone back)."""
        with self._lock:
            self._seats.clear()
