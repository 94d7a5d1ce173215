"""The door of a shared table: its codes, who came in with which, and the devices inside.

The host's terminal prints two codes: one to join (take a seat and record) and one to
watch. A third key, printed only as the host's own link, opens the Share panel. A new code
retires both table codes at once: every device goes back to the code screen.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from enum import StrEnum

from companion.language import Message
from companion.language.render import Language
from companion.play.language_setting import ENGLISH
from companion.play.sharing.codes import masked, new_code, new_host_key, normalise
from companion.play.sharing.limiter import Limiter, StoredTries
from companion.play.sharing.seats import SeatRegistry
from companion.store.table_rows import TableRow
from companion.store.tables import TableRecords

log = logging.getLogger("companion.sharing")
# What wrong codes count as in the database's tries (companion/store/table_tries.py).
CODE_TRIES = "code"
# The most devices let in at one table between two new codes: a table is a few people.
TABLE_DEVICES = 64


class Role(StrEnum):
    """What a code lets a device do."""

    HOST = "host"  # everything a player's device does, and the Share panel
    JOIN = "join"  # take a seat in a game and record for it
    WATCH = "watch"  # follow games, record nothing


def locked_out(wait_s: float, words: Language = ENGLISH) -> str:
    """What a client is told while its wrong tries keep it out for `wait_s` more seconds."""
    return words.render(Message("app.share.locked_out", seconds=int(wait_s) + 1))


@dataclass(frozen=True)
class Ticket:
    """A device let in: its role, under which codes, and its id (kept in its browser)."""

    role: Role
    generation: int
    device: str


@dataclass
class Device:
    """A device that came in, as the host's Share panel lists it."""

    id: str
    number: int
    role: Role
    connections: int = 0
    game: str | None = None  # the game it has open, if any

    @property
    def name(self) -> str:
        """How the Share panel names it."""
        return f"Device {self.number}"


class TableAccess:
    """A shared table's codes, the wrong tries against them, its devices and seats.

    All of it is in the database (companion/store/tables.py), so every server process on it
    lets the same devices in and sees the same seats. `host_key` is known to the
    process that started the table (it prints the host's link) and to a page let in by it;
    the database keeps only its hash.
    """

    def __init__(
        self,
        records: TableRecords,
        limiter: Limiter | None = None,
        table_id: str | None = None,
        host_key: str = "",
        *,
        hosted: bool = False,
        started_by: str = "",
    ) -> None:
        self.records = records
        self.limiter: Limiter = limiter or StoredTries(records, CODE_TRIES)
        if table_id is None:
            host_key = host_key or new_host_key()
            table_id = records.create(host_key, new_code, hosted=hosted, started_by=started_by).id
        self.id = table_id
        self.host_key = host_key
        self.seats = SeatRegistry(records, table_id)

    def _row(self) -> TableRow | None:
        return self.records.get(self.id)

    @property
    def join_code(self) -> str:
        """The code that lets a device take a seat ('' once the table is gone)."""
        row = self._row()
        return "" if row is None else row.join_code

    @property
    def watch_code(self) -> str:
        """The code that lets a device watch ('' once the table is gone)."""
        row = self._row()
        return "" if row is None else row.watch_code

    @property
    def generation(self) -> int:
        """How many codes the table has had: a ticket of an older one no longer opens it."""
        row = self._row()
        return 0 if row is None else row.generation

    def admit(
        self, client: str, given: str, device: str | None = None, words: Language = ENGLISH
    ) -> Ticket | str:
        """Let a device in with a code it gave: its ticket, or the sentence saying why not.

        `client` is what its wrong tries count against: the address its connection comes
        from (companion/app/wire.py), which it cannot choose. `device` is the id its browser
        kept from an earlier visit. While a client is held back by its wrong tries, a device
        still comes in with the host's key, or with the code it was let in with and its kept
        id: both are secrets no guesser holds, so a stranger's wrong tries from the same
        address (behind one router, say) cannot keep the table's own devices out.
        """
        return admit_at(self.records, self.limiter, client, given, device, words, self.id)[1]

    def code_for(self, ticket: Ticket) -> str:
        """The code a device keeps in its browser to come back in with its ticket's role."""
        if ticket.role is Role.HOST:
            return self.host_key
        return self.join_code if ticket.role is Role.JOIN else self.watch_code

    def valid(self, ticket: Ticket | None) -> bool:
        """Whether a ticket still opens the table (it is there, and no new code made since
        it was given, but for the host's)."""
        if ticket is None:
            return False
        row = self._row()
        return row is not None and (ticket.role is Role.HOST or ticket.generation == row.generation)

    def renew(self) -> None:
        """New join and watch codes: every device but the host's goes back to the code screen.

        The host's own seats stay: no other phone may take its place while it waits.
        """
        self.records.renew(self.id, new_code)

    def deleted(self, game_id: str) -> None:
        """A game was deleted: its seats are freed and devices opening it are told so."""
        self.records.forget_game(self.id, game_id)

    def was_deleted(self, game_id: str) -> bool:
        """Whether a game was deleted while the table was shared."""
        return self.records.was_deleted(self.id, game_id)

    def connected(self, ticket: Ticket, game: str | None) -> None:
        """A device's page is open (and showing `game`, if one)."""
        self.records.device_seen(self.id, ticket.device, 1, game)

    def showing(self, ticket: Ticket, game: str | None) -> None:
        """A device opened another screen (a game's, or none)."""
        self.records.device_seen(self.id, ticket.device, 0, game)

    def disconnected(self, ticket: Ticket) -> None:
        """One of a device's pages closed or lost its connection."""
        self.records.device_seen(self.id, ticket.device, -1)

    def devices(self) -> list[Device]:
        """Every device let in since the last new code, in the order they came."""
        return [
            Device(d.id, d.number, Role(d.role), d.connections, d.game)
            for d in self.records.devices(self.id)
        ]


def admit_at(
    records: TableRecords,
    limiter: Limiter,
    client: str,
    given: str,
    device: str | None,
    words: Language,
    table_id: str | None = None,
) -> tuple[str | None, Ticket | str]:
    """Let a device in at `table_id` (None: whichever table the code opens): the table's id
    and the device's ticket, or None and the sentence saying why not (see TableAccess.admit).

    A code is looked up in the database, not compared in constant time: the wrong-try limit
    (held in the database too) is what keeps a guesser from learning anything by trying.
    """
    given = given.strip()
    if not given:
        return None, words.render(Message("app.share.type_code"))
    typed = normalise(given)
    found = records.find(typed, given, table_id, device or "")
    role = None if found is None else Role(found[1])
    known = None
    if found is not None and device:
        known = records.device(found[0], device)
    returning = role is not None and known is not None and known.role == role
    if role is not Role.HOST and not returning:
        renewed = found is None and records.retired(typed, table_id)
        wrong = found is None and not renewed
        # Heard and counted in one step: two wrong tries at once, on two processes, are
        # counted one after the other, so none passes the limit.
        wait = limiter.attempt(client, counts=wrong)
        if wait > 0:
            return None, locked_out(wait, words)
        if renewed:
            return None, words.render(Message("app.main.code_renewed"))
        if wrong:
            log.warning("wrong table code from %s: %s", client, masked(given))
            return None, words.render(Message("app.share.wrong_code"))
    if found is None or role is None:
        return None, words.render(Message("app.share.wrong_code"))
    table = found[0]
    if known is None or known.role != role:
        if records.device_count(table) >= TABLE_DEVICES:
            return None, words.render(Message("app.hosted.table_crowded", most=TABLE_DEVICES))
        known = records.add_device(table, role.value)
    else:
        records.touch(table)
    row = records.get(table)
    return table, Ticket(role, row.generation if row is not None else 0, known.id)
