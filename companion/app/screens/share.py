"""The host's Share panel: the Join QR code and links, who is connected and as whom, a new code."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.sizes import TAP
from companion.app.theme import ACCENT_TEXT
from companion.app.widgets import SHARE_PANEL, big_button, screen, section
from companion.play.share_panel import Code, FreeSeat, SharePanel, share_panel
from companion.play.sharing.links import png_qr

if TYPE_CHECKING:
    from companion.app.main import App

QR_SIZE = 260


def build(app: App) -> ft.View:
    """The panel the host shows the table: scan to join, or type the code."""
    assert app.table is not None
    links = app.table
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

    panel = share_panel(links, app.store, None if app.ticket is None else app.ticket.device)
    say = app.words.render
    view.controls = [
        ft.Text(app.say("app.share.scan"), size=16),
        ft.Row(
            [
                ft.Semantics(
                    label=say(panel.qr_said),
                    content=ft.Image(
                        src=png_qr(links.join), width=QR_SIZE, height=QR_SIZE, fit=ft.BoxFit.CONTAIN
                    ),
                )
            ],
            alignment=ft.MainAxisAlignment.CENTER,
        ),
        section(app.say("app.share.join_title"), *_code(app, panel.join, 30)),
        section(app.say("app.share.watch_title"), *_code(app, panel.watch, 22)),
        section(app.say("app.share.devices"), *_device_lines(app, panel)),
        big_button(app.say("app.share.make_code"), ask_renew, icon=ft.Icons.REFRESH, primary=False),
        ft.Text(
            app.say("app.share.plain_http"),
            size=14,
            color=ACCENT_TEXT,
        ),
    ]
    return view


def _code(app: App, code: Code, size: int) -> list[ft.Control]:
    """A code, big, and its link below it."""
    say = app.words.render
    return [_said(code.code, say(code.code_said), size), _said(code.link, say(code.link_said), 14)]


def _said(text: str, label: str, size: int) -> ft.Control:
    """A code or link on the panel, with a label a screen reader reads out."""
    bold = ft.FontWeight.BOLD if size > 20 else None
    return ft.Semantics(
        label=label,
        container=True,
        content=ft.Text(text, size=size, weight=bold, selectable=size <= 20),
    )


def _device_lines(app: App, panel: SharePanel) -> list[ft.Control]:
    """One line per device let in, and the host's Free under it for each player's seat."""
    say = app.words.render
    lines: list[ft.Control] = []
    for device in panel.devices:
        held = ", ".join(say(seat) for seat in device.seats)
        parts = [say(device.name), say(device.role), say(device.state), held]
        lines.append(ft.Text(" · ".join(parts), size=15))
        lines.extend(
            ft.TextButton(
                say(free.label),
                icon=ft.Icons.EVENT_SEAT,
                # No fixed height: the label wraps on a phone, and the theme keeps the button
                # at least 48 px tall.
                on_click=lambda _, f=free: _free(app, f),
            )
            for free in device.frees
        )
    return lines or [ft.Text(app.say("app.share.no_device"), size=15)]


def _free(app: App, free: FreeSeat) -> None:
    """Free a device's seat in a game (the host's answer to a seat held by a lost phone)."""
    app.free_seat(free.game_id, free.device)
    app.show()
