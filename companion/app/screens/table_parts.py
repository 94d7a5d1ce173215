"""The controls of the table turn card for one phase, made once and changed in place: the
undo line, the summon grid or the removal chips, the players' "done", the guide and the
reasons the step passes players over."""

from __future__ import annotations

from typing import TYPE_CHECKING

import flet as ft

from companion.app.screens.table_grid import Grid
from companion.app.sizes import TAP
from companion.app.widgets import big_button
from companion.engine import Phase
from companion.play.game_words import say
from companion.play.table_turn import Tap, TurnView

if TYPE_CHECKING:
    from companion.app.screens.table_turn import TurnCard


class Parts:
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
        self.grid = Grid(card_, view) if view.phase is Phase.SUMMONING else None
        self.chips = ft.Row(wrap=True, spacing=8, run_spacing=8)
        self.moves = ft.Row(wrap=True, spacing=8, run_spacing=8)
        # Which of the player's creatures the chips under it are for (their own phone).
        self.by = ft.Text(size=14, weight=ft.FontWeight.W_600)
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

    def whole_table(self, tap: Tap | None) -> list[ft.Control]:
        """A tap for everyone at once, set apart from the players' own buttons."""
        if tap is None:
            return []
        self.whole_line.controls = [self.whole_line.controls[0], self.card.whole_table_button(tap)]
        return [self.whole]

    def summoning(self, view: TurnView) -> list[ft.Control]:
        """The summon grid, the player's "done", what they may do, who the step passes over."""
        assert self.grid is not None, "a Summoning card's controls"
        self.grid.show(view)
        card = self.card
        done = [] if view.done is None else [card.button(view.done)]
        self.moves.controls = [*done, *(card.button(tap) for tap in view.own_done)]
        # The grid, then the player's "done": their places do not depend on the words under
        # them (the guide's length follows the names, the reasons come and go).
        return [
            self.grid.control,
            self.moves,
            *self.guide_line(view),
            *self.removals(view),
            *self.blocker_lines(view),
            *self.whole_table(view.whole_table),
        ]

    def actions(self, view: TurnView) -> list[ft.Control]:
        """What the acting player's creatures removed, a Wyrm swap, and moving on."""
        card = self.card
        done = [] if view.done is None else [card.button(view.done)]
        own = [card.button(tap) for tap in view.own_done]
        self.moves.controls = [*done, *own, *(card.button(j) for j in view.jumps)]
        # The player's "done" above their chips: it stays in one place however many rival
        # creatures there are to remove.
        return [
            *self.guide_line(view),
            self.moves,
            *self.removals(view),
            *self.blocker_lines(view),
            *self.whole_table(view.whole_table),
        ]

    def removals(self, view: TurnView) -> list[ft.Control]:
        """The rival creatures the player's creatures may have removed, and a Wyrm swap: on
        a player's own phone, those of one kind of their creatures at a time."""
        card = self.card
        shown = view.removals
        attackers = list(dict.fromkeys(chip.attacker for chip in shown))
        picker: list[ft.Control] = []
        if view.own_done and attackers:
            if card.attacker not in attackers:
                card.attacker = attackers[0]
            shown = tuple(chip for chip in shown if chip.attacker is card.attacker)
            self.by.value = card.words.render(shown[0].heading)
            picker = [self.by]
            if len(attackers) > 1:
                picker.append(ft.Row([card.pick(kind) for kind in attackers], wrap=True))
        chips = [card.removal_chip(chip) for chip in shown]
        if view.swap is not None:
            chips.append(card.button(view.swap, icon=ft.Icons.SWAP_HORIZ))
        # Kept in place, hidden, when there is none: its old chips stay reachable.
        self.chips.controls = chips
        self.chips.visible = bool(chips)
        return [*picker, self.chips]
