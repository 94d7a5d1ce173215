"""The Flet app: page setup and routes. Screens live in companion/app/screens/."""

from __future__ import annotations

import importlib
import os
import re
import socket
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import flet as ft

from companion.app.guard import ASGIApp, OriginGuard, allowed_hosts, allowed_origins
from companion.app.screens import home
from companion.app.theme import FONTS, theme
from companion.app.widgets import PADDING, SIZED, WIDE, notify
from companion.store.errors import GameNotFound, StoreError
from companion.store.store import Store, open_store
from models.setup import Mode

ASSETS = Path(__file__).resolve().parent.parent.parent / "assets"
DEFAULT_PORT = 8550
# On tablets and desktops a single column of cards reads best at about this width.
COLUMN_WIDTH = 760
# Every screen but home, imported on first use: the server answers sooner, and the first
# screen only waits for what it shows.
SCREENS = ("new_game", "history", "board_editor", "table", "board", "reset", "log", "end")


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

    def __init__(self, page: ft.Page, store: Store) -> None:
        self.page = page
        self.store = store
        self._wide = False
        # A message for the next screen: (text, is an error).
        self._message: tuple[str, bool] | None = None
        # What the screen shown wants done whenever the page changes size (set as it is built).
        self._page_resized: Callable[[], None] | None = None

    def start(self) -> None:
        """Set up the page and show the screen its address names."""
        page = self.page
        page.title = "Summoner's Isle Companion"
        page.fonts = FONTS
        page.theme = theme(ft.ThemeMode.LIGHT)
        page.dark_theme = theme(ft.ThemeMode.DARK)
        page.theme_mode = ft.ThemeMode.DARK
        page.on_route_change = lambda _: self.show()
        page.on_view_pop = self._pop
        page.on_resize = self._resized
        self.show()
        for notice in self.store.notices:
            notify(page, notice, error=True)
        warm_up()

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

    def toggle_theme(self) -> None:
        """Switch between the dark and the light theme on this device."""
        dark = self.page.theme_mode is ft.ThemeMode.DARK
        self.page.theme_mode = ft.ThemeMode.LIGHT if dark else ft.ThemeMode.DARK
        self.page.update()

    def show(self) -> None:
        """Build the screen for the current route."""
        page = self.page
        # The screen being left stops following its game; a game screen follows it anew.
        page.pubsub.unsubscribe_all()
        parts = [part for part in (page.route or "/").split("/") if part]
        self._page_resized = None
        try:
            view = self._view(parts)
        except GameNotFound:
            notify(page, "That game is not saved on this device.", error=True)
            view = home.build(self)
        except StoreError as error:
            notify(page, str(error), error=True)
            view = home.build(self)
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


def run_packaged() -> None:
    """Run inside a `flet build` bundle: Flet chooses the window; games go to the user data dir."""
    store = open_store()
    ft.run(lambda page: App(page, store).start(), assets_dir=str(ASSETS))


def web_app(store: Store, host: str, port: int) -> ASGIApp:
    """The app as an ASGI web app answering only its own pages (see companion/app/guard.py)."""
    flet_app = ft.run(
        lambda page: App(page, store).start(),
        assets_dir=str(ASSETS),
        no_cdn=True,
        export_asgi_app=True,
    )
    return OriginGuard(flet_app, allowed_hosts(host, port), allowed_origins(host, port))


def serve(
    host: str = "127.0.0.1", port: int = DEFAULT_PORT, db: str | None = None, web: bool = False
) -> None:
    """Run the app: a desktop window where there is a display, else a web server."""
    store = open_store(db)
    has_display = sys.platform != "linux" or bool(
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    )
    if web or not has_display:
        import uvicorn

        warm_up_once_listening(host, port)
        # Flet's own web server cannot be given the guard, so the app is served here, the
        # way Flet serves it (the same websocket implementation), without access logs.
        uvicorn.run(
            web_app(store, host, port),
            host=host,
            port=port,
            ws="websockets-sansio",
            log_level="warning",
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
