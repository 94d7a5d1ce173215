"""The Flet app's page: its setup, its language, the code a shared table asks for, and the
screen its route names. What a page may see and do is its visit's to decide
(companion/play/visit.py); the screens live in companion/app/screens/.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import cast
from urllib.parse import parse_qs, urlsplit

import flet as ft

from companion.app.edge import guard_page
from companion.app.screens import home, join
from companion.app.theme import FONTS, theme
from companion.app.warm_up import screen_module, warm_up
from companion.app.web_sessions import keep_after_disconnect
from companion.app.widgets import PADDING, RESIZES, SEAT_PICKER, SHARE_PANEL, SIZED, WIDE, notify
from companion.app.wire import Link, current_link
from companion.language.message import Message, Value
from companion.language.render import DEFAULT_LANGUAGE, LANGUAGES, Language, screen_language
from companion.play.bus import Handler, draft_topic, game_topic
from companion.play.language_setting import STORED_LANGUAGE, device_language, locale_tag
from companion.play.service import Service
from companion.play.session import GameSession
from companion.play.sharing.access import Role, Ticket
from companion.play.sharing.links import CODE_PARAMETER, TableLinks
from companion.play.visit import Route, Visit, game_in
from companion.store.errors import GameNotFound, StoreError
from companion.store.store import Store

log = logging.getLogger("companion.app")
# On tablets and desktops a single column of cards reads best at about this width.
COLUMN_WIDTH = 760
# What a shared table's device keeps in its browser: the code it came in with, and its id.
STORED_CODE = "summoners-isle.table-code"
STORED_DEVICE = "summoners-isle.device"
# How long a browser is given to say what it keeps.
KEPT_TIMEOUT_S = 10
# How long the first screen waits for the device to say its language: past it, English.
LANGUAGE_TIMEOUT_S = 3


class App:
    """One browser tab or window: its language, its visit, and the screen it shows."""

    def __init__(self, page: ft.Page, service: Service) -> None:
        self.page = page
        self.service = service
        self.visit = Visit(service)
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

    @property
    def store(self) -> Store:
        """The games this page may see (on a hosted server, its table's only)."""
        return self.visit.store

    @property
    def table(self) -> TableLinks | None:
        """The table this page is at, if shared (`app --share`, or a hosted server's)."""
        return self.visit.links

    @property
    def ticket(self) -> Ticket | None:
        """What a shared table's code let this page in as."""
        return self.visit.ticket

    @property
    def role(self) -> Role | None:
        """What this device's code lets it do; None when the table is not shared."""
        return self.visit.role

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
        # A session the server drops hears nothing more.
        page.on_close = lambda _: self.visit.stop_following()
        # What this browser keeps: its language, and a shared table's code.
        self._prefs = ft.SharedPreferences()
        if self.visit.shared:
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
            notify(self.page, self.words.render(notice), error=True)
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

    async def enter(self) -> None:
        """Let this device in with the code in its address, or the one its browser kept."""
        assert self.visit.shared and self._prefs is not None
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
        if device is None:
            device = await self.kept(STORED_DEVICE)
        refused = self.visit.admit(self.client, code, device, self.words)
        if refused is None:
            await self.admitted()
        return refused

    async def start_table(self) -> str | None:
        """Start a table on a hosted server, this device its host: None if started (the
        browser keeps the host key), else why not."""
        refused = self.visit.start_table(self.client, self.words)
        if refused is None:
            await self.admitted()
        return refused

    async def admitted(self) -> None:
        """This device is in: its browser keeps its code and id, and the others are told."""
        self.refused = None
        self._tell_link()
        assert self.ticket is not None
        await self._keep(STORED_CODE, self.visit.kept_code())
        await self._keep(STORED_DEVICE, self.ticket.device)
        self.visit.connected(self.game_shown())

    def renew_code(self) -> None:
        """Make new table codes (host only): every other device goes back to the code screen."""
        self.visit.renew_code()
        assert self.table is not None
        if self.visit.hosted:
            return  # a hosted table's host reads them on its Share panel, never the journal
        # A headless host reads the new links where it read the first ones: the journal.
        print(f"Join: {self.table.join}\nWatch: {self.table.watch}", flush=True)

    def free_seat(self, game_id: str, device: str) -> None:
        """Free another device's seat in a game (host only): that device picks again."""
        self.visit.free_seat(game_id, device)

    def delete_refusal(self, game_id: str) -> str | None:
        """Why this device may not delete a game, in a sentence; None if it may."""
        refused = self.visit.delete_refusal(game_id)
        return None if refused is None else self.words.render(refused)

    def delete_game(self, game_id: str) -> str | None:
        """Delete a game if this device may: None if deleted, else the sentence saying why not."""
        refused = self.visit.delete_game(game_id)
        return None if refused is None else self.words.render(refused)

    def seat(self, game_id: str) -> str | None:
        """Who this device is in a game: None when not shared (it records for everyone)."""
        return self.visit.seat(game_id)

    def session(self, game_id: str) -> GameSession:
        """A game as this device may record in it (a shared table checks its seat at each write)."""
        return self.visit.session(game_id)

    def game_shown(self) -> str | None:
        """The id of the game this page shows, if any."""
        return game_in([part for part in urlsplit(self.page.route or "/").path.split("/") if part])

    def _failed(self) -> None:
        """This page's code failed: a device without the code is hung up on, so what it
        sent cannot fill the server's log with one traceback after another."""
        if self.link is not None and not self.link.admitted and self.link.hang_up is not None:
            self.link.hang_up()

    def _tell_link(self) -> None:
        """Tell this page's connection and session whether its device is let in: one without
        the code gets a stranger's limits (wire.py) and is forgotten when it leaves."""
        if not self.visit.shared or not self._alive():
            return
        admitted = self.visit.admitted
        if self.link is not None:
            self.link.admitted = admitted
        keep_after_disconnect(self.page, admitted)

    def _renewed(self) -> None:
        if self.visit.renewed_out():
            self._tell_link()
            self.refused = self.say("app.main.code_renewed")
            self.show()

    def _game_deleted(self, game_id: str) -> None:
        if self.game_shown() == game_id:
            self.go("/", self.say("app.main.game_deleted"), error=True)
        elif urlsplit(self.page.route or "/").path in ("", "/"):
            self.show()  # a list of games drops it

    def _seats_changed(self) -> None:
        view = self.page.views[-1] if self.page.views else None
        if view is not None and view.data in (SEAT_PICKER, SHARE_PANEL):
            self.show()
            return
        shown = self.game_shown()
        if shown is not None and not self.visit.seated(shown):
            self.show()  # the host freed this device's seat: it picks again

    def _connected(self, _: ft.Event[ft.Page]) -> None:
        # The page came back on a new websocket (a reload, a phone waking): its link now.
        link = current_link()
        if link is not None:
            self.link = link
            link.controls = self.page.session.index
            self._tell_link()
        self.visit.connected(self.game_shown())

    def _disconnected(self, _: ft.Event[ft.Page]) -> None:
        self.visit.disconnected()

    # --- following what other pages record ------------------------------------------------

    def _on_page(self, heard: Callable[[object], None]) -> Handler:
        """A bus handler that runs `heard(value)` on this page's event loop, like its taps and
        the bots' turns, so a screen never reloads its game under them from another thread.

        The loop is the server's, taken while the page is connected: a page whose connection
        is down meanwhile (a phone asleep) still hears, and shows it when it is back.
        """
        connection = self.page.session.connection
        loop = connection.loop if connection is not None else None

        def handler(_topic: str, value: object) -> None:
            async def deliver() -> None:
                if self._alive():
                    heard(value)

            if loop is not None and not loop.is_closed():
                asyncio.run_coroutine_threadsafe(deliver(), loop)

        return handler

    def follow(self, game_id: str, changed: Callable[[int], None]) -> None:
        """Call `changed(revision)` when another device records in this game.

        Phones at one table each show the game; what one records shows on the others
        without a reload. Following ends when this device opens another screen.
        """
        self.visit.follow(
            game_topic(game_id), self._on_page(lambda value: changed(cast(int, value)))
        )

    def announce(self, game_id: str, revision: int) -> None:
        """Tell the other devices following this game that it has reached `revision`."""
        self.visit.announce_revision(game_id, revision)

    def follow_draft(self, game_id: str, changed: Callable[[int], None]) -> None:
        """Call `changed(version)` when another device changes the game's Energy and Reset
        draft (issue 20: the draft is the table's); ends, like `follow`, with the screen."""
        self.visit.follow(
            draft_topic(game_id), self._on_page(lambda value: changed(cast(int, value)))
        )

    def announce_draft(self, game_id: str, version: int) -> None:
        """Tell the other devices on this game's Energy and Reset that its draft changed."""
        self.visit.announce_draft(game_id, version)

    # --- the screen shown -------------------------------------------------------------------

    def on_page_resize(self, handler: Callable[[], None]) -> None:
        """Call `handler` on every change of the page's size while this screen is shown."""
        self._page_resized = handler

    def go(self, route: str, message: str | None = None, *, error: bool = False) -> None:
        """Open another screen (and record it in the browser's history), with a message on it."""
        # Shown once the screen is built: one shown before would go with the screen left.
        self._message = (message, error) if message else None
        self.page.run_task(self.page.push_route, route)

    def toggle_theme(self) -> None:
        """Switch between the dark and the light theme on this device."""
        dark = self.page.theme_mode is ft.ThemeMode.DARK
        self.page.theme_mode = ft.ThemeMode.LIGHT if dark else ft.ThemeMode.DARK
        self.page.update()

    def show(self) -> None:
        """Build the screen for the current route."""
        page = self.page
        address = urlsplit(page.route or "/")
        if self.visit.shared and CODE_PARAMETER in parse_qs(address.query):
            # A link with a code, opened in a page that already runs (a reload keeps the
            # session): the code is tried first, then the page shows where the link points.
            if not self._entering:
                self._entering = True
                self._spawn(self.enter)
            return
        if self._entering:
            return
        # The screen being left stops following its game; a game screen follows it anew.
        self.visit.stop_following()
        path = [part for part in address.path.split("/") if part]
        self._page_resized = None
        try:
            if self.visit.shared:
                self.visit.follow_table(
                    self._on_page(lambda _: self._renewed()),
                    self._on_page(lambda _: self._seats_changed()),
                    self._on_page(lambda game_id: self._game_deleted(str(game_id))),
                )
            view = self._build(self.visit.route(path))
        except GameNotFound:
            notify(page, self.words.render(self.visit.not_found(self.game_shown())), error=True)
            view = self._build(self.visit.home())
        except StoreError as error:
            notify(page, str(error), error=True)
            view = self._build(self.visit.home())
        width = page.width or 0
        self._wide = width > COLUMN_WIDTH + 40
        if view.data not in (WIDE, RESIZES) and width > COLUMN_WIDTH + 40:
            view.padding = _centred(width)
        page.views.clear()
        page.views.append(view)
        if self._message is not None:
            notify(page, self._message[0], error=self._message[1])
            self._message = None
        page.update()

    def _build(self, route: Route) -> ft.View:
        """Draw the screen a route names, with its notice kept for once it shows."""
        if route.notice is not None:
            self._message = (self.words.render(route.notice), True)
        if route.screen == "join":
            self._tell_link()
            return join.build(self)
        if route.screen == "home":
            return home.build(self)
        if route.screen == "watch_home":
            return screen_module("watch").home(self)
        module = screen_module(route.screen)
        if route.game_id is None:
            return module.build(self)
        return module.build(self, route.game_id)

    def _resized(self, _: ft.PageResizeEvent) -> None:
        # A change of layout (one column or centred) needs the screen built again...
        width = self.page.width or 0
        wide = width > COLUMN_WIDTH + 40
        view = self.page.views[-1] if self.page.views else None
        if wide != self._wide and view is not None and view.data == RESIZES:
            # Laid out again in place below: building the digital board again at every turn
            # of a phone took a second or more during a computer's turn (issue 24's trial).
            self._wide = wide
        elif wide != self._wide:
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
