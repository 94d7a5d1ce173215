"""The code screen: all a shared table shows a device that has not given its code."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.sharing.codes import LENGTH
from companion.app.theme import ACCENT_TEXT
from companion.app.widgets import big_button, screen

if TYPE_CHECKING:
    from companion.app.main import App

# Long enough for a code typed with spaces or dashes, or pasted from a link's end.
MAX_TYPED = 64


def opening() -> ft.View:
    """What shows for the moment a shared table reads the code this browser kept."""
    view = screen("/", spacing=14)
    view.controls = [ft.Text("Opening the table…", size=18)]
    return view


def build(app: App) -> ft.View:
    """Ask for the table code; nothing of any game is on this screen."""
    field = ft.TextField(
        label="Table code",
        hint_text=f"{LENGTH} letters and digits",
        autofocus=True,
        max_length=MAX_TYPED,
        capitalization=ft.TextCapitalization.CHARACTERS,
        text_size=22,
        autocorrect=False,
        enable_suggestions=False,
    )
    problem = ft.Text(f"⚠ {app.refused}" if app.refused else "", size=15, visible=bool(app.refused))

    async def join(_: ft.Event[Any]) -> None:
        refused = await app.admit(field.value or "")
        if refused is None:
            app.show()
            return
        problem.value = f"⚠ {refused}"
        problem.visible = True
        field.value = ""
        app.page.update()

    field.on_submit = join
    view = screen("/", spacing=16)
    view.appbar = ft.AppBar(title=ft.Text("Summoner's Isle"))
    view.controls = [
        ft.Text("Join the table", size=24, weight=ft.FontWeight.BOLD),
        ft.Text(
            "Type the table code from the host's screen, or scan its QR code with this "
            "device's camera.",
            size=16,
        ),
        field,
        problem,
        big_button("Join", join, icon=ft.Icons.LOGIN),
        ft.Text(
            "A device that has joined stays in until the host makes a new code.",
            size=14,
            color=ACCENT_TEXT,
        ),
    ]
    return view
