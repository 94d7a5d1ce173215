"""The table screen's correction by hand: its button, or who may correct where this device
may not, and its dialog. Whose energy may be corrected here and what the fields come to are
the play layer's (companion/play/correction.py); a refusal keeps what was typed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.sizes import TAP
from companion.app.widgets import NamedPicker, notify
from companion.play.correction import WHO_CAN, correctable, correction_entry
from companion.play.game_words import say
from models.commands import REASON_LIMIT

if TYPE_CHECKING:
    from companion.app.screens.table import TableScreen


def correction_tool(screen: TableScreen) -> ft.Control:
    """The tools card's correction: its button where this device may correct someone's
    energy, else the sentence saying where energy is corrected."""
    words = screen.words
    if not correctable(screen.session):
        return ft.Text(words.render(WHO_CAN), size=14)
    return ft.OutlinedButton(
        say(words, "game.tools.correct"),
        icon=ft.Icons.EDIT,
        height=TAP,
        on_click=lambda _: correction_dialog(screen),
    )


def correction_dialog(screen: TableScreen) -> None:
    """Fix a player's energy by hand, with a reason that goes in the log.

    Only the players this device may correct are offered, its own player first; a refused
    value, or a refusal of the record itself, keeps the dialog open with what was typed.
    """
    page = screen.app.page
    session = screen.session
    words = screen.words
    players = correctable(session)
    if not players:
        # The seats changed since the screen was drawn: say where energy is corrected.
        notify(page, words.render(WHO_CAN), error=True)
        return
    own = session.seat
    who = NamedPicker(
        say(words, "game.correct.player"),
        [(player, session.label(player)) for player in players],
        own if own in players else players[0],
        "correct-player",
        on_pick=page.update,
    )
    # Refusals wrap instead of being cut before the fix they name.
    amount = ft.TextField(
        label=say(words, "game.correct.change"),
        keyboard_type=ft.KeyboardType.NUMBER,
        error_max_lines=4,
    )
    reason = ft.TextField(
        label=say(words, "game.correct.reason"), max_length=REASON_LIMIT, error_max_lines=4
    )

    def save(_: ft.Event[Any]) -> None:
        entry = correction_entry(session, who.value, amount.value or "", reason.value or "")
        who.dropdown.error_text = None if entry.who is None else words.render(entry.who)
        amount.error = None if entry.change is None else words.render(entry.change)
        reason.error = None if entry.reason is None else words.render(entry.reason)
        if entry.command is not None:
            outcome = screen.turns.record([entry.command], None)
            if outcome.ok:
                page.pop_dialog()
                screen.after(outcome)
                return
            # Refused as it was recorded (the seats or the game changed): the form stays.
            amount.error = outcome.text(words)
        page.update()

    page.show_dialog(
        ft.AlertDialog(
            title=ft.Text(say(words, "game.correct.title")),
            content=ft.Column(
                [who.control, amount, reason],
                tight=True,
                spacing=10,
                horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
            ),
            actions=[
                ft.TextButton(
                    say(words, "game.attack.cancel"), on_click=lambda _: page.pop_dialog()
                ),
                ft.FilledButton(say(words, "game.correct.save"), on_click=save),
            ],
        )
    )
