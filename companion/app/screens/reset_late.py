"""The Energy and Reset screen's menu of what the table forgot to enter: a summon, a removal
or a Wyrm swap made this round that nobody recorded, and starting the draft over. What each
dialog asks and says comes from the play layer (companion/play/late_records.py); this module
draws it and sends its values back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.sizes import TAP
from companion.app.widgets import NamedPicker, notify
from companion.play.game_words import say
from companion.play.late_records import LateForm, LateRecords

if TYPE_CHECKING:
    from companion.app.screens.reset import ResetScreen

# The dialogs' width where there is room; a phone's is narrower and the dialog follows it.
DIALOG_WIDTH = 420


class LateMenu:
    """The screen's menu of records made late, and their dialogs."""

    def __init__(self, screen: ResetScreen) -> None:
        self.screen = screen
        self.records = LateRecords(screen.turns, screen.words)

    def menu(self) -> ft.Control:
        """The app bar's menu: a summon, a removal or a swap nobody entered, start over."""
        words = self.screen.words
        return ft.PopupMenuButton(
            icon=ft.Icons.MORE_VERT,
            tooltip=say(words, "game.late.menu"),
            # One tap target (48 px), as every control.
            size_constraints=ft.BoxConstraints(min_width=TAP, min_height=TAP),
            padding=12,
            items=[
                ft.PopupMenuItem(
                    content=say(words, "game.late.summon_title"),
                    icon=ft.Icons.ADD_CIRCLE_OUTLINE,
                    on_click=lambda _: self.dialog(self.records.summon()),
                ),
                ft.PopupMenuItem(
                    content=say(words, "game.late.removal_title"),
                    icon=ft.Icons.REMOVE_CIRCLE_OUTLINE,
                    on_click=lambda _: self.dialog(self.records.removal()),
                ),
                ft.PopupMenuItem(
                    content=say(words, "game.late.swap_title"),
                    icon=ft.Icons.SWAP_HORIZ,
                    on_click=lambda _: self.dialog(self.records.swap()),
                ),
                ft.PopupMenuItem(
                    content=say(words, "game.late.start_over"),
                    icon=ft.Icons.RESTART_ALT,
                    on_click=lambda _: self.start_over_dialog(),
                ),
            ],
        )

    def dialog(self, form: LateForm) -> None:
        """Show a late record's dialog: what it will do (or why not) as the fields change."""
        screen = self.screen
        page = screen.app.page
        words = screen.words
        preview = ft.Text(size=14)
        record = ft.FilledButton(say(words, "game.late.record"))

        def values() -> list[str]:
            return [picker.value for picker in pickers]

        def said() -> None:
            shown = self.records.preview(form, values())
            preview.value = shown.said
            preview.color = ft.Colors.ERROR if shown.refused else None
            record.disabled = shown.refused
            page.update()

        # Each named for a screen reader by its question.
        pickers = [
            NamedPicker(field.label, field.choices, field.value, field.name, on_pick=said)
            for field in form.fields
        ]

        def save(_: ft.Event[Any]) -> None:
            outcome = self.records.record(form, values())
            if not outcome.ok:
                preview.value = outcome.text(words)
                preview.color = ft.Colors.ERROR
                page.update()
                return
            page.pop_dialog()
            notify(page, outcome.text(words))
            screen.changed_record()

        record.on_click = save
        page.show_dialog(
            ft.AlertDialog(
                title=ft.Text(form.title),
                content=ft.Column(
                    [ft.Text(form.help, size=14), *(picker.control for picker in pickers), preview],
                    tight=True,
                    spacing=12,
                    width=DIALOG_WIDTH,
                    # Each field as wide as the dialog, and no taller than itself.
                    horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
                ),
                actions=[
                    ft.TextButton(say(words, "game.attack.cancel"), on_click=self.close),
                    record,
                ],
            )
        )
        said()

    def start_over_dialog(self) -> None:
        """Throw the draft away, after asking: every device starts this Energy and Reset over."""
        screen = self.screen
        words = screen.words

        def confirmed(_: ft.Event[Any]) -> None:
            screen.app.page.pop_dialog()
            screen.start_over()

        screen.app.page.show_dialog(
            ft.AlertDialog(
                title=ft.Text(say(words, "game.late.start_over")),
                content=ft.Text(say(words, "game.late.start_over_help"), size=14),
                actions=[
                    ft.FilledButton(say(words, "game.attack.cancel"), on_click=self.close),
                    ft.TextButton(say(words, "game.late.start_over"), on_click=confirmed),
                ],
            )
        )

    def close(self, _: ft.Event[Any]) -> None:
        """Close the dialog shown."""
        self.screen.app.page.pop_dialog()
