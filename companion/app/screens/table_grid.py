"""The summon grid of the table's turn card: players (rows, in turn order) by creature kinds
(columns), a square for each, drawn from the play layer's `TurnView`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import flet as ft

from companion.app.sizes import TAP
from companion.app.theme import ACCENT, ACCENT_TEXT, CREATURE_MARK, FONT
from companion.app.widgets import player_chip
from companion.play.game_words import say
from companion.play.table_turn import GridHead, GridRow, SummonSquare, TurnView

if TYPE_CHECKING:
    from companion.app.screens.table_turn import TurnCard

ON_ACCENT = "#1B1B1B"
CELL_WIDTH = 60
HEAD_HEIGHT = 36


class Grid:
    """Players (rows, in turn order) by creature kinds (columns): a tap summons one."""

    def __init__(self, card: TurnCard, view: TurnView) -> None:
        self.card = card
        self.heads = [
            ft.Text(size=13, max_lines=2, text_align=ft.TextAlign.CENTER) for _ in view.heads
        ]
        boxes = [
            # Two lines' room whatever the step: the grid stays put from step to step.
            ft.Container(
                width=CELL_WIDTH,
                height=HEAD_HEIGHT,
                alignment=ft.Alignment.BOTTOM_CENTER,
                content=head,
            )
            for head in self.heads
        ]
        self.rows = [_Row(card, len(view.heads)) for _ in view.grid]
        self.control = ft.Column(
            [
                ft.Row([ft.Container(expand=True), *boxes], spacing=4),
                *(row.control for row in self.rows),
            ],
            spacing=6,
        )

    def fits(self, view: TurnView) -> bool:
        """Whether the grid has `view`'s rows and columns."""
        return len(view.grid) == len(self.rows) and len(view.heads) == len(self.heads)

    def show(self, view: TurnView) -> None:
        """Set the heads, rows and squares to `view`."""
        for text, head in zip(self.heads, view.heads, strict=True):
            self.head(text, head)
        for row, shown in zip(self.rows, view.grid, strict=True):
            row.show(shown)

    def head(self, text: ft.Text, head: GridHead) -> None:
        """'Wyrms now', bold, for the step's column; its kind and cost for another."""
        text.value = self.card.words.render(head.label)
        text.weight = ft.FontWeight.BOLD if head.now else ft.FontWeight.NORMAL
        text.color = ACCENT_TEXT if head.now else ft.Colors.ON_SURFACE_VARIANT


class _Row:
    """A player's row: whose decision it is, their chip and name, their squares."""

    def __init__(self, card: TurnCard, kinds: int) -> None:
        self.now = ft.Text("", size=14, width=14, color=ACCENT_TEXT)
        self.name = ft.Text(size=15, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS)
        self.chip: tuple[str, str] | None = None
        self.squares = [_Square(card) for _ in range(kinds)]
        self.control: ft.Row = ft.Row(
            [
                self.now,
                ft.Container(),
                ft.Container(self.name, expand=True),
                *(square.control for square in self.squares),
            ],
            spacing=4,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )

    def show(self, row: GridRow) -> None:
        """Set the row to `row`'s player (the order changes between rounds)."""
        self.now.value = "▶" if row.now else ""
        self.name.value = row.name
        self.name.weight = ft.FontWeight.BOLD if row.now else ft.FontWeight.NORMAL
        if self.chip != (row.name, row.colour):
            self.chip = (row.name, row.colour)
            self.control.controls[1] = player_chip(row.name, row.colour, size=28)
        for square, shown in zip(self.squares, row.squares, strict=True):
            square.show(shown)


class _Square:
    """One square: '+W' and how many are left, a dash when no tap can summon it now, and
    'W' faded with a lock when it is another device's to tap (a shared table)."""

    def __init__(self, card: TurnCard) -> None:
        self.card = card
        self.mark = ft.Text(size=18, weight=ft.FontWeight.BOLD, font_family=FONT)
        self.left = ft.Text(size=11)
        self.locked = ft.Icon(ft.Icons.LOCK, size=14, color=ft.Colors.ON_SURFACE_VARIANT)
        self.lines = ft.Column(
            [self.mark, self.left],
            spacing=0,
            tight=True,
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        )
        self.box = ft.Container(
            width=CELL_WIDTH,
            height=TAP + 4,
            border_radius=8,
            alignment=ft.Alignment.CENTER,
            content=self.lines,
        )
        self.layers = ft.Stack([self.box])
        # The touch layer of the drawing before stays under the new one, where it was: a tap
        # the phone began on it before the new drawing was laid out still ends on it (and
        # records for the moment it was drawn for, or is refused with a sentence). One the
        # square no longer has is kept hidden for a drawing (`TurnCard.retire`).
        self.touch: ft.Control | None = None
        self.control: ft.Semantics = ft.Semantics(
            button=True, container=True, exclude_semantics=True, content=self.layers
        )

    def show(self, square: SummonSquare) -> None:
        """Set the square to `square`, with a new touch layer when this device may tap it."""
        legal = square.tap is not None
        theirs = legal and not square.open
        possible = square.open
        if square.current and possible:
            fill, border, ink = ACCENT, ft.Border.all(2, ACCENT), ON_ACCENT
        elif possible:
            fill, border, ink = (
                ft.Colors.SURFACE_CONTAINER_HIGHEST,
                ft.Border.all(2, ft.Colors.OUTLINE),
                None,
            )
        else:
            fill, border, ink = None, ft.Border.all(1, ft.Colors.OUTLINE_VARIANT), None
        colour = ink if possible else ft.Colors.ON_SURFACE_VARIANT
        self.box.bgcolor = fill
        self.box.border = border
        self.box.disabled = not possible
        self.mark.value = ("" if theirs else "+") + CREATURE_MARK[square.kind] if legal else "-"
        self.mark.color = colour
        self.left.value = say(self.card.words, "game.table.left", count=square.left)
        self.left.color = colour
        self.lines.controls = [self.mark, self.locked if theirs else self.left]
        self.control.label = self.card.words.render(square.label)
        self.control.disabled = not possible
        before, self.touch = self.touch, self.card.touch(square)
        layers = [self.box] if self.touch is None else [self.box, before, self.touch]
        for layer in self.layers.controls:
            if layer not in layers:
                self.card.retire(layer)
        self.layers.controls = [layer for layer in layers if layer is not None]
