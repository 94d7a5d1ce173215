"""A game's review: its chances round by round, its turning points in words, the records that
cost their player most, and playing on from any of its moments in a new digital game.

Any game, table or digital, finished or not. The review is worked out by the server's coach
thread while the screen says so; what it shows is the play layer's `ReviewView`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import flet as ft

from companion.app.coach_panels import mounted, reason_text
from companion.app.play_on_dialog import open_play_on
from companion.app.sizes import TAP
from companion.app.theme import ACCENT
from companion.app.widgets import big_button, screen, section
from companion.coach import CoachError
from companion.language import Message
from companion.play.review_view import Line, MarkedLine, ReviewView, review_view

if TYPE_CHECKING:
    from companion.app.main import App


def build(app: App, game_id: str) -> ft.View:
    """The review screen of one saved game."""
    session = app.session(game_id)
    saved = session.saved
    say = app.say
    view = screen(f"/game/{game_id}/review", spacing=12)
    back = f"/game/{game_id}" + ("/end" if saved.state.is_terminal else "")
    view.appbar = ft.AppBar(
        title=ft.Text(say("coachui.review.title")),
        leading=ft.IconButton(
            ft.Icons.ARROW_BACK, tooltip=say("app.log.back"), on_click=lambda _: app.go(back)
        ),
    )
    working = ft.Semantics(
        identifier="review-working",
        content=ft.Row(
            [
                ft.ProgressRing(width=24, height=24, stroke_width=3),
                ft.Text(say("coachui.review.computing"), size=16, expand=True),
            ],
            spacing=12,
        ),
    )
    view.controls = [working]
    records = [entry.command for entry in saved.log]
    # Numbered as the game's log shows them: undone records leave gaps.
    numbers = [entry.seq for entry in saved.log]

    async def work_out() -> None:
        try:
            told = await app.service.coach.review(game_id, saved.game, records, numbers)
        except CoachError as error:
            shown: list[ft.Control] = [ft.Text(reason_text(app, error), size=16)]
        else:
            shown = ReviewScreen(app, game_id, review_view(told)).controls()
        if mounted(view) and app.page.views and app.page.views[-1] is view:
            view.controls = list[ft.BaseControl](shown)
            view.update()

    app.page.run_task(work_out)
    return view


class ReviewScreen:
    """Draws a review's lines, each moment with its way to play on from it."""

    def __init__(self, app: App, game_id: str, shown: ReviewView) -> None:
        self.app = app
        self.game_id = game_id
        self.shown = shown

    def say(self, message: Message) -> str:
        """A message in this device's language."""
        return self.app.words.render(message)

    def controls(self) -> list[ft.Control]:
        """The screen's cards, top to bottom."""
        shown = self.shown
        say = self.say
        turning: list[ft.Control] = [self.moment(line) for line in shown.turning] or [
            ft.Text(say(Message("coachui.review.no_turning")), size=15)
        ]
        marks: list[ft.Control] = [self.marked(line) for line in shown.marks]
        if shown.marks_note is not None:
            marks.append(ft.Text(say(shown.marks_note), size=14))
        ending: list[ft.Control] = []
        if shown.result is not None:
            ending.append(
                ft.Semantics(
                    identifier="review-result",
                    content=section(
                        say(Message("coachui.review.result")),
                        ft.Text(say(shown.result), size=15),
                    ),
                )
            )
        if shown.decisions:
            ending.append(
                ft.Semantics(
                    identifier="review-decisions",
                    content=section(
                        say(Message("coachui.review.decisions")),
                        *[ft.Text(say(said), size=15) for said in shown.decisions],
                    ),
                )
            )
        return [
            ft.Semantics(
                identifier="review-rounds",
                content=section(
                    say(Message("coachui.review.rounds")),
                    *[ft.Text(say(line.text), size=15) for line in shown.rounds],
                ),
            ),
            *ending,
            ft.Semantics(
                identifier="review-turning",
                content=section(say(Message("coachui.review.turning")), *turning),
            ),
            ft.Semantics(
                identifier="review-marks",
                content=section(say(Message("coachui.review.marks")), *marks),
            ),
            big_button(
                say(Message("coachui.play_on.open")),
                lambda _: self.play_on(None),
                icon=ft.Icons.CALL_SPLIT,
                disabled=not shown.choices,
            ),
        ]

    def play_on(self, upto: int | None) -> None:
        """Open the play-on dialog at a moment (None: the last one offered)."""
        choices = list(self.shown.choices)
        if upto is not None and all(line.upto != upto for line in choices):
            choices.append(Line(Message("coachui.review.play_on_here"), upto))
        open_play_on(self.app, self.game_id, choices, upto)

    def here(self, upto: int | None) -> ft.Control:
        """A 'Play on from here' button for a moment."""
        return ft.OutlinedButton(
            self.say(Message("coachui.review.play_on_here")),
            icon=ft.Icons.CALL_SPLIT,
            height=TAP,
            disabled=upto is None,
            on_click=lambda _: self.play_on(upto),
        )

    def moment(self, line: Line) -> ft.Control:
        """A turning point, and playing on from just before it."""
        return ft.Column(
            [ft.Text(self.say(line.text), size=15), self.here(line.upto)],
            spacing=4,
            horizontal_alignment=ft.CrossAxisAlignment.START,
        )

    def marked(self, line: MarkedLine) -> ft.Control:
        """A costly record: its mark (sign and word, never colour alone), what it cost, and
        playing on from just before it."""
        mark = self.say(Message("coachui.review.mark", sign=line.sign, mark=line.mark))
        return ft.Column(
            [
                ft.Row(
                    [
                        ft.Container(
                            padding=ft.Padding.symmetric(horizontal=8, vertical=2),
                            border_radius=6,
                            border=ft.Border.all(2, ACCENT),
                            content=ft.Text(mark, size=14, weight=ft.FontWeight.BOLD),
                        ),
                        ft.Text(self.say(line.cost), size=14, weight=ft.FontWeight.BOLD),
                    ],
                    wrap=True,
                ),
                ft.Text(self.say(line.text), size=15),
                self.here(line.upto),
            ],
            spacing=4,
            horizontal_alignment=ft.CrossAxisAlignment.START,
        )
