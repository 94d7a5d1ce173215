"""Small building blocks the screens share: player marks, the energy track, reserves."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import flet as ft

from companion.app.theme import ACCENT_TEXT, BAND_TINT, CREATURE_MARK, FONT, ON_TINT, colour_of
from companion.engine.names import board_term
from companion.engine.queries import Holdings
from companion.language import Message
from companion.language.render import Language
from companion.play.language_setting import ENGLISH
from models.board import Board
from models.rules import ENERGY_BANDS, KIND_ORDER, MAX_TRACK_ENERGY, WINNING_ENERGY, band_for

TRACK_COLUMNS = 6
WIDE = "wide"  # a view's `data` when it lays itself out across the whole width
SIZED = "sized"  # a view's `data` when it sizes what it draws to the page as it is built
# A view's `data` when it lays itself out across the whole width and again at every change of
# the page's size (the digital board): the page neither builds it again nor sets its margins.
RESIZES = "resizes"
# The `data` of the views a change of seats on a shared table redraws.
SEAT_PICKER = "seat-picker"
SHARE_PANEL = "share-panel"
PADDING = 12  # around a screen's content


def player_chip(name: str, colour_id: str, size: int = 28) -> ft.Control:
    """A round counter in the player's colour, marked with their letter and shape."""
    colour = colour_of(colour_id)
    letter = (name[:1] or "?").upper()
    return ft.Container(
        width=size,
        height=size,
        border_radius=size // 2,
        bgcolor=colour.hex,
        alignment=ft.Alignment.CENTER,
        border=ft.Border.all(2, "#101010"),
        content=ft.Text(
            f"{letter}{colour.mark}" if size >= 28 else letter,
            size=size * 0.36,
            color=colour.on_hex,
            weight=ft.FontWeight.BOLD,
            no_wrap=True,
        ),
    )


def energy_track(counters: Sequence[tuple[str, str, int]], words: Language = ENGLISH) -> ft.Control:
    """The track 0-35 with each player's counter on it; `counters` is (name, colour, energy)."""
    return EnergyTrack(counters, words).control


class EnergyTrack:
    """The track 0-35 in rows of six, shaded by band, with each player's counter on it.

    Built once per screen; `show` moves the counters and says which controls it changed,
    so a tap re-sends a few chips, not the whole track.
    """

    def __init__(self, counters: Sequence[tuple[str, str, int]], words: Language = ENGLISH) -> None:
        self._words = words
        # A cell without a counter is its tint and its number only: a screen drawn whole (a
        # page opening, or 200 coming back after their process died) sends 36 of them.
        self._cells: list[ft.Container] = []
        rows: list[ft.Control] = []
        for start in range(0, MAX_TRACK_ENERGY + 1, TRACK_COLUMNS):
            cells: list[ft.Control] = []
            for value in range(start, start + TRACK_COLUMNS):
                cell = ft.Container(
                    expand=True,
                    height=52,
                    bgcolor=BAND_TINT[band_for(value).label],
                    border_radius=6,
                    padding=ft.Padding.only(left=4, top=2, right=2, bottom=2),
                    content=self._number(value),
                    data=(),
                )
                self._cells.append(cell)
                cells.append(cell)
            rows.append(ft.Row(cells, spacing=3))
        legend = ft.Row(
            [
                ft.Container(
                    bgcolor=BAND_TINT[band.label],
                    border_radius=4,
                    padding=ft.Padding.symmetric(horizontal=6, vertical=2),
                    content=ft.Text(
                        words.render(
                            Message(
                                "app.track.band",
                                low=band.low,
                                high=band.high,
                                change=Message("app.track.change", change=band.modifier)
                                if band.modifier
                                else Message("app.track.no_change"),
                            )
                        ),
                        size=11,
                        color=ON_TINT,
                    ),
                )
                for band in ENERGY_BANDS
            ],
            wrap=True,
            spacing=4,
            run_spacing=4,
        )
        goal = ft.Text(
            words.render(Message("app.track.goal", energy=WINNING_ENERGY)),
            size=12,
            color=ACCENT_TEXT,
        )
        # Screen readers get one sentence instead of thirty-six numbers. The sentence sits on
        # the small legend, so changing it re-sends the legend and not the whole grid.
        self._label = ft.Semantics(
            identifier="energy-track",
            exclude_semantics=True,
            content=ft.Column([legend, goal], spacing=3),
        )
        grid = ft.Semantics(exclude_semantics=True, content=ft.Column(rows, spacing=3))
        self.control = ft.Column([grid, self._label], spacing=3)
        self.show(counters)

    def show(self, counters: Sequence[tuple[str, str, int]]) -> list[ft.Control]:
        """Put each player's counter on their energy; the controls changed, for `page.update`."""
        by_value: dict[int, list[tuple[str, str]]] = {}
        for name, colour_id, energy in counters:
            by_value.setdefault(min(energy, MAX_TRACK_ENERGY), []).append((name, colour_id))
        changed: list[ft.Control] = []
        for value, cell in enumerate(self._cells):
            here = tuple(by_value.get(value, ()))
            if cell.data != here:
                cell.data = here
                cell.content = self._counters(value, here) if here else self._number(value)
                changed.append(cell)
        label = self._words.render(
            Message(
                "app.track.label",
                players=tuple(
                    Message("app.track.player", player=name, energy=energy)
                    for name, _, energy in counters
                ),
            )
        )
        if label != self._label.label:
            self._label.label = label
            changed.append(self._label)
        return changed

    def _number(self, value: int) -> ft.Text:
        return ft.Text(self._words.number(value), size=11, color="#C8C8C8")

    def _counters(self, value: int, here: tuple[tuple[str, str], ...]) -> ft.Column:
        # Two rows of counters fit a cell only at the smaller size.
        size = 20 if len(here) <= 2 else 16
        chips = [player_chip(name, colour_id, size=size) for name, colour_id in here]
        return ft.Column(
            [self._number(value), ft.Row(chips, spacing=0, wrap=True, run_spacing=0)],
            spacing=0,
            tight=True,
        )


def reserve_line(holdings: Holdings) -> str:
    """A player's creatures as text: in reserve / on the board / back next round, per kind."""
    parts = []
    # No-break spaces inside a kind's group: a narrow card wraps between groups, not in one.
    for kind in KIND_ORDER:
        back = holdings.returning[kind]
        coming = f"\u00a0+{back}↺" if back else ""
        parts.append(
            f"{CREATURE_MARK[kind]}\u00a0{holdings.reserve[kind]}·{holdings.on_board[kind]}{coming}"
        )
    return "   ".join(parts)


def board_options(boards: Sequence[Board], words: Language = ENGLISH) -> list[ft.DropdownOption]:
    """Boards to pick from: the full name in the list, the short one in the field."""
    # 'Duel Isle (companion layout, 2 players)' would be cut off in a 360 px phone's field.
    # A shipped board's names in the language, without an article; a user's as typed.
    return [
        ft.DropdownOption(
            key=board.id,
            text=words.value(board_term(board, short=True), "Nu"),
            content=ft.Text(words.value(board_term(board), "Nu")),
        )
        for board in boards
    ]


def big_button(
    text: str,
    on_click: ft.ControlEventHandler[Any] | None,
    *,
    icon: ft.IconData | None = None,
    primary: bool = True,
    disabled: bool = False,
    tooltip: str | None = None,
    action: ft.ClientAction | None = None,
) -> ft.Button | ft.OutlinedButton:
    """A full-size button, at least one tap target tall; `action` runs on the client first.

    Its height follows its words (padding around one line makes it a tap target): a label
    that wraps, such as a long name in French, grows the button instead of being cut.
    """
    style = ft.ButtonStyle(
        padding=ft.Padding.symmetric(horizontal=18, vertical=16),
        # A button's text style replaces the theme's rather than adding to it: name the font.
        text_style=ft.TextStyle(size=16, weight=ft.FontWeight.W_600, font_family=FONT),
    )
    maker = ft.FilledButton if primary else ft.OutlinedButton
    return maker(
        content=text,
        icon=icon,
        on_click=on_click,
        style=style,
        disabled=disabled,
        tooltip=tooltip,
        action=action,
    )


def screen(route: str, *, spacing: int = 10) -> ft.View:
    """An empty scrolling screen whose cards and buttons span its width."""
    return ft.View(
        route=route,
        scroll=ft.ScrollMode.AUTO,
        padding=PADDING,
        spacing=spacing,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
    )


def section(title: str, *controls: ft.Control) -> ft.Control:
    """A titled card around a group of controls."""
    return ft.Card(
        content=ft.Container(
            padding=14,
            content=ft.Column(
                [ft.Text(title, size=13, weight=ft.FontWeight.BOLD, color=ACCENT_TEXT), *controls],
                spacing=10,
            ),
        )
    )


def notify(
    page: ft.Page, message: str, *, error: bool = False, beside: float = 0, bar: bool = False
) -> None:
    """Show a short message at the bottom of the screen; `beside` keeps it clear of that
    many pixels on the left (the isle of a phone on its side, which it must not cover), and
    `bar` above the screen's bottom bar (pinned totals: a floating message stays above it)."""
    floating = bool(beside) or bar
    page.show_dialog(
        ft.SnackBar(
            # The engine's and the store's sentences start in lower case, mid-sentence style.
            content=ft.Text(message[:1].upper() + message[1:], size=15, color="#FFFFFF"),
            bgcolor="#8B1E1E" if error else "#2A2A2A",
            duration=ft.Duration(seconds=4 if error else 2),
            show_close_icon=True,
            behavior=ft.SnackBarBehavior.FLOATING if floating else None,
            margin=ft.Margin.only(left=beside + 8, right=8, bottom=8) if floating else None,
        )
    )


class NamedPicker:
    """A dropdown a screen reader names by its question and tells the choice of (a Flet
    dropdown's label alone gives it no accessible name)."""

    def __init__(
        self,
        label: str,
        choices: Sequence[tuple[str, str]],
        value: str,
        identifier: str,
        on_pick: Callable[[], None] | None = None,
    ) -> None:
        self.texts = dict(choices)
        self.on_pick = on_pick
        self.dropdown = ft.Dropdown(
            label=label,
            value=value,
            options=[ft.DropdownOption(key=key, text=text) for key, text in choices],
            on_select=self.picked,
        )
        self.control = ft.Semantics(
            identifier=identifier,
            label=label,
            value=self.texts.get(value, ""),
            content=self.dropdown,
        )

    @property
    def value(self) -> str:
        """The key of the choice shown (a dropdown starts on one and cannot be cleared)."""
        value = self.dropdown.value
        assert value is not None, "a picker starts on a choice and cannot be cleared"
        return value

    def picked(self, _: ft.Event[ft.Dropdown]) -> None:
        """A choice was made: a screen reader tells it, and the form follows."""
        self.control.value = self.texts.get(self.value, "")
        if self.on_pick is not None:
            self.on_pick()
