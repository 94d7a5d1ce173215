"""The table screen's turn card, drawn from the play layer's `TurnView`
(companion/play/table_turn.py decides what each control says and records).

Every button names the player it acts for, and is sent with that player, so a tap from a
screen another phone has moved on is refused, never applied to someone else.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import flet as ft

from companion.app.sizes import TAP
from companion.app.theme import ACCENT, ACCENT_TEXT, CREATURE_MARK, FONT
from companion.app.widgets import big_button, player_chip
from companion.engine import Phase
from companion.language import Message
from companion.language.render import Language
from companion.play.game_words import say
from companion.play.session import GameSession
from companion.play.table_turn import (
    GridRow,
    RemovalChip,
    SummonSquare,
    Tap,
    TurnView,
    turn_view,
)
from companion.play.tap_guard import TapGuard, Verdict
from models.commands import Command

ON_ACCENT = "#1B1B1B"
CELL_WIDTH = 60
HEAD_HEIGHT = 36

# record(commands, by, revision): what a tap says, for the player and the game's revision
# the screen showed when it was drawn.
Record = Callable[[Sequence[Command], str | None, int], None]


class TurnCard:
    """Redrawn whole for every state, with the drawing before kept mounted and hidden.

    Every handler is bound to the player and the revision its drawing showed. A tap made on
    the phone before a newer drawing reached it still arrives at its own (hidden) button, so
    the store refuses it as made for an older moment of the game instead of dropping it or
    applying it to whoever's turn it is now.
    """

    def __init__(
        self,
        session: GameSession,
        record: Record,
        go: Callable[[str], None],
        undo: Callable[[int], None],
        words: Language,
        guard: TapGuard,
        changed: Callable[[], None],
    ) -> None:
        # The device's language, read as the screen is built: a switch builds it again.
        self.words = words
        self.session = session
        self.record = record
        self.go = go
        self.undo = undo
        # One tap, one record (issue 20): asked before any tap of the card is sent.
        self.guard = guard
        # Tells the person a tap came as the screen changed, and nothing was recorded.
        self.changed = changed
        self.where = ft.Text(size=20, weight=ft.FontWeight.BOLD)
        self.body = ft.Column(spacing=10)
        self.stale = ft.Column(visible=False)
        self.revision = -1
        # A phone turned sideways has a few hundred pixels of height: the guide gives way.
        self.compact = False
        self.control = ft.Semantics(
            identifier="turn-card",
            content=ft.Card(
                content=ft.Container(
                    padding=14,
                    content=ft.Column([self.where, self.body, self.stale], spacing=10),
                )
            ),
        )

    def show(self, undo: str | None) -> None:
        """Draw the card for the session's game as it is now; `undo` says what undo would
        take back."""
        card = turn_view(self.session)
        self.revision = card.revision
        words = self.words
        self.where.value = words.render(card.title)
        if card.phase is Phase.SUMMONING:
            body = self.summoning(card)
        elif card.phase is Phase.ACTIONS:
            body = self.actions(card)
        else:
            assert card.next_step is not None, "Energy and Reset or the result comes next"
            reset = card.phase is Phase.ENERGY_AND_RESET
            button = big_button(
                say(words, "game.phase.energy_and_reset" if reset else "game.board.see_result"),
                lambda _, to=card.next_step: self.go(to),
                icon=ft.Icons.AUTO_AWESOME if reset else ft.Icons.EMOJI_EVENTS,
            )
            lead = [ft.Text(say(words, "game.table.all_acted"), size=16)] if reset else []
            body = [*lead, button]
        # Right under the title, so what the last tap recorded is seen without scrolling; its
        # room is kept before anything is recorded, so nothing moves under a finger.
        body.insert(0, self.undo_row(undo))
        if card.not_mine is not None:
            said = words.render(card.not_mine)
            # Right under the grid or the chips, where the locked controls are.
            body.insert(
                min(2, len(body)),
                ft.Row(
                    [
                        ft.Icon(ft.Icons.LOCK, size=18, color=ft.Colors.ON_SURFACE_VARIANT),
                        ft.Text(said, size=14, color=ft.Colors.ON_SURFACE_VARIANT, expand=True),
                    ],
                    spacing=6,
                ),
            )
        self.stale.controls = self.body.controls
        self.body.controls = body

    def send(self, commands: Sequence[Command], by: str | None) -> Callable[[object], None]:
        """A click handler recording `commands` for `by`, bound to this drawing's revision."""
        revision = self.revision

        def tapped(_: object) -> None:
            verdict = self.guard.tap(current=revision == self.revision)
            if verdict is Verdict.SEND:
                self.record(commands, by, revision)
                self.guard.settled()
            elif verdict is Verdict.CHANGED:
                self.changed()

        return tapped

    def undo_row(self, undo: str | None) -> ft.Control:
        """What undo takes back, written out, beside its button: one tap target tall always."""
        revision = self.revision

        def tapped(_: object) -> None:
            verdict = self.guard.tap(current=revision == self.revision)
            if verdict is Verdict.SEND:
                self.undo(revision)
                self.guard.settled()
            elif verdict is Verdict.CHANGED:
                self.changed()

        said = undo if undo is not None else say(self.words, "game.table.nothing_yet")
        return ft.Container(
            height=TAP,
            content=ft.Row(
                [
                    ft.TextButton(
                        say(self.words, "game.table.undo"),
                        icon=ft.Icons.UNDO,
                        tooltip=None
                        if undo is None
                        else say(self.words, "game.bar.undo", what=undo),
                        on_click=tapped,
                        disabled=undo is None,
                        height=TAP,
                        style=ft.ButtonStyle(padding=12),
                    ),
                    ft.Text(
                        said,
                        size=13,
                        color=ft.Colors.ON_SURFACE_VARIANT,
                        expand=True,
                        max_lines=2,
                        overflow=ft.TextOverflow.ELLIPSIS,
                    ),
                ],
                spacing=4,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            ),
        )

    def summoning(self, card: TurnView) -> list[ft.Control]:
        """The summon grid, the player's "done", what they may do, who the step passes over."""
        assert card.done is not None and card.whole_table is not None, "a Summoning card"
        guide = [] if self.compact or card.guide is None else [self.text(card.guide, 15)]
        # The grid, then the player's "done": their places do not depend on the words under
        # them (the guide's length follows the names, the reasons come and go).
        return [
            self.summon_grid(card),
            self.button(card.done),
            *guide,
            *self.blocker_lines(card),
            self.whole_table(card.whole_table),
        ]

    def text(self, said: Message, size: int) -> ft.Text:
        """A line of the card in this device's language."""
        return ft.Text(self.words.render(said), size=size)

    def button(self, tap: Tap, *, icon: ft.IconData | None = None) -> ft.Control:
        """A player's button: drawn as not this device's when it may not record it."""
        refused = tap.refused is not None
        return big_button(
            self.words.render(tap.label),
            None if refused else self.send(tap.commands, tap.by),
            icon=icon,
            primary=False,
            disabled=refused,
        )

    def whole_table(self, tap: Tap) -> ft.Control:
        """A tap for everyone at once, set apart from the players' own buttons."""
        return ft.Column(
            [
                ft.Divider(height=1),
                ft.Row(
                    [
                        ft.Text(say(self.words, "game.table.whole_table"), size=13, expand=True),
                        ft.TextButton(
                            self.words.render(tap.label),
                            icon=ft.Icons.FAST_FORWARD,
                            height=TAP,
                            disabled=tap.refused is not None,
                            on_click=self.send(tap.commands, tap.by),
                        ),
                    ],
                    vertical_alignment=ft.CrossAxisAlignment.CENTER,
                ),
            ],
            spacing=4,
        )

    def actions(self, card: TurnView) -> list[ft.Control]:
        """What the acting player's creatures removed, a Wyrm swap, and moving on."""
        assert card.done is not None and card.whole_table is not None, "an Actions card"
        parts: list[ft.Control] = []
        if not self.compact and card.guide is not None:
            parts.append(self.text(card.guide, 16))
        chips = [self.removal_chip(chip) for chip in card.removals]
        if card.swap is not None:
            chips.append(self.button(card.swap, icon=ft.Icons.SWAP_HORIZ))
        if chips:
            parts.append(ft.Row(chips, wrap=True, spacing=8, run_spacing=8))
        moves = [self.button(card.done), *(self.button(jump) for jump in card.jumps)]
        parts.append(ft.Row(moves, wrap=True, spacing=8, run_spacing=8))
        parts.extend(self.blocker_lines(card))
        parts.append(self.whole_table(card.whole_table))
        return parts

    def removal_chip(self, chip: RemovalChip) -> ft.Control:
        """One rival creature the acting player can have removed, with its bounty."""
        refused = chip.tap.refused is not None
        return ft.Semantics(
            label=self.words.render(chip.tap.label),
            button=True,
            container=True,
            disabled=refused,
            exclude_semantics=True,
            content=ft.FilledButton(
                disabled=refused,
                content=ft.Row(
                    [
                        player_chip(chip.victim_name, chip.victim_colour, size=24),
                        ft.Text(
                            self.words.render(chip.text),
                            size=15,
                            weight=ft.FontWeight.W_600,
                            font_family=FONT,
                        ),
                    ],
                    spacing=6,
                    tight=True,
                ),
                height=TAP + 4,
                on_click=None if refused else self.send(chip.tap.commands, chip.tap.by),
            ),
        )

    def blocker_lines(self, card: TurnView) -> list[ft.Control]:
        """A line for each player this step passes over, saying why."""
        return [
            ft.Text(self.words.render(line), size=14, color=ft.Colors.ON_SURFACE_VARIANT)
            for line in card.blockers
        ]

    def summon_grid(self, card: TurnView) -> ft.Control:
        """Players (rows, in turn order) by creature kinds (columns): a tap summons one."""
        heads = [
            # Two lines' room whatever the step: the grid stays put from step to step.
            ft.Container(
                width=CELL_WIDTH,
                height=HEAD_HEIGHT,
                alignment=ft.Alignment.BOTTOM_CENTER,
                content=ft.Text(
                    self.words.render(head.label),
                    size=13,
                    max_lines=2,
                    text_align=ft.TextAlign.CENTER,
                    weight=ft.FontWeight.BOLD if head.now else ft.FontWeight.NORMAL,
                    color=ACCENT_TEXT if head.now else ft.Colors.ON_SURFACE_VARIANT,
                ),
            )
            for head in card.heads
        ]
        rows: list[ft.Control] = [ft.Row([ft.Container(expand=True), *heads], spacing=4)]
        rows.extend(self.grid_row(row) for row in card.grid)
        return ft.Column(rows, spacing=6)

    def grid_row(self, row: GridRow) -> ft.Control:
        """A player's row: whose decision it is, their chip and name, their squares."""
        return ft.Row(
            [
                ft.Text("▶" if row.now else "", size=14, width=14, color=ACCENT_TEXT),
                player_chip(row.name, row.colour, size=28),
                ft.Container(
                    ft.Text(
                        row.name,
                        size=15,
                        max_lines=1,
                        overflow=ft.TextOverflow.ELLIPSIS,
                        weight=ft.FontWeight.BOLD if row.now else ft.FontWeight.NORMAL,
                    ),
                    expand=True,
                ),
                *(self.summon_cell(square) for square in row.squares),
            ],
            spacing=4,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )

    def summon_cell(self, square: SummonSquare) -> ft.Control:
        """One square: '+W' and how many are left, a dash when no tap can summon it now, and
        'W' faded with a lock when it is another device's to tap (a shared table)."""
        words = self.words
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
        tap = square.tap
        box = ft.Container(
            width=CELL_WIDTH,
            height=TAP + 4,
            border_radius=8,
            alignment=ft.Alignment.CENTER,
            bgcolor=fill,
            border=border,
            disabled=not possible,
            on_click=self.send(tap.commands, tap.by) if tap is not None and possible else None,
            content=ft.Column(
                [
                    ft.Text(
                        ("" if theirs else "+") + CREATURE_MARK[square.kind] if legal else "-",
                        size=18,
                        weight=ft.FontWeight.BOLD,
                        font_family=FONT,
                        color=ink if possible else ft.Colors.ON_SURFACE_VARIANT,
                    ),
                    ft.Text(
                        say(words, "game.table.left", count=square.left),
                        size=11,
                        color=ink if possible else ft.Colors.ON_SURFACE_VARIANT,
                    )
                    if not theirs
                    else ft.Icon(ft.Icons.LOCK, size=14, color=ft.Colors.ON_SURFACE_VARIANT),
                ],
                spacing=0,
                tight=True,
                horizontal_alignment=ft.CrossAxisAlignment.CENTER,
            ),
        )
        return ft.Semantics(
            label=words.render(square.label),
            button=True,
            container=True,
            disabled=not possible,
            exclude_semantics=True,
            content=box,
        )
