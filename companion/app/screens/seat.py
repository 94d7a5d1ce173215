"""Who is this device in a shared game: one player, the scorekeeper, or a watcher."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.widgets import SEAT_PICKER, big_button, notify, player_chip, screen, section
from companion.play.bus import SEATS
from companion.play.sharing.seats import SCOREKEEPER, WATCHER

if TYPE_CHECKING:
    from companion.app.main import App


def build(app: App, game_id: str) -> ft.View:
    """The seats of one game, those other devices hold shown as taken."""
    assert app.table is not None and app.ticket is not None
    access = app.table.access
    saved = app.store.load(game_id)
    ticket = app.ticket
    names = {
        device.id: app.say("app.share.device", number=device.number) for device in access.devices()
    }
    taken = access.seats.taken(game_id)

    def pick(seat: str) -> Any:
        def picked(_: ft.Event[Any]) -> None:
            players = tuple(player.id for player in saved.setup.players)
            refused = access.seats.take(game_id, ticket.device, seat, players, app.words)
            app.visit.announce(SEATS, game_id, everyone=True)
            if refused:
                notify(app.page, refused, error=True)
            app.show()

        return picked

    def choice(seat: str, title: str, detail: str, icon: ft.IconData | None) -> ft.Control:
        holder = taken.get(seat)
        if holder is not None and holder != ticket.device:
            holder_name = names.get(holder) or app.say("app.seat.another_device")
            title = app.say("app.seat.taken_by", seat=title, device=holder_name)
        button = big_button(
            title,
            pick(seat),
            icon=icon,
            primary=seat not in (WATCHER,),
            disabled=holder is not None and holder != ticket.device,
        )
        return ft.Column([button, ft.Text(detail, size=14)], spacing=4)

    players = []
    for player in saved.setup.players:
        if player.bot:
            continue
        players.append(
            ft.Row(
                [
                    player_chip(player.label, player.colour),
                    ft.Container(
                        expand=True,
                        content=choice(
                            player.id,
                            player.label,
                            app.say("app.seat.records_player", player=player.label),
                            None,
                        ),
                    ),
                ]
            )
        )
    view = screen(f"/game/{game_id}", spacing=14)
    view.data = SEAT_PICKER
    view.appbar = ft.AppBar(
        leading=ft.IconButton(
            ft.Icons.HOME, tooltip=app.say("app.home"), on_click=lambda _: app.go("/")
        ),
        title=ft.Text(app.say("app.seat.title")),
    )
    view.controls = [
        ft.Text(
            app.say("app.seat.game", players=tuple(p.label for p in saved.setup.players)),
            size=18,
        ),
        section(app.say("app.seat.a_player"), *players),
        section(
            app.say("app.seat.or"),
            choice(
                SCOREKEEPER,
                app.say("app.seat.scorekeeper"),
                app.say("app.seat.scorekeeper_note"),
                ft.Icons.EDIT_NOTE,
            ),
            choice(
                WATCHER,
                app.say("app.seat.watch"),
                app.say("app.seat.watch_note"),
                ft.Icons.VISIBILITY,
            ),
        ),
    ]
    return view


def seat_line(app: App, game_id: str) -> ft.Control | None:
    """On a shared table's game screen: who this device is, and a way to pick again."""
    if app.table is None or app.ticket is None:
        return None
    ticket = app.ticket
    seat = app.table.access.seats.seat_of(game_id, ticket.device)
    if seat is None:
        return None
    labels = app.store.load(game_id).game.labels

    def change(_: ft.Event[Any]) -> None:
        assert app.table is not None
        app.table.access.seats.leave(game_id, ticket.device)
        app.visit.announce(SEATS, game_id, everyone=True)
        app.show()

    return ft.Row(
        [
            ft.Text(
                app.say("app.seat.records_everyone")
                if seat == SCOREKEEPER
                else app.say("app.seat.records_for", player=labels.get(seat, seat)),
                size=14,
                expand=True,
            ),
            ft.TextButton(app.say("app.seat.change"), on_click=change, height=48),
        ]
    )
