"""The pace of computer turns on this device (quick / normal / slow), kept in its browser.

Which paces there are and what each one's timings are is the play layer's
(`play/board_device.py`); this reads and keeps the one a browser chose.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import flet as ft

from companion.play.board_device import STORED_PACE, TIMINGS, Pace, pace_of

if TYPE_CHECKING:
    from companion.app.screens.board import BoardScreen

# Where a browser's session keeps, for its screens built again, the pace it read and the
# store of its kept settings.
SESSION_PACE = "board-pace"
SESSION_PREFS = "board-prefs"


async def read_pace(screen: BoardScreen) -> None:
    """The pace this browser keeps (normal if none), read once per browser session."""
    kept = await prefs(screen).get(STORED_PACE)
    screen.app.page.session.store.set(SESSION_PACE, str(kept or ""))
    pace = pace_of(kept)
    if pace is not screen.pace:
        screen.pace = pace
        screen.turns.timing = TIMINGS[pace]
        if not screen.closed():
            screen.show(None)


def set_pace(screen: BoardScreen, pace: Pace) -> None:
    """This device's pace from now on, kept in its browser."""
    screen.pace = pace
    screen.turns.timing = TIMINGS[pace]
    screen.app.page.session.store.set(SESSION_PACE, pace.value)
    screen.app.page.run_task(prefs(screen).set, STORED_PACE, pace.value)
    screen.show(None)


def prefs(screen: BoardScreen) -> ft.SharedPreferences:
    """This browser's kept settings (one per browser session)."""
    store = screen.app.page.session.store
    prefs = store.get(SESSION_PREFS)
    if not isinstance(prefs, ft.SharedPreferences):
        prefs = ft.SharedPreferences()
        store.set(SESSION_PREFS, prefs)
    return prefs
