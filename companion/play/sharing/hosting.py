"""A hosted server: many tables on one public address, each its own.

Anyone who opens the address may start a table; the device that starts it holds the table's
host key (kept in its browser) and gets the table's Join and Watch codes. A code typed on
the code screen opens whichever table it is the code of. Every limit is held in the
database, so it holds on every server process: tables started and wrong codes per address,
and tables left idle are removed.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from companion.language import Message
from companion.language.render import Language
from companion.play.language_setting import ENGLISH
from companion.play.sharing.access import CODE_TRIES, TableAccess, Ticket, admit_at
from companion.play.sharing.limiter import TRIES, WINDOW_S, Limiter, StoredTries
from companion.play.sharing.links import TableLinks
from companion.store.tables import TableRecords

# What starting a table counts as in the database's tries.
START_TRIES = "start"
# At most this many tables started from one address an hour.
STARTS_PER_HOUR = 10
# A table nobody used for this long is removed with its games.
IDLE_DAYS = 30.0
# A table nobody joined by its code or played in is removed this long after it started.
UNUSED_HOURS = 2.0
# The most tables in use a server keeps at once: past it, none is started until some are
# removed (tables started and never used are not counted: they go within hours).
MOST_TABLES = 5000


@dataclass(frozen=True)
class HostedLimits:
    """The limits of a public address: tables per address an hour, wrong codes a minute,
    how long an idle table and one nobody used are kept, and how many tables in use there
    may be."""

    starts_per_hour: int = STARTS_PER_HOUR
    most_tables: int = MOST_TABLES
    code_tries: int = TRIES
    code_window_s: float = WINDOW_S
    idle_days: float = IDLE_DAYS
    unused_hours: float = UNUSED_HOURS


@dataclass
class Hosting:
    """The tables of a hosted server at its public address (e.g. https://isle.example.org)."""

    records: TableRecords
    public_url: str
    limits: HostedLimits = field(default_factory=HostedLimits)
    clock: Callable[[], float] = time.time

    def __post_init__(self) -> None:
        self.public_url = self.public_url.rstrip("/")
        self.codes: Limiter = StoredTries(
            self.records,
            CODE_TRIES,
            self.limits.code_tries,
            self.limits.code_window_s,
            self.clock,
        )
        self.starts: Limiter = StoredTries(
            self.records, START_TRIES, self.limits.starts_per_hour, 3600.0, self.clock
        )

    def start(self, client: str, words: Language = ENGLISH) -> TableAccess | str:
        """Start a table for `client` (the address its connection comes from): the table,
        its host key known, or the sentence saying why not."""
        if self.records.count_in_use() >= self.limits.most_tables:
            return words.render(Message("app.hosted.server_full"))
        # Counted as it is let through, in one step: starts racing on two processes too.
        wait = self.starts.attempt(client)
        if wait > 0:
            minutes = max(1, math.ceil(wait / 60))
            return words.render(Message("app.hosted.too_many_tables", minutes=minutes))
        return TableAccess(self.records, self.codes, hosted=True, started_by=client)

    def admit(
        self, client: str, given: str, device: str | None, words: Language = ENGLISH
    ) -> tuple[TableAccess, Ticket] | str:
        """Let a device in at the table whose code (or host key) it gave, or say why not."""
        table, ticket = admit_at(self.records, self.codes, client, given, device, words)
        if table is None or isinstance(ticket, str):
            return str(ticket)
        key = given.strip() if ticket.role.value == "host" else ""
        return TableAccess(self.records, self.codes, table, key), ticket

    def links(self, access: TableAccess) -> TableLinks:
        """The Join, Watch and host links of a table, at the public address."""
        return TableLinks(self.public_url, self.public_url, access)

    def remove_idle(self) -> list[str]:
        """Remove every table nobody used for the idle time, and every one nobody joined or
        played in for the unused time, with their games: their ids."""
        now = datetime.fromtimestamp(self.clock(), UTC)
        before = now - timedelta(days=self.limits.idle_days)
        unused = now - timedelta(hours=self.limits.unused_hours)
        return self.records.remove_idle(before, unused)
