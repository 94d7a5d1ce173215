"""What goes around the digital board's isle in each arrangement (`play/board_frame.py`): the
isle's column and its key, the tablet's panels beside it, and on a phone on its side the
column beside the isle (rail, turn card, buttons) and the panels' drawer.

Made once and put in place again when the arrangement changes: a new parent at every redraw
would send the whole isle (every space, every shape) to the browser again.
"""

from __future__ import annotations

import flet as ft

from companion.app.screens.board_side import drawer
from companion.language.render import Language
from companion.play.board_frame import (
    PADDING,
    SIDEWAYS_PADDING,
    SPACING,
    Arrangement,
)
from companion.play.game_words import say


class Frame:
    """The containers the board's screen puts its isle, cards and panels in."""

    def __init__(
        self, isle: ft.Control, rail: ft.Control, buttons: ft.Control, words: Language
    ) -> None:
        self.legend = ft.Text(
            say(words, "game.board.legend"), size=12, color=ft.Colors.ON_SURFACE_VARIANT
        )
        self.isle_box = ft.Container(content=isle, border_radius=12)
        self.board = ft.Column(
            [self.isle_box], spacing=6, horizontal_alignment=ft.CrossAxisAlignment.STRETCH
        )
        # Side by side, each column scrolls on its own: scrolling down the panels leaves the
        # isle in view beside them.
        self.panels = ft.Column(expand=12 - 7, scroll=ft.ScrollMode.AUTO)
        self.layout = ft.Row(
            [
                ft.Column([self.board], expand=7, scroll=ft.ScrollMode.AUTO),
                self.panels,
            ],
            expand=True,
            spacing=SPACING,
            vertical_alignment=ft.CrossAxisAlignment.START,
        )
        # A phone on its side: the isle the screen's height, and beside it the rail, the turn
        # card (scrolling) and the buttons; the panels in a drawer.
        self.card_slot = ft.Column(scroll=ft.ScrollMode.AUTO, expand=True)
        self.side = ft.Column([rail, self.card_slot, buttons], expand=True, spacing=6)
        self.sideways = ft.Row(
            [self.board, self.side],
            expand=True,
            spacing=SPACING,
            vertical_alignment=ft.CrossAxisAlignment.START,
        )
        self.drawer_column = ft.Column(spacing=8)
        self.drawer = drawer([self.drawer_column])

    def arrange(self, view: ft.View, shown: Arrangement, isle_width: float) -> None:
        """Set the view's padding, scrolling and drawer for an arrangement; on a phone on
        its side the isle's column is `isle_width` wide."""
        sideways = shown is Arrangement.SIDEWAYS
        view.end_drawer = self.drawer if sideways else None
        view.padding = SIDEWAYS_PADDING if sideways else PADDING
        view.scroll = ft.ScrollMode.AUTO if shown is Arrangement.PHONE else None
        self.board.controls = (
            [self.isle_box, self.legend] if shown is Arrangement.TABLET else [self.isle_box]
        )
        width = isle_width if sideways else None
        self.board.width = self.isle_box.width = width
