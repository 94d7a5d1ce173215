"""Which device drives each game's computer seats (a job of its own, out of
`turns`): the one that recorded last, as long as it keeps saying it is there; the others
follow, and one of them takes over when it falls silent. In memory for one process
(`Leases`), or in the database for every server process on it (`StoredLeases`);
one per server, handed in by its `Service`, never a global.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from companion.store.tables import TableRecords

# The device driving a game's computers says it is still there this often; silent for
# LEASE_S (its tab closed, its phone asleep or gone), another device showing the game takes
# the computers over: a person waits a few seconds at most, and two devices never both
# play for long (a second one's record is refused by the store's revision check).
BEAT_S = 1.0
LEASE_S = 3.0


class Leases:
    """Which device drives each game's computer seats, and when it last said it was there.

    One per server (its Service), shared by every device's page, as the bus is: a device's
    record or its tap on Continue claims a game, its screen renews the claim every BEAT_S
    while a person can see it, and a claim not renewed for LEASE_S is free to take.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        # game id -> (device, when it last claimed or renewed)
        self._held: dict[str, tuple[str, float]] = {}
        # Taps run on worker threads, the screens' watches on the event loop.
        self._lock = threading.Lock()

    def claim(self, game_id: str, device: str) -> None:
        """`device` drives the game from now."""
        with self._lock:
            self._held[game_id] = (device, self.clock())

    def renew(self, game_id: str, device: str) -> None:
        """`device` is still there: its claim, if it has one, runs on."""
        with self._lock:
            if self._held.get(game_id, ("", 0.0))[0] == device:
                self._held[game_id] = (device, self.clock())

    def holds(self, game_id: str, device: str) -> bool:
        """Whether `device` drives the game, taking it first if it is free or has lapsed."""
        with self._lock:
            held = self._held.get(game_id)
            now = self.clock()
            if held is not None and held[0] != device and now - held[1] <= LEASE_S:
                return False
            if held is None or held[0] != device:
                self._held[game_id] = (device, now)
            return True

    def release(self, game_id: str, device: str) -> None:
        """`device` has left the game: anyone may take it at once."""
        with self._lock:
            if self._held.get(game_id, ("", 0.0))[0] == device:
                del self._held[game_id]


class StoredLeases(Leases):
    """Leases in the database: every server process on it sees who drives each
    game's computers, and a process that stopped (killed, say) stops renewing, so a device on
    another process takes the computers over LEASE_S later. The clock is the wall clock,
    which every process shares."""

    def __init__(self, records: TableRecords, clock: Callable[[], float] = time.time) -> None:
        super().__init__(clock)
        self.records = records

    def claim(self, game_id: str, device: str) -> None:
        """`device` drives the game from now."""
        self.records.take_lease(game_id, device, self.clock(), -1.0)

    def renew(self, game_id: str, device: str) -> None:
        """`device` is still there: its claim, if it has one, runs on."""
        self.records.renew_lease(game_id, device, self.clock())

    def holds(self, game_id: str, device: str) -> bool:
        """Whether `device` drives the game, taking it first if it is free or has lapsed."""
        return self.records.take_lease(game_id, device, self.clock(), LEASE_S)

    def release(self, game_id: str, device: str) -> None:
        """`device` has left the game: anyone may take it at once."""
        self.records.release_lease(game_id, device)
