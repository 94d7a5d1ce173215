"""Panels the table screen and the digital board share, made once and changed in place.

A control that stays the same Python object is sent to the client as a few changed
values; a rebuilt one is sent whole. So these panels keep their controls and `show`
only sets what the new state changes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import flet as ft

from companion.app.session import GameSession
from companion.app.theme import ACCENT
from companion.app.widgets import player_chip, reserve_line, section
from companion.engine import GameState, Tally

NO_BORDER = ft.Border.all(2, ft.Colors.TRANSPARENT)
CURRENT_BORDER = ft.Border.all(2, ACCENT)


class GameBar:
    """The app bar of a game: home, the round rune, undo and redo saying what they do, the log."""

    def __init__(
        self,
        go: Callable[[str], None],
        game_id: str,
        undo: Callable[[ft.Event[Any]], object],
        redo: Callable[[ft.Event[Any]], object],
    ) -> None:
        # Home and three actions leave a 360 px phone about 150 px: 'Round 6/7' must fit.
        self.title = ft.Text(size=20)
        self.undo_button = ft.IconButton(ft.Icons.UNDO, on_click=undo)
        self.redo_button = ft.IconButton(ft.Icons.REDO, on_click=redo)
        self.control = ft.AppBar(
            title=self.title,
            title_spacing=4,
            leading=ft.IconButton(ft.Icons.HOME, tooltip="Home", on_click=lambda _: go("/")),
            actions=[
                self.undo_button,
                self.redo_button,
                ft.IconButton(
                    ft.Icons.LIST_ALT,
                    tooltip="Game log",
                    on_click=lambda _: go(f"/game/{game_id}/log"),
                ),
            ],
        )

    def show(self, state: GameState, undo: str | None, redo: str | None) -> None:
        """The round of `state`; `undo` and `redo` describe what the buttons would do, or None."""
        self.title.value = f"◈ Round {state.round}/{state.game.final_round}"
        self.undo_button.tooltip = f"Undo: {undo}" if undo else "Nothing to undo"
        self.undo_button.disabled = undo is None
        self.redo_button.tooltip = f"Redo: {redo}" if redo else "Nothing to redo"
        self.redo_button.disabled = redo is None


class _PlayerRow:
    """One player's line: place in the order, counter, name, creatures and energy."""

    def __init__(self, name: str, colour: str) -> None:
        self.position = ft.Text(size=16, width=18)
        self.creatures = ft.Text(size=14)
        self.energy = ft.Text(size=30, weight=ft.FontWeight.BOLD)
        self.control = ft.Container(
            padding=8,
            border_radius=8,
            border=NO_BORDER,
            content=ft.Row(
                [
                    self.position,
                    player_chip(name, colour, size=34),
                    ft.Column(
                        [ft.Text(name, size=17, weight=ft.FontWeight.BOLD), self.creatures],
                        spacing=2,
                        expand=True,
                    ),
                    self.energy,
                ],
                spacing=10,
            ),
        )


class PlayersCard:
    """Every player in this round's turn order: energy and creatures, the current one ringed."""

    def __init__(self, session: GameSession, notes: Mapping[str, str] | None = None) -> None:
        notes = notes or {}
        self.rows = {
            player: _PlayerRow(
                session.label(player) + notes.get(player, ""), session.colour(player)
            )
            for player in session.state.game.players
        }
        self.column = ft.Column(spacing=10)
        key = ft.Text(
            "W/T/S: in reserve · on the board; ↺ back next round",
            size=12,
            color=ft.Colors.ON_SURFACE_VARIANT,
        )
        self.control = section("Turn order", self.column, key)

    def show(self, state: GameState) -> None:
        """Put the rows in turn order and fill in each player's numbers."""
        order = state.order()
        for position, player in enumerate(order, start=1):
            mine = state.holdings(player)
            row = self.rows[player]
            row.position.value = str(position)
            row.creatures.value = reserve_line(mine)
            row.energy.value = str(mine.energy)
            row.control.border = CURRENT_BORDER if player == state.current_player else NO_BORDER
        self.column.controls = [self.rows[player].control for player in order]


def tally_lines(
    session: GameSession,
    tally: Tally,
    choice: Callable[[str, str, bool], None] | None = None,
) -> list[ft.Control]:
    """Each player's numbers and the engine's sentence for them; with `choice`, bonus switches.

    `choice(player, territory, take)` is called when a domination bonus is switched.
    """
    lines: list[ft.Control] = []
    for line in tally.players:
        name = session.label(line.player)
        lines.append(
            ft.Row(
                [
                    player_chip(name, session.colour(line.player)),
                    ft.Text(name, size=17, weight=ft.FontWeight.BOLD, expand=True),
                    ft.Text(f"{line.before} → {line.after}", size=22, weight=ft.FontWeight.BOLD),
                ]
            )
        )
        lines.append(ft.Text(line.explain(name), size=14))
        if choice is None:
            continue
        for held in line.dominated:
            lines.append(
                ft.Switch(
                    label=f"{name} takes {held.name} (+{held.bonus})",
                    value=held.taken,
                    on_change=lambda e, p=line.player, t=held.territory: choice(
                        p, t, e.control.value
                    ),
                )
            )
    return lines
