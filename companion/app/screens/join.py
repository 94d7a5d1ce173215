"""The code screen: all a shared table shows a device that has not given its code."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.theme import ACCENT_TEXT
from companion.app.widgets import big_button, screen
from companion.play.sharing.access import locked_out
from companion.play.sharing.codes import LENGTH

if TYPE_CHECKING:
    from companion.app.main import App

# Long enough for a code typed with spaces or dashes, or pasted from a link's end.
MAX_TYPED = 64


def opening() -> ft.View:
    """What shows for the moment a shared table reads the code this browser kept."""
    # The device's language is not known yet (it is read with the code): a symbol says it.
    view = screen("/", spacing=14)
    view.controls = [ft.Row([ft.ProgressRing(width=28, height=28), ft.Text("…", size=18)])]
    return view


def build(app: App) -> ft.View:
    """Ask for the table code; nothing of any game is on this screen."""
    field = ft.TextField(
        label=app.say("app.join.code"),
        hint_text=app.say("app.join.code_hint", length=LENGTH),
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
        limiter = app.visit.code_limiter
        client = app.client
        wait = limiter.wait_s(client)
        if wait <= 0:
            return
        button.disabled = True
        while wait > 0:
            problem.value = f"⚠ {locked_out(wait, app.words)}"
            problem.visible = True
            app.page.update()
            await asyncio.sleep(min(1.0, wait))
            wait = limiter.wait_s(client)
        button.disabled = False
        problem.value = app.say("app.join.try_again")
        app.page.update()

    def typed(_: ft.Event[Any]) -> None:
        # An old refusal goes once the code is being corrected.
        if problem.visible and not button.disabled:
            problem.visible = False
            problem.update()

    async def start(_: ft.Event[Any]) -> None:
        refused = await app.start_table()
        if refused is None:
            app.show()
            return
        problem.value = f"⚠ {refused}"
        problem.visible = True
        app.page.update()

    field.on_submit = join
    field.on_change = typed
    button = big_button(app.say("app.join.join"), join, icon=ft.Icons.LOGIN)
    view = screen("/", spacing=16)
    view.appbar = ft.AppBar(title=ft.Text(app.say("app.home.title")))
    view.controls = [
        ft.Text(app.say("app.join.title"), size=24, weight=ft.FontWeight.BOLD),
        ft.Text(app.say("app.join.how"), size=16),
        field,
        problem,
        button,
        ft.Text(
            app.say("app.join.stays"),
            size=14,
            color=ACCENT_TEXT,
        ),
    ]
    if app.visit.hosted:
        # A hosted server: anyone may start a table of their own.
        view.controls += [
            ft.Text(app.say("app.hosted.no_code"), size=16),
            big_button(app.say("app.hosted.start"), start, icon=ft.Icons.ADD, primary=False),
        ]
    return view
