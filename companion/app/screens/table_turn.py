"""The table screen's turn card: where the round is, and one tap per thing the table does.

Summoning is a grid (players by creature kinds): a tap on "Bob: Troll" records Bob's
summon, after a skip over everyone before him who did not summon (the engine's `reach`).
The Actions phase asks the acting player what their creatures removed. Every button names
the player it acts for, and is sent with that player, so a tap from a screen another phone
has moved on is refused, never applied to someone else.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import flet as ft

from companion.app.session import GameSession
from companion.app.theme import ACCENT, ACCENT_TEXT, CREATURE_MARK, FONT, TAP
from companion.app.widgets import big_button, player_chip
from companion.engine import GameState, IllegalCommand, Phase
from models.commands import Command, Pass, Removal, Skip, Summon, Swap
from models.rules import CREATURES, KIND_ORDER, CreatureKind

PHASES = ((Phase.SUMMONING, "Summon"), (Phase.ACTIONS, "Act"), (Phase.ENERGY_AND_RESET, "Reset"))
ON_ACCENT = "#1B1B1B"
CELL_WIDTH = 64
NAME_WIDTH_MIN = 80

Record = Callable[[Sequence[Command], str | None], None]


class TurnCard:
    """Made once; `show` fills it in for a state."""

    def __init__(
        self,
        session: GameSession,
        record: Record,
        go: Callable[[str], None],
        undo: Callable[[ft.ControlEvent], None],
    ) -> None:
        self.session = session
        self.record = record
        game = f"/game/{session.id}"
        self.where = ft.Text(size=20, weight=ft.FontWeight.BOLD)
        self.progress = ft.Text(size=14, color=ft.Colors.ON_SURFACE_VARIANT)
        self.guide = ft.Text(size=16)
        self.notes = ft.Column(spacing=2)
        self.body = ft.Column(spacing=10)
        self.grid = SummonGrid(session, record)
        self.to_reset = big_button(
            "Energy and Reset", lambda _: go(f"{game}/reset"), icon=ft.Icons.AUTO_AWESOME
        )
        self.to_result = big_button(
            "See the result", lambda _: go(f"{game}/end"), icon=ft.Icons.EMOJI_EVENTS
        )
        self.last = ft.Text(size=14, color=ft.Colors.ON_SURFACE_VARIANT, expand=True)
        self.undo_button = ft.TextButton(
            "Undo", icon=ft.Icons.UNDO, on_click=undo, style=ft.ButtonStyle(padding=12)
        )
        self.undo_row = ft.Row(
            [self.undo_button, self.last],
            spacing=4,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )
        self.control = ft.Semantics(
            identifier="turn-card",
            content=ft.Card(
                content=ft.Container(
                    padding=14,
                    content=ft.Column(
                        [self.where, self.progress, self.body, self.undo_row], spacing=10
                    ),
                )
            ),
        )

    def show(self, state: GameState, undo: str | None) -> None:
        """Fill in the card; `undo` is the sentence of what undo would take back, or None."""
        self.undo_row.visible = undo is not None
        self.last.value = undo or ""
        self.undo_button.tooltip = f"Undo: {undo}" if undo else None
        self.progress.value = progress_line(state)
        kind = state.step_kind
        if state.phase is Phase.SUMMONING:
            self.where.value = f"Summoning · {kind.plural} step"
            self.body.controls = self.summoning(state)
        elif state.phase is Phase.ACTIONS:
            self.where.value = f"Actions · {kind.plural} step"
            self.body.controls = self.actions(state)
        elif state.phase is Phase.ENERGY_AND_RESET:
            self.where.value = "Energy and Reset"
            self.guide.value = (
                "Every creature has acted. Say where the creatures stand now and the app "
                "does the Energy and Reset."
            )
            self.body.controls = [self.guide, self.to_reset]
        else:
            self.where.value = "The game is over"
            self.body.controls = [self.to_result]

    def summoning(self, state: GameState) -> list[ft.Control]:
        """The summon grid, what the player to decide may do, and who the step passes over."""
        player = state.current_player
        name = self.session.label(player)
        kind = state.step_kind
        self.guide.value = (
            f"{name} decides: summon {kind.plural} ({CREATURES[kind].cost} energy each) or not. "
            "Tap a square when someone summons; whoever is before them in the order is done."
        )
        self.grid.show(state)
        buttons = [
            big_button(
                f"{name}: done with {kind.plural}",
                lambda _: self.record([Pass()], player),
                primary=False,
            ),
            big_button(
                "Nobody summons more",
                lambda _: self.record([Skip("summoning")], None),
                icon=ft.Icons.SKIP_NEXT,
                primary=False,
            ),
        ]
        self.notes.controls = self.blocker_lines(state)
        return [
            self.guide,
            self.grid.control,
            self.notes,
            ft.Row(buttons, wrap=True, spacing=8, run_spacing=8),
        ]

    def actions(self, state: GameState) -> list[ft.Control]:
        """What the acting player's creatures removed, a Wyrm swap, and moving on."""
        player = state.current_player
        name = self.session.label(player)
        kind = state.step_kind
        legal = state.legal_commands()
        removals = [c for c in legal if isinstance(c, Removal)]
        self.guide.value = (
            f"{name}'s {kind.plural} act on the board. Tap each rival creature they remove."
            if removals
            else f"{name}'s {kind.plural} act on the board; no rival creature is there to remove."
        )
        parts: list[ft.Control] = [self.guide]
        chips = [self.removal_chip(name, player, removal) for removal in removals]
        if Swap() in legal:
            chips.append(
                big_button(
                    f"{name}: Wyrm swap (-1)",
                    lambda _: self.record([Swap()], player),
                    icon=ft.Icons.SWAP_HORIZ,
                    primary=False,
                )
            )
        if chips:
            parts.append(ft.Row(chips, wrap=True, spacing=8, run_spacing=8))
        moves = [
            big_button(
                f"{name}: done with {kind.plural}",
                lambda _: self.record([Pass()], player),
                primary=False,
            )
        ]
        moves.extend(self.jumps(state, kind))
        moves.append(
            big_button(
                "Actions over",
                lambda _: self.record([Skip("actions")], None),
                icon=ft.Icons.SKIP_NEXT,
                primary=False,
                tooltip="Nobody does anything more this round: go to Energy and Reset",
            )
        )
        self.notes.controls = self.blocker_lines(state)
        parts.extend([self.notes, ft.Row(moves, wrap=True, spacing=8, run_spacing=8)])
        return parts

    def removal_chip(self, name: str, player: str, removal: Removal) -> ft.Control:
        """One rival creature the acting player can have removed, with its bounty."""
        victim = self.session.label(removal.victim)
        kind = CreatureKind(removal.kind)
        text = f"{victim}'s {kind.title} +{CREATURES[kind].bounty}"
        return ft.Semantics(
            label=f"{name} removed {victim}'s {kind.title}",
            button=True,
            container=True,
            exclude_semantics=True,
            content=ft.FilledButton(
                content=ft.Row(
                    [
                        player_chip(victim, self.session.colour(removal.victim), size=24),
                        ft.Text(text, size=15, weight=ft.FontWeight.W_600, font_family=FONT),
                    ],
                    spacing=6,
                    tight=True,
                ),
                height=TAP + 4,
                on_click=lambda _: self.record([removal], player),
            ),
        )

    def jumps(self, state: GameState, kind: CreatureKind) -> list[ft.Control]:
        """A button per later player in this step: everyone before them is done."""
        later = [
            p for p in (state.game.players[s] for s in state.turn_order) if state.blocker(p) is None
        ]
        later = later[later.index(state.current_player) + 1 :]
        return [
            big_button(
                f"To {self.session.label(p)}'s {kind.plural}",
                lambda _, p=p: self.record([Skip("actions", kind, p)], None),
                primary=False,
            )
            for p in later
        ]

    def blocker_lines(self, state: GameState) -> list[ft.Control]:
        """A line for each player this step passes over, saying why."""
        lines = []
        for seat in state.turn_order:
            reason = state.blocker(state.game.players[seat])
            if reason:
                lines.append(ft.Text(f"{reason}.", size=14, color=ft.Colors.ON_SURFACE_VARIANT))
        return lines


def progress_line(state: GameState) -> str:
    """The round's phases with the current one marked in words, not by colour."""
    parts = []
    for phase, label in PHASES:
        parts.append(f"▶ {label}" if state.phase is phase else label)
    return " > ".join(parts)


class SummonGrid:
    """Players (rows, in turn order) by creature kinds (columns): a tap summons one."""

    def __init__(self, session: GameSession, record: Record) -> None:
        self.session = session
        self.record = record
        self.heads = [
            ft.Text(
                f"{kind.title} {CREATURES[kind].cost}",
                size=13,
                width=CELL_WIDTH,
                text_align=ft.TextAlign.CENTER,
            )
            for kind in KIND_ORDER
        ]
        self.cells: dict[tuple[str, CreatureKind], SummonCell] = {}
        self.rows: dict[str, ft.Control] = {}
        self.names: dict[str, ft.Text] = {}
        for player in session.state.game.players:
            name = session.label(player)
            label = ft.Text(name, size=15, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS)
            self.names[player] = label
            cells = []
            for kind in KIND_ORDER:
                cell = SummonCell(name, kind, lambda p=player, k=kind: self.tapped(p, k))
                self.cells[player, kind] = cell
                cells.append(cell.control)
            self.rows[player] = ft.Row(
                [
                    player_chip(name, session.colour(player), size=30),
                    ft.Container(label, expand=True),
                    *cells,
                ],
                spacing=6,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            )
        self.column = ft.Column(spacing=6)
        self.control = self.column
        self.state: GameState | None = None

    def show(self, state: GameState) -> None:
        """Mark the step's column and what each player may still summon."""
        self.state = state
        for kind, head in zip(KIND_ORDER, self.heads, strict=True):
            now = kind is state.step_kind
            head.value = f"▶ {kind.plural}" if now else f"{kind.title} {CREATURES[kind].cost}"
            head.weight = ft.FontWeight.BOLD if now else ft.FontWeight.NORMAL
            head.color = ACCENT_TEXT if now else ft.Colors.ON_SURFACE_VARIANT
        order = [state.game.players[seat] for seat in state.turn_order]
        for player in order:
            now = player == state.current_player
            self.names[player].weight = ft.FontWeight.BOLD if now else ft.FontWeight.NORMAL
            self.names[player].value = ("▶ " if now else "") + self.session.label(player)
            for kind in KIND_ORDER:
                self.cells[player, kind].show(
                    left=state.reserve_of(player, kind),
                    possible=self.possible(state, player, kind),
                    current=now and kind is state.step_kind,
                )
        header = ft.Row(
            [ft.Container(expand=True), *self.heads],
            spacing=6,
        )
        self.column.controls = [header, *(self.rows[p] for p in order)]

    @staticmethod
    def possible(state: GameState, player: str, kind: CreatureKind) -> bool:
        """Whether a tap could record this summon now (the engine's say, on a copy)."""
        try:
            state.reach(Summon(kind, by=player))
        except IllegalCommand:
            return False
        return True

    def tapped(self, player: str, kind: CreatureKind) -> None:
        """Record the summon, after a skip to the player's turn when one is needed."""
        state = self.state
        try:
            commands = state.reach(Summon(kind, by=player))
        except IllegalCommand:
            # Let the engine's refusal, said by the screen, explain it.
            commands = [Summon(kind, by=player)]
        self.record(commands, player)


class SummonCell:
    """One square of the summon grid: '+W' and how many are left, or a dash when it cannot be."""

    def __init__(self, name: str, kind: CreatureKind, on_tap: Callable[[], None]) -> None:
        self.name = name
        self.kind = kind
        self.mark = ft.Text(size=18, weight=ft.FontWeight.BOLD, font_family=FONT)
        self.left = ft.Text(size=11)
        self.box = ft.Container(
            width=CELL_WIDTH,
            height=TAP + 4,
            border_radius=8,
            alignment=ft.Alignment.CENTER,
            on_click=lambda _: on_tap(),
            content=ft.Column(
                [self.mark, self.left],
                spacing=0,
                tight=True,
                horizontal_alignment=ft.CrossAxisAlignment.CENTER,
            ),
        )
        self.control = ft.Semantics(
            button=True, container=True, exclude_semantics=True, content=self.box
        )

    def show(self, *, left: int, possible: bool, current: bool) -> None:
        """How the square looks: filled for the decision now, outlined if a tap can do it."""
        kind = self.kind
        self.control.label = f"{self.name}: summon a {kind.title} ({left} left)"
        self.control.enabled = possible
        self.box.disabled = not possible
        self.mark.value = f"+{CREATURE_MARK[kind]}" if possible else "-"
        self.left.value = f"{left} left"
        if current and possible:
            self.box.bgcolor = ACCENT
            self.box.border = ft.Border.all(2, ACCENT)
            self.mark.color = self.left.color = ON_ACCENT
        elif possible:
            self.box.bgcolor = ft.Colors.SURFACE_CONTAINER_HIGHEST
            self.box.border = ft.Border.all(2, ft.Colors.OUTLINE)
            self.mark.color = self.left.color = None
        else:
            self.box.bgcolor = None
            self.box.border = ft.Border.all(1, ft.Colors.OUTLINE_VARIANT)
            self.mark.color = self.left.color = ft.Colors.ON_SURFACE_VARIANT
