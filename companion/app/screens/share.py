"""The host's Share panel: the Join QR code and links, who is connected and as whom, a new code."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.sizes import TAP
from companion.app.theme import ACCENT_TEXT
from companion.app.widgets import SHARE_PANEL, big_button, screen, section
from companion.play.sharing.access import Role
from companion.play.sharing.codes import grouped
from companion.play.sharing.links import png_qr
from companion.play.sharing.seats import WATCHER, seat_name
from companion.store.errors import StoreError

if TYPE_CHECKING:
    from companion.app.main import App

QR_SIZE = 260
# How a device came in, as its line on the panel says it.
ROLE_WORDS = {
    Role.HOST: "app.share.role.host",
    Role.JOIN: "app.share.role.join",
    Role.WATCH: "app.share.role.watch",
}


def build(app: App) -> ft.View:
    """The panel the host shows the table: scan to join, or type the code."""
    assert app.table is not None
    links = app.table
    access = links.access
    view = screen("/share", spacing=14)
    view.data = SHARE_PANEL
    view.appbar = ft.AppBar(
        leading=ft.IconButton(
            ft.Icons.HOME, tooltip=app.say("app.home"), on_click=lambda _: app.go("/")
        ),
        title=ft.Text(app.say("app.home.share")),
    )

    renewed: list[bool] = []

    def renew(_: ft.Event[Any]) -> None:
        app.renew_code()
        renewed.append(True)
        app.page.pop_dialog()

    def closed(_: ft.Event[Any]) -> None:
        # Drawn anew once the dialog has gone: a panel drawn while it closes keeps it open.
        if renewed:
            app.show()

    def ask_renew(_: ft.Event[Any]) -> None:
        app.page.show_dialog(
            ft.AlertDialog(
                title=ft.Text(app.say("app.share.renew_title")),
                content=ft.Text(app.say("app.share.renew_note"), size=15),
                actions=[
                    ft.TextButton(
                        app.say("app.share.keep_code"),
                        on_click=lambda _: app.page.pop_dialog(),
                        height=TAP,
                    ),
                    ft.FilledButton(
                        app.say("app.share.new_code"),
                        icon=ft.Icons.REFRESH,
                        on_click=renew,
                        height=TAP,
                    ),
                ],
                on_dismiss=closed,
            )
        )

    view.controls = [
        ft.Text(app.say("app.share.scan"), size=16),
        ft.Row(
            [
                ft.Semantics(
                    label=app.say("app.share.qr", link=links.join),
                    content=ft.Image(
                        src=png_qr(links.join), width=QR_SIZE, height=QR_SIZE, fit=ft.BoxFit.CONTAIN
                    ),
                )
            ],
            alignment=ft.MainAxisAlignment.CENTER,
        ),
        section(
            app.say("app.share.join_title"),
            _said(
                grouped(access.join_code),
                app.say("app.share.join_code", code=grouped(access.join_code)),
                30,
            ),
            _said(links.join, app.say("app.share.join_link", link=links.join), 14),
        ),
        section(
            app.say("app.share.watch_title"),
            _said(
                grouped(access.watch_code),
                app.say("app.share.watch_code", code=grouped(access.watch_code)),
                22,
            ),
            _said(links.watch, app.say("app.share.watch_link", link=links.watch), 14),
        ),
        section(app.say("app.share.devices"), *_device_lines(app)),
        big_button(app.say("app.share.make_code"), ask_renew, icon=ft.Icons.REFRESH, primary=False),
        ft.Text(
            app.say("app.share.plain_http"),
            size=14,
            color=ACCENT_TEXT,
        ),
    ]
    return view


def _said(text: str, label: str, size: int) -> ft.Control:
    """A code or link on the panel, with a label a screen reader reads out."""
    bold = ft.FontWeight.BOLD if size > 20 else None
    return ft.Semantics(
        label=label,
        container=True,
        content=ft.Text(text, size=size, weight=bold, selectable=size <= 20),
    )


def _device_lines(app: App) -> list[ft.Control]:
    """One line per device let in: its name, how it came in, whether it is connected, its seats."""
    assert app.table is not None
    access = app.table.access
    lines: list[ft.Control] = []
    for device in access.devices():
        seats = []
        frees: list[ft.Control] = []
        for game_id, seat in access.seats.of_device(device.id).items():
            try:
                saved = app.store.load(game_id)
            except StoreError:
                continue
            game = tuple(p.label for p in saved.setup.players)
            who = seat_name(seat, saved.game.labels, app.words)
            seats.append(app.say("app.share.seat_in", seat=who, players=game))
            if seat != WATCHER:
                frees.append(
                    ft.TextButton(
                        app.say("app.share.free", seat=who, players=game),
                        icon=ft.Icons.EVENT_SEAT,
                        # No fixed height: the label wraps on a phone, and the theme keeps
                        # the button at least 48 px tall.
                        on_click=lambda _, g=game_id, d=device.id: _free(app, g, d),
                    )
                )
        state = app.say("app.share.connected" if device.connections else "app.share.not_connected")
        name = app.say("app.share.device", number=device.number)
        if app.ticket is not None and device.id == app.ticket.device:
            name = app.say("app.share.this_device", device=name)
        held = ", ".join(seats) if seats else app.say("app.share.no_seat")
        lines.append(
            ft.Text(" · ".join([name, app.say(ROLE_WORDS[device.role]), state, held]), size=15)
        )
        lines.extend(frees)
    return lines or [ft.Text(app.say("app.share.no_device"), size=15)]


def _free(app: App, game_id: str, device: str) -> None:
    """Free a device's seat in a game (the host's answer to a seat held by a lost phone)."""
    app.free_seat(game_id, device)
    app.show()
