"""The door of a shared table: its codes, who came in with which, and the devices inside.

The host's terminal prints two codes: one to join (take a seat and record) and one to
watch. A third key, printed only as the host's own link, opens the Share panel. A new code
retires both table codes at once: every device goes back to the code screen.
"""

from __future__ import annotations

import logging
import secrets
import threading
from dataclasses import dataclass, field
from enum import StrEnum

from companion.app.language_setting import ENGLISH
from companion.app.sharing.codes import masked, new_code, new_host_key, same
from companion.app.sharing.limiter import TryLimiter
from companion.app.sharing.seats import SeatRegistry
from companion.language import Message
from companion.language.render import Language

log = logging.getLogger("companion.sharing")


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


@dataclass
class TableAccess:
    """A shared table's codes, the wrong tries against them, its devices and seats."""

    limiter: TryLimiter = field(default_factory=TryLimiter)
    host_key: str = field(default_factory=new_host_key)
    join_code: str = field(default_factory=new_code)
    watch_code: str = field(default_factory=new_code)
    generation: int = 1
    seats: SeatRegistry = field(default_factory=SeatRegistry)

    def __post_init__(self) -> None:
        self._retired: list[str] = []
        self._devices: dict[str, Device] = {}
        self._numbered = 0
        self._deleted: set[str] = set()
        self._lock = threading.RLock()
        while same(self.watch_code, self.join_code):
            self.watch_code = new_code()

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
        given = given.strip()
        if not given:
            return words.render(Message("app.share.type_code"))
        with self._lock:
            role = self._role_of(given)
            known = self._devices.get(device or "")
            returning = role is not None and known is not None and known.role is role
            if role is not Role.HOST and not returning:
                wait = self.limiter.wait_s(client)
                if wait > 0:
                    return locked_out(wait, words)
            if role is None:
                if any(same(given, old) for old in self._retired):
                    return words.render(Message("app.main.code_renewed"))
                self.limiter.failed(client)
                log.warning("wrong table code from %s: %s", client, masked(given))
                return words.render(Message("app.share.wrong_code"))
            if known is None or known.role is not role:
                self._numbered += 1
                known = Device(secrets.token_urlsafe(9), self._numbered, role)
                self._devices[known.id] = known
            return Ticket(role, self.generation, known.id)

    def code_for(self, ticket: Ticket) -> str:
        """The code a device keeps in its browser to come back in with its ticket's role."""
        return {Role.HOST: self.host_key, Role.JOIN: self.join_code, Role.WATCH: self.watch_code}[
            ticket.role
        ]

    def valid(self, ticket: Ticket | None) -> bool:
        """Whether a ticket still opens the table (no new code made since it was given)."""
        return ticket is not None and (
            ticket.role is Role.HOST or ticket.generation == self.generation
        )

    def renew(self) -> None:
        """New join and watch codes: every device but the host's goes back to the code screen."""
        with self._lock:
            self._retired = [self.join_code, self.watch_code]
            self.join_code = new_code()
            self.watch_code = new_code()
            while same(self.watch_code, self.join_code):
                self.watch_code = new_code()
            self.generation += 1
            self._devices = {d.id: d for d in self._devices.values() if d.role is Role.HOST}
            # The host's own seats stay: no other phone may take its place while it waits.
            self.seats.keep_only(set(self._devices))

    def deleted(self, game_id: str) -> None:
        """A game was deleted: its seats are freed and devices opening it are told so."""
        with self._lock:
            self._deleted.add(game_id)
            self.seats.forget(game_id)

    def was_deleted(self, game_id: str) -> bool:
        """Whether a game was deleted while the table was shared."""
        with self._lock:
            return game_id in self._deleted

    def connected(self, ticket: Ticket, game: str | None) -> None:
        """A device's page is open (and showing `game`, if one)."""
        with self._lock:
            device = self._devices.get(ticket.device)
            if device is not None:
                device.connections += 1
                device.game = game

    def showing(self, ticket: Ticket, game: str | None) -> None:
        """A device opened another screen (a game's, or none)."""
        with self._lock:
            device = self._devices.get(ticket.device)
            if device is not None:
                device.game = game

    def disconnected(self, ticket: Ticket) -> None:
        """One of a device's pages closed or lost its connection."""
        with self._lock:
            device = self._devices.get(ticket.device)
            if device is not None:
                device.connections = max(0, device.connections - 1)

    def devices(self) -> list[Device]:
        """Every device let in since the last new code, in the order they came."""
        with self._lock:
            devices = list(self._devices.values())
            return sorted(
                (Device(d.id, d.number, d.role, d.connections, d.game) for d in devices),
                key=lambda d: d.number,
            )

    def _role_of(self, given: str) -> Role | None:
        if same(given, self.host_key, exact=True):
            return Role.HOST
        if same(given, self.join_code):
            return Role.JOIN
        if same(given, self.watch_code):
            return Role.WATCH
        return None
