"""The digital board's bar of buttons that end a turn or an activation, and Continue after an
Energy and Reset: pinned to the bottom of the screen, or beside the isle on a phone on its
side. Made once and changed in place: a button that stays the same control keeps taking taps
while the screen around it is redrawn.
"""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from companion.app.theme import FONT
from companion.app.widgets import big_button
from companion.engine import Phase
from companion.engine.names import kinds_term
from companion.language.render import Language
from companion.play.board_frame import BOTTOM_BAR
from companion.play.game_words import say
from companion.play.session import GameSession
from companion.play.turns import Turns
from models.commands import Command, EndActivation, Pass

# The widest the bar's buttons grow: on a tablet a button the whole screen wide reads as a
# banner, not as something to tap.
BAR_MOST = 720
# The bar's words are set medium, in every theme: the app's font has no bold face, and the
# bold Flutter makes up squeezed 'Fin de l'activation' at 740x360.
BAR_WEIGHT = ft.FontWeight.W_500
BAR_MARGIN = 12


class BottomBar:
    """End activation, Done and Continue, in the bar at the bottom or beside the isle."""

    def __init__(
        self,
        session: GameSession,
        turns: Turns,
        record: Callable[[Command], object],
        go_on: Callable[[], None],
        go_on_label: Callable[[], str],
        words: Language,
    ) -> None:
        self.session = session
        self.turns = turns
        self.words = words
        self.go_on_label = go_on_label
        self.end_button = big_button(
            say(words, "game.board.end_activation"), lambda _: record(EndActivation())
        )
        self.done_button = big_button(
            say(words, "game.board.done"), lambda _: record(Pass()), primary=False
        )
        self.continue_button = big_button(
            say(words, "game.board.continue"), lambda _: go_on(), icon=ft.Icons.ARROW_FORWARD
        )
        for button in (self.end_button, self.done_button, self.continue_button):
            fit_bar(button)
        self.buttons = ft.Row(
            [self.end_button, self.done_button, self.continue_button],
            spacing=8,
            alignment=ft.MainAxisAlignment.CENTER,
        )
        self.bar = ft.BottomAppBar(height=BOTTOM_BAR, padding=bar_padding(0), content=self.buttons)
        # On a phone on its side the buttons stand under the turn card, beside the isle.
        self.slot = ft.Container(height=BOTTOM_BAR - 20, visible=False)

    def dock(self, sideways: bool) -> None:
        """Put the buttons in the bar at the screen's bottom, or (sideways) beside the isle."""
        if sideways:
            self.bar.content = None
            self.slot.content = self.buttons
        else:
            self.slot.content = None
            self.bar.content = self.buttons

    def fit_width(self, width: float) -> bool:
        """Keep the bar's buttons within BAR_MOST on a page `width` wide; whether that changed."""
        padding = bar_padding(width)
        changed = padding != self.bar.padding
        self.bar.padding = padding
        return changed

    def show(self) -> ft.BottomAppBar:
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
            round_ = (state.last_tally.round if state.last_tally else None) or state.round
            words = self.words
            self.continue_button.content = bar_text(self.go_on_label())
            self.continue_button.tooltip = say(words, "game.board.go_on_tip", round=round_)
            bar.visible = self.slot.visible = True
            return bar
        turn = state.decision()
        if turn is None or not self.turns.human_to_move() or turn.kind is None:
            bar.visible = self.slot.visible = False
            return bar
        # Compared by type: commands without fields are all equal to the empty tuple.
        self.end_button.visible = any(type(c) is EndActivation for c in turn.commands)
        self.done_button.visible = any(type(c) is Pass for c in turn.commands)
        done = (
            "game.board.done_summoning" if turn.phase is Phase.SUMMONING else "game.board.done_with"
        )
        self.done_button.content = bar_text(say(self.words, done, kinds=kinds_term(turn.kind)))
        bar.visible = self.slot.visible = True
        return bar


def bar_padding(width: float) -> ft.Padding:
    """The bar's margins on a page `width` wide: its buttons centred, at most BAR_MOST wide."""
    side = max(BAR_MARGIN, (width - BAR_MOST) / 2)
    return ft.Padding.symmetric(horizontal=side, vertical=10)


def fit_bar(button: ft.Button | ft.OutlinedButton) -> None:
    """A button of the bottom bar: the bar's width shared with the other one shown, and its
    words on two lines where they need it (French ones are longer), within the bar's height."""
    button.expand = True
    button.height = BOTTOM_BAR - 20
    button.style = ft.ButtonStyle(
        padding=ft.Padding.symmetric(horizontal=10, vertical=4),
        text_style=ft.TextStyle(size=15, weight=BAR_WEIGHT, font_family=FONT),
    )
    if isinstance(button.content, str):
        button.content = bar_text(button.content)


def bar_text(text: str) -> ft.Text:
    """A bar button's words: centred, two lines at most."""
    return ft.Text(text, max_lines=2, text_align=ft.TextAlign.CENTER, size=15, weight=BAR_WEIGHT)
