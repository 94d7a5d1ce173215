"""A page's ear and voice on the bus (companion/play/bus.py): what other pages record in a
game, or in its Energy and Reset draft, reaches this page on its own event loop."""

from __future__ import annotations

import asyncio
import logging
import threading
import weakref
from collections import deque
from collections.abc import Callable
from typing import cast

import flet as ft

from companion.play.bus import Handler, draft_topic, game_topic
from companion.play.visit import Visit
from companion.store.one_look import one_look

log = logging.getLogger("companion.app")


class PageBus:
    """Follow and announce a game's changes for one page; following ends with its screen."""

    def __init__(self, page: ft.Page, visit: Visit, alive: Callable[[], bool]) -> None:
        self.page = page
        self.visit = visit
        self.alive = alive

    def on_page(self, heard: Callable[[object], None]) -> Handler:
        """A bus handler that runs `heard(value)` on this page's event loop, like its taps and
        the bots' turns, so a screen never reloads its game under them from another thread.

        The loop is the server's, taken while the page is connected: a page whose connection
        is down meanwhile (a phone asleep) still hears, and shows it when it is back.
        """
        connection = self.page.session.connection
        loop = connection.loop if connection is not None else None
        deliveries = None if loop is None else _deliveries(loop)

        def deliver(value: object) -> None:
            if self.alive():
                heard(value)

        def handler(_topic: str, value: object) -> None:
            if deliveries is not None:
                deliveries.add(deliver, value)

        return handler

    def follow(self, game_id: str, changed: Callable[[int], None]) -> None:
        """Call `changed(revision)` when another device records in this game.

        Phones at one table each show the game; what one records shows on the others
        without a reload. Following ends when this device opens another screen.
        """
        self.visit.follow(
            game_topic(game_id), self.on_page(lambda value: changed(cast(int, value)))
        )

    def announce(self, game_id: str, revision: int) -> None:
        """Tell the other devices following this game that it has reached `revision`."""
        self.visit.announce_revision(game_id, revision)

    def follow_draft(self, game_id: str, changed: Callable[[int], None]) -> None:
        """Call `changed(version)` when another device changes the game's Energy and Reset
        draft (the draft is the table's); ends, like `follow`, with the screen."""
        self.visit.follow(
            draft_topic(game_id), self.on_page(lambda value: changed(cast(int, value)))
        )

    def announce_draft(self, game_id: str, version: int) -> None:
        """Tell the other devices on this game's Energy and Reset that its draft changed."""
        self.visit.announce_draft(game_id, version)


class _Deliveries:
    """What the bus heard for the pages of one event loop, run on it in the order heard.

    Everything heard meanwhile runs in one go, from one look at the store
    (companion/store/one_look.py): a record at a table reaches its other screens in this
    process with one read of the game's seats, not one per screen.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._waiting: deque[tuple[Callable[[object], None], object]] = deque()
        self._lock = threading.Lock()
        self._called = False

    def add(self, deliver: Callable[[object], None], value: object) -> None:
        """Run `deliver(value)` on the loop (from any thread)."""
        with self._lock:
            self._waiting.append((deliver, value))
            if self._called:
                return
            self._called = True
        if not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._run)

    def _run(self) -> None:
        with self._lock:
            waiting, self._waiting = self._waiting, deque()
            self._called = False
        with one_look():
            for deliver, value in waiting:
                try:
                    deliver(value)
                except Exception:
                    # As Flet does for a failed event handler: the traceback to the log.
                    log.exception("a page failed to show what another page did")


_by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Deliveries] = (
    weakref.WeakKeyDictionary()
)
_by_loop_lock = threading.Lock()


def _deliveries(loop: asyncio.AbstractEventLoop) -> _Deliveries:
    """The deliveries of `loop`'s pages (one per loop: one server, one loop)."""
    with _by_loop_lock:
        found = _by_loop.get(loop)
        if found is None:
            found = _by_loop[loop] = _Deliveries(loop)
        return found
