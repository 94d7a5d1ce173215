"""The board editor's territory card: the territory new spaces go to, its name and bonus, a
new territory, removing one. Every change goes through the editor's `DraftHistory`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.widgets import section
from companion.language import Message
from companion.play.game_words import say
from models.rules import DOMINATION_BONUS_RANGE

if TYPE_CHECKING:
    from companion.app.screens.board_editor import BoardEditor


def territory_card(editor: BoardEditor) -> ft.Control:
    """The territory new spaces go to: its name and bonus; a new one; removing one."""
    low, high = DOMINATION_BONUS_RANGE
    territory = editor.draft.territory(editor.selected)
    words = editor.words

    def rename(value: str) -> None:
        editor.history.rename_territory(territory.id, value)
        editor.typed()

    def renamed(_: ft.Event[Any]) -> None:
        editor.history.settle()
        editor.refresh()

    def set_bonus(value: str) -> None:
        editor.history.set_bonus(territory.id, int(value))
        editor.refresh()

    def select(territory_id: str) -> None:
        editor.selected = territory_id
        editor.refresh()

    def add(_: ft.Event[Any]) -> None:
        name = editor.history.territory_name(len(editor.draft.territories) + 1)
        editor.selected = editor.history.add_territory(name)
        editor.tool = "add"
        editor.refresh()

    def remove(_: ft.Event[Any]) -> None:
        editor.history.remove_territory(territory.id)
        editor.selected = editor.draft.territories[0].id
        editor.refresh()

    return section(
        say(words, "game.editor.territory"),
        ft.Semantics(
            identifier="editor-territory",
            content=ft.Dropdown(
                label=say(words, "game.editor.goes_to"),
                value=territory.id,
                options=[
                    ft.DropdownOption(
                        key=t.id,
                        text=say(
                            words,
                            "game.editor.territory_option",
                            territory=t.name,
                            bonus=t.bonus,
                            spaces=Message("game.editor.count.space", count=len(t.locations)),
                        ),
                    )
                    for t in editor.draft.territories
                ],
                on_select=lambda e: select(e.control.value),
            ),
        ),
        ft.Row(
            [
                ft.TextField(
                    label=say(words, "game.editor.name"),
                    value=territory.name,
                    expand=True,
                    on_change=lambda e: rename(e.control.value),
                    on_blur=renamed,
                ),
                ft.Dropdown(
                    label=say(words, "game.editor.bonus"),
                    width=96,
                    value=str(territory.bonus),
                    options=[ft.DropdownOption(key=str(b)) for b in range(low, high + 1)],
                    on_select=lambda e: set_bonus(e.control.value),
                ),
            ]
        ),
        ft.Row(
            [
                ft.OutlinedButton(
                    say(words, "game.editor.new_territory"), icon=ft.Icons.ADD, on_click=add
                ),
                ft.OutlinedButton(
                    say(words, "game.editor.remove_territory"),
                    icon=ft.Icons.DELETE_OUTLINE,
                    on_click=remove,
                ),
            ],
            wrap=True,
        ),
    )
