"""What every page one server process serves shares, handed to each page: nothing global.

The store holds the games; the bus announces each change to the pages following it; the
leases say which page drives each game's computer seats; the coach works out win
chances and reviews off the pages' thread; a shared table (`app --share`)
lets devices in by its codes. A second process, or a test, makes its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.play.bus import Bus, LocalBus
from companion.play.coach_work import CoachWork
from companion.play.sharing.links import TableLinks
from companion.play.turns import Leases
from companion.store.store import Store


@dataclass
class Service:
    """The store, the bus, the computer seats' leases, the shared table and the coach's work
    (win chances and reviews, worked out once for every page) of one server."""

    store: Store
    # A table shared on the network: a code lets devices in, and each device is someone in
    # each game. None: this machine's own browser, no code.
    table: TableLinks | None = None
    bus: Bus = field(default_factory=LocalBus)
    leases: Leases = field(default_factory=Leases)
    coach: CoachWork = field(default_factory=CoachWork)
