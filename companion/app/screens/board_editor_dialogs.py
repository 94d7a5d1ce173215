"""The board editor's questions before a board is lost: saving over another board of the same
name (keep both is the filled, safe choice) and deleting the user's board.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import flet as ft

from companion.app.widgets import notify
from companion.boards import BoardError
from companion.boards.user import keep_both
from companion.play.game_words import say
from models.board import Board

if TYPE_CHECKING:
    from companion.app.screens.board_editor import BoardEditor


def ask_replace(editor: BoardEditor, board: Board, saved: Board) -> None:
    """Another board is saved under this one's name: replace it, keep both, or neither."""
    page = editor.app.page
    words = editor.words
    both = keep_both(board, editor.shelf.saved)

    def save_as(chosen: Board, replace: bool) -> None:
        page.pop_dialog()
        try:
            editor.shelf.save(chosen, replace=replace)
        except BoardError as error:
            notify(page, editor.sentence(error.message), error=True)
            return
        if chosen.name != editor.draft.name:
            editor.history.rename(chosen.name)
            editor.history.settle()
        editor.saved(chosen)

    page.show_dialog(
        ft.AlertDialog(
            title=ft.Text(say(words, "game.editor.replace_title", board=saved.name)),
            content=ft.Text(
                say(words, "game.editor.replace_text", board=saved.name, both=both.name),
                size=15,
            ),
            # The safe choice is the filled one: replacing a board loses it,
            # so that button is outlined in the error colour, never the default.
            actions=[
                ft.TextButton(
                    say(words, "game.attack.cancel"), on_click=lambda _: page.pop_dialog()
                ),
                ft.FilledButton(
                    say(words, "game.editor.keep_both"),
                    icon=ft.Icons.SAVE,
                    on_click=lambda _: save_as(both, replace=False),
                ),
                ft.OutlinedButton(
                    say(words, "game.editor.replace"),
                    icon=ft.Icons.WARNING_AMBER,
                    style=ft.ButtonStyle(color=ft.Colors.ERROR),
                    on_click=lambda _: save_as(board, True),
                ),
            ],
        )
    )


def ask_delete(editor: BoardEditor) -> None:
    """Ask before deleting the user's board the draft was started from."""
    page = editor.app.page
    words = editor.words
    board = editor.user_board()
    if board is None:
        return
    page.show_dialog(
        ft.AlertDialog(
            title=ft.Text(say(words, "game.editor.delete_title", board=board.name)),
            content=ft.Text(say(words, "game.editor.delete_text"), size=15),
            actions=[
                ft.TextButton(
                    say(words, "game.attack.cancel"), on_click=lambda _: page.pop_dialog()
                ),
                ft.FilledButton(
                    say(words, "game.editor.delete"),
                    icon=ft.Icons.DELETE_FOREVER,
                    on_click=lambda _: editor.delete(board),
                ),
            ],
        )
    )
