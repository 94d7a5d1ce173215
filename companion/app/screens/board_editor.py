"""The board editor: a layout for the digital board, from a shipped one or the user's own board.

Spaces are added, dragged and removed on the canvas, paths drawn between them, territories
named and given a bonus; `models.board.Board` decides whether the result is a valid isle,
and it is saved under the user's boards. Shipped layouts are never changed: the editor
works on a copy. Every change to the draft can be undone and redone (`DraftHistory`), and a
saved user board can be deleted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.board_view import IsleCanvas
from companion.app.screens.board_editor_dialogs import ask_delete, ask_replace
from companion.app.screens.board_editor_territory import territory_card
from companion.app.theme import ACCENT_TEXT
from companion.app.widgets import SIZED, big_button, board_options, notify, screen, section
from companion.boards import BoardError, shipped_board, shipped_board_ids
from companion.boards.user import BoardExists, Shelf
from companion.engine.names import board_term
from companion.language import Message
from companion.play.board_draft import BoardDraft, DraftHistory
from companion.play.board_layout import Point, canvas_height
from companion.play.game_words import say
from models.board import Board

if TYPE_CHECKING:
    from companion.app.main import App

# The tools, by key, with their names as message ids.
TOOLS = (
    ("move", "game.editor.tool.move"),
    ("add", "game.editor.tool.add"),
    ("path", "game.editor.tool.path"),
    ("remove", "game.editor.tool.remove"),
)


def sources(shelf: Shelf) -> list[Board]:
    """Boards to start from: the shipped layouts, then the page's own (`shelf`: this
    device's, or a hosted table's)."""
    return [shipped_board(board_id) for board_id in shipped_board_ids()] + shelf.boards()


# --- the screen ----------------------------------------------------------------------------


def build(app: App) -> ft.View:
    """The board editor."""
    view = screen("/board-editor", spacing=10)
    view.data = SIZED
    BoardEditor(app, view).render()
    return view


class BoardEditor:
    """The draft and its history, the tool in hand, and the canvas that edits it."""

    def __init__(self, app: App, view: ft.View) -> None:
        self.app = app
        self.view = view
        # The device's language, read as the screen is built: a switch builds it again.
        self.words = words = app.words
        # Where the boards are kept: this device's folder, or a hosted table's rows.
        self.shelf = app.visit.boards
        self.boards = sources(self.shelf)
        self.history = DraftHistory(BoardDraft.from_board(self.boards[0], words), words)
        self.tool = "move"
        self.selected = self.draft.territories[0].id
        # The space a path starts from, while one is being drawn.
        self.path_start: str | None = None
        # Made once and changed in place, so a tap during a redraw is not lost.
        self.undo_button = ft.IconButton(ft.Icons.UNDO, on_click=self.undo)
        self.redo_button = ft.IconButton(ft.Icons.REDO, on_click=self.redo)
        view.appbar = ft.AppBar(
            title=ft.Text(say(words, "game.editor.title")),
            leading=ft.IconButton(
                ft.Icons.HOME,
                tooltip=say(words, "game.bar.home"),
                on_click=lambda _: self.app.go("/"),
            ),
            actions=[self.undo_button, self.redo_button],
        )
        width = min((app.page.width or 360) - 24, 760)
        self.isle = IsleCanvas(
            self.draft.sketch(),
            {},
            self.tapped,
            width,
            self.board_height,
            on_drag=self.dragged,
            on_drop=self.dropped,
            on_tap_sea=self.tapped_sea,
            words=words,
        )
        app.on_page_resize(self.isle.refit)

    def board_height(self, width: float) -> float:
        """The canvas height for a canvas width, on the page as it is now."""
        max_height = (self.app.page.height or 740) * 0.7
        return canvas_height(self.draft.sketch(), width, max_height, frame=True)

    @property
    def draft(self) -> BoardDraft:
        """The draft as it is now."""
        return self.history.draft

    # --- editing ------------------------------------------------------------------------

    def start_from(self, board_id: str) -> None:
        """Begin again from another board (Undo brings the edits so far back)."""
        self.history.start_from(next(b for b in self.boards if b.id == board_id))
        self.selected = self.draft.territories[0].id
        self.replaced()

    def undo(self, _: ft.Event[Any]) -> None:
        """Take back the newest change to the draft."""
        if self.history.undo() is not None:
            self.replaced()

    def redo(self, _: ft.Event[Any]) -> None:
        """Bring back the newest change undone."""
        if self.history.redo() is not None:
            self.replaced()

    def replaced(self) -> None:
        """After the draft is swapped: the chosen territory stays if it is still there."""
        self.path_start = None
        if self.selected not in {t.id for t in self.draft.territories}:
            self.selected = self.draft.territories[0].id
        self.refresh()

    def tapped(self, location: str) -> None:
        """A tap on a space: what it does depends on the tool."""
        if self.tool == "remove":
            self.history.remove_location(location)
        elif self.tool == "path":
            if self.path_start is None or self.path_start == location:
                self.path_start = None if self.path_start == location else location
            else:
                self.history.toggle_path(self.path_start, location)
                # Paths chain: the next tap goes on from here.
                self.path_start = location
        elif self.tool == "add":
            notify(self.app.page, say(self.words, "game.editor.add_where"))
            return
        self.refresh()

    def tapped_sea(self, point: Point) -> None:
        """A tap off every space: adds a space to the chosen territory with Add."""
        if self.tool == "add":
            self.history.add_location(self.selected, point)
        self.path_start = None
        self.refresh()

    def dragged(self, location: str, point: Point) -> None:
        """A space dragged with Move: only the canvas is redrawn while the finger moves."""
        if self.tool != "move":
            return
        self.history.drag(location, point)
        self.isle.redraw(self.draft.sketch())
        self.isle.send_drawing()

    def dropped(self) -> None:
        """A dragged space let go: the drag is one step; check the board again."""
        self.history.settle()
        if self.tool == "move":
            self.refresh()

    def typed(self) -> None:
        """After a keystroke in a name: only Undo and Redo change, so the field keeps its focus."""
        self.show_history()
        appbar = self.view.appbar
        assert appbar is not None, "the editor's view has its app bar"
        appbar.update()

    def save(self, _: ft.Event[Any]) -> None:
        """Check the board and save it under the user's boards; ask before replacing one."""
        try:
            board = self.draft.board()
            # Saving the board the draft was started from (or last saved as) updates it.
            self.shelf.save(board, replace=board.id == self.draft.source)
        except BoardExists as clash:
            ask_replace(self, board, clash.saved)
            return
        except BoardError as error:
            notify(self.app.page, self.sentence(error.message), error=True)
            return
        self.saved(board)

    def saved(self, board: Board) -> None:
        """After a save: the board is offered everywhere, and saving again updates it."""
        self.boards = sources(self.shelf)
        self.draft.source = board.id
        notify(self.app.page, say(self.words, "game.editor.saved", board=board.name))
        self.refresh()

    def user_board(self) -> Board | None:
        """The user's board the draft was started from, if it is one and still saved."""
        if self.draft.source in shipped_board_ids():
            return None
        return next((b for b in self.boards if b.id == self.draft.source), None)

    def delete(self, board: Board) -> None:
        """Delete a user board and start again from the first shipped layout."""
        page = self.app.page
        page.pop_dialog()
        try:
            self.shelf.delete(board.id)
        except BoardError as error:
            # Deleted meanwhile (another window): the list below is read again all the same.
            notify(page, self.sentence(error.message), error=True)
        else:
            first = shipped_board(shipped_board_ids()[0])
            said = say(self.words, "game.editor.deleted", board=board.name, first=board_term(first))
            notify(page, said)
            # One step like any start: Undo brings back the draft, to save again.
            self.history.start_from(first)
            self.selected = self.draft.territories[0].id
            self.path_start = None
        self.boards = sources(self.shelf)
        self.refresh()

    def sentence(self, problem: Message) -> str:
        """A board check's message (from `companion.boards`) as a sentence."""
        return say(self.words, "game.refused", reason=Message("game.editor.check", problem=problem))

    def refresh(self) -> None:
        """Redraw the screen after a change."""
        self.render()
        self.app.page.update()

    # --- drawing ------------------------------------------------------------------------

    def show_history(self) -> None:
        """Undo and Redo say what they would do, and are off when there is nothing to do."""
        words = self.words
        undo, redo = self.history.undo_message, self.history.redo_message
        self.undo_button.tooltip = (
            say(words, "game.bar.undo", what=undo) if undo else say(words, "game.bar.no_undo")
        )
        self.undo_button.disabled = undo is None
        self.redo_button.tooltip = (
            say(words, "game.bar.redo", what=redo) if redo else say(words, "game.bar.no_redo")
        )
        self.redo_button.disabled = redo is None

    def render(self) -> None:
        """Rebuild the screen from the draft."""
        self.show_history()
        words = self.words
        # The space a path starts from is pointed out first: a new draft (Undo, Start from) may
        # lack the one pointed out before, and redrawing would look for it.
        self.isle.show({}, {}, {}, (self.path_start,) if self.path_start else ())
        self.isle.redraw(self.draft.sketch())
        ids = {b.id for b in self.boards}
        start = ft.Semantics(
            identifier="editor-start",
            content=ft.Dropdown(
                label=say(words, "game.editor.start_from"),
                # A deleted board's draft (brought back by Undo) starts from none of the list.
                value=self.draft.source if self.draft.source in ids else None,
                options=board_options(self.boards),
                on_select=lambda e: self.start_from(e.control.value),
            ),
        )
        tools = ft.SegmentedButton(
            segments=[
                ft.Segment(value=key, label=ft.Text(say(words, tool))) for key, tool in TOOLS
            ],
            selected=[self.tool],
            # Four tools fit a 360 px phone only without the tick beside the chosen one.
            show_selected_icon=False,
            on_change=lambda e: self.choose_tool(e.control.selected[0]),
        )
        problem = self.draft.problem()
        sketch = self.draft.sketch()
        status = ft.Semantics(
            identifier="board-status",
            content=ft.Text(
                say(words, "game.refused", reason=problem)
                if problem
                else say(
                    words,
                    "game.editor.ready",
                    spaces=Message("game.editor.count.space", count=len(sketch.locations)),
                    territories=Message(
                        "game.editor.count.territory", count=len(sketch.territories)
                    ),
                    paths=Message("game.editor.count.path", count=len(sketch.paths)),
                ),
                size=15,
                color=ft.Colors.ERROR if problem else ACCENT_TEXT,
            ),
        )
        name = ft.TextField(
            label=say(words, "game.editor.board_name"),
            value=self.draft.name,
            on_change=lambda e: self.rename(e.control.value),
            on_blur=lambda _: self.history.settle(),
        )
        self.view.controls = [
            self.board_card(start),
            tools,
            ft.Text(say(words, TOOL_HELP[self.tool]), size=14),
            ft.Container(content=self.isle.control, border_radius=12),
            status,
            territory_card(self),
            section(
                say(words, "game.correct.save"),
                name,
                big_button(
                    say(words, "game.editor.save_board"),
                    self.save,
                    icon=ft.Icons.SAVE,
                    disabled=bool(problem),
                ),
            ),
        ]

    def rename(self, name: str) -> None:
        """The board's name typed: one step however many keys."""
        self.history.rename(name)
        self.typed()

    def board_card(self, start: ft.Control) -> ft.Control:
        """Which board the draft started from; a user board's can be deleted here."""
        words = self.words
        note = ft.Text(
            say(words, "game.editor.shipped_note"),
            size=13,
            color=ft.Colors.ON_SURFACE_VARIANT,
        )
        title = say(words, "game.editor.board")
        if self.user_board() is None:
            return section(title, start, note)
        note.value = say(words, "game.editor.user_note")
        delete = ft.OutlinedButton(
            say(words, "game.editor.delete_board"),
            icon=ft.Icons.DELETE_FOREVER,
            style=ft.ButtonStyle(color=ft.Colors.ERROR, icon_color=ft.Colors.ERROR),
            on_click=lambda _: ask_delete(self),
        )
        return section(title, start, note, delete)

    def choose_tool(self, tool: str) -> None:
        """Take another tool; a path being drawn is let go."""
        self.tool = tool
        self.path_start = None
        self.refresh()


# What each tool does, as message ids.
TOOL_HELP = {
    "move": "game.editor.help.move",
    "add": "game.editor.help.add",
    "path": "game.editor.help.path",
    "remove": "game.editor.help.remove",
}
