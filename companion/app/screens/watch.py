"""What a watcher sees: the games of a shared table, live, with no control that records.
What it says comes from the play layer (companion/play/watch.py); this module draws it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.game_panels import PlayersCard
from companion.app.order_strip import OrderStrip
from companion.app.theme import ACCENT_TEXT
from companion.app.widgets import EnergyTrack, screen, section
from companion.play.watch import watch_list, watched

if TYPE_CHECKING:
    from companion.app.main import App
    from companion.play.session import GameSession


def home(app: App) -> ft.View:
    """The games being played at this table, each one to watch."""
    view = screen("/", spacing=14)
    view.appbar = ft.AppBar(title=ft.Text(app.say("app.home.title")))
    cards: list[ft.Control] = [
        ft.Semantics(
            container=True,
            button=True,
            label=card.label,
            content=ft.Container(
                border_radius=10,
                bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH,
                padding=14,
                on_click=lambda _, route=card.route: app.go(route),
                content=ft.Row(
                    [
                        ft.Icon(ft.Icons.VISIBILITY, color=ACCENT_TEXT),
                        ft.Column(
                            [
                                ft.Text(card.players, size=17, weight=ft.FontWeight.BOLD),
                                ft.Text(card.where, size=15),
                            ],
                            spacing=2,
                            expand=True,
                        ),
                    ]
                ),
            ),
        )
        for card in watch_list(app.service.standings, app.store, app.words)
    ]
    view.controls = [
        ft.Text(app.say("app.watch.watching"), size=15, color=ACCENT_TEXT),
        section(
            app.say("app.watch.games"),
            *(cards or [ft.Text(app.say("app.watch.none"), size=15)]),
        ),
    ]
    return view


def build(app: App, game_id: str) -> ft.View:
    """One game as it is played, changing as the table records."""
    session = app.session(game_id)
    view = screen(f"/game/{game_id}", spacing=10)
    WatchScreen(app, session, view).show()
    return view


class WatchScreen:
    """The order, the last record, every player's creatures and the energy track, read only."""

    def __init__(self, app: App, session: GameSession, view: ft.View) -> None:
        self.app = app
        self.session = session
        self.title = ft.Text(size=20)
        self.turn = ft.Text(size=18, weight=ft.FontWeight.BOLD)
        self.last = ft.Text(size=15)
        self.strip = OrderStrip(session, app.words)
        self.players = PlayersCard(session)
        self.track = EnergyTrack((), app.words)
        view.appbar = ft.AppBar(
            leading=ft.IconButton(
                ft.Icons.HOME, tooltip=app.say("app.home"), on_click=lambda _: app.go("/")
            ),
            title=self.title,
        )
        view.controls = [
            ft.Text(app.say("app.watch.watching"), size=14, color=ACCENT_TEXT),
            self.strip.control,
            section(app.say("app.watch.now"), self.turn, self.last),
            self.players.control,
            section(app.say("app.end.axis_energy"), self.track.control),
        ]
        app.bus.follow(session.id, self.changed)

    def changed(self, revision: int) -> None:
        """The table recorded something: show the game as it is now."""
        if revision != self.session.saved.revision:
            self.session.refresh(revision)
            self.show()
            self.app.page.update()

    def show(self, _: Any = None) -> None:
        """Set every panel from the game's latest state."""
        now = watched(self.session, self.app.words)
        self.title.value = now.title
        self.turn.value = now.turn
        self.last.value = now.last
        self.strip.show(self.session.state)
        self.players.show(self.session.state)
        self.track.show(now.track)
