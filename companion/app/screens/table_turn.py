"""The table screen's turn card: phase, step, whose turn, and the buttons for what they may do."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from companion.app.session import GameSession
from companion.app.theme import ACCENT, ACCENT_TEXT
from companion.app.widgets import big_button, player_chip, section
from companion.engine import GameState, Phase
from models.commands import Command, Pass, Removal, Summon, Swap
from models.rules import CREATURES, KIND_ORDER, WYRM_SWAP_COST

PHASES = ((Phase.SUMMONING, "Summon"), (Phase.ACTIONS, "Act"), (Phase.ENERGY_AND_RESET, "Reset"))
ON_ACCENT = "#1B1B1B"


class TurnCard:
    """Made once; `show` sets the texts and picks which of its buttons the state calls for."""

    def __init__(
        self,
        session: GameSession,
        record: Callable[[Command], None],
        go: Callable[[str], None],
        removal: Callable[[ft.ControlEvent], None],
    ) -> None:
        self.session = session
        self.record = record
        game = f"/game/{session.id}"
        self.phase_labels = [
            ft.Text(label, size=15, weight=ft.FontWeight.BOLD) for _, label in PHASES
        ]
        self.phase_boxes = [
            ft.Container(
                expand=True, padding=8, border_radius=8, alignment=ft.Alignment.CENTER, content=text
            )
            for text in self.phase_labels
        ]
        self.step_labels = [ft.Text(kind.plural, size=15) for kind in KIND_ORDER]
        self.steps = ft.Row(self.step_labels, alignment=ft.MainAxisAlignment.SPACE_AROUND)
        self.chips = {
            player: player_chip(session.label(player), session.colour(player), size=40)
            for player in session.state.game.players
        }
        self.chip_slot = ft.Container()
        # Takes the row's width, so a long name wraps instead of running off the card.
        self.turn_name = ft.Text(size=24, weight=ft.FontWeight.BOLD, expand=True)
        self.whose_turn = ft.Row([self.chip_slot, self.turn_name], spacing=12)
        self.guide = ft.Text(size=16)
        # Summoning: the step's kind is the filled button; both looks are kept per kind.
        self.summon = {
            (kind, primary): big_button(
                f"Summon {kind.title} ({CREATURES[kind].cost})",
                lambda _, k=kind: self.record(Summon(k)),
                primary=primary,
            )
            for kind in KIND_ORDER
            for primary in (True, False)
        }
        self.summon_row = ft.Row(wrap=True, spacing=8, run_spacing=8)
        self.done = big_button("", lambda _: self.record(Pass()), primary=False)
        self.removal = big_button("Record a removal", removal, icon=ft.Icons.GPS_FIXED)
        self.swap = big_button(
            f"Wyrm swap ({WYRM_SWAP_COST})",
            lambda _: self.record(Swap()),
            icon=ft.Icons.SWAP_HORIZ,
            primary=False,
        )
        self.acts_row = ft.Row([self.removal, self.swap], wrap=True, spacing=8, run_spacing=8)
        self.to_reset = big_button(
            "Energy and Reset", lambda _: go(f"{game}/reset"), icon=ft.Icons.AUTO_AWESOME
        )
        self.to_result = big_button(
            "See the result", lambda _: go(f"{game}/end"), icon=ft.Icons.EMOJI_EVENTS
        )
        self.parts = ft.Column(spacing=10)
        self.last = ft.Text(size=14, color=ft.Colors.ON_SURFACE_VARIANT)
        self.control = ft.Semantics(
            identifier="turn-card",
            content=section(
                "This turn", ft.Row(self.phase_boxes, spacing=6), self.parts, self.last
            ),
        )

    def show(self, state: GameState, last: str | None) -> None:
        """Show the phase, the step, what the player to act may record now, and the `last`
        record's sentence."""
        self.last.value = f"Last: {last}" if last else ""
        self.last.visible = bool(last)
        for (phase, _), box, text in zip(PHASES, self.phase_boxes, self.phase_labels, strict=True):
            now = state.phase is phase
            box.bgcolor = ACCENT if now else ft.Colors.SURFACE_CONTAINER_HIGHEST
            text.color = ON_ACCENT if now else None
        for kind, text in zip(KIND_ORDER, self.step_labels, strict=True):
            now = kind is state.step_kind
            text.weight = ft.FontWeight.BOLD if now else ft.FontWeight.NORMAL
            text.color = ACCENT_TEXT if now else ft.Colors.ON_SURFACE_VARIANT
        parts: list[ft.Control] = [self.steps] if state.step_kind is not None else []
        if state.phase is Phase.SUMMONING:
            parts.extend(self.summoning(state))
        elif state.phase is Phase.ACTIONS:
            parts.extend(self.actions(state))
        elif state.phase is Phase.ENERGY_AND_RESET:
            self.guide.value = (
                "Every creature has acted. Count who holds what in each territory and let the "
                "app do the Energy and Reset."
            )
            parts.extend([self.guide, self.to_reset])
        else:
            parts.append(self.to_result)
        self.parts.controls = parts

    def show_whose_turn(self, state: GameState) -> ft.Control:
        """The current player's counter and name, large."""
        player = state.current_player
        self.chip_slot.content = self.chips[player]
        self.turn_name.value = f"{self.session.label(player)}'s turn"
        return self.whose_turn

    def summoning(self, state: GameState) -> list[ft.Control]:
        """Summon buttons for every kind (the step's kind filled) and Done."""
        kind = state.step_kind
        seat = state.current_seat
        left = state.reserve[seat][KIND_ORDER.index(kind)]
        self.guide.value = (
            f"May summon {kind.plural} for {CREATURES[kind].cost} energy each "
            f"({left} in reserve, {state.energy[seat]} energy), then tap Done."
        )
        self.summon_row.controls = [self.summon[other, other is kind] for other in KIND_ORDER]
        self.done.content = f"Done summoning {kind.plural}"
        return [self.show_whose_turn(state), self.guide, self.summon_row, self.done]

    def actions(self, state: GameState) -> list[ft.Control]:
        """Removal and Wyrm swap records for the player acting now, and Done."""
        kind = state.step_kind
        legal = state.legal_commands()
        name = self.session.label(state.current_player)
        self.guide.value = (
            f"{name}'s {kind.plural} act on the board. Record each rival creature they remove."
        )
        self.removal.disabled = not any(isinstance(c, Removal) for c in legal)
        self.swap.visible = Swap() in legal
        self.done.content = f"Done with {kind.plural}"
        return [self.show_whose_turn(state), self.guide, self.acts_row, self.done]
