"""Home: resume a game, start one, or look back at finished ones."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

import flet as ft

from companion.app.theme import ACCENT_TEXT
from companion.app.widgets import big_button, screen, section
from models.setup import Mode

if TYPE_CHECKING:
    from companion.app.main import App
    from companion.store.store import GameSummary


def when(moment: datetime) -> str:
    """A saved time as people say it: 'just now', '5 min ago', '3 h ago', or the date."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    minutes = int((datetime.now(UTC) - moment).total_seconds() // 60)
    if minutes < 1:
        return "just now"
    if minutes < 60:
        return f"{minutes} min ago"
    if minutes < 24 * 60:
        return f"{minutes // 60} h ago"
    return moment.astimezone().strftime("%d %b %Y")


def _resume_card(app: App, summary: GameSummary) -> ft.Control:
    players = ", ".join(summary.labels)
    return ft.Container(
        border_radius=10,
        bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH,
        padding=14,
        on_click=lambda _: app.go(f"/game/{summary.id}"),
        content=ft.Row(
            [
                ft.Column(
                    [
                        ft.Text(players, size=17, weight=ft.FontWeight.BOLD),
                        ft.Text(
                            f"Round {summary.round} of {summary.final_round} · "
                            f"{'digital board · ' if summary.mode == Mode.DIGITAL else ''}"
                            f"{when(summary.updated)}",
                            size=14,
                        ),
                    ],
                    spacing=2,
                    expand=True,
                ),
                ft.Icon(ft.Icons.PLAY_ARROW, color=ACCENT_TEXT),
            ]
        ),
    )


def build(app: App) -> ft.View:
    """The home screen."""
    unfinished = app.store.unfinished()
    resume = [_resume_card(app, summary) for summary in unfinished] or [
        ft.Text("No game in progress. Start one and it is saved as you play.", size=15)
    ]
    view = screen("/", spacing=14)
    view.appbar = ft.AppBar(
        title=ft.Text("Summoner's Isle"),
        actions=[
            ft.IconButton(
                ft.Icons.BRIGHTNESS_6,
                tooltip="Light or dark theme",
                on_click=lambda _: app.toggle_theme(),
            )
        ],
    )
    view.controls = [
        ft.Text("Companion for the table", size=16, color=ACCENT_TEXT),
        big_button("New game", lambda _: app.go("/new"), icon=ft.Icons.ADD),
        section("Resume", *resume),
        big_button("History", lambda _: app.go("/history"), icon=ft.Icons.BAR_CHART, primary=False),
        big_button(
            "Board editor", lambda _: app.go("/board-editor"), icon=ft.Icons.MAP, primary=False
        ),
    ]
    return view
