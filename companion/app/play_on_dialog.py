"""Play on: a dialog that starts a new digital game from a moment of this one, with the seats
the computer plays; it opens the new game, and the original stays as it was.

The form is the play layer's (`review_view.PlayOnForm`): it says which moments can be played
on from and starts the game in the store, or says in a sentence why not.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.sizes import TAP
from companion.app.widgets import notify
from companion.language import Message
from companion.play.review_view import Line, PlayOnForm

if TYPE_CHECKING:
    from companion.app.main import App

# A dropdown's key for a person (a bot's name otherwise).
PERSON = "person"


def open_play_on(app: App, game_id: str, choices: Sequence[Line], upto: int | None = None) -> None:
    """Ask which moment (preselected: `upto`) and who plays each seat, then start the game."""
    session = app.session(game_id)
    players = session.saved.game.players
    # Each seat is played as it was (a person, or the computer at its level) unless changed.
    form = PlayOnForm.of(session.saved.setup, tuple(choices), upto)
    words = app.words
    page = app.page
    texts = {line.upto: words.render(line.text) for line in choices}
    asked = words.render(Message("coachui.play_on.moment"))
    # A screen reader hears each choice with its question, as in New game.
    moment = ft.Semantics(
        identifier="play-on-moment", label=asked, value=texts.get(form.upto, ""), expand=True
    )

    def picked(event: ft.Event[ft.Dropdown]) -> None:
        if event.control.value is not None:
            form.upto = int(event.control.value)
            moment.value = texts.get(form.upto, "")
            moment.update()

    moment.content = ft.Dropdown(
        label=asked,
        value=None if form.upto is None else str(form.upto),
        options=[ft.DropdownOption(key=str(upto), text=text) for upto, text in texts.items()],
        on_select=picked,
        expand=True,
    )
    seats: list[ft.Control] = []
    names = {bot: words.render(said) for bot, said in form.seat_choices().items()}
    for number, player in enumerate(players, 1):
        question = words.render(Message("coachui.play_on.seat", player=session.label(player)))
        seat = ft.Semantics(
            identifier=f"play-on-seat-{number}",
            label=question,
            value=names.get(form.bots[player], names[None]),
            expand=True,
        )

        def chosen(
            event: ft.Event[ft.Dropdown], player: str = player, seat: ft.Semantics = seat
        ) -> None:
            value = event.control.value
            form.bots[player] = None if value in (None, PERSON) else value
            seat.value = names.get(form.bots[player], "")
            seat.update()

        seat.content = ft.Dropdown(
            label=question,
            value=form.bots[player] or PERSON,
            options=[
                ft.DropdownOption(key=bot or PERSON, text=name) for bot, name in names.items()
            ],
            on_select=chosen,
            expand=True,
        )
        seats.append(seat)

    def start(_: ft.Event[Any]) -> None:
        started = form.start(app.store, game_id)
        if isinstance(started, Message):
            notify(page, words.render(started), error=True)
            return
        page.pop_dialog()
        shown = next((line.text for line in choices if line.upto == form.upto), None)
        said = Message("coachui.play_on.started", moment=shown or "")
        app.go(f"/game/{started.id}", words.render(said))

    page.show_dialog(
        ft.AlertDialog(
            title=ft.Text(words.render(Message("coachui.play_on.title"))),
            content=ft.Column(
                [
                    ft.Text(words.render(Message("coachui.play_on.note")), size=14),
                    ft.Row([moment]),
                    *[ft.Row([seat]) for seat in seats],
                ],
                tight=True,
                spacing=12,
                scroll=ft.ScrollMode.AUTO,
            ),
            actions=[
                ft.TextButton(
                    words.render(Message("coachui.play_on.cancel")),
                    on_click=lambda _: page.pop_dialog(),
                    height=TAP,
                ),
                ft.FilledButton(
                    words.render(Message("coachui.play_on.start")), on_click=start, height=TAP
                ),
            ],
        )
    )
