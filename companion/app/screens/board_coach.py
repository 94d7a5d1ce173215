"""The coach on the digital board: "What would the computer do?" and the
chance bars behind the device's switch.

What they show and when they ask is the play layer's (`play/board_hint.py`,
`play/board_chances.py`); the work runs in the server's coach worker
(`play/coach_work.py`) while the screen stays responsive. These cards only draw, and
are made once and changed in place, like the bottom bar.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.coach_panels import keep_switch, mounted, read_switch, shows_chances
from companion.app.sizes import TAP
from companion.app.theme import ACCENT_TEXT, colour_of
from companion.app.widgets import big_button, player_chip
from companion.coach import CoachError
from companion.engine import Game
from companion.language import Message
from companion.play.board_chances import Bar, BarsPanel, ChanceBars
from companion.play.board_hint import HintAsk, HintMarks, coach_hint
from companion.play.tap_guard import Verdict
from models.commands import Command, Pass

if TYPE_CHECKING:
    from companion.app.screens.board import BoardScreen

# A bar's height, and the room its player's chip takes.
BAR_HEIGHT = 10
CHIP = 32


class HintCard:
    """The control that asks the computer for the move of the person to decide, and the
    move's sentence under it (or that the computer is thinking)."""

    def __init__(self, screen: BoardScreen) -> None:
        self.screen = screen
        self.asked = HintAsk()
        words = screen.words
        self.button = big_button(
            words.render(Message("hint.ask")),
            self._tapped,
            icon=ft.Icons.LIGHTBULB_OUTLINE,
            primary=False,
        )
        self.button.expand = True
        self.ring = ft.ProgressRing(width=20, height=20, stroke_width=3, visible=False)
        self.said = ft.Text(size=15, expand=True)
        self.line = ft.Row([self.ring, self.said], spacing=10, visible=False)
        self.control = ft.Semantics(
            identifier="computer-hint",
            content=ft.Card(
                content=ft.Container(
                    padding=ft.Padding.symmetric(horizontal=12, vertical=10),
                    content=ft.Column([ft.Row([self.button]), self.line], spacing=8),
                )
            ),
        )

    def position(self) -> int:
        """The position shown: the saved game's revision (a record, an undo or another
        device's record moves it on)."""
        return self.screen.session.saved.revision

    def offered(self) -> bool:
        """Whether a person who may record here decides now (not during a replay)."""
        screen = self.screen
        turns = screen.turns
        player = screen.session.state.current_player
        if player is None or not turns.human_to_move() or turns.reset_waiting() is not None:
            return False
        if screen.replay is not None and screen.replay.running:
            return False
        return screen.session.tap_refusal([Pass(by=player)], player) is None

    def show(self) -> None:
        """Bring the card in step with the game: a hint for another position is gone."""
        position = self.position()
        self.asked.moved(position)
        panel = self.asked.panel(position, self.offered(), self.screen.session.saved.game.labels)
        words = self.screen.words
        self.control.visible = panel.offered
        self.button.content = words.render(panel.button)
        self.button.disabled = not panel.enabled
        self.ring.visible = panel.thinking
        self.line.visible = panel.said is not None
        self.said.value = "" if panel.said is None else words.render(panel.said)

    def marks(self) -> tuple[HintMarks, str] | None:
        """What the isle draws for the hint at the position shown, with its sentence."""
        hint = self.asked.shown(self.position())
        if hint is None or not self.offered():
            return None
        labels = self.screen.session.saved.game.labels
        return hint.marks, self.screen.words.render(hint.message(labels))

    def _tapped(self, _: ft.Event[Any]) -> None:
        # A double tap's second half would hide the hint its first half asked for.
        if not self.offered() or self.screen.guard.tap(current=False) is Verdict.DOUBLE:
            return
        position = self.position()
        if self.asked.ask(position):
            saved = self.screen.session.saved
            records = [entry.command for entry in saved.log]
            self.screen.app.page.run_task(self._work_out, position, saved.id, saved.game, records)
        self.screen.show(None)

    async def _work_out(
        self, position: int, game_id: str, game: Game, records: list[Command]
    ) -> None:
        """Have the coach's worker search, then draw the answer if the game is still there."""
        try:
            hint = await coach_hint(self.screen.app.service.coach, game_id, game, records)
        except Exception as error:  # a failing search is said, never a traceback
            kept = self.asked.failed(position, Message("hint.failed", error=str(error)))
        else:
            kept = self.asked.answered(position, hint)
        if kept and self.screen.on_screen():
            self.screen.show(None)


class BarsCard:
    """Each player's win chance now, as a bar with their name and the percent, behind the
    device's switch (the table's: off until turned on)."""

    def __init__(self, screen: BoardScreen) -> None:
        self.screen = screen
        app = screen.app
        words = screen.words
        self.bars = ChanceBars(bool(shows_chances(app)))
        if self.bars.on:
            app.service.coach.warm()
        self.switch = ft.Switch(
            label=words.render(Message("coachui.line.switch")),
            value=self.bars.on,
            on_change=self._switched,
        )
        self.ring = ft.ProgressRing(width=18, height=18, stroke_width=3, visible=False)
        self.note = ft.Text(size=13, color=ft.Colors.ON_SURFACE_VARIANT, expand=True)
        self.rows = ft.Column(spacing=8)
        # The panel drawn last: the bars are made again only when it changes.
        self.drawn: BarsPanel | None = None
        self.title = ft.Text(
            words.render(Message("hint.bars_title")),
            size=13,
            weight=ft.FontWeight.BOLD,
            color=ACCENT_TEXT,
        )
        self.control = ft.Semantics(
            identifier="chance-bars",
            content=ft.Card(
                content=ft.Container(
                    padding=ft.Padding.symmetric(horizontal=14, vertical=6),
                    content=ft.Column(
                        [
                            ft.Row([self.switch], height=TAP),
                            self.title,
                            ft.Row([self.ring, self.note], spacing=8),
                            self.rows,
                        ],
                        spacing=6,
                    ),
                )
            ),
        )
        if shows_chances(app) is None:
            app.page.run_task(self._read)

    async def _read(self) -> None:
        on = await read_switch(self.screen.app)
        if on and mounted(self.control):
            self.switch.value = True
            self.bars.switch(True)
            self.show()
            self.control.update()

    def _switched(self, _: ft.Event[Any]) -> None:
        on = bool(self.switch.value)
        keep_switch(self.screen.app, on)
        if on:
            self.screen.app.service.coach.warm()
        self.bars.switch(on)
        self.show()
        self.control.update()

    def show(self) -> None:
        """The bars for the game as it is now; their chances asked for if wanted."""
        screen = self.screen
        saved = screen.session.saved
        position = saved.revision
        if self.bars.want(position, resting=screen.turns.computers_resting()):
            records = [entry.command for entry in saved.log]
            screen.app.page.run_task(self._work_out, position, records)
        game = saved.game
        panel = self.bars.panel(position, game.players, game.labels)
        if panel == self.drawn:
            return
        self.drawn = panel
        words = screen.words
        self.title.visible = panel.on
        self.note.value = "" if panel.note is None else words.render(panel.note)
        self.note.visible = panel.note is not None
        self.ring.visible = (
            panel.on and panel.stale and panel.note == Message("coachui.line.computing")
        )
        self.rows.opacity = 0.55 if panel.stale else 1.0
        self.rows.controls = [self._bar(bar) for bar in panel.bars]

    def _bar(self, bar: Bar) -> ft.Control:
        """A player's chip, name and percent over a bar in their colour."""
        session = self.screen.session
        words = self.screen.words
        colour = session.colour(bar.player)
        return ft.Semantics(
            label=words.render(bar.label),
            exclude_semantics=True,
            content=ft.Row(
                [
                    player_chip(bar.name, colour, size=CHIP),
                    ft.Column(
                        [
                            ft.Row(
                                [
                                    ft.Text(bar.name, size=15, expand=True, max_lines=1),
                                    ft.Text(
                                        words.render(bar.percent),
                                        size=15,
                                        weight=ft.FontWeight.BOLD,
                                    ),
                                ]
                            ),
                            ft.ProgressBar(
                                value=bar.share,
                                bar_height=BAR_HEIGHT,
                                border_radius=BAR_HEIGHT / 2,
                                color=colour_of(colour).hex,
                                bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
                            ),
                        ],
                        spacing=2,
                        expand=True,
                    ),
                ],
                spacing=10,
            ),
        )

    async def _work_out(self, position: int, records: list[Command]) -> None:
        """Have the coach work the chances out, then draw them (and ask for the newest
        position's if the game moved on meanwhile)."""
        saved = self.screen.session.saved
        try:
            chances = await self.screen.app.service.coach.chances(saved.id, saved.game, records)
        except CoachError as error:
            self.bars.failed(position, Message("coachui.reason", reason=error.message))
        else:
            self.bars.answered(position, chances)
        if mounted(self.control):
            self.show()
            self.control.update()
