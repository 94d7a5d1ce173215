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

from companion.app.board_draft import BoardDraft, DraftHistory
from companion.app.board_geometry import Point, canvas_height
from companion.app.board_view import IsleCanvas
from companion.app.theme import ACCENT_TEXT
from companion.app.widgets import SIZED, big_button, board_options, notify, screen, section
from companion.boards import BoardError, shipped_board, shipped_board_ids
from companion.boards.user import (
    BoardExists,
    delete_user_board,
    keep_both,
    save_user_board,
    user_boards,
)
from models.board import Board
from models.rules import DOMINATION_BONUS_RANGE

if TYPE_CHECKING:
    from companion.app.main import App

TOOLS = (("move", "Move"), ("add", "Add"), ("path", "Paths"), ("remove", "Remove"))


def sources() -> list[Board]:
    """Boards to start from: the shipped layouts, then the user's boards."""
    return [shipped_board(board_id) for board_id in shipped_board_ids()] + user_boards()


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
        self.boards = sources()
        self.history = DraftHistory(BoardDraft.from_board(self.boards[0]))
        self.tool = "move"
        self.selected = self.draft.territories[0].id
        # The space a path starts from, while one is being drawn.
        self.path_start: str | None = None
        # Made once and changed in place, so a tap during a redraw is not lost.
        self.undo_button = ft.IconButton(ft.Icons.UNDO, on_click=self.undo)
        self.redo_button = ft.IconButton(ft.Icons.REDO, on_click=self.redo)
        view.appbar = ft.AppBar(
            title=ft.Text("Board editor"),
            leading=ft.IconButton(
                ft.Icons.HOME, tooltip="Home", on_click=lambda _: self.app.go("/")
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
            notify(self.app.page, "Tap the sea or the land beside the spaces to add one.")
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
        self.isle.canvas.update()

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
            save_user_board(board, replace=board.id == self.draft.source)
        except BoardExists as clash:
            self.confirm_replace(board, clash.saved)
            return
        except BoardError as error:
            notify(self.app.page, _sentence(str(error)), error=True)
            return
        self.saved(board)

    def confirm_replace(self, board: Board, saved: Board) -> None:
        """Another board is saved under this one's name: replace it, keep both, or neither."""
        page = self.app.page
        both = keep_both(board)

        def save_as(chosen: Board, replace: bool) -> None:
            page.pop_dialog()
            try:
                save_user_board(chosen, replace=replace)
            except BoardError as error:
                notify(page, _sentence(str(error)), error=True)
                return
            if chosen.name != self.draft.name:
                self.history.rename(chosen.name)
                self.history.settle()
            self.saved(chosen)

        page.show_dialog(
            ft.AlertDialog(
                title=ft.Text(f"Replace {saved.name}?"),
                content=ft.Text(
                    f"{saved.name} is saved under the same name. Replace it with this board, "
                    f"or keep both and save this one as {both.name}.",
                    size=15,
                ),
                actions=[
                    ft.TextButton("Cancel", on_click=lambda _: page.pop_dialog()),
                    ft.TextButton("Keep both", on_click=lambda _: save_as(both, replace=False)),
                    ft.FilledButton(
                        "Replace", icon=ft.Icons.SAVE, on_click=lambda _: save_as(board, True)
                    ),
                ],
            )
        )

    def saved(self, board: Board) -> None:
        """After a save: the board is offered everywhere, and saving again updates it."""
        self.boards = sources()
        self.draft.source = board.id
        notify(self.app.page, f"Saved {board.name}: New game offers it for the digital board.")
        self.refresh()

    def user_board(self) -> Board | None:
        """The user's board the draft was started from, if it is one and still saved."""
        if self.draft.source in shipped_board_ids():
            return None
        return next((b for b in self.boards if b.id == self.draft.source), None)

    def confirm_delete(self, _: ft.Event[Any]) -> None:
        """Ask before deleting the user's board the draft was started from."""
        page = self.app.page
        board = self.user_board()
        if board is None:
            return
        page.show_dialog(
            ft.AlertDialog(
                title=ft.Text(f"Delete {board.name}?"),
                content=ft.Text(
                    "It goes from your boards. Games played on it keep their own copy.", size=15
                ),
                actions=[
                    ft.TextButton("Cancel", on_click=lambda _: page.pop_dialog()),
                    ft.FilledButton(
                        "Delete",
                        icon=ft.Icons.DELETE_FOREVER,
                        on_click=lambda _: self.delete(board),
                    ),
                ],
            )
        )

    def delete(self, board: Board) -> None:
        """Delete a user board and start again from the first shipped layout."""
        page = self.app.page
        page.pop_dialog()
        try:
            delete_user_board(board.id)
        except BoardError as error:
            # Deleted meanwhile (another window): the list below is read again all the same.
            notify(page, _sentence(str(error)), error=True)
        else:
            first = shipped_board(shipped_board_ids()[0])
            notify(page, f"Deleted {board.name}. Starting again from {first.name}.")
            # One step like any start: Undo brings back the draft, to save again.
            self.history.start_from(first)
            self.selected = self.draft.territories[0].id
            self.path_start = None
        self.boards = sources()
        self.refresh()

    def refresh(self) -> None:
        """Redraw the screen after a change."""
        self.render()
        self.app.page.update()

    # --- drawing ------------------------------------------------------------------------

    def show_history(self) -> None:
        """Undo and Redo say what they would do, and are off when there is nothing to do."""
        undo, redo = self.history.undo_label, self.history.redo_label
        self.undo_button.tooltip = f"Undo: {undo}" if undo else "Nothing to undo"
        self.undo_button.disabled = undo is None
        self.redo_button.tooltip = f"Redo: {redo}" if redo else "Nothing to redo"
        self.redo_button.disabled = redo is None

    def render(self) -> None:
        """Rebuild the screen from the draft."""
        self.show_history()
        # The space a path starts from is pointed out first: a new draft (Undo, Start from) may
        # lack the one pointed out before, and redrawing would look for it.
        self.isle.show({}, {}, {}, (self.path_start,) if self.path_start else ())
        self.isle.redraw(self.draft.sketch())
        ids = {b.id for b in self.boards}
        start = ft.Semantics(
            identifier="editor-start",
            content=ft.Dropdown(
                label="Start from",
                # A deleted board's draft (brought back by Undo) starts from none of the list.
                value=self.draft.source if self.draft.source in ids else None,
                options=board_options(self.boards),
                on_select=lambda e: self.start_from(e.control.value),
            ),
        )
        tools = ft.SegmentedButton(
            segments=[ft.Segment(value=key, label=ft.Text(label)) for key, label in TOOLS],
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
                _sentence(problem)
                if problem
                else f"Ready for the digital board: {len(sketch.locations)} spaces in "
                f"{len(sketch.territories)} territories, {len(sketch.paths)} paths.",
                size=15,
                color=ft.Colors.ERROR if problem else ACCENT_TEXT,
            ),
        )
        name = ft.TextField(
            label="Board name",
            value=self.draft.name,
            on_change=lambda e: self.rename(e.control.value),
            on_blur=lambda _: self.history.settle(),
        )
        self.view.controls = [
            self.board_card(start),
            tools,
            ft.Text(TOOL_HELP[self.tool], size=14),
            ft.Container(content=self.isle.control, border_radius=12),
            status,
            self.territory_card(),
            section(
                "Save",
                name,
                big_button("Save board", self.save, icon=ft.Icons.SAVE, disabled=bool(problem)),
            ),
        ]

    def rename(self, name: str) -> None:
        """The board's name typed: one step however many keys."""
        self.history.rename(name)
        self.typed()

    def board_card(self, start: ft.Control) -> ft.Control:
        """Which board the draft started from; a user board's can be deleted here."""
        note = ft.Text(
            "Shipped layouts stay as they are: you edit a copy, saved under your boards.",
            size=13,
            color=ft.Colors.ON_SURFACE_VARIANT,
        )
        if self.user_board() is None:
            return section("Board", start, note)
        note.value = "Saved under the same name, it replaces this board."
        delete = ft.OutlinedButton(
            "Delete this board",
            icon=ft.Icons.DELETE_FOREVER,
            style=ft.ButtonStyle(color=ft.Colors.ERROR, icon_color=ft.Colors.ERROR),
            on_click=self.confirm_delete,
        )
        return section("Board", start, note, delete)

    def choose_tool(self, tool: str) -> None:
        """Take another tool; a path being drawn is let go."""
        self.tool = tool
        self.path_start = None
        self.refresh()

    def territory_card(self) -> ft.Control:
        """The territory new spaces go to: its name and bonus; a new one; removing one."""
        low, high = DOMINATION_BONUS_RANGE
        territory = self.draft.territory(self.selected)

        def rename(value: str) -> None:
            self.history.rename_territory(territory.id, value)
            self.typed()

        def renamed(_: ft.Event[Any]) -> None:
            self.history.settle()
            self.refresh()

        def set_bonus(value: str) -> None:
            self.history.set_bonus(territory.id, int(value))
            self.refresh()

        def select(territory_id: str) -> None:
            self.selected = territory_id
            self.refresh()

        def add(_: ft.Event[Any]) -> None:
            self.selected = self.history.add_territory(
                f"Territory {len(self.draft.territories) + 1}"
            )
            self.tool = "add"
            self.refresh()

        def remove(_: ft.Event[Any]) -> None:
            self.history.remove_territory(territory.id)
            self.selected = self.draft.territories[0].id
            self.refresh()

        return section(
            "Territory",
            ft.Semantics(
                identifier="editor-territory",
                content=ft.Dropdown(
                    label="New spaces go to",
                    value=territory.id,
                    options=[
                        ft.DropdownOption(
                            key=t.id, text=f"{t.name} · bonus {t.bonus} · {len(t.locations)} spaces"
                        )
                        for t in self.draft.territories
                    ],
                    on_select=lambda e: select(e.control.value),
                ),
            ),
            ft.Row(
                [
                    ft.TextField(
                        label="Name",
                        value=territory.name,
                        expand=True,
                        on_change=lambda e: rename(e.control.value),
                        on_blur=renamed,
                    ),
                    ft.Dropdown(
                        label="Bonus",
                        width=96,
                        value=str(territory.bonus),
                        options=[ft.DropdownOption(key=str(b)) for b in range(low, high + 1)],
                        on_select=lambda e: set_bonus(e.control.value),
                    ),
                ]
            ),
            ft.Row(
                [
                    ft.OutlinedButton("New territory", icon=ft.Icons.ADD, on_click=add),
                    ft.OutlinedButton(
                        "Remove territory", icon=ft.Icons.DELETE_OUTLINE, on_click=remove
                    ),
                ],
                wrap=True,
            ),
        )


TOOL_HELP = {
    "move": "Drag a space to move it.",
    "add": "Tap beside the spaces to add a space to the territory chosen below.",
    "path": "Tap two spaces to join them, or part them if joined; the next tap goes on "
    "from the last space. Tap it again to stop.",
    "remove": "Tap a space to remove it and its paths.",
}


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
