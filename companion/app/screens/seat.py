"""Who is this device in a shared game: one player, the scorekeeper, or a watcher. What it
offers comes from the play layer (companion/play/seat_picker.py); this module draws it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.widgets import SEAT_PICKER, big_button, notify, player_chip, screen, section
from companion.play.seat_picker import SeatChoice, seat_picker, seat_said, take_seat
from companion.play.sharing.seats import WATCHER

if TYPE_CHECKING:
    from companion.app.main import App


def build(app: App, game_id: str) -> ft.View:
    """The seats of one game, those other devices hold shown as taken."""
    assert app.table is not None and app.ticket is not None
    access = app.table.access
    saved = app.store.load(game_id)
    device = app.ticket.device
    shown = seat_picker(access, saved, device, app.words)

    def pick(seat: str) -> Any:
        def picked(_: ft.Event[Any]) -> None:
            refused = take_seat(access, saved, device, seat, app.words)
            app.visit.seats_changed(game_id)
            if refused:
                notify(app.page, refused, error=True)
            app.show()

        return picked

    def choice(seat: SeatChoice, icon: ft.IconData | None = None) -> ft.Control:
        button = big_button(
            seat.title,
            pick(seat.seat),
            icon=icon,
            primary=seat.seat != WATCHER,
            disabled=seat.taken,
        )
        return ft.Column([button, ft.Text(seat.detail, size=14)], spacing=4)

    players = [
        ft.Row(
            [
                player_chip(saved.game.labels[seat.seat], seat.colour or ""),
                ft.Container(expand=True, content=choice(seat)),
            ]
        )
        for seat in shown.players
    ]
    view = screen(f"/game/{game_id}", spacing=14)
    view.data = SEAT_PICKER
    view.appbar = ft.AppBar(
        leading=ft.IconButton(
            ft.Icons.HOME, tooltip=app.say("app.home"), on_click=lambda _: app.go("/")
        ),
        title=ft.Text(app.say("app.seat.title")),
    )
    view.controls = [
        ft.Text(shown.game, size=18),
        section(app.say("app.seat.a_player"), *players),
        section(
            app.say("app.seat.or"),
            choice(shown.scorekeeper, ft.Icons.EDIT_NOTE),
            choice(shown.watcher, ft.Icons.VISIBILITY),
        ),
    ]
    return view


def seat_line(app: App, game_id: str) -> ft.Control | None:
    """On a shared table's game screen: who this device is, and a way to pick again."""
    if app.table is None or app.ticket is None:
        return None
    ticket = app.ticket
    said = seat_said(app.table.access, app.store.load(game_id), ticket.device, app.words)
    if said is None:
        return None

    def change(_: ft.Event[Any]) -> None:
        assert app.table is not None
        app.table.access.seats.leave(game_id, ticket.device)
        app.visit.seats_changed(game_id)
        app.show()

    return ft.Row(
        [
            ft.Text(said, size=14, expand=True),
            ft.TextButton(app.say("app.seat.change"), on_click=change, height=48),
        ]
    )
