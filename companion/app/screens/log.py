"""The game log: every record in words, newest first, a page at a time, with undo, redo and
export to a file."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.widgets import big_button, notify, screen
from companion.language import Message
from companion.play.log_page import LogLine, LogPage, log_page
from companion.play.session import Outcome
from companion.store.errors import StoreError

if TYPE_CHECKING:
    from companion.app.main import App


def build(app: App, game_id: str) -> ft.View:
    """The log screen for one saved game."""
    session = app.session(game_id)
    view = screen(f"/game/{game_id}/log", spacing=8)
    picker = ft.FilePicker()
    # The page of the log shown (0: the newest).
    shown = [0]

    async def export(_: ft.Event[Any]) -> None:
        name = export_file_name(game_id)
        try:
            text = json.dumps(app.store.export(game_id).to_json(), indent=2, ensure_ascii=False)
        except StoreError as error:
            notify(app.page, str(error), error=True)
            return
        # A browser downloads the bytes under the name; elsewhere a dialog asks where to put
        # them and gives back None if it was closed.
        where = await picker.save_file(
            dialog_title=app.say("app.log.export_title"),
            file_name=name,
            src_bytes=(text + "\n").encode("utf-8"),
        )
        if where is not None or app.page.web:
            notify(app.page, app.say("app.log.exported", file=where or name))

    def act(outcome: Outcome) -> None:
        if outcome.ok:
            app.bus.announce(game_id, session.saved.revision)
        notify(app.page, outcome.text(app.words), error=not outcome.ok)
        render()
        app.page.update()

    def turn_to(number: int | None) -> None:
        if number is not None:
            shown[0] = number
            render()
            app.page.update()

    def render() -> None:
        saved = session.saved
        view.appbar = ft.AppBar(
            title=ft.Text(app.say("app.log.title")),
            leading=ft.IconButton(
                ft.Icons.ARROW_BACK,
                tooltip=app.say("app.log.back"),
                on_click=lambda _: app.go(f"/game/{game_id}"),
            ),
        )
        buttons = ft.Row(
            [
                big_button(
                    app.say("app.log.undo"),
                    lambda _: act(session.undo()),
                    icon=ft.Icons.UNDO,
                    disabled=saved.undo_label is None,
                    primary=False,
                    tooltip=_labelled(app, "game.bar.undo", saved.undo_label),
                ),
                big_button(
                    app.say("app.log.redo"),
                    lambda _: act(session.redo()),
                    icon=ft.Icons.REDO,
                    disabled=saved.redo_label is None,
                    primary=False,
                    tooltip=_labelled(app, "game.bar.redo", saved.redo_label),
                ),
                big_button(
                    app.say("app.log.export"), export, icon=ft.Icons.DOWNLOAD, primary=False
                ),
                big_button(
                    app.say("coachui.review.open"),
                    lambda _: app.go(f"/game/{game_id}/review"),
                    icon=ft.Icons.INSIGHTS,
                    primary=False,
                ),
            ],
            wrap=True,
        )
        page = log_page(saved, shown[0])
        shown[0] = page.number
        lines = [_line(app, line) for line in page.lines]
        empty = [] if lines else [ft.Text(app.say("app.log.empty"), size=15)]
        # Newer and Older above the page and below it: a page is long on a phone.
        view.controls = [
            buttons,
            *_turner(app, page, turn_to),
            *lines,
            *empty,
            *_turner(app, page, turn_to),
        ]

    render()
    return view


def _line(app: App, line: LogLine) -> ft.Control:
    """One line of the log: a record, undone or not, or the Energy and Reset it finished."""
    if line.reset:
        return ft.ListTile(
            title=ft.Text(app.words.render(line.sentence), size=15),
            leading=ft.Text("◈", size=16),
            bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH,
        )
    if line.undone:
        return ft.ListTile(
            title=ft.Text(app.words.render(line.sentence), size=15, italic=True),
            subtitle=ft.Text(app.say("app.log.undone")),
            leading=ft.Text(app.words.number(line.seq), size=13),
            opacity=0.6,
        )
    return ft.ListTile(
        title=ft.Text(app.words.render(line.sentence), size=15),
        leading=ft.Text(app.words.number(line.seq), size=13),
    )


def _turner(app: App, page: LogPage, turn_to: Callable[[int | None], None]) -> list[ft.Control]:
    """'Page 2 of 54' between Newer and Older, when the log has more than one page."""
    if page.heading is None:
        return []
    return [
        ft.Row(
            [
                ft.TextButton(
                    app.say("app.log.newer"),
                    icon=ft.Icons.CHEVRON_LEFT,
                    disabled=page.newer is None,
                    on_click=lambda _: turn_to(page.newer),
                ),
                ft.Text(app.words.render(page.heading), size=14),
                ft.TextButton(
                    app.say("app.log.older"),
                    icon=ft.Icons.CHEVRON_RIGHT,
                    disabled=page.older is None,
                    on_click=lambda _: turn_to(page.older),
                ),
            ],
            alignment=ft.MainAxisAlignment.CENTER,
            wrap=True,
        )
    ]


def export_file_name(game_id: str) -> str:
    """The file a game's log is exported to; Home's Import reads it back."""
    return f"summoners-isle-game-{game_id}.json"


def _labelled(app: App, message: str, what: Message | None) -> str | None:
    """A button's tooltip that says what it does: 'Undo: Ragna passes'."""
    return None if what is None else app.say(message, what=what)
