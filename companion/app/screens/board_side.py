"""The digital board on a phone on its side: the rail beside the isle, and the panels' drawer.

A sideways phone has no height to spare above or below the isle, so what the app bar holds
elsewhere (home, the round, undo and redo saying what they do, the rules at a glance, the
log) is a row at the top of the column beside the isle, with one more button: the panels
(players, energy, the last tally, the computers' pace), which fold into a drawer from the
right.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from companion.app.game_panels import show_round
from companion.app.sizes import TAP
from companion.engine import GameState
from companion.language.render import Language
from companion.play.game_words import say
from companion.play.text_width import fitting_size, text_width

Handler = Callable[[ft.Event[Any]], object]
TITLE_SIZE = 17
SMALLEST_TITLE = 11
# Kept free beside the title: the column's width is worked out before the isle reports its own.
TITLE_MARGIN = 16
# Home, undo, redo, the aid, the log and the panels, each a tap target wide.
RAIL_BUTTONS = 6


class SideRail:
    """Home, the round, undo, redo, the rules at a glance, the log and the panels, in a row
    beside the isle."""

    def __init__(
        self,
        go: Callable[[str], None],
        game_id: str,
        taps: tuple[Handler, Handler, Handler],
        words: Language,
        aid: ft.Control,
    ) -> None:
        """`taps`: undo, redo, and the panels' drawer; `aid` opens the rules at a glance."""
        undo, redo, panels = taps
        self.words = words
        self.title = ft.Text(size=TITLE_SIZE, weight=ft.FontWeight.BOLD, no_wrap=True, expand=True)
        # The column's width beside the isle, set as the screen is laid out.
        self.room = 0.0
        self.undo_button = ft.IconButton(ft.Icons.UNDO, on_click=undo)
        self.redo_button = ft.IconButton(ft.Icons.REDO, on_click=redo)
        self.control = ft.Row(
            [
                ft.IconButton(
                    ft.Icons.HOME, tooltip=say(words, "game.bar.home"), on_click=lambda _: go("/")
                ),
                self.title,
                self.undo_button,
                self.redo_button,
                aid,
                ft.IconButton(
                    ft.Icons.LIST_ALT,
                    tooltip=say(words, "game.bar.log"),
                    on_click=lambda _: go(f"/game/{game_id}/log"),
                ),
                ft.IconButton(
                    ft.Icons.GROUPS, tooltip=say(words, "game.board.panels"), on_click=panels
                ),
            ],
            spacing=0,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )

    def show(
        self, state: GameState, undo: str | None, redo: str | None, round_: int | None = None
    ) -> None:
        """As the app bar shows them (`GameBar.show`): the round, what undo and redo do."""
        show_round(self, self.words, state, undo, redo, round_)
        # Six buttons leave a phone on its side little room: where the words do not fit,
        # the round rune and numbers only (the words stay the title's label).
        words = self.title.value
        room = self.room - RAIL_BUTTONS * TAP - TITLE_MARGIN
        fits = text_width(str(words), TITLE_SIZE, bold=True) <= room
        self.title.semantics_label = None if fits else words
        if not fits:
            self.title.value = say(
                self.words,
                "game.bar.round_short",
                round=round_ or state.round,
                final=state.game.final_round,
            )
        # The short one, too, as large as fits: never cut.
        self.title.size = fitting_size(
            str(self.title.value), room, TITLE_SIZE, SMALLEST_TITLE, bold=True
        )


def drawer(controls: list[ft.Control]) -> ft.NavigationDrawer:
    """The panels, in a drawer that opens from the right over the isle."""
    return ft.NavigationDrawer(
        controls=[ft.Container(padding=8, content=ft.Column(controls, spacing=8))]
    )
