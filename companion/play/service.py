"""What every page one server process serves shares, handed to each page: nothing global.

The store holds the games; the bus announces each change to the pages following it; the
leases say which page drives each game's computer seats, which search in the server's
worker processes; the coach works out win chances and reviews off the pages' thread; a
shared table (`app --share`) lets devices in by its codes. A second process, or a test,
makes its own; what another process must see (codes, seats, tries, leases) is in the
store's database.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.play.bus import Bus, LocalBus
from companion.play.coach_work import CoachWork
from companion.play.home import Standings
from companion.play.leases import Leases, StoredLeases
from companion.play.searches import Searches
from companion.play.sharing.hosting import Hosting
from companion.play.sharing.links import TableLinks
from companion.store.store import Store


@dataclass
class Service:
    """The store, the bus, the computer seats' leases and searches, the shared table and the
    coach's work (win chances and reviews, worked out once for every page) of one server."""

    store: Store
    # A table shared on the network: a code lets devices in, and each device is someone in
    # each game. None: this machine's own browser, no code.
    table: TableLinks | None = None
    bus: Bus = field(default_factory=LocalBus)
    # A hosted server's many tables (`app --hosted`); None: one table or none.
    hosting: Hosting | None = None
    # None: in the store's database (StoredLeases), so every process sees them.
    leases: Leases | None = None
    coach: CoachWork = field(default_factory=CoachWork)
    # The computers' searches, in worker processes started when a game with one opens.
    searches: Searches = field(default_factory=Searches)
    # Where each unfinished game stands, as Home and the watchers' list say it.
    standings: Standings = field(default_factory=Standings)

    def __post_init__(self) -> None:
        if self.leases is None:
            self.leases = StoredLeases(self.store.tables)
