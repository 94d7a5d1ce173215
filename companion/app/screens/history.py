"""History: finished games, and who wins: by name, from which seat and starting position.
What it says comes from the play layer (companion/play/history.py); this module draws it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import flet as ft

from companion.app.widgets import screen, section
from companion.play.history import Wins, history_view

if TYPE_CHECKING:
    from companion.app.main import App


def _wins(wins: Wins) -> ft.Control:
    """One way of counting wins: its title over its lines."""
    return ft.Column(
        [
            ft.Text(wins.title, size=15, weight=ft.FontWeight.BOLD),
            ft.Row([ft.Text(line, size=15) for line in wins.lines], wrap=True, spacing=16),
        ],
        spacing=4,
    )


def build(app: App) -> ft.View:
    """The history screen."""
    say = app.say
    shown = history_view(app.store, app.words)
    games: list[ft.Control] = [
        ft.ListTile(
            title=ft.Text(game.won, size=16),
            subtitle=ft.Text(game.detail),
            on_click=lambda _, route=game.route: app.go(route),
        )
        for game in shown.games
    ]
    view = screen("/history")
    view.appbar = ft.AppBar(
        title=ft.Text(say("app.home.history")),
        leading=ft.IconButton(
            ft.Icons.HOME, tooltip=say("app.home"), on_click=lambda _: app.go("/")
        ),
    )
    view.controls = [
        section(
            shown.finished,
            *(_wins(wins) for wins in shown.wins),
            ft.Text(shown.how_won, size=15),
        ),
        section(
            say("app.history.games"),
            *(games or [ft.Text(say("app.history.none"), size=15)]),
        ),
    ]
    return view
