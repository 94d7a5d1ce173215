"""The digital board on a phone on its side: the rail beside the isle, and the panels' drawer.

A sideways phone has no height to spare above or below the isle, so what the
app bar holds elsewhere (home, the round, undo and redo saying what they do, the log) is a
row at the top of the column beside the isle, with one more button: the panels (players,
energy, the last tally, the computers' pace), which fold into a drawer from the right.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from companion.app.game_panels import show_round
from companion.engine import GameState
from companion.language.render import Language
from companion.play.game_words import say


class SideRail:
    """Home, the round, undo, redo, the log and the panels, in a row beside the isle."""

    def __init__(
        self,
        go: Callable[[str], None],
        game_id: str,
        undo: Callable[[ft.Event[Any]], object],
        redo: Callable[[ft.Event[Any]], object],
        panels: Callable[[ft.Event[Any]], object],
        words: Language,
    ) -> None:
        self.words = words
        self.title = ft.Text(size=17, weight=ft.FontWeight.BOLD, no_wrap=True, expand=True)
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


def drawer(controls: list[ft.Control]) -> ft.NavigationDrawer:
    """The panels, in a drawer that opens from the right over the isle."""
    return ft.NavigationDrawer(
        controls=[ft.Container(padding=8, content=ft.Column(controls, spacing=8))]
    )
