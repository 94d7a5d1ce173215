"""The game log: every record in words, newest first, with undo and redo."""

from __future__ import annotations

from typing import TYPE_CHECKING

import flet as ft

from companion.app.session import GameSession, Outcome
from companion.app.widgets import big_button, notify, screen

if TYPE_CHECKING:
    from companion.app.main import App


def build(app: App, game_id: str) -> ft.View:
    """The log screen for one saved game."""
    session = GameSession(app.store, game_id)
    view = screen(f"/game/{game_id}/log", spacing=8)

    def act(outcome: Outcome) -> None:
        if outcome.ok:
            app.announce(game_id, session.saved.revision)
        notify(app.page, outcome.message, error=not outcome.ok)
        render()
        app.page.update()

    def render() -> None:
        saved = session.saved
        view.appbar = ft.AppBar(
            title=ft.Text("Game log"),
            leading=ft.IconButton(
                ft.Icons.ARROW_BACK,
                tooltip="Back to the table",
                on_click=lambda _: app.go(f"/game/{game_id}"),
            ),
        )
        buttons = ft.Row(
            [
                big_button(
                    "Undo",
                    lambda _: act(session.undo()),
                    icon=ft.Icons.UNDO,
                    disabled=saved.undo_label is None,
                    primary=False,
                    tooltip=saved.undo_label,
                ),
                big_button(
                    "Redo",
                    lambda _: act(session.redo()),
                    icon=ft.Icons.REDO,
                    disabled=saved.redo_label is None,
                    primary=False,
                    tooltip=saved.redo_label,
                ),
            ],
            wrap=True,
        )
        undone = [
            ft.ListTile(
                title=ft.Text(entry.description, size=15, italic=True),
                subtitle=ft.Text("undone; Redo brings it back"),
                leading=ft.Text(f"{entry.seq}", size=13),
                opacity=0.6,
            )
            for entry in reversed(saved.undone)
        ]
        entries = [
            ft.ListTile(
                title=ft.Text(entry.description, size=15),
                leading=ft.Text(f"{entry.seq}", size=13),
            )
            for entry in reversed(saved.log)
        ]
        empty = [] if entries or undone else [ft.Text("Nothing recorded yet.", size=15)]
        view.controls = [buttons, *undone, *entries, *empty]

    render()
    return view
