"""A page's ear and voice on the bus (companion/play/bus.py): what other pages record in a
game, or in its Energy and Reset draft, reaches this page on its own event loop."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import cast

import flet as ft

from companion.play.bus import Handler, draft_topic, game_topic
from companion.play.visit import Visit


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

        def handler(_topic: str, value: object) -> None:
            async def deliver() -> None:
                if self.alive():
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
            game_topic(game_id), self.on_page(lambda value: changed(cast(int, value)))
        )

    def announce(self, game_id: str, revision: int) -> None:
        """Tell the other devices following this game that it has reached `revision`."""
        self.visit.announce_revision(game_id, revision)

    def follow_draft(self, game_id: str, changed: Callable[[int], None]) -> None:
        """Call `changed(version)` when another device changes the game's Energy and Reset
        draft (issue 20: the draft is the table's); ends, like `follow`, with the screen."""
        self.visit.follow(
            draft_topic(game_id), self.on_page(lambda value: changed(cast(int, value)))
        )

    def announce_draft(self, game_id: str, version: int) -> None:
        """Tell the other devices on this game's Energy and Reset that its draft changed."""
        self.visit.announce_draft(game_id, version)
