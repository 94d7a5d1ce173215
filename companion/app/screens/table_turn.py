"""The table screen's turn card, drawn from the play layer's `TurnView`
(companion/play/table_turn.py decides what each control says and records).

Every button names the player it acts for, and is sent with that player, so a tap from a
screen another phone has moved on is refused, never applied to someone else.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

import flet as ft

from companion.app.screens.table_parts import Parts
from companion.app.sizes import TAP
from companion.app.theme import FONT
from companion.app.widgets import big_button, player_chip
from companion.engine import Phase
from companion.engine.names import kinds_term
from companion.language.render import Language
from companion.play.game_words import say
from companion.play.session import GameSession, Moment
from companion.play.table_turn import (
    RemovalChip,
    SummonSquare,
    Tap,
    turn_view,
)
from companion.play.tap_guard import TapGuard, Verdict
from models.commands import Command
from models.rules import CreatureKind

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
        # One tap, one record: asked before any tap of the card is sent.
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
        self.parts: Parts | None = None
        self.targets: list[ft.Control] = []
        self.retired: list[ft.Control] = []
        # On a player's own phone, which of their creatures' removals the chips show (this
        # phone's choice, never recorded), and what undo said at the last drawing.
        self.attacker: CreatureKind | None = None
        self.undo_said: str | None = None
        self.undo_refused: str | None = None
        self.control = ft.Semantics(
            identifier="turn-card",
            content=ft.Card(
                content=ft.Container(
                    padding=14,
                    content=ft.Column([self.where, self.body, self.stale], spacing=10),
                )
            ),
        )

    def show(self, undo: str | None, undo_refused: str | None = None) -> None:
        """Draw the card for the session's game as it is now; `undo` says what undo would
        take back, `undo_refused` why this device may not."""
        card = turn_view(self.session)
        self.undo_said = undo
        self.undo_refused = undo_refused
        self.revision = card.revision
        self.moment = self.session.moment()
        self.where.value = self.words.render(card.title)
        previous, self.targets = self.targets, []
        parts = self.parts
        if parts is None or self.phase is not card.phase or not parts.fits(card):
            # A new phase has other controls: the whole drawing before is kept, hidden.
            stale = list(self.body.controls)
            parts = self.parts = Parts(self, card)
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

    def pick(self, kind: CreatureKind) -> ft.Control:
        """A button showing the removals of one kind of the player's creatures (this phone's
        choice: nothing is recorded), marked by a tick when shown."""
        shown = kind is self.attacker

        def picked(_: object) -> None:
            self.attacker = kind
            self.show(self.undo_said, self.undo_refused)
            self.control.update()

        text = say(self.words, "game.table.pick_attacker", kinds=kinds_term(kind))
        maker = ft.FilledButton if shown else ft.OutlinedButton
        return maker(
            content=text,
            icon=ft.Icons.CHECK if shown else None,
            height=TAP,
            on_click=None if shown else picked,
        )

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
                tooltip=self.undo_refused
                or (None if undo is None else say(self.words, "game.bar.undo", what=undo)),
                on_click=tapped,
                disabled=undo is None or self.undo_refused is not None,
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

        The square keeps it (`table_grid._Square.show`), not `target`: a tap on a square is
        often followed by another on the same spot, and a layer moved out of the square while
        the phone was still drawing would lose that second tap."""
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
