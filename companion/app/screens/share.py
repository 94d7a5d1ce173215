"""The host's Share panel: the Join QR code and links, who is connected and as whom, a new code."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.screens.home import players_of
from companion.app.sharing.access import Role
from companion.app.sharing.codes import grouped
from companion.app.sharing.links import png_qr
from companion.app.sharing.seats import WATCHER, seat_name
from companion.app.sizes import TAP
from companion.app.theme import ACCENT_TEXT
from companion.app.widgets import big_button, screen, section
from companion.store.errors import StoreError

if TYPE_CHECKING:
    from companion.app.main import App

QR_SIZE = 260
ROLE_WORDS = {Role.HOST: "host", Role.JOIN: "joined", Role.WATCH: "watch link"}


def build(app: App) -> ft.View:
    """The panel the host shows the table: scan to join, or type the code."""
    from companion.app.main import SHARE_PANEL

    assert app.table is not None
    links = app.table
    access = links.access
    view = screen("/share", spacing=14)
    view.data = SHARE_PANEL
    view.appbar = ft.AppBar(
        leading=ft.IconButton(ft.Icons.HOME, tooltip="Home", on_click=lambda _: app.go("/")),
        title=ft.Text("Share this table"),
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
                title=ft.Text("Make a new code?"),
                content=ft.Text(
                    "Every device but this one goes back to the code screen and needs the new "
                    "code; their seats are given up (this device keeps its own).",
                    size=15,
                ),
                actions=[
                    ft.TextButton(
                        "Keep this code", on_click=lambda _: app.page.pop_dialog(), height=TAP
                    ),
                    ft.FilledButton("New code", icon=ft.Icons.REFRESH, on_click=renew, height=TAP),
                ],
                on_dismiss=closed,
            )
        )

    view.controls = [
        ft.Text("Scan to join, or open the link and type the code.", size=16),
        ft.Row(
            [
                ft.Semantics(
                    label=f"QR code of the Join link {links.join}",
                    content=ft.Image(
                        src=png_qr(links.join), width=QR_SIZE, height=QR_SIZE, fit=ft.BoxFit.CONTAIN
                    ),
                )
            ],
            alignment=ft.MainAxisAlignment.CENTER,
        ),
        section(
            "Join: take a seat and record",
            _said(grouped(access.join_code), f"Join code: {grouped(access.join_code)}", 30),
            _said(links.join, f"Join link: {links.join}", 14),
        ),
        section(
            "Watch: follow the games, record nothing",
            _said(grouped(access.watch_code), f"Watch code: {grouped(access.watch_code)}", 22),
            _said(links.watch, f"Watch link: {links.watch}", 14),
        ),
        section("Devices", *_device_lines(app)),
        big_button("Make a new code", ask_renew, icon=ft.Icons.REFRESH, primary=False),
        ft.Text(
            "Plain HTTP on this network: anyone who has the code, or sees it on the way, gets in. "
            "Share it only with the table.",
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
            game = players_of([p.label for p in saved.setup.players])
            seats.append(f"{seat_name(seat, saved.game.labels)} in {game}'s game")
            if seat != WATCHER:
                frees.append(
                    ft.TextButton(
                        f"Free this seat: {seat_name(seat, saved.game.labels)} in {game}'s game",
                        icon=ft.Icons.EVENT_SEAT,
                        # No fixed height: the label wraps on a phone, and the theme keeps
                        # the button at least 48 px tall.
                        on_click=lambda _, g=game_id, d=device.id: _free(app, g, d),
                    )
                )
        state = "● connected" if device.connections else "○ not connected"
        you = " (this device)" if app.ticket is not None and device.id == app.ticket.device else ""
        lines.append(
            ft.Text(
                f"{device.name}{you} · {ROLE_WORDS[device.role]} · {state}"
                + (f" · {', '.join(seats)}" if seats else " · no seat yet"),
                size=15,
            )
        )
        lines.extend(frees)
    return lines or [ft.Text("No device has joined yet.", size=15)]


def _free(app: App, game_id: str, device: str) -> None:
    """Free a device's seat in a game (the host's answer to a seat held by a lost phone)."""
    app.free_seat(game_id, device)
    app.show()
