"""History: finished games, and who wins: by name, from which seat and starting position."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import flet as ft

from companion.app.widgets import screen, section
from companion.play.home import players_of, when
from models.rules import WINNING_ENERGY

if TYPE_CHECKING:
    from companion.app.main import App


def build(app: App) -> ft.View:
    """The history screen."""
    say = app.say
    history = app.store.history()
    finished = app.store.games()
    finished = [g for g in finished if g.winner is not None]

    def counts(title: str, values: dict[str, int], place: Callable[[str], str]) -> ft.Control:
        return ft.Column(
            [
                ft.Text(title, size=15, weight=ft.FontWeight.BOLD),
                ft.Row(
                    [
                        ft.Text(say("app.history.wins_of", place=place(key), count=wins), size=15)
                        for key, wins in values.items()
                    ],
                    wrap=True,
                    spacing=16,
                ),
            ],
            spacing=4,
        )

    def how(summoner: bool) -> str:
        if summoner:
            return say("app.history.summoner", energy=WINNING_ENERGY)
        return say("app.history.final_round")

    games: list[ft.Control] = [
        ft.ListTile(
            title=ft.Text(
                say(
                    "app.history.won", player=summary.labels[summary.players.index(summary.winner)]
                ),
                size=16,
            ),
            subtitle=ft.Text(
                " · ".join(
                    [
                        players_of(summary.labels, app.words),
                        how(summary.summoner),
                        when(summary.updated, app.words),
                    ]
                )
            ),
            on_click=lambda _, s=summary: app.go(f"/game/{s.id}/end"),
        )
        for summary in finished
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
            say("app.history.finished", count=history.games),
            counts(say("app.history.by_player"), history.wins_by_name, lambda name: name),
            counts(
                say("app.history.by_seat"),
                history.wins_by_seat,
                lambda seat: say("app.new.player", seat=int(seat)),
            ),
            counts(
                say("app.history.by_place"),
                history.wins_by_start_position,
                lambda place: _nth(app, place),
            ),
            ft.Text(
                say(
                    "app.history.how_won",
                    energy=WINNING_ENERGY,
                    summoner=history.summoner_wins,
                    final=history.final_round_wins,
                ),
                size=15,
            ),
        ),
        section(
            say("app.history.games"),
            *(games or [ft.Text(say("app.history.none"), size=15)]),
        ),
    ]
    return view


# Ordinals with their own ending ('1st', '2nd', '3rd'; French '1er'); any other: 'app.history.nth'.
_ORDINALS = {"1": "app.history.first", "2": "app.history.second", "3": "app.history.third"}


def _nth(app: App, place: str) -> str:
    """'1' as '1st', '2' as '2nd', and so on, in the device's language."""
    message = _ORDINALS.get(place)
    if message is not None:
        return app.say(message)
    return app.say("app.history.nth", place=int(place)) if place.isdigit() else place
