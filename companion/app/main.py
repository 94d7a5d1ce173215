"""The Flet app: page setup and routes. Screens live in companion/app/screens/."""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import os
import re
import socket
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, cast
from urllib.parse import parse_qs, urlsplit

import flet as ft

from companion.app.edge import guard_page
from companion.app.guard import ASGIApp, OriginGuard, allowed_hosts, allowed_origins, url_name
from companion.app.language_setting import STORED_LANGUAGE, device_language, locale_tag
from companion.app.reconnect import ReconnectNotice
from companion.app.screens import home, join
from companion.app.session import GameSession
from companion.app.sharing.access import Role, Ticket
from companion.app.sharing.links import CODE_PARAMETER, TableLinks
from companion.app.sharing.policy import LOCKED, delete_refusal
from companion.app.sharing.seats import WATCHER
from companion.app.theme import FONT, FONTS, theme
from companion.app.web_page import OfflinePage
from companion.app.web_sessions import drop_unkept_sessions, keep_after_disconnect
from companion.app.widgets import PADDING, SIZED, WIDE, notify
from companion.app.wire import Link, WireGate, WireLimits, current_link
from companion.language.message import Message, Value
from companion.language.render import DEFAULT_LANGUAGE, LANGUAGES, Language, screen_language
from companion.store.errors import GameNotFound, StoreError
from companion.store.store import Store, open_store
from models.setup import Mode

log = logging.getLogger("companion.app")
ASSETS = Path(__file__).resolve().parent.parent.parent / "assets"
DEFAULT_PORT = 8550
# How long a page that lost its connection keeps its session on the server for it to come
# back to (Flet's default is an hour). A phone away longer starts a new session: let in by
# the code it kept, back on its seat by its device id (docs/sharing.md).
SESSION_TIMEOUT_S = 300
# On SIGTERM, how long the server waits for its pages to close before it stops anyway.
SHUTDOWN_S = 3
# On tablets and desktops a single column of cards reads best at about this width.
COLUMN_WIDTH = 760
# Every screen but home, imported on first use: the server answers sooner, and the first
# screen only waits for what it shows.
SCREENS = (
    "new_game",
    "history",
    "board_editor",
    "table",
    "board",
    "reset",
    "log",
    "end",
    "seat",
    "share",
    "watch",
)
# What a shared table's device keeps in its browser: the code it came in with, and its id.
STORED_CODE = "summoners-isle.table-code"
STORED_DEVICE = "summoners-isle.device"
# How long a browser is given to say what it keeps.
KEPT_TIMEOUT_S = 10
# How long the first screen waits for the device to say its language: past it, English.
LANGUAGE_TIMEOUT_S = 3
# Pubsub topics of a shared table: a new code was made; a seat or a device changed.
RENEWED = "table/renewed"
SEATS = "table/seats"
DELETED = "table/deleted"


def screen_module(name: str) -> ModuleType:
    """A screen's module by name (see SCREENS), imported the first time it is asked for."""
    return importlib.import_module(f"companion.app.screens.{name}")


# How the app's modules name Flet's controls and types: `ft.Container`, `ft.Colors`...
_FLET_NAME = re.compile(r"\bft\.([A-Z]\w*)")


def warm_up() -> None:
    """Import every screen and the Flet controls the app uses, once, in the background."""
    global _warming
    if _warming is None:
        _warming = threading.Thread(target=_import_screens, name="warm-up", daemon=True)
        _warming.start()


_warming: threading.Thread | None = None


def _import_screens() -> None:
    for name in SCREENS:
        screen_module(name)
    # Flet imports a control's module the first time its name (`ft.Container`) is read:
    # ~0.4 s for the app's ~60 names, which a first session would otherwise spend before
    # showing anything.
    for path in Path(__file__).parent.rglob("*.py"):
        for name in _FLET_NAME.findall(path.read_text(encoding="utf-8")):
            getattr(ft, name, None)


def warm_up_once_listening(host: str, port: int, timeout: float = 60) -> None:
    """Warm up as soon as the web server takes connections, while a browser boots Flutter.

    Python holds one lock for imports: warming up while the server itself starts would only
    delay it. Between the server answering and a browser's first websocket (1.5-2 s of
    Flutter's boot) the server has nothing else to do.
    """
    address = ("127.0.0.1" if host in ("", "0.0.0.0", "::") else host, port)

    def wait_then_warm() -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                socket.create_connection(address, timeout=1).close()
            except OSError:
                time.sleep(0.05)
                continue
            warm_up()
            return

    threading.Thread(target=wait_then_warm, name="warm-up-wait", daemon=True).start()


class App:
    """One browser tab or window: routes to screens, all sharing one store."""

    def __init__(self, page: ft.Page, store: Store, table: TableLinks | None = None) -> None:
        self.page = page
        self.store = store
        # A table shared on the network (`app --share`): a code lets devices in, and each
        # device is someone in each game. None: this machine's own browser, no code.
        self.table = table
        self.ticket: Ticket | None = None
        # Why the code screen is shown again (a wrong or replaced code), kept on it.
        self.refused: str | None = None
        self._prefs: ft.SharedPreferences | None = None
        self._entering = False  # a code is being tried: screens wait for the outcome
        self._wide = False
        # A message for the next screen: (text, is an error).
        self._message: tuple[str, bool] | None = None
        # What the screen shown wants done whenever the page changes size (set as it is built).
        self._page_resized: Callable[[], None] | None = None
        # The language this device shows the app in (a device's setting, never the game's).
        self.words: Language = screen_language(DEFAULT_LANGUAGE)
        # Whether this device's user picked it on Home (then a change of locale leaves it be).
        self._language_chosen = False
        # The websocket this page's events come on (companion/app/wire.py): what its wrong
        # codes count against, and told when the device is let in. None outside a server.
        self.link: Link | None = current_link()

    def say(self, message_id: str, /, **values: Value) -> str:
        """A message of the app's catalogs in this device's language."""
        return self.words.render(Message(message_id, **values))

    def start(self) -> None:
        """Set up the page and show the screen its address names."""
        page = self.page
        guard_page(page, lambda: self.say("app.web.failed"), self._failed)
        if self.link is not None:
            self.link.controls = page.session.index
        self._tell_link()
        page.title = "Summoner's Isle Companion"
        page.fonts = FONTS
        page.theme = theme(ft.ThemeMode.LIGHT)
        page.dark_theme = theme(ft.ThemeMode.DARK)
        page.theme_mode = ft.ThemeMode.DARK
        page.on_route_change = lambda _: self.show()
        page.on_view_pop = self._pop
        page.on_resize = self._resized
        page.on_locale_change = self._locale_changed
        page.on_connect = self._connected
        # What this browser keeps: its language, and a shared table's code.
        self._prefs = ft.SharedPreferences()
        if self.table is not None:
            # The code this browser kept is read from it first: until then, nothing is shown.
            page.on_disconnect = self._disconnected
            page.views.append(join.opening())
            page.update()
            self._entering = True
            self._spawn(self.enter)
            return
        self._spawn(self._open)

    async def _open(self) -> None:
        """Show the first screen in the device's language (not shared: no code to read)."""
        await self.find_language()
        self.show()
        for notice in self.store.notices:
            notify(self.page, notice, error=True)
        warm_up()

    # --- the device's language --------------------------------------------------------------

    async def find_language(self) -> None:
        """Take the language this browser kept, else its locale's (see language_setting)."""
        kept = await self.kept(STORED_LANGUAGE, LANGUAGE_TIMEOUT_S)
        self._language_chosen = bool(kept)
        locales: list[str] = []
        if not kept:
            try:
                info = await asyncio.wait_for(self.page.get_device_info(), LANGUAGE_TIMEOUT_S)
            except Exception:
                info = None  # a client that cannot say: English
            if info is not None:
                locales = [locale_tag(x.language_code, x.country_code) for x in info.locales]
        self._use_language(device_language(kept, locales))

    def set_language(self, code: str) -> None:
        """Show the app in `code` on this device from now on, and keep the choice."""
        self._language_chosen = True
        self._use_language(code)
        assert self._prefs is not None
        self.page.run_task(self._prefs.set, STORED_LANGUAGE, code)
        self.show()

    def _use_language(self, code: str) -> None:
        self.words = screen_language(code)
        # Flutter's own texts (a text field's menu, a back button's tooltip) follow too.
        self.page.locale_configuration = ft.LocaleConfiguration(
            supported_locales=[ft.Locale(name) for name in LANGUAGES],
            current_locale=ft.Locale(code),
        )

    def _locale_changed(self, event: ft.LocaleChangeEvent) -> None:
        if self._language_chosen:
            return
        tags = [locale_tag(x.language_code, x.country_code) for x in event.locales]
        code = device_language("", tags)
        if code != self.words.code:
            self._use_language(code)
            self.show()

    # --- a shared table -------------------------------------------------------------------

    @property
    def client(self) -> str:
        """What this device's wrong codes count against: the address its connection comes
        from, never one the browser says (see companion/app/wire.py)."""
        return self.link.client if self.link is not None else ""

    @property
    def role(self) -> Role | None:
        """What this device's code lets it do; None when the table is not shared."""
        return self.ticket.role if self.ticket is not None else None

    async def enter(self) -> None:
        """Let this device in with the code in its address, or the one its browser kept."""
        assert self.table is not None and self._prefs is not None
        self._entering = True
        try:
            parts = urlsplit(self.page.route or "/")
            linked = parse_qs(parts.query).get(CODE_PARAMETER, [""])[0]
            if linked:
                # The code leaves the route at once (so it is tried once), and the address
                # bar below: a reload comes back with the kept one.
                self.page.route = parts.path or "/"
            await self.find_language()
            stored = await self.kept(STORED_CODE)
            device = await self.kept(STORED_DEVICE)
            if linked or stored:
                self.refused = await self.admit(linked or stored, device)
            if linked:
                # The browser's address bar shows the route without the code (if it answers).
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self.page.push_route(self.page.route), KEPT_TIMEOUT_S)
        finally:
            self._entering = False
            self._tell_link()
        self.show()
        warm_up()

    def _spawn(self, work: Callable[[], Awaitable[None]]) -> None:
        """Run `work` on the page's loop. A page without the code that leaves meanwhile has its
        session dropped (web_sessions.py): then the work ends there, quietly."""

        async def run() -> None:
            try:
                await work()
            except Exception:
                if self._alive():
                    # As Flet does for an event's handler: the traceback to the server's
                    # log, one sentence to the page (edge.py).
                    log.exception("a page's background work failed")
                    self.page.session.error("")

        self.page.run_task(run)

    def _alive(self) -> bool:
        """Whether this page's session still exists on the server."""
        try:
            return self.page.session is not None
        except RuntimeError:
            return False

    async def kept(self, key: str, timeout: float = KEPT_TIMEOUT_S) -> str:
        """A value this browser keeps (see STORED_*); empty if it has none or cannot say."""
        assert self._prefs is not None
        try:
            value = await asyncio.wait_for(self._prefs.get(key), timeout)
        except Exception:
            # A browser that keeps nothing (or never answers) is a device without a code.
            return ""
        return str(value or "")

    async def _keep(self, key: str, value: str) -> None:
        """Have this browser keep a value (see STORED_*), if it can and answers in time."""
        assert self._prefs is not None
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._prefs.set(key, value), KEPT_TIMEOUT_S)

    async def admit(self, code: str, device: str | None = None) -> str | None:
        """Try a code: None if this device is in (and keeps the code), else why not."""
        assert self.table is not None and self._prefs is not None
        access = self.table.access
        if device is None:
            device = await self.kept(STORED_DEVICE)
        result = access.admit(self.client, code, device, self.words)
        if isinstance(result, str):
            return result
        self.ticket = result
        self.refused = None
        self._tell_link()
        await self._keep(STORED_CODE, access.code_for(result))
        await self._keep(STORED_DEVICE, result.device)
        access.connected(result, self.game_shown())
        self.page.pubsub.send_all_on_topic(SEATS, "")
        return None

    def renew_code(self) -> None:
        """Make new table codes (host only): every other device goes back to the code screen."""
        assert self.table is not None and self.role is Role.HOST
        self.table.access.renew()
        self.page.pubsub.send_all_on_topic(RENEWED, self.table.access.generation)
        # A headless host reads the new links where it read the first ones: the journal.
        print(f"Join: {self.table.join}\nWatch: {self.table.watch}", flush=True)

    def free_seat(self, game_id: str, device: str) -> None:
        """Free another device's seat in a game (host only): that device picks again."""
        assert self.table is not None and self.role is Role.HOST
        self.table.access.seats.leave(game_id, device)
        self.page.pubsub.send_all_on_topic(SEATS, game_id)

    def delete_refusal(self, game_id: str) -> str | None:
        """Why this device may not delete a game; None if it may (the host, the scorekeeper)."""
        if self.table is None:
            return None
        refused = delete_refusal(self.role is Role.HOST, self.seat(game_id))
        return None if refused is None else self.words.render(refused)

    def delete_game(self, game_id: str) -> str | None:
        """Delete a game if this device may: None if deleted, else the sentence saying why not."""
        refused = self.delete_refusal(game_id)
        if refused:
            return refused
        self.store.delete_game(game_id)
        if self.table is not None:
            self.table.access.deleted(game_id)
            self.page.pubsub.send_others_on_topic(DELETED, game_id)
        return None

    def seat(self, game_id: str) -> str | None:
        """Who this device is in a game: None when not shared (it records for everyone)."""
        if self.table is None:
            return None
        access = self.table.access
        if not access.valid(self.ticket):
            return LOCKED
        assert self.ticket is not None
        if self.ticket.role is Role.WATCH:
            return WATCHER
        return access.seats.seat_of(game_id, self.ticket.device) or WATCHER

    def session(self, game_id: str) -> GameSession:
        """A game as this device may record in it (a shared table checks its seat at each write)."""
        if self.table is None:
            return GameSession(self.store, game_id)
        seats = self.table.access.seats
        return GameSession(
            self.store,
            game_id,
            lambda: self.seat(game_id),
            # Players with a device of their own: another player's device does not pass them.
            lambda: set(seats.taken(game_id)),
        )

    def game_shown(self) -> str | None:
        """The id of the game this page shows, if any."""
        parts = [part for part in urlsplit(self.page.route or "/").path.split("/") if part]
        return parts[1] if len(parts) >= 2 and parts[0] == "game" else None

    def _failed(self) -> None:
        """This page's code failed: a device without the code is hung up on, so what it
        sent cannot fill the server's log with one traceback after another."""
        if self.link is not None and not self.link.admitted and self.link.hang_up is not None:
            self.link.hang_up()

    def _tell_link(self) -> None:
        """Tell this page's connection and session whether its device is let in: one without
        the code gets a stranger's limits (wire.py) and is forgotten when it leaves."""
        if self.table is None or not self._alive():
            return
        admitted = self.table.access.valid(self.ticket)
        if self.link is not None:
            self.link.admitted = admitted
        keep_after_disconnect(self.page, admitted)

    def _renewed(self, _topic: str, _generation: int) -> None:
        if self.table is not None and not self.table.access.valid(self.ticket):
            self.ticket = None
            self._tell_link()
            self.refused = self.say("app.main.code_renewed")
            self.show()

    def _game_deleted(self, _topic: str, game_id: str) -> None:
        if self.game_shown() == game_id:
            self.go("/", self.say("app.main.game_deleted"), error=True)
        elif urlsplit(self.page.route or "/").path in ("", "/"):
            self.show()  # a list of games drops it

    def _seats_changed(self, _topic: str, _game: str) -> None:
        view = self.page.views[-1] if self.page.views else None
        if view is not None and view.data in (SEAT_PICKER, SHARE_PANEL):
            self.show()
            return
        shown = self.game_shown()
        if shown is not None and self.ticket is not None and self.role is not Role.WATCH:
            assert self.table is not None
            if self.table.access.seats.seat_of(shown, self.ticket.device) is None:
                # The host freed this device's seat: it picks again.
                self.show()

    def _connected(self, _: ft.Event[ft.Page]) -> None:
        # The page came back on a new websocket (a reload, a phone waking): its link now.
        link = current_link()
        if link is not None:
            self.link = link
            link.controls = self.page.session.index
            self._tell_link()
        if self.table is not None and self.ticket is not None:
            self.table.access.connected(self.ticket, self.game_shown())
            self.page.pubsub.send_others_on_topic(SEATS, "")

    def _disconnected(self, _: ft.Event[ft.Page]) -> None:
        if self.table is not None and self.ticket is not None:
            self.table.access.disconnected(self.ticket)
            self.page.pubsub.send_others_on_topic(SEATS, "")

    def go(self, route: str, message: str | None = None, *, error: bool = False) -> None:
        """Open another screen (and record it in the browser's history), with a message on it."""
        # Shown once the screen is built: one shown before would go with the screen left.
        self._message = (message, error) if message else None
        self.page.run_task(self.page.push_route, route)

    def follow(self, game_id: str, changed: Callable[[int], None]) -> None:
        """Call `changed(revision)` when another device records in this game.

        Phones at one table each show the game; what one records shows on the others
        without a reload. Following ends when this device opens another screen.
        """

        async def deliver(_topic: str, revision: int) -> None:
            # A coroutine runs on the page's event loop, like taps and the bots' turns, so a
            # screen never reloads its game under them from another thread.
            changed(revision)

        self.page.pubsub.subscribe_topic(f"game/{game_id}", deliver)

    def on_page_resize(self, handler: Callable[[], None]) -> None:
        """Call `handler` on every change of the page's size while this screen is shown."""
        self._page_resized = handler

    def announce(self, game_id: str, revision: int) -> None:
        """Tell the other devices following this game that it has reached `revision`."""
        self.page.pubsub.send_others_on_topic(f"game/{game_id}", revision)

    def follow_draft(self, game_id: str, changed: Callable[[int], None]) -> None:
        """Call `changed(version)` when another device changes the game's Energy and Reset
        draft (issue 20: the draft is the table's); ends, like `follow`, with the screen."""

        async def deliver(_topic: str, version: int) -> None:
            changed(version)

        self.page.pubsub.subscribe_topic(f"draft/{game_id}", deliver)

    def announce_draft(self, game_id: str, version: int) -> None:
        """Tell the other devices on this game's Energy and Reset that its draft changed."""
        self.page.pubsub.send_others_on_topic(f"draft/{game_id}", version)

    def toggle_theme(self) -> None:
        """Switch between the dark and the light theme on this device."""
        dark = self.page.theme_mode is ft.ThemeMode.DARK
        self.page.theme_mode = ft.ThemeMode.LIGHT if dark else ft.ThemeMode.DARK
        self.page.update()

    def show(self) -> None:
        """Build the screen for the current route."""
        page = self.page
        address = urlsplit(page.route or "/")
        if self.table is not None and CODE_PARAMETER in parse_qs(address.query):
            # A link with a code, opened in a page that already runs (a reload keeps the
            # session): the code is tried first, then the page shows where the link points.
            if not self._entering:
                self._entering = True
                self._spawn(self.enter)
            return
        if self._entering:
            return
        # The screen being left stops following its game; a game screen follows it anew.
        page.pubsub.unsubscribe_all()
        parts = [part for part in address.path.split("/") if part]
        self._page_resized = None
        try:
            if self.table is None:
                view = self._view(parts)
            else:
                page.pubsub.subscribe_topic(RENEWED, self._renewed)
                page.pubsub.subscribe_topic(SEATS, self._seats_changed)
                page.pubsub.subscribe_topic(DELETED, self._game_deleted)
                view = self._shared_view(parts)
        except GameNotFound:
            notify(page, self._not_found(), error=True)
            view = self._home()
        except StoreError as error:
            notify(page, str(error), error=True)
            view = self._home()
        width = page.width or 0
        self._wide = width > COLUMN_WIDTH + 40
        if view.data != WIDE and width > COLUMN_WIDTH + 40:
            view.padding = _centred(width)
        page.views.clear()
        page.views.append(view)
        if self._message is not None:
            notify(page, self._message[0], error=self._message[1])
            self._message = None
        page.update()

    def _not_found(self) -> str:
        """What a device is told when the game it opened is not in the store."""
        shown = self.game_shown()
        if self.table is not None and shown is not None and self.table.access.was_deleted(shown):
            return self.say("app.main.game_deleted")
        if self.table is not None:
            return self.say("app.main.not_on_table")
        return self.say("app.main.not_saved")

    def _home(self) -> ft.View:
        """The home screen this device may see: a watcher's list for a watcher, else Home."""
        if self.table is not None and self.role is Role.WATCH:
            return screen_module("watch").home(self)
        if self.table is not None and not self.table.access.valid(self.ticket):
            return join.build(self)
        return home.build(self)

    def _view(self, parts: list[str]) -> ft.View:
        if not parts:
            return home.build(self)
        named: dict[tuple[str, ...], str] = {
            ("new",): "new_game",
            ("history",): "history",
            ("board-editor",): "board_editor",
        }
        if tuple(parts) in named:
            return screen_module(named[tuple(parts)]).build(self)
        if parts[0] == "game" and len(parts) >= 2:
            name = {None: "table", "reset": "reset", "log": "log", "end": "end"}.get(
                parts[2] if len(parts) > 2 else None
            )
            if name == "table" and self.store.load(parts[1]).setup.mode is Mode.DIGITAL:
                name = "board"
            if name is not None:
                return screen_module(name).build(self, parts[1])
        return home.build(self)

    def _shared_view(self, parts: list[str]) -> ft.View:
        """A screen of a shared table: only the code screen without a valid code; a game
        only once this device has a seat in it; a watcher's screens record nothing."""
        assert self.table is not None
        access = self.table.access
        if not access.valid(self.ticket):
            self.ticket = None
            self._tell_link()
            return join.build(self)
        assert self.ticket is not None
        game_id = parts[1] if len(parts) >= 2 and parts[0] == "game" else None
        access.showing(self.ticket, game_id)
        if self.ticket.role is Role.WATCH:
            # A game's other screens (Energy and Reset, the log) and every other screen record
            # something: a watcher is told so and shown what it may watch.
            if parts and len(parts) != 2:
                self._message = (self.say("app.main.watch_only"), True)
            if game_id is not None:
                return screen_module("watch").build(self, game_id)
            return screen_module("watch").home(self)
        if parts == ["share"]:
            if self.ticket.role is Role.HOST:
                return screen_module("share").build(self)
            self._message = (self.say("app.main.share_host_only"), True)
            return home.build(self)
        if game_id is not None:
            self.store.load(game_id)  # a game not saved here goes home with a sentence
            seat = access.seats.seat_of(game_id, self.ticket.device)
            if seat is None:
                return screen_module("seat").build(self, game_id)
            if seat == WATCHER:
                return screen_module("watch").build(self, game_id)
        return self._view(parts)

    def _resized(self, _: ft.PageResizeEvent) -> None:
        # A change of layout (one column or centred) needs the screen built again...
        width = self.page.width or 0
        wide = width > COLUMN_WIDTH + 40
        view = self.page.views[-1] if self.page.views else None
        if wide != self._wide:
            if view is None or view.data in (WIDE, SIZED):
                self.show()
                return
            # Any other screen only needs new margins; a screen built anew would leave a dialog
            # open on it (a phone turned while asked to confirm) on the client, never to close.
            self._wide = wide
            view.padding = _centred(width) if wide else PADDING
            view.update()
        # ... and any change of size one sized to the page (the isle's canvas).
        if self._page_resized is not None:
            self._page_resized()

    async def _pop(self, event: ft.ViewPopEvent) -> None:
        await self.page.push_route("/")


def _centred(width: float) -> ft.Padding:
    """Margins that centre a column of COLUMN_WIDTH on a screen `width` wide."""
    return ft.Padding.symmetric(horizontal=(width - COLUMN_WIDTH) / 2, vertical=PADDING)


# The `data` of the views a seat change redraws.
SEAT_PICKER = "seat-picker"
SHARE_PANEL = "share-panel"


def run_packaged() -> None:
    """Run inside a `flet build` bundle: Flet chooses the window; games go to the user data dir."""
    store = open_store()
    ft.run(lambda page: App(page, store).start(), assets_dir=str(ASSETS))


def web_app(
    store: Store,
    host: str,
    port: int,
    table: TableLinks | None = None,
    *,
    trusted_proxies: Sequence[str] = (),
    session_timeout_s: int = SESSION_TIMEOUT_S,
    limits: WireLimits | None = None,
) -> ASGIApp:
    """The app as an ASGI web app answering only its own pages (see companion/app/guard.py).

    Its websockets are held to what its pages send (companion/app/wire.py), its pages ask
    nothing of another host (companion/app/web_page.py), and a page that lost its
    connection keeps its session for `session_timeout_s`. A shared table also answers under
    the names its links use, and its pages say when they are reconnecting. Behind a reverse
    proxy, the client's address is read from X-Forwarded-For, and only when the connection
    comes from one of `trusted_proxies` (addresses or networks).
    """
    from flet_web.fastapi import app as flet_web_app  # type: ignore[import-untyped]

    drop_unkept_sessions()
    app: ASGIApp = flet_web_app(
        lambda page: App(page, store, table).start(),
        assets_dir=str(ASSETS),
        no_cdn=True,
        session_timeout_seconds=session_timeout_s,
    )
    app = OfflinePage(WireGate(app, limits, open_door=table is None), FONT, ASSETS / FONTS[FONT])
    names = None
    if table is not None:
        names = {urlsplit(table.base).hostname or "", urlsplit(table.host_base).hostname or ""}
        names = {url_name(name) for name in names if name}
        app = ReconnectNotice(app)
    app = OriginGuard(app, allowed_hosts(host, port, names), allowed_origins(host, port, names))
    if trusted_proxies:
        from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

        forwarded = ProxyHeadersMiddleware(cast(Any, app), trusted_hosts=list(trusted_proxies))
        app = cast(ASGIApp, forwarded)
    return app


def serve(
    host: str = "127.0.0.1",
    port: int = DEFAULT_PORT,
    db: str | None = None,
    web: bool = False,
    table: TableLinks | None = None,
    *,
    trusted_proxies: Sequence[str] = (),
    session_timeout_s: int = SESSION_TIMEOUT_S,
) -> None:
    """Run the app: a desktop window where there is a display, else a web server.

    A shared `table` is always served on the web.
    """
    store = open_store(db)
    has_display = sys.platform != "linux" or bool(
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    )
    if web or table is not None or not has_display:
        import uvicorn

        warm_up_once_listening(host, port)
        # Flet's own web server cannot be given the guard, so the app is served here, the
        # way Flet serves it (the same websocket implementation), without access logs.
        uvicorn.run(
            web_app(
                store,
                host,
                port,
                table,
                trusted_proxies=trusted_proxies,
                session_timeout_s=session_timeout_s,
            ),
            host=host,
            port=port,
            ws="websockets-sansio",
            # The biggest frame a page sends (a game log file); the gate checks each again.
            ws_max_size=WireLimits().admitted_bytes,
            log_level="warning",
            # A forwarded address is believed only from the proxies named (web_app), never
            # from uvicorn's default (any connection from 127.0.0.1).
            proxy_headers=False,
            # SIGTERM stops the server within a few seconds, whatever its pages are doing.
            timeout_graceful_shutdown=SHUTDOWN_S,
        )
        return
    ft.run(
        lambda page: App(page, store).start(),
        host=host,
        port=port,
        view=ft.AppView.FLET_APP,
        assets_dir=str(ASSETS),
        no_cdn=True,
    )
