"""A compact strip of every player in turn order with their energy, for the top of a phone.

On a 360 px phone the players' card is below the turn card; this strip keeps who goes when
and how much energy each has in view beside it. The player to decide is marked with ▶ and a
ring, not by colour alone.
"""

from __future__ import annotations

import flet as ft

from companion.app.theme import ACCENT
from companion.app.widgets import player_chip
from companion.engine import GameState
from companion.language import Message
from companion.language.render import Language
from companion.play.language_setting import ENGLISH
from companion.play.session import GameSession


class _Slot:
    """One player's place in the strip: position, counter, energy and name."""

    def __init__(self, name: str, colour: str) -> None:
        self.name = name
        self.position = ft.Text(size=13, weight=ft.FontWeight.BOLD)
        self.energy = ft.Text(size=20, weight=ft.FontWeight.BOLD)
        self.label = ft.Text(
            name, size=12, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS, no_wrap=True
        )
        self.box = ft.Container(
            expand=True,
            padding=ft.Padding.symmetric(horizontal=4, vertical=4),
            border_radius=8,
            content=ft.Column(
                [
                    ft.Row(
                        [self.position, player_chip(name, colour, size=24), self.energy],
                        spacing=4,
                        alignment=ft.MainAxisAlignment.CENTER,
                    ),
                    self.label,
                ],
                spacing=0,
                horizontal_alignment=ft.CrossAxisAlignment.CENTER,
            ),
        )
        self.control = ft.Semantics(container=True, expand=True, content=self.box)


class OrderStrip:
    """Every player in this round's order, with energy; made once, changed in place."""

    def __init__(self, session: GameSession, words: Language | None = None) -> None:
        self.words = words or ENGLISH
        self.slots = {
            player: _Slot(session.label(player), session.colour(player))
            for player in session.state.game.players
        }
        self.row = ft.Row(spacing=4)
        self.control = ft.Semantics(identifier="order-strip", content=self.row)

    def show(self, state: GameState) -> None:
        """Order the slots by this round's turn order and fill in each energy."""
        order = state.order()
        for position, player in enumerate(order, start=1):
            slot = self.slots[player]
            now = player == state.current_player
            energy = state.energy_of(player)
            shown = self.words.number(position)
            slot.position.value = f"▶{shown}" if now else shown
            slot.energy.value = self.words.number(energy)
            slot.box.border = ft.Border.all(2, ACCENT if now else ft.Colors.OUTLINE_VARIANT)
            said = (
                Message("app.strip.deciding", position=position, player=slot.name, energy=energy)
                if now
                else Message("app.strip.slot", position=position, player=slot.name, energy=energy)
            )
            slot.control.label = self.words.render(said)
        self.row.controls = [self.slots[player].control for player in order]
