"""The table screen's turn card, drawn from the play layer's `TurnView`
(companion/play/table_turn.py decides what each control says and records).

Every button names the player it acts for, and is sent with that player, so a tap from a
screen another phone has moved on is refused, never applied to someone else.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

import flet as ft

from companion.app.sizes import TAP
from companion.app.theme import ACCENT, ACCENT_TEXT, CREATURE_MARK, FONT
from companion.app.widgets import big_button, player_chip
from companion.engine import Phase
from companion.language.render import Language
from companion.play.game_words import say
from companion.play.session import GameSession, Moment
from companion.play.table_turn import (
    GridHead,
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

# record(commands, by, revision, moment, again): what a tap says, for the player, and the
# game's revision and moment the screen showed when it was drawn (again: `Tap.again`).
Record = Callable[[Sequence[Command], str | None, int, Moment, Command | None], None]

C = TypeVar("C", bound=ft.Control)


class TurnCard:
    """The card's words, colours and layout change in place; what records is made anew.

    A tap arrives at the server as the id of the control it landed on, and a control that
    persists cannot tell which drawing the phone showed when it was tapped. So every control
    that records (a button, a chip, a square's touch layer) is made for one revision, its
    handler bound to the player and that revision, and the ones it replaces stay mounted but
    hidden until the next drawing: a tap made on the phone before the newer drawing reached
    it still arrives at its own handler, and the store refuses it as made for an older moment
    of the game instead of dropping it or applying it to whoever's turn it is now. Everything
    else (titles, the grid's heads, rows and squares, the guide, the reasons) is made once per
    phase and only changed, so a tap sends each device a small patch.
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
        self.moment: Moment = ()
        # A phone turned sideways has a few hundred pixels of height: the guide gives way.
        self.compact = False
        # The phase whose controls are mounted, those controls, and this drawing's taps.
        self.phase: Phase | None = None
        self.parts: _Parts | None = None
        self.targets: list[ft.Control] = []
        self.retired: list[ft.Control] = []
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
        self.moment = self.session.moment()
        self.where.value = self.words.render(card.title)
        previous, self.targets = self.targets, []
        parts = self.parts
        if parts is None or self.phase is not card.phase or not parts.fits(card):
            # A new phase has other controls: the whole drawing before is kept, hidden.
            stale = list(self.body.controls)
            parts = self.parts = _Parts(self, card)
            self.phase = card.phase
        else:
            # Every control that recorded is replaced below: those of the drawing before.
            stale = previous
        self.retired = []
        body = parts.show(card, undo)
        self.body.controls = body
        self.stale.controls = [*stale, *self.retired]

    def retire(self, control: ft.Control) -> None:
        """A square's touch layer this drawing takes away: kept mounted, hidden, for a tap
        already on its way (its handler says what became of it)."""
        self.retired.append(control)

    def target(self, control: C) -> C:
        """A control that records, made for this drawing: kept until the next replaces it."""
        self.targets.append(control)
        return control

    def send(
        self, commands: Sequence[Command], by: str | None, again: Command | None = None
    ) -> Callable[[object], None]:
        """A click handler recording `commands` for `by`, bound to this drawing's revision."""
        revision, moment = self.revision, self.moment

        def tapped(_: object) -> None:
            verdict = self.guard.tap(current=revision == self.revision)
            if verdict is Verdict.SEND:
                self.record(commands, by, revision, moment, again)
                self.guard.settled()
            elif verdict is Verdict.CHANGED:
                self.changed()

        return tapped

    def undo_button(self, undo: str | None) -> ft.Control:
        """Undo, bound to this drawing's revision."""
        revision = self.revision

        def tapped(_: object) -> None:
            verdict = self.guard.tap(current=revision == self.revision)
            if verdict is Verdict.SEND:
                self.undo(revision)
                self.guard.settled()
            elif verdict is Verdict.CHANGED:
                self.changed()

        return self.target(
            ft.TextButton(
                say(self.words, "game.table.undo"),
                icon=ft.Icons.UNDO,
                tooltip=None if undo is None else say(self.words, "game.bar.undo", what=undo),
                on_click=tapped,
                disabled=undo is None,
                height=TAP,
                style=ft.ButtonStyle(padding=12),
            )
        )

    def button(self, tap: Tap, *, icon: ft.IconData | None = None) -> ft.Control:
        """A player's button: drawn as not this device's when it may not record it."""
        refused = tap.refused is not None
        return self.target(
            big_button(
                self.words.render(tap.label),
                None if refused else self.send(tap.commands, tap.by),
                icon=icon,
                primary=False,
                disabled=refused,
            )
        )

    def whole_table_button(self, tap: Tap) -> ft.Control:
        """A tap for everyone at once."""
        return self.target(
            ft.TextButton(
                self.words.render(tap.label),
                icon=ft.Icons.FAST_FORWARD,
                height=TAP,
                disabled=tap.refused is not None,
                on_click=self.send(tap.commands, tap.by),
            )
        )

    def removal_chip(self, chip: RemovalChip) -> ft.Control:
        """One rival creature the acting player can have removed, with its bounty."""
        refused = chip.tap.refused is not None
        return self.target(
            ft.Semantics(
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
        )

    def touch(self, square: SummonSquare) -> ft.Control | None:
        """The layer over a square that records its summon, when this device may tap it.

        The square keeps it (`_Square.show`), not `target`: a tap on a square is often followed
        by another on the same spot, and a layer moved out of the square while the phone was
        still drawing would lose that second tap."""
        tap = square.tap
        if tap is None or not square.open:
            return None
        return ft.Container(
            left=0,
            top=0,
            right=0,
            bottom=0,
            border_radius=8,
            bgcolor=ft.Colors.TRANSPARENT,
            on_click=self.send(tap.commands, tap.by, tap.again),
        )


class _Parts:
    """The controls of one phase's card, made once and changed in place."""

    def __init__(self, card_: TurnCard, view: TurnView) -> None:
        self.card = card_
        words = card_.words
        self.said = ft.Text(
            size=13,
            color=ft.Colors.ON_SURFACE_VARIANT,
            expand=True,
            max_lines=2,
            overflow=ft.TextOverflow.ELLIPSIS,
        )
        # What undo takes back, written out, beside its button: one tap target tall always.
        self.undo_line = ft.Row(
            [self.said], spacing=4, vertical_alignment=ft.CrossAxisAlignment.CENTER
        )
        self.undo_row = ft.Container(height=TAP, content=self.undo_line)
        self.not_mine = ft.Text(size=14, color=ft.Colors.ON_SURFACE_VARIANT, expand=True)
        self.lock = ft.Row(
            [ft.Icon(ft.Icons.LOCK, size=18, color=ft.Colors.ON_SURFACE_VARIANT), self.not_mine],
            spacing=6,
        )
        self.guide = ft.Text(size=15 if view.phase is Phase.SUMMONING else 16)
        self.blockers: list[ft.Text] = []
        self.whole_line = ft.Row(
            [ft.Text(say(words, "game.table.whole_table"), size=13, expand=True)],
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )
        self.whole = ft.Column([ft.Divider(height=1), self.whole_line], spacing=4)
        self.grid = _Grid(card_, view) if view.phase is Phase.SUMMONING else None
        self.chips = ft.Row(wrap=True, spacing=8, run_spacing=8)
        self.moves = ft.Row(wrap=True, spacing=8, run_spacing=8)
        self.ahead: list[ft.Control] = []
        if view.phase not in (Phase.SUMMONING, Phase.ACTIONS):
            assert view.next_step is not None, "Energy and Reset or the result comes next"
            reset = view.phase is Phase.ENERGY_AND_RESET
            button = big_button(
                say(words, "game.phase.energy_and_reset" if reset else "game.board.see_result"),
                lambda _, to=view.next_step: card_.go(to),
                icon=ft.Icons.AUTO_AWESOME if reset else ft.Icons.EMOJI_EVENTS,
            )
            lead = [ft.Text(say(words, "game.table.all_acted"), size=16)] if reset else []
            self.ahead = [*lead, button]

    def fits(self, view: TurnView) -> bool:
        """Whether these controls can show `view` (the grid keeps its rows and columns)."""
        return self.grid is None or self.grid.fits(view)

    def show(self, view: TurnView, undo: str | None) -> list[ft.Control]:
        """Set every control to `view`; the card's body, top to bottom."""
        card = self.card
        words = card.words
        self.undo_line.controls = [card.undo_button(undo), self.said]
        self.said.value = undo if undo is not None else say(words, "game.table.nothing_yet")
        if view.phase is Phase.SUMMONING:
            body = self.summoning(view)
        elif view.phase is Phase.ACTIONS:
            body = self.actions(view)
        else:
            body = list(self.ahead)
        # Right under the title, so what the last tap recorded is seen without scrolling; its
        # room is kept before anything is recorded, so nothing moves under a finger.
        body.insert(0, self.undo_row)
        if view.not_mine is not None:
            self.not_mine.value = words.render(view.not_mine)
            # Right under the grid or the chips, where the locked controls are.
            shown = [i for i, part in enumerate(body) if part.visible]
            at = shown[2] if len(shown) > 2 else len(body)
            body.insert(at, self.lock)
        return body

    def guide_line(self, view: TurnView) -> list[ft.Control]:
        """What the player to decide is asked, unless the screen is short of room."""
        if self.card.compact or view.guide is None:
            return []
        self.guide.value = self.card.words.render(view.guide)
        return [self.guide]

    def blocker_lines(self, view: TurnView) -> list[ft.Control]:
        """A line for each player this step passes over, saying why."""
        while len(self.blockers) < len(view.blockers):
            self.blockers.append(ft.Text(size=14, color=ft.Colors.ON_SURFACE_VARIANT))
        lines = self.blockers[: len(view.blockers)]
        for line, said in zip(lines, view.blockers, strict=True):
            line.value = self.card.words.render(said)
        return list(lines)

    def whole_table(self, tap: Tap) -> ft.Control:
        """A tap for everyone at once, set apart from the players' own buttons."""
        self.whole_line.controls = [self.whole_line.controls[0], self.card.whole_table_button(tap)]
        return self.whole

    def summoning(self, view: TurnView) -> list[ft.Control]:
        """The summon grid, the player's "done", what they may do, who the step passes over."""
        assert view.done is not None and view.whole_table is not None, "a Summoning card"
        assert self.grid is not None, "a Summoning card's controls"
        self.grid.show(view)
        # The grid, then the player's "done": their places do not depend on the words under
        # them (the guide's length follows the names, the reasons come and go).
        return [
            self.grid.control,
            self.card.button(view.done),
            *self.guide_line(view),
            *self.blocker_lines(view),
            self.whole_table(view.whole_table),
        ]

    def actions(self, view: TurnView) -> list[ft.Control]:
        """What the acting player's creatures removed, a Wyrm swap, and moving on."""
        assert view.done is not None and view.whole_table is not None, "an Actions card"
        card = self.card
        chips = [card.removal_chip(chip) for chip in view.removals]
        if view.swap is not None:
            chips.append(card.button(view.swap, icon=ft.Icons.SWAP_HORIZ))
        # Kept in place, hidden, when there is none: its old chips stay reachable.
        self.chips.controls = chips
        self.chips.visible = bool(chips)
        self.moves.controls = [card.button(view.done), *(card.button(j) for j in view.jumps)]
        return [
            *self.guide_line(view),
            self.chips,
            self.moves,
            *self.blocker_lines(view),
            self.whole_table(view.whole_table),
        ]


class _Grid:
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
