"""The Flet app's page: its setup, its language, the code a shared table asks for, and the
screen its route names. What a page may see and do is its visit's to decide
(companion/play/visit.py); the screens live in companion/app/screens/.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from urllib.parse import parse_qs, urlsplit

import flet as ft

from companion.app.coach_panels import remember_switch
from companion.app.edge import guard_page
from companion.app.flet_patches.errors import fail
from companion.app.flet_patches.sessions import keep_after_disconnect
from companion.app.kept import KEPT_TIMEOUT_S, STORED_CODE, STORED_DEVICE, Kept
from companion.app.page_bus import PageBus
from companion.app.page_language import PageLanguage
from companion.app.page_layout import PageLayout
from companion.app.screens import home, join
from companion.app.theme import FONTS, theme
from companion.app.warm_up import screen_module, warm_up
from companion.app.widgets import SEAT_PICKER, SHARE_PANEL, notify
from companion.app.wire_link import Link, current_link
from companion.language.message import Message, Value
from companion.language.render import Language
from companion.play.bus import PRESENCE
from companion.play.coach_view import STORED_CHANCES
from companion.play.service import Service
from companion.play.session import GameSession
from companion.play.sharing.access import Role, Ticket
from companion.play.sharing.links import CODE_PARAMETER, TableLinks
from companion.play.visit import Route, Visit, game_in
from companion.store.errors import GameNotFound, StoreError
from companion.store.one_look import one_look
from companion.store.store import Store

log = logging.getLogger("companion.app")


class App:
    """One browser tab or window: its language, its visit, and the screen it shows."""

    def __init__(self, page: ft.Page, service: Service) -> None:
        self.page = page
        self.service = service
        self.visit = Visit(service)
        # Why the code screen is shown again (a wrong or replaced code), kept on it.
        self.refused: str | None = None
        # What this browser keeps (its language, a shared table's code): set as it starts.
        self.browser: Kept | None = None
        # What this browser said it keeps (its code, its device id), so what it keeps
        # already is not sent to it again.
        self.kept: dict[str, str] = {}
        self._entering = False  # a code is being tried: screens wait for the outcome
        # The seats held in the game shown when its screen was drawn (a change redraws it).
        self._seats_drawn: frozenset[tuple[str, str]] = frozenset()
        self.layout = PageLayout(page)
        # A message for the next screen: (text, is an error).
        self._message: tuple[str, bool] | None = None
        self.language = PageLanguage(page)
        # The websocket this page's events come on (companion/app/wire.py): what its wrong
        # codes count against, and told when the device is let in. None outside a server.
        self.link: Link | None = current_link()
        # What other pages record reaches this one through it (follow, announce).
        self.bus = PageBus(page, self.visit, self._alive)

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
        page.on_resize = lambda _: self.layout.resized(self.show)
        page.on_locale_change = self._locale_changed
        page.on_connect = self._connected
        # A session the server drops hears nothing more.
        page.on_close = lambda _: self.visit.stop_following()
        self.browser = Kept(ft.SharedPreferences())
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
        assert self.browser is not None
        _, chances = await asyncio.gather(self.find_language(), self.browser.get(STORED_CHANCES))
        remember_switch(self, chances)
        self.show()
        for notice in self.store.notices:
            notify(self.page, self.words.render(notice), error=True)
        warm_up()

    def _spawn(self, work: Callable[[], Awaitable[None]]) -> None:
        """Run `work` on the page's loop. A page without the code that leaves meanwhile has its
        session dropped (flet_patches/sessions.py): then the work ends there, quietly."""

        async def run() -> None:
            try:
                await work()
            except Exception:
                if self._alive():
                    # As Flet does for an event's handler: the traceback to the server's
                    # log, one sentence to the page (edge.py).
                    log.exception("a page's background work failed")
                    fail(self.page)

        self.page.run_task(run)

    def _alive(self) -> bool:
        """Whether this page's session still exists on the server."""
        try:
            return self.page.session is not None
        except RuntimeError:
            return False

    # --- the device's language --------------------------------------------------------------

    @property
    def words(self) -> Language:
        """The language this device shows the app in (a device's setting, never the game's)."""
        return self.language.words

    async def find_language(self) -> None:
        """Take the language this browser kept, else its locale's (see language_setting)."""
        assert self.browser is not None
        await self.language.find(self.browser)

    def set_language(self, code: str) -> None:
        """Show the app in `code` on this device from now on, and keep the choice."""
        assert self.browser is not None
        self.language.choose(code, self.browser)
        self.show()

    def _locale_changed(self, event: ft.LocaleChangeEvent) -> None:
        if self.language.locale_changed(event):
            self.show()

    # --- a shared table -------------------------------------------------------------------

    @property
    def client(self) -> str:
        """What this device's wrong codes count against: the address its connection comes
        from, never one the browser says (see companion/app/wire.py)."""
        return self.link.client if self.link is not None else ""

    async def enter(self) -> None:
        """Let this device in with the code in its address, or the one its browser kept."""
        assert self.visit.shared and self.browser is not None
        self._entering = True
        try:
            parts = urlsplit(self.page.route or "/")
            linked = parse_qs(parts.query).get(CODE_PARAMETER, [""])[0]
            if linked:
                # The code leaves the route at once (so it is tried once), and the address
                # bar below: a reload comes back with the kept one.
                self.page.route = parts.path or "/"
            # Asked at once, not one after another: a page coming back after its process
            # died is one of many reaching a busy process at that moment.
            _, stored, device, chances = await asyncio.gather(
                self.find_language(),
                self.browser.get(STORED_CODE),
                self.browser.get(STORED_DEVICE),
                self.browser.get(STORED_CHANCES),
            )
            self.kept = {STORED_CODE: stored, STORED_DEVICE: device}
            remember_switch(self, chances)
            keep: dict[str, str] = {}
            # A page coming back is let in, told and drawn from one look at the store, with
            # nothing awaited in between (a look never lasts across an await).
            with one_look():
                if linked or stored:
                    self.refused, keep = self._try_code(linked or stored, device)
                if not linked:
                    self._entering = False
                    self._tell_link()
                    self.show()
            await self._keep(keep)
            if linked:
                # The browser's address bar shows the route without the code (if it answers).
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self.page.push_route(self.page.route), KEPT_TIMEOUT_S)
        except BaseException:
            self._entering = False
            self._tell_link()
            raise
        if self._entering:
            self._entering = False
            with one_look():
                self._tell_link()
                self.show()
        warm_up()

    async def admit(self, code: str, device: str | None = None) -> str | None:
        """Try a code: None if this device is in (and keeps the code), else why not."""
        if device is None:
            assert self.browser is not None
            device = await self.browser.get(STORED_DEVICE)
        with one_look():
            refused, keep = self._try_code(code, device)
        await self._keep(keep)
        return refused

    async def start_table(self) -> str | None:
        """Start a table on a hosted server, this device its host: None if started (the
        browser keeps the host key), else why not."""
        refused = self.visit.start_table(self.client, self.words)
        if refused is None:
            with one_look():
                keep = self._admitted()
            await self._keep(keep)
        return refused

    def _try_code(self, code: str, device: str) -> tuple[str | None, dict[str, str]]:
        """Try a code: (None, what the browser is to keep) if this device is in, else (why
        not, nothing)."""
        refused = self.visit.admit(self.client, code, device, self.words)
        return (refused, {}) if refused is not None else (None, self._admitted())

    def _admitted(self) -> dict[str, str]:
        """This device is in: the others are told, and what its browser is to keep (its code
        and id) is returned where it differs from what it keeps."""
        self.refused = None
        self._tell_link()
        assert self.ticket is not None
        keep = {STORED_CODE: self.visit.kept_code(), STORED_DEVICE: self.ticket.device}
        self.visit.connected(self.game_shown())
        return {key: value for key, value in keep.items() if self.kept.get(key) != value}

    async def _keep(self, keep: dict[str, str]) -> None:
        """Have the browser keep `keep` (a code, a device id)."""
        assert self.browser is not None
        browser = self.browser
        await asyncio.gather(*(browser.set(key, value) for key, value in keep.items()))
        self.kept.update(keep)

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

    def _seats_changed(self, game_id: str) -> None:
        view = self.page.views[-1] if self.page.views else None
        if view is not None and view.data in (SEAT_PICKER, SHARE_PANEL):
            self.show()
            return
        if game_id == PRESENCE:
            # A page opened or closed: no seat changed, so a game's screen stays as it is
            # (at a hundred returning pages, a look at the seats for each was many reads).
            return
        if self.game_shown() == game_id and self.visit.seats_of(game_id) != self._seats_drawn:
            # Who records what follows the seats: the game's screen is drawn again with them
            # (and a device whose seat the host freed picks again). The device that took or
            # left the seat has drawn its screen with them already: a second drawing would
            # lose a tap made on the first.
            self.show()

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

    # --- the screen shown -------------------------------------------------------------------

    def on_page_resize(self, handler: Callable[[], None]) -> None:
        """Call `handler` on every change of the page's size while this screen is shown."""
        self.layout.on_resize = handler

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
        """Build the screen for the current route, from one look at the store (one_look.py)."""
        with one_look():
            self._show()

    def _show(self) -> None:
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
        self.layout.on_resize = None
        try:
            if self.visit.shared:
                self.visit.follow_table(
                    self.bus.on_page(lambda _: self._renewed()),
                    self.bus.on_page(lambda game_id: self._seats_changed(str(game_id))),
                    self.bus.on_page(lambda game_id: self._game_deleted(str(game_id))),
                )
            shown = self.game_shown()
            self._seats_drawn = self.visit.seats_of(shown) if shown else frozenset()
            view = self._build(self.visit.route(path))
        except GameNotFound:
            notify(page, self.words.render(self.visit.not_found(self.game_shown())), error=True)
            view = self._build(self.visit.home())
        except StoreError as error:
            notify(page, self.words.render(error.message), error=True)
            view = self._build(self.visit.home())
        self.layout.fit(view)
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

    async def _pop(self, event: ft.ViewPopEvent) -> None:
        await self.page.push_route("/")
