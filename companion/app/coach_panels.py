"""The coach on the table's screens: the device's chance switch, the chance line after each
Energy and Reset, and the result's energy and chances round by round.

What they say comes from the play layer (companion/play/coach_view.py); the chances are
worked out by the server's coach worker (companion/play/coach_work.py) while the screen
stays responsive and says it is working.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.sizes import TAP
from companion.app.widgets import big_button, player_chip, section
from companion.coach import CoachError, Review
from companion.language import Message
from companion.play.coach_view import (
    STORED_CHANCES,
    ChanceLine,
    RoundRow,
    chance_line,
    chances_on,
    kept_value,
    line_text,
)
from companion.play.session import GameSession
from models.commands import Command

if TYPE_CHECKING:
    from companion.app.main import App

# Where a browser's session keeps the switch once read.
SESSION_CHANCES = "coach-chances"
# The result table's first column: "After round 6" on two lines at most on a phone.
HEADING_WIDTH = 84


def shows_chances(app: App) -> bool | None:
    """Whether this device shows win chances (None: its browser has not been asked yet)."""
    kept = app.page.session.store.get(SESSION_CHANCES)
    return None if kept is None else chances_on(kept)


async def read_switch(app: App) -> bool:
    """Ask this browser whether it turned win chances on (once per browser session)."""
    assert app.browser is not None
    # A browser that keeps nothing (or does not answer) has them off: no spoilers.
    return remember_switch(app, await app.browser.get(STORED_CHANCES))


def remember_switch(app: App, kept: str) -> bool:
    """The switch as this browser keeps it (`kept`), for the rest of its session."""
    on = chances_on(kept)
    app.page.session.store.set(SESSION_CHANCES, kept_value(on))
    return on


def keep_switch(app: App, on: bool) -> None:
    """This device's switch from now on, kept in its browser."""
    app.page.session.store.set(SESSION_CHANCES, kept_value(on))
    assert app.browser is not None
    app.page.run_task(app.browser.set, STORED_CHANCES, kept_value(on))


def mounted(control: ft.Control) -> bool:
    """Whether a control is still on the page (the screen was not left meanwhile)."""
    try:
        return control.page is not None
    except RuntimeError:
        return False


def reason_text(app: App, error: CoachError) -> str:
    """Why the coach cannot judge a game, as a sentence."""
    return app.words.render(Message("coachui.reason", reason=error.message))


class ChanceCard:
    """The table's chance line: a switch (off until this device turns it on), then the chances
    after the newest Energy and Reset, or that they are being worked out."""

    def __init__(self, app: App, session: GameSession) -> None:
        self.app = app
        self.session = session
        words = app.words
        self.on = bool(shows_chances(app))
        if self.on:
            app.service.coach.warm()
        self.switch = ft.Switch(
            label=words.render(Message("coachui.line.switch")),
            value=self.on,
            on_change=self._switched,
        )
        self.heading = ft.Text(size=13, weight=ft.FontWeight.BOLD)
        self.line = ft.Text(size=17, weight=ft.FontWeight.BOLD)
        self.working = ft.ProgressRing(width=20, height=20, stroke_width=3, visible=False)
        self.body = ft.Column(
            [self.heading, ft.Row([self.working, self.line], spacing=10, wrap=True)], spacing=4
        )
        # The moment (records) shown or being worked out, so a late answer for another is dropped.
        self._shown: tuple[Command, ...] | None = None
        self.control = ft.Semantics(
            identifier="chance-line",
            content=ft.Card(
                content=ft.Container(
                    padding=ft.Padding.symmetric(horizontal=14, vertical=6),
                    content=ft.Column(
                        # A row takes the card's whole width, as the cards above it.
                        [ft.Row([self.switch], height=TAP), self.body],
                        spacing=2,
                    ),
                )
            ),
        )
        if shows_chances(app) is None:
            app.page.run_task(self._read)

    async def _read(self) -> None:
        self.on = await read_switch(self.app)
        if self.on and mounted(self.control):
            self.switch.value = True
            self.app.page.update(*self.show())

    def _switched(self, event: ft.Event[Any]) -> None:
        self.on = bool(self.switch.value)
        keep_switch(self.app, self.on)
        if self.on:
            self.app.service.coach.warm()
        self.app.page.update(*self.show())

    def show(self) -> list[ft.Control]:
        """Draw the line for the game as it is now; the controls that may have changed."""
        words = self.app.words
        records = [entry.command for entry in self.session.saved.log]
        line = chance_line(records)
        self.heading.value = words.render(line.heading)
        self.heading.visible = self.on
        if not self.on:
            self.line.value = words.render(Message("coachui.line.hidden"))
            self.line.weight = ft.FontWeight.NORMAL
            self.line.size = 14
            self.working.visible = False
            self._shown = None
            return [self.control]
        self.line.weight = ft.FontWeight.BOLD
        self.line.size = 17
        moment = None if line.upto is None else tuple(records[: line.upto])
        labels = self.session.saved.game.labels
        if moment is None or moment == self._shown:
            if moment is None:
                self.line.value = words.render(line_text(line, None, labels))
                self.working.visible = False
            return [self.control]
        self._shown = moment
        self.working.visible = True
        self.line.value = words.render(line_text(line, None, labels))
        self.app.page.run_task(self._work_out, moment, line)
        return [self.control]

    async def _work_out(self, moment: tuple[Command, ...], line: ChanceLine) -> None:
        """Have the coach work the chances out, then show them if still wanted."""
        game = self.session.saved.game
        try:
            chances = await self.app.service.coach.chances(self.session.id, game, moment)
            said = self.app.words.render(line_text(line, chances, game.labels))
        except CoachError as error:
            said = reason_text(self.app, error)
        if self._shown != moment or not self.on or not mounted(self.control):
            return
        self.working.visible = False
        self.line.value = said
        self.control.update()


class RoundsTable:
    """The result's energy round by round, each beside the player's chance from there: shown
    at once when the device shows chances, else on demand."""

    def __init__(
        self,
        app: App,
        session: GameSession,
        rows: Callable[[Review | None], Sequence[RoundRow]],
        review: Callable[[], Awaitable[Review]],
    ) -> None:
        self.app = app
        self.session = session
        self.rows = rows
        self.review = review
        words = app.words
        self.grid = ft.Column(spacing=6)
        self.ring = ft.ProgressRing(width=20, height=20, stroke_width=3)
        self.said = ft.Text(words.render(Message("coachui.line.computing")), size=15)
        self.working = ft.Row([self.ring, self.said], visible=False, wrap=True)
        self.ask = big_button(
            words.render(Message("coachui.rounds.show")),
            lambda _: self.start(),
            icon=ft.Icons.INSIGHTS,
            primary=False,
        )
        self.note = ft.Text(words.render(Message("coachui.rounds.key")), size=13)
        self.control = ft.Semantics(
            identifier="rounds-table",
            content=section(
                words.render(Message("coachui.rounds.title")),
                self.note,
                self.grid,
                self.working,
                self.ask,
            ),
        )
        self._fill(None)

    def start_if_shown(self) -> None:
        """Fill the chances in at once if this device shows them (asking its browser first
        when this session has not yet)."""
        shown = shows_chances(self.app)
        if shown:
            self.start()
        elif shown is None:

            async def read() -> None:
                if await read_switch(self.app) and mounted(self.control):
                    self.start()

            self.app.page.run_task(read)

    def start(self) -> None:
        """Work the chances out (off the page's thread) and fill them in."""
        self.ask.visible = False
        self.working.visible = True
        if mounted(self.control):
            self.control.update()
        self.app.page.run_task(self._work_out)

    async def _work_out(self) -> None:
        try:
            told = await self.review()
        except CoachError as error:
            self.said.value = reason_text(self.app, error)
            self.ring.visible = False
        else:
            self.working.visible = False
            self._fill(told)
        if mounted(self.control):
            self.control.update()

    def _fill(self, told: Review | None) -> None:
        words = self.app.words
        session = self.session
        players = session.saved.game.players
        head: list[ft.Control] = [ft.Container(width=HEADING_WIDTH)]
        head += [
            ft.Container(
                player_chip(session.label(p), session.colour(p)),
                expand=True,
                alignment=ft.Alignment.CENTER,
            )
            for p in players
        ]
        lines: list[ft.Control] = [ft.Row(head, spacing=4)]
        for row in self.rows(told):
            when = words.render(row.heading)
            cells: list[ft.Control] = [ft.Text(when, size=14, width=HEADING_WIDTH)]
            for cell in row.cells:
                chance = cell.chance or Message("coachui.rounds.unknown")
                energy = words.number(cell.energy)
                cells.append(
                    ft.Semantics(
                        label=words.render(
                            Message(
                                "coachui.rounds.cell_label",
                                when=when,
                                player=session.label(cell.player),
                                energy=energy,
                                chance=chance,
                            )
                        ),
                        expand=True,
                        content=ft.Text(
                            words.render(
                                Message("coachui.rounds.cell", energy=energy, chance=chance)
                            ),
                            size=14,
                            text_align=ft.TextAlign.CENTER,
                        ),
                    )
                )
            lines.append(ft.Row(cells, spacing=4))
        self.grid.controls = lines
