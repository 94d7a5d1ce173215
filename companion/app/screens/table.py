"""The table screen: energy track, turn order, round rune, reserves, and one tap per event."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import flet as ft

from companion.app.session import GameSession, Outcome
from companion.app.theme import ACCENT, TAP
from companion.app.widgets import (
    WIDE,
    EnergyTrack,
    big_button,
    notify,
    player_chip,
    reserve_line,
    screen,
    section,
)
from companion.engine import Phase
from companion.engine.dice import attack_odds
from models.commands import Correction, Pass, Removal, Summon, Swap
from models.rules import CREATURES, KIND_ORDER, MAX_TRACK_ENERGY, WYRM_SWAP_COST, CreatureKind

if TYPE_CHECKING:
    from companion.app.main import App

PHASES = ((Phase.SUMMONING, "Summon"), (Phase.ACTIONS, "Act"), (Phase.ENERGY_AND_RESET, "Reset"))
DIE_FACES = "⚀⚁⚂⚃⚄⚅"


def build(app: App, game_id: str) -> ft.View:
    """The table screen for one saved game."""
    session = GameSession(app.store, game_id)
    view = screen(f"/game/{game_id}", spacing=10)
    TableScreen(app, session, view).render()
    return view


class TableScreen:
    """Draws the game and records what the table does, re-drawing after each tap."""

    def __init__(self, app: App, session: GameSession, view: ft.View) -> None:
        self.app = app
        self.session = session
        self.view = view
        self.die = ft.Text("", size=40)
        # The track and the tools are built once and changed in place, so a tap sends the
        # client only what changed.
        self.track = EnergyTrack(())
        self.turn_and_players = ft.Column(col={"md": 6})
        # One column on a phone; two side by side on a tablet or desktop.
        view.data = WIDE
        view.controls = [
            ft.ResponsiveRow(
                [
                    self.turn_and_players,
                    ft.Column(
                        [section("Energy", self.track.control), self.tools_card()], col={"md": 6}
                    ),
                ]
            )
        ]

    # --- actions --------------------------------------------------------------------------

    def record(self, command: object) -> None:
        """Send a command through the store; show the sentence or the reason it was refused."""
        outcome = self.session.do(command)
        self.after(outcome)

    def after(self, outcome: Outcome) -> None:
        """Re-draw and tell the player what happened."""
        if outcome.ok and self.session.state.is_terminal:
            self.app.go(f"/game/{self.session.id}/end")
            return
        self.render()
        notify(self.app.page, outcome.message, error=not outcome.ok)
        self.app.page.update()

    def undo(self, _: ft.ControlEvent) -> None:
        """Take back the newest record."""
        self.after(self.session.undo())

    def redo(self, _: ft.ControlEvent) -> None:
        """Bring back the newest undone record."""
        self.after(self.session.redo())

    # --- drawing --------------------------------------------------------------------------

    def render(self) -> None:
        """Rebuild the screen from the saved game's state."""
        state = self.session.state
        saved = self.session.saved
        self.view.appbar = ft.AppBar(
            title=ft.Text(f"◈ Round {state.round}/{state.game.final_round}"),
            leading=ft.IconButton(
                ft.Icons.HOME, tooltip="Home", on_click=lambda _: self.app.go("/")
            ),
            actions=[
                ft.IconButton(
                    ft.Icons.UNDO,
                    tooltip=f"Undo: {saved.undo_label}" if saved.undo_label else "Nothing to undo",
                    disabled=saved.undo_label is None,
                    on_click=self.undo,
                ),
                ft.IconButton(
                    ft.Icons.REDO,
                    tooltip=f"Redo: {saved.redo_label}" if saved.redo_label else "Nothing to redo",
                    disabled=saved.redo_label is None,
                    on_click=self.redo,
                ),
                ft.IconButton(
                    ft.Icons.LIST_ALT,
                    tooltip="Game log",
                    on_click=lambda _: self.app.go(f"/game/{self.session.id}/log"),
                ),
            ],
        )
        self.turn_and_players.controls = [self.turn_card(), self.players_card()]
        self.track.show(self.counters())

    def counters(self) -> list[tuple[str, str, int]]:
        """(name, colour, energy) per player in turn order, for the track."""
        state = self.session.state
        return [
            (self.session.label(p), self.session.colour(p), state.energy_of(p))
            for p in self.order()
        ]

    def order(self) -> list[str]:
        """Player ids in this round's turn order."""
        state = self.session.state
        return [state.game.players[seat] for seat in state.turn_order]

    def turn_card(self) -> ft.Control:
        """Phase, step, whose turn and what they may do, with the buttons to do it."""
        state = self.session.state
        phases = ft.Row(
            [
                ft.Container(
                    expand=True,
                    padding=8,
                    border_radius=8,
                    alignment=ft.Alignment.CENTER,
                    bgcolor=ACCENT if state.phase is phase else ft.Colors.SURFACE_CONTAINER_HIGHEST,
                    content=ft.Text(
                        label,
                        size=15,
                        weight=ft.FontWeight.BOLD,
                        color="#1B1B1B" if state.phase is phase else None,
                    ),
                )
                for phase, label in PHASES
            ],
            spacing=6,
        )
        parts: list[ft.Control] = [phases]
        if state.step_kind is not None:
            parts.append(
                ft.Row(
                    [
                        ft.Text(
                            kind.plural,
                            size=15,
                            weight=ft.FontWeight.BOLD if kind is state.step_kind else None,
                            color=ACCENT
                            if kind is state.step_kind
                            else ft.Colors.ON_SURFACE_VARIANT,
                        )
                        for kind in KIND_ORDER
                    ],
                    alignment=ft.MainAxisAlignment.SPACE_AROUND,
                )
            )
        if state.phase is Phase.SUMMONING:
            parts.extend(self.summoning_part())
        elif state.phase is Phase.ACTIONS:
            parts.extend(self.actions_part())
        elif state.phase is Phase.ENERGY_AND_RESET:
            parts.extend(self.reset_part())
        else:
            parts.append(
                big_button(
                    "See the result",
                    lambda _: self.app.go(f"/game/{self.session.id}/end"),
                    icon=ft.Icons.EMOJI_EVENTS,
                )
            )
        return ft.Semantics(identifier="turn-card", content=section("This turn", *parts))

    def whose_turn(self) -> ft.Control:
        """The current player's counter and name, large."""
        player = self.session.state.current_player
        name = self.session.label(player)
        return ft.Row(
            [
                player_chip(name, self.session.colour(player), size=40),
                ft.Text(f"{name}'s turn", size=24, weight=ft.FontWeight.BOLD),
            ],
            spacing=12,
        )

    def summoning_part(self) -> list[ft.Control]:
        """Summon buttons for every kind (the step's kind first) and Done."""
        state = self.session.state
        kind = state.step_kind
        seat = state.current_seat
        stats = CREATURES[kind]
        left = state.reserve[seat][KIND_ORDER.index(kind)]
        guide = ft.Text(
            f"May summon {kind.plural} for {stats.cost} energy each "
            f"({left} in reserve, {state.energy[seat]} energy), then tap Done.",
            size=16,
        )
        buttons = [
            big_button(
                f"Summon {other.title} ({CREATURES[other].cost})",
                lambda _, k=other: self.record(Summon(k)),
                primary=other is kind,
            )
            for other in KIND_ORDER
        ]
        done = big_button(
            f"Done summoning {kind.plural}", lambda _: self.record(Pass()), primary=False
        )
        return [
            self.whose_turn(),
            guide,
            ft.Row(buttons, wrap=True, spacing=8, run_spacing=8),
            done,
        ]

    def actions_part(self) -> list[ft.Control]:
        """Removal and Wyrm swap records for the player acting now, and Done."""
        state = self.session.state
        kind = state.step_kind
        legal = state.legal_commands()
        removals = [c for c in legal if isinstance(c, Removal)]
        name = self.session.label(state.current_player)
        guide = ft.Text(
            f"{name}'s {kind.plural} act on the board. Record each rival creature they remove.",
            size=16,
        )
        row: list[ft.Control] = [
            big_button(
                "Record a removal",
                lambda _: self.removal_dialog(removals),
                icon=ft.Icons.GPS_FIXED,
                disabled=not removals,
            )
        ]
        if Swap() in legal:
            row.append(
                big_button(
                    f"Wyrm swap ({WYRM_SWAP_COST})",
                    lambda _: self.record(Swap()),
                    icon=ft.Icons.SWAP_HORIZ,
                    primary=False,
                )
            )
        done = big_button(f"Done with {kind.plural}", lambda _: self.record(Pass()), primary=False)
        return [self.whose_turn(), guide, ft.Row(row, wrap=True, spacing=8, run_spacing=8), done]

    def reset_part(self) -> list[ft.Control]:
        """The way into the Energy and Reset screen."""
        return [
            ft.Text(
                "Every creature has acted. Count who holds what in each territory and let the "
                "app do the Energy and Reset.",
                size=16,
            ),
            big_button(
                "Energy and Reset",
                lambda _: self.app.go(f"/game/{self.session.id}/reset"),
                icon=ft.Icons.AUTO_AWESOME,
            ),
        ]

    def removal_dialog(self, removals: list[Removal]) -> None:
        """Pick which rival creature was removed; only the engine's legal removals are offered."""
        page = self.app.page

        def choose(command: Removal) -> None:
            page.pop_dialog()
            self.record(command)

        options = [
            ft.FilledTonalButton(
                content=f"{self.session.label(c.victim)}'s {CreatureKind(c.kind).title} "
                f"(+{CREATURES[c.kind].bounty})",
                height=TAP,
                on_click=lambda _, c=c: choose(c),
            )
            for c in removals
        ]
        page.show_dialog(
            ft.AlertDialog(
                title=ft.Text("Which creature was removed?"),
                content=ft.Column(options, tight=True, spacing=8),
                actions=[ft.TextButton("Cancel", on_click=lambda _: page.pop_dialog())],
            )
        )

    def players_card(self) -> ft.Control:
        """Each player in turn order: energy and creatures (reserve · board, +back next round)."""
        state = self.session.state
        rows = []
        for position, player in enumerate(self.order(), start=1):
            seat = state.game.seat[player]
            name = self.session.label(player)
            current = player == state.current_player
            rows.append(
                ft.Container(
                    padding=8,
                    border_radius=8,
                    border=ft.Border.all(2, ACCENT) if current else None,
                    content=ft.Row(
                        [
                            ft.Text(f"{position}", size=16, width=18),
                            player_chip(name, self.session.colour(player), size=34),
                            ft.Column(
                                [
                                    ft.Text(name, size=17, weight=ft.FontWeight.BOLD),
                                    ft.Text(
                                        reserve_line(
                                            state.reserve[seat],
                                            state.on_board[seat],
                                            state.returning[seat],
                                        ),
                                        size=14,
                                    ),
                                ],
                                spacing=2,
                                expand=True,
                            ),
                            ft.Text(str(state.energy[seat]), size=30, weight=ft.FontWeight.BOLD),
                        ],
                        spacing=10,
                    ),
                )
            )
        key = ft.Text(
            "W/T/S: in reserve · on the board; ↺ back next round",
            size=12,
            color=ft.Colors.ON_SURFACE_VARIANT,
        )
        return section("Turn order", *rows, key)

    # --- table tools ----------------------------------------------------------------------

    def tools_card(self) -> ft.Control:
        """A d6, the attack odds helper and a correction by hand."""

        def roll(_: ft.ControlEvent) -> None:
            face = random.randint(1, 6)  # a die for the table, not the engine's
            self.die.value = f"{DIE_FACES[face - 1]} {face}"
            self.app.page.update()

        return section(
            "Table tools",
            ft.Row(
                [big_button("Roll a d6", roll, icon=ft.Icons.CASINO, primary=False), self.die],
                spacing=16,
            ),
            self.odds_helper(),
            ft.OutlinedButton(
                "Correct energy by hand", icon=ft.Icons.EDIT, on_click=self.correction_dialog
            ),
        )

    def odds_helper(self) -> ft.Control:
        """The chance that an attack succeeds, for any attacker and defender (from the engine)."""
        choice = {"attacker": CreatureKind.TROLL, "defender": CreatureKind.SPRITE, "support": 0}
        result = ft.Text(size=18, weight=ft.FontWeight.BOLD)

        def update(_: object = None) -> None:
            odds = attack_odds(choice["attacker"], choice["defender"], choice["support"])
            support.visible = choice["defender"] is CreatureKind.SPRITE
            result.value = f"{odds.numerator} in {odds.denominator} · {float(odds):.0%}"

        def picker(label: str, key: str) -> ft.Dropdown:
            return ft.Dropdown(
                label=label,
                value=choice[key].value,
                width=150,
                options=[ft.DropdownOption(key=k.value, text=k.title) for k in KIND_ORDER],
                on_select=lambda e: (
                    choice.__setitem__(key, CreatureKind(e.control.value)),
                    update(),
                    self.app.page.update(),
                ),
            )

        support = ft.Dropdown(
            label="Other Sprites of the defender's owner in the territory",
            value="0",
            options=[ft.DropdownOption(key=str(n)) for n in range(9)],
            on_select=lambda e: (
                choice.__setitem__("support", int(e.control.value)),
                update(),
                self.app.page.update(),
            ),
        )
        update()
        return ft.Column(
            [
                ft.Text("Attack odds", size=15, weight=ft.FontWeight.BOLD),
                ft.Row([picker("Attacker", "attacker"), picker("Defender", "defender")], wrap=True),
                support,
                result,
            ],
            spacing=8,
        )

    def correction_dialog(self, _: ft.ControlEvent) -> None:
        """Fix a player's energy by hand, with a reason that goes in the log."""
        page = self.app.page
        state = self.session.state
        players = list(state.game.players)
        who = ft.Dropdown(
            label="Player",
            value=players[0],
            options=[ft.DropdownOption(key=p, text=self.session.label(p)) for p in players],
        )
        amount = ft.TextField(label="Change (e.g. 2 or -3)", keyboard_type=ft.KeyboardType.NUMBER)
        reason = ft.TextField(label="Reason", max_length=200)

        def save(_: ft.ControlEvent) -> None:
            try:
                delta = int((amount.value or "").strip())
            except ValueError:
                amount.error = (
                    f"Write a whole number, e.g. 2 or -3 (energy stays 0-{MAX_TRACK_ENERGY})"
                )
                page.update()
                return
            page.pop_dialog()
            self.record(Correction(who.value, delta, (reason.value or "").strip()))

        page.show_dialog(
            ft.AlertDialog(
                title=ft.Text("Correct energy"),
                content=ft.Column([who, amount, reason], tight=True, spacing=10),
                actions=[
                    ft.TextButton("Cancel", on_click=lambda _: page.pop_dialog()),
                    ft.FilledButton("Save", on_click=save),
                ],
            )
        )
