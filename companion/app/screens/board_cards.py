"""The digital board's cards: the step guide, the domination choice, the Energy and Reset
just run (play waits for Continue), the last tally, the bar.

Each is drawn from the engine's query surface (`GameState.decision`, `domination_preview`,
the tally) and the turn controller (a computer thinking, the command it is about to play,
an Energy and Reset waiting to be read).
"""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from companion.app.board_guide import PHASE_NAMES, step_guide, territory_of
from companion.app.game_panels import tally_lines
from companion.app.screens.new_game import SEAT_PLAYERS
from companion.app.session import GameSession
from companion.app.theme import ACCENT_TEXT
from companion.app.turns import UNATTENDED_RESET_S, Turns, bot_seats
from companion.app.widgets import big_button, player_chip, section
from companion.engine import Phase, Tally
from models.commands import Command, Dominate, EndActivation, Pass
from models.rules import KIND_ORDER

# The height of the bar of buttons pinned to the bottom of the screen.
BOTTOM_BAR = 72


class BoardCards:
    """The cards beside the isle, and the bar of buttons that end a turn or an activation."""

    def __init__(
        self,
        session: GameSession,
        turns: Turns,
        record: Callable[[Command], object],
        go_on: Callable[[], None],
        go: Callable[[str], None],
    ) -> None:
        self.session = session
        self.turns = turns
        self.record = record
        self.go = go
        self.bot_names = bot_seats(session.saved.setup)
        self.end_button = big_button("End activation", lambda _: record(EndActivation()))
        self.done_button = big_button("Done", lambda _: record(Pass()), primary=False)
        self.continue_button = big_button(
            "Continue", lambda _: go_on(), icon=ft.Icons.ARROW_FORWARD
        )
        self.bar = ft.BottomAppBar(
            height=BOTTOM_BAR,
            padding=ft.Padding.symmetric(horizontal=12, vertical=10),
            content=ft.Row(
                [self.end_button, self.done_button, self.continue_button],
                spacing=8,
                alignment=ft.MainAxisAlignment.CENTER,
            ),
        )

    def turn_card(self) -> ft.Control:
        """The step guide: whose turn, phase and step, what to do, and the domination choice."""
        state = self.session.state
        turn = state.decision()
        if turn is None:
            parts: list[ft.Control] = [
                ft.Text("The game is over.", size=18, weight=ft.FontWeight.BOLD),
                big_button(
                    "See the result",
                    lambda _: self.go(f"/game/{self.session.id}/end"),
                    icon=ft.Icons.EMOJI_EVENTS,
                ),
            ]
        else:
            parts = [self.whose_turn(turn.player)]
            if self.turns.bot_to_move() is not None:
                parts.append(self.bot_part(turn.player))
            else:
                parts.append(ft.Text(step_guide(state), size=15))
                if turn.territory is not None:
                    parts.append(self.domination_part(turn.territory, turn.bonuses_left))
        if self.session.saved.log:
            parts.append(
                ft.Text(
                    f"Last: {self.session.saved.log[-1].description}",
                    size=13,
                    color=ft.Colors.ON_SURFACE_VARIANT,
                )
            )
        return ft.Semantics(
            identifier="turn-card",
            content=ft.Card(content=ft.Container(padding=12, content=ft.Column(parts, spacing=8))),
        )

    def whose_turn(self, player: str) -> ft.Control:
        """The current player's counter and name, large, over the phase and step."""
        name = self.session.label(player)
        bot = self.bot_names.get(player)
        heading = f"{name}'s turn" + (f" · {dict(SEAT_PLAYERS).get(bot, bot)}" if bot else "")
        return ft.Row(
            [
                player_chip(name, self.session.colour(player), size=40),
                ft.Column(
                    [
                        ft.Text(heading, size=20, weight=ft.FontWeight.BOLD),
                        self.step_line(),
                    ],
                    spacing=2,
                    expand=True,
                ),
            ],
            spacing=12,
        )

    def step_line(self) -> ft.Control:
        """The phase, and the kinds of its steps with the current one picked out."""
        state = self.session.state
        spans = [ft.TextSpan(PHASE_NAMES.get(state.phase, ""))]
        if state.step_kind is not None:
            spans.append(ft.TextSpan(": "))
            for kind in KIND_ORDER:
                current = kind is state.step_kind
                spans.append(
                    ft.TextSpan(
                        kind.plural,
                        ft.TextStyle(
                            weight=ft.FontWeight.BOLD if current else None,
                            color=ACCENT_TEXT if current else ft.Colors.ON_SURFACE_VARIANT,
                        ),
                    )
                )
                if kind is not KIND_ORDER[-1]:
                    spans.append(
                        ft.TextSpan(" → ", ft.TextStyle(color=ft.Colors.ON_SURFACE_VARIANT))
                    )
        return ft.Text(spans=spans, size=15)

    def bot_part(self, player: str) -> ft.Control:
        """What the computer opponent is doing: thinking, or the command about to be played."""
        name = self.session.label(player)
        if self.turns.showing is None:
            return ft.Row(
                [ft.ProgressRing(width=22, height=22), ft.Text(f"{name} is thinking…", size=16)],
                spacing=10,
            )
        command = self.turns.showing[1]
        return ft.Text(self.session.state.describe(command), size=16, weight=ft.FontWeight.BOLD)

    def bottom_bar(self) -> ft.BottomAppBar:
        """End activation and Done, pinned at the bottom: one tap away however far one scrolls.

        The bar and its buttons are made once and changed in place: a button that stays the
        same control keeps taking taps while the screen around it is redrawn.
        """
        bar = self.bar
        state = self.session.state
        waiting = self.turns.reset_waiting() is not None and state.last_tally is not None
        self.continue_button.visible = waiting
        if waiting:
            self.end_button.visible = self.done_button.visible = False
            round_ = state.last_tally.round if state.last_tally else None
            self.continue_button.content = (
                "See the result" if state.is_terminal else f"Continue to round {state.round}"
            )
            self.continue_button.tooltip = f"Energy and Reset of round {round_} read"
            bar.visible = True
            return bar
        turn = state.decision()
        if turn is None or not self.turns.human_to_move() or turn.kind is None:
            bar.visible = False
            return bar
        # Compared by type: commands without fields are all equal to the empty tuple.
        self.end_button.visible = any(type(c) is EndActivation for c in turn.commands)
        self.done_button.visible = any(type(c) is Pass for c in turn.commands)
        doing = "summoning" if turn.phase is Phase.SUMMONING else "with"
        self.done_button.content = f"Done {doing} {turn.kind.plural}"
        bar.visible = True
        return bar

    def domination_part(self, territory_id: str, bonuses_left: int) -> ft.Control:
        """Take or decline a territory's bonus, each with the engine's tally it would lead to."""
        state = self.session.state
        player = state.current_player
        assert player is not None, "a domination choice is someone's"
        name = self.session.label(player)
        territory = territory_of(state, territory_id)
        options: list[ft.Control] = []
        for take, label in ((True, f"Take +{territory.bonus}"), (False, "Decline")):
            tally = state.domination_preview(take)
            line = tally.player(player)
            outcome = (
                tally.winner_note
                if tally.game_over
                else "Next round's order: "
                + " → ".join(self.session.label(p) for p in tally.turn_order)
            )
            command = Dominate(territory_id, take)
            options.append(
                ft.Container(
                    padding=10,
                    border_radius=10,
                    bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
                    col={"sm": 6},
                    content=ft.Column(
                        [
                            big_button(label, lambda _, c=command: self.record(c), primary=take),
                            ft.Text(
                                f"{name}: {line.before} → {line.after}",
                                size=18,
                                weight=ft.FontWeight.BOLD,
                            ),
                            ft.Text(line.explain(name), size=13),
                            ft.Text(outcome, size=13),
                        ],
                        spacing=6,
                    ),
                )
            )
        parts: list[ft.Control] = [ft.ResponsiveRow(options, spacing=8, run_spacing=8)]
        if bonuses_left > 1:
            parts.append(
                ft.Text(
                    "Each preview counts the bonuses still to be decided after this one as taken.",
                    size=12,
                    color=ft.Colors.ON_SURFACE_VARIANT,
                )
            )
        return ft.Column(parts, spacing=6)

    def tally_card(self, tally: Tally) -> ft.Control:
        """The last Energy and Reset as the engine computed it, each number explained."""
        lines = tally_lines(self.session, tally)
        order = " → ".join(self.session.label(p) for p in tally.turn_order)
        lines.append(ft.Text(f"This round's order: {order}", size=15, weight=ft.FontWeight.BOLD))
        lines.extend(ft.Text(note, size=13) for note in tally.order_notes)
        return ft.Semantics(
            identifier="last-tally",
            content=section(f"Energy and Reset of round {tally.round}", *lines),
        )

    def reset_card(self, tally: Tally) -> ft.Control:
        """The Energy and Reset just run, in place of the step guide until someone goes on."""
        lines: list[ft.Control] = [
            ft.Text(f"Energy and Reset of round {tally.round}", size=20, weight=ft.FontWeight.BOLD)
        ]
        lines.extend(tally_lines(self.session, tally))
        if tally.game_over:
            lines.append(ft.Text(tally.winner_note, size=16, weight=ft.FontWeight.BOLD))
        else:
            order = " → ".join(self.session.label(p) for p in tally.turn_order)
            lines.append(
                ft.Text(f"Next round's order: {order}", size=16, weight=ft.FontWeight.BOLD)
            )
            lines.extend(ft.Text(note, size=14) for note in tally.order_notes)
        if self.turns.unattended:
            hint = (
                f"Only computers play this game: it goes on by itself in "
                f"{UNATTENDED_RESET_S:.0f} seconds, or tap Continue."
            )
        else:
            hint = "Play goes on when you tap Continue (at the bottom)."
        lines.append(ft.Text(hint, size=13, color=ft.Colors.ON_SURFACE_VARIANT))
        return ft.Semantics(
            identifier="reset-card",
            content=ft.Card(content=ft.Container(padding=12, content=ft.Column(lines, spacing=8))),
        )
