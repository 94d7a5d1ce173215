"""The code screen: all a shared table shows a device that has not given its code."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.sharing.access import locked_out
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
        capitalization=ft.TextCapitalization.CHARACTERS,
        text_size=22,
        autocorrect=False,
        enable_suggestions=False,
    )
    problem = ft.Text(f"⚠ {app.refused}" if app.refused else "", size=15, visible=bool(app.refused))

    async def join(_: ft.Event[Any]) -> None:
        if button.disabled:
            return
        refused = await app.admit((field.value or "")[:MAX_TYPED])
        if refused is None:
            app.show()
            return
        problem.value = f"⚠ {refused}"
        problem.visible = True
        # What was typed stays, selected: typing replaces it, a tap in it corrects it.
        field.selection = ft.TextSelection(0, len(field.value or ""))
        app.page.update()
        await field.focus()
        await count_down()

    async def count_down() -> None:
        """While wrong tries keep this address out: Join disabled, the seconds counting down."""
        assert app.table is not None
        limiter = app.table.access.limiter
        client = app.page.client_ip or ""
        wait = limiter.wait_s(client)
        if wait <= 0:
            return
        button.disabled = True
        while wait > 0:
            problem.value = f"⚠ {locked_out(wait)}"
            problem.visible = True
            app.page.update()
            await asyncio.sleep(min(1.0, wait))
            wait = limiter.wait_s(client)
        button.disabled = False
        problem.value = "You can try a code again now."
        app.page.update()

    def typed(_: ft.Event[Any]) -> None:
        # An old refusal goes once the code is being corrected.
        if problem.visible and not button.disabled:
            problem.visible = False
            problem.update()

    field.on_submit = join
    field.on_change = typed
    button = big_button("Join", join, icon=ft.Icons.LOGIN)
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
        button,
        ft.Text(
            "A device that has joined stays in until the host makes a new code.",
            size=14,
            color=ACCENT_TEXT,
        ),
    ]
    return view
