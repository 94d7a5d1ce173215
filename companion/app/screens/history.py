"""History: finished games, and who wins: by name, from which seat and starting position."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import flet as ft

from companion.app.screens.home import when
from companion.app.widgets import screen, section
from companion.engine.wording import counted
from models.rules import WINNING_ENERGY

if TYPE_CHECKING:
    from companion.app.main import App


def build(app: App) -> ft.View:
    """The history screen."""
    history = app.store.history()
    finished = app.store.games()
    finished = [g for g in finished if g.winner is not None]

    def counts(title: str, values: dict[str, int], place: Callable[[str], str]) -> ft.Control:
        return ft.Column(
            [
                ft.Text(title, size=15, weight=ft.FontWeight.BOLD),
                ft.Row(
                    [
                        ft.Text(f"{place(key)}: {counted(wins, 'win')}", size=15)
                        for key, wins in values.items()
                    ],
                    wrap=True,
                    spacing=16,
                ),
            ],
            spacing=4,
        )

    games: list[ft.Control] = [
        ft.ListTile(
            title=ft.Text(f"{summary.labels[summary.players.index(summary.winner)]} won", size=16),
            subtitle=ft.Text(
                f"{', '.join(summary.labels)} · "
                + (f"Summoner ({WINNING_ENERGY})" if summary.summoner else "final round")
                + f" · {when(summary.updated)}"
            ),
            on_click=lambda _, s=summary: app.go(f"/game/{s.id}/end"),
        )
        for summary in finished
    ]
    view = screen("/history")
    view.appbar = ft.AppBar(
        title=ft.Text("History"),
        leading=ft.IconButton(ft.Icons.HOME, tooltip="Home", on_click=lambda _: app.go("/")),
    )
    view.controls = [
        section(
            f"Finished games: {history.games}",
            counts("Wins by player", history.wins_by_name, lambda name: name),
            counts("Wins by seat", history.wins_by_seat, lambda seat: f"Player {seat}"),
            counts("Wins by place in the first turn order", history.wins_by_start_position, _nth),
            ft.Text(
                f"Summoner ({WINNING_ENERGY}) wins: {history.summoner_wins} · "
                f"final-round wins: {history.final_round_wins}",
                size=15,
            ),
        ),
        section("Games", *(games or [ft.Text("No finished game yet.", size=15)])),
    ]
    return view


def _nth(place: str) -> str:
    """'1' as '1st', '2' as '2nd', and so on."""
    return place + {"1": "st", "2": "nd", "3": "rd"}.get(place, "th")
