"""One page's visit: who it is at the table, what it may see and record, and where its
address leads. The app draws what a visit decides; nothing here knows of Flet.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.boards.user import FolderShelf, Shelf
from companion.language import Message
from companion.language.render import Language
from companion.play.bus import DELETED, PRESENCE, RENEWED, SEATS, Handler, draft_topic, game_topic
from companion.play.service import Service
from companion.play.session import GameSession
from companion.play.sharing.access import Role, TableAccess, Ticket
from companion.play.sharing.limiter import Limiter
from companion.play.sharing.links import TableLinks
from companion.play.sharing.policy import LOCKED, delete_refusal
from companion.play.sharing.seats import WATCHER
from companion.store.store import Store
from companion.store.table_boards import TableShelf
from models.setup import Mode

# What a hosted server's page at no table yet sees games of: none (no game has this table).
NO_TABLE = "-"
# Before a page has told its table which game it shows.
UNTOLD = object()

# Screens an address names by itself: its path -> the screen.
NAMED: dict[tuple[str, ...], str] = {
    ("new",): "new_game",
    ("history",): "history",
    ("board-editor",): "board_editor",
}
# A game's screens: what follows its id in the path -> the screen (none: the game itself).
GAME_SCREENS = {
    None: "table",
    "reset": "reset",
    "log": "log",
    "end": "end",
    "review": "review",
}


@dataclass(frozen=True)
class Route:
    """The screen a page shows: a module of companion/app/screens (`home`, `join`,
    `watch_home`, `seat`, `watch`, a game's...), its game, and what it is told, if anything."""

    screen: str
    game_id: str | None = None
    notice: Message | None = None


def game_in(path: Sequence[str]) -> str | None:
    """The id of the game a path names (/game/ID/...), if any."""
    return path[1] if len(path) >= 2 and path[0] == "game" else None


class Visit:
    """A page's standing at this server: its ticket to a shared table, its seats, its routes,
    and the changes it announces and follows on the bus."""

    def __init__(self, service: Service) -> None:
        self.service = service
        # What a shared table's code let this page in as; None until then (or not shared).
        self.ticket: Ticket | None = None
        # On a hosted server: the table this page started or was let in at; None until then.
        self._hosted: TableAccess | None = None
        # The game (or None) the table was last told this page shows; UNTOLD before.
        self._told: str | object | None = UNTOLD

    @property
    def hosted(self) -> bool:
        """Whether the server hosts many tables (`app --hosted`), each its own."""
        return self.service.hosting is not None

    @property
    def shared(self) -> bool:
        """Whether the page is at a table shared on the network (it needs a code)."""
        return self.service.table is not None or self.hosted

    @property
    def links(self) -> TableLinks | None:
        """The links of the table this page is at: the server's shared table, or on a hosted
        server the one this page started or was let in at (None before that)."""
        hosting = self.service.hosting
        if hosting is not None:
            return None if self._hosted is None else hosting.links(self._hosted)
        return self.service.table

    @property
    def access(self) -> TableAccess | None:
        """The door of the table this page is at (see `links`)."""
        links = self.links
        return None if links is None else links.access

    @property
    def code_limiter(self) -> Limiter:
        """What holds back an address that gave wrong codes (shared only)."""
        hosting = self.service.hosting
        if hosting is not None:
            return hosting.codes
        access = self.access
        assert access is not None
        return access.limiter

    @property
    def store(self) -> Store:
        """The games this page may see: on a hosted server only its table's (none before it
        is at one), else every game of the store."""
        store = self.service.store
        if not self.hosted:
            return store
        return store.scoped(self._hosted.id if self._hosted is not None else NO_TABLE)

    @property
    def boards(self) -> Shelf:
        """Where this page's own boards are kept: on a hosted server its table's (none before
        it is at one), else this device's boards folder."""
        if not self.hosted:
            return FolderShelf()
        table = self._hosted.id if self._hosted is not None else NO_TABLE
        return TableShelf(self.service.store.boards, table)

    @property
    def role(self) -> Role | None:
        """What this device's code lets it do; None when the table is not shared."""
        return self.ticket.role if self.ticket is not None else None

    @property
    def admitted(self) -> bool:
        """Whether this page is let in: always when not shared, else by a valid ticket."""
        if not self.shared:
            return True
        access = self.access
        return access is not None and access.valid(self.ticket)

    # --- letting a device in ---------------------------------------------------------------

    def admit(self, client: str, code: str, device: str, words: Language) -> str | None:
        """Try a code from `client` (the connection's address): None if this page is in,
        else the sentence saying why not. `device` is the id its browser kept."""
        hosting = self.service.hosting
        if hosting is not None:
            found = hosting.admit(client, code, device, words)
            if isinstance(found, str):
                return found
            self._hosted, self.ticket = found
            return None
        access = self.access
        assert access is not None
        result = access.admit(client, code, device, words)
        if isinstance(result, str):
            return result
        self.ticket = result
        return None

    def start_table(self, client: str, words: Language) -> str | None:
        """Start a table on a hosted server, this page its host: None if started, else the
        sentence saying why not (too many tables from `client`'s address)."""
        hosting = self.service.hosting
        assert hosting is not None
        started = hosting.start(client, words)
        if isinstance(started, str):
            return started
        ticket = started.admit(client, started.host_key, None, words)
        assert isinstance(ticket, Ticket)
        self._hosted, self.ticket = started, ticket
        return None

    def kept_code(self) -> str:
        """The code the browser keeps to come back in with (after `admit`)."""
        access = self.access
        assert access is not None and self.ticket is not None
        return access.code_for(self.ticket)

    def connected(self, game_id: str | None) -> None:
        """This page is open (again), showing `game_id` if a game: the others are told."""
        access = self.access
        if access is not None and self.ticket is not None:
            access.connected(self.ticket, game_id)
            self._told = game_id
            self.announce(self.topic(SEATS), PRESENCE)

    def disconnected(self) -> None:
        """This page closed or lost its connection: the others are told."""
        access = self.access
        if access is not None and self.ticket is not None:
            access.disconnected(self.ticket)
            self._told = UNTOLD
            self.announce(self.topic(SEATS), PRESENCE)

    def renew_code(self) -> None:
        """New table codes (host only): every other device goes back to the code screen."""
        access = self.access
        assert access is not None and self.role is Role.HOST
        access.renew()
        self.announce(self.topic(RENEWED), access.generation, everyone=True)

    def renewed_out(self) -> bool:
        """After new codes: whether this page's ticket no longer opens the table (it is
        forgotten then, and the page goes back to the code screen)."""
        if self.shared and self.ticket is not None and not self.admitted:
            self.ticket = None
            return True
        return False

    # --- seats -------------------------------------------------------------------------------

    def seat(self, game_id: str) -> str | None:
        """Who this device is in a game: None when not shared (it records for everyone)."""
        if not self.shared:
            return None
        access = self.access
        if access is None or not access.valid(self.ticket):
            return LOCKED
        assert self.ticket is not None
        if self.ticket.role is Role.WATCH:
            return WATCHER
        return access.seats.seat_of(game_id, self.ticket.device) or WATCHER

    def seated(self, game_id: str) -> bool:
        """Whether this device (not a watcher) has a seat in the game on a shared table."""
        access = self.access
        if access is None or self.ticket is None or self.role is Role.WATCH:
            return True
        return access.seats.seat_of(game_id, self.ticket.device) is not None

    def free_seat(self, game_id: str, device: str) -> None:
        """Free another device's seat in a game (host only): that device picks again."""
        access = self.access
        assert access is not None and self.role is Role.HOST
        access.seats.leave(game_id, device)
        self.seats_changed(game_id)

    def seats_of(self, game_id: str) -> frozenset[tuple[str, str]]:
        """The seats held in a game (seat, device), as a screen of it is drawn with them;
        empty off a shared table."""
        access = self.access
        if access is None:
            return frozenset()
        return frozenset(access.seats.taken(game_id).items())

    def seats_changed(self, game_id: str) -> None:
        """Tell every page at this table (this one too) that a seat in `game_id` changed."""
        self.announce(self.topic(SEATS), game_id, everyone=True)

    def session(self, game_id: str) -> GameSession:
        """A game as this device may record in it (a shared table checks its seat at each
        write)."""
        store = self.store
        if not self.shared:
            return GameSession(store, game_id)
        access = self.access
        if access is None:
            return GameSession(store, game_id, lambda: LOCKED, set)
        seats = access.seats
        return GameSession(
            store,
            game_id,
            lambda: self.seat(game_id),
            # Players with a device of their own: another player's device does not pass them.
            lambda: set(seats.taken(game_id)),
        )

    # --- deleting a game ---------------------------------------------------------------------

    def delete_refusal(self, game_id: str) -> Message | None:
        """Why this device may not delete a game; None if it may (the host, the scorekeeper,
        anyone when not shared)."""
        if not self.shared:
            return None
        return delete_refusal(self.role is Role.HOST, self.seat(game_id))

    def delete_game(self, game_id: str) -> Message | None:
        """Delete a game if this device may: None if deleted, else why not."""
        refused = self.delete_refusal(game_id)
        if refused is not None:
            return refused
        self.store.delete_game(game_id)
        access = self.access
        if access is not None:
            access.deleted(game_id)
            self.announce(self.topic(DELETED), game_id)
        return None

    # --- where an address leads ----------------------------------------------------------------

    def route(self, path: Sequence[str]) -> Route:
        """The screen this page shows for an address's path (its parts): on a shared table
        only the code screen without a valid code, a game only once this device has a seat in
        it, and a watcher only what records nothing. A game not in the store raises the
        store's GameNotFound."""
        if not self.shared:
            return self._screen_of(path)
        access = self.access
        if access is None or not access.valid(self.ticket):
            self.ticket = None
            return Route("join")
        assert self.ticket is not None
        game_id = game_in(path)
        if game_id != self._told:  # a screen drawn again on the same game tells nothing new
            access.showing(self.ticket, game_id)
            self._told = game_id
        if self.ticket.role is Role.WATCH:
            # A game's other screens (Energy and Reset, the log) and every other screen record
            # something: a watcher is told so and shown what it may watch.
            notice = Message("app.main.watch_only") if path and len(path) != 2 else None
            if game_id is not None:
                return Route("watch", game_id, notice)
            return Route("watch_home", notice=notice)
        if list(path) == ["share"]:
            if self.ticket.role is Role.HOST:
                return Route("share")
            return Route("home", notice=Message("app.main.share_host_only"))
        if game_id is not None:
            self.store.load(game_id)  # a game not saved here goes home with a sentence
            seat = access.seats.seat_of(game_id, self.ticket.device)
            if seat is None:
                return Route("seat", game_id)
            if seat == WATCHER:
                return Route("watch", game_id)
        return self._screen_of(path)

    def home(self) -> Route:
        """The home screen this page may see: a watcher's list for a watcher, the code screen
        without a valid code, else Home."""
        if self.shared and self.role is Role.WATCH:
            return Route("watch_home")
        if not self.admitted:
            return Route("join")
        return Route("home")

    def not_found(self, game_id: str | None) -> Message:
        """What a page is told when the game it opened is not in the store."""
        access = self.access
        if access is not None and game_id is not None and access.was_deleted(game_id):
            return Message("app.main.game_deleted")
        if self.shared:
            return Message("app.main.not_on_table")
        return Message("app.main.not_saved")

    def _screen_of(self, path: Sequence[str]) -> Route:
        """The screen a path names, whoever asks."""
        if tuple(path) in NAMED:
            return Route(NAMED[tuple(path)])
        game_id = game_in(path)
        if game_id is not None:
            name = GAME_SCREENS.get(path[2] if len(path) > 2 else None)
            if name == "table" and self.store.load(game_id).setup.mode is Mode.DIGITAL:
                name = "board"
            if name is not None:
                return Route(name, game_id)
        return Route("home")

    # --- the bus -------------------------------------------------------------------------------

    def announce(self, topic: str, value: object, *, everyone: bool = False) -> None:
        """Tell the pages following `topic` (this one too if `everyone`) that `value`."""
        self.service.bus.publish(topic, value, None if everyone else self)

    def follow(self, topic: str, handler: Handler) -> None:
        """Hear what other pages announce on `topic` until `stop_following`."""
        self.service.bus.subscribe(topic, self, handler)

    def stop_following(self) -> None:
        """Hear nothing more (the page opens another screen, or closes)."""
        self.service.bus.unsubscribe_all(self)

    def follow_table(self, renewed: Handler, seats: Handler, deleted: Handler) -> None:
        """Hear a shared table's own changes: new codes, seats, a deleted game."""
        self.follow(self.topic(RENEWED), renewed)
        self.follow(self.topic(SEATS), seats)
        self.follow(self.topic(DELETED), deleted)

    def topic(self, table_topic: str) -> str:
        """A table's own topic: on a hosted server each table's pages hear only its own."""
        access = self.access
        return table_topic if not self.hosted or access is None else f"{table_topic}/{access.id}"

    def announce_revision(self, game_id: str, revision: int) -> None:
        """Tell the pages following a game that it has reached `revision`."""
        self.announce(game_topic(game_id), revision)

    def announce_draft(self, game_id: str, version: int) -> None:
        """Tell the pages on a game's Energy and Reset that its draft reached `version`."""
        self.announce(draft_topic(game_id), version)
