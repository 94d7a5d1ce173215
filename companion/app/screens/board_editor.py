"""The board editor: a layout for the digital board, from a shipped one or the user's own board.

Spaces are added, dragged and removed on the canvas, paths drawn between them, territories
named and given a bonus; `models.board.Board` decides whether the result is a valid isle,
and it is saved under the user's boards. Shipped layouts are never changed: the editor
works on a copy. Every change to the draft can be undone and redone (`DraftHistory`), and a
saved user board can be deleted.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.board_view import IsleCanvas, Point, canvas_height
from companion.app.theme import ACCENT_TEXT
from companion.app.widgets import SIZED, big_button, board_options, notify, screen, section
from companion.boards import BoardError, parse_board, shipped_board, shipped_board_ids
from companion.boards.user import (
    BoardExists,
    board_name,
    delete_user_board,
    keep_both,
    save_user_board,
    slug,
    user_board_id,
    user_boards,
)
from models.board import Board, Location, Territory
from models.rules import DOMINATION_BONUS_RANGE, MAX_PLAYERS, MIN_PLAYERS

if TYPE_CHECKING:
    from companion.app.main import App

TOOLS = (("move", "Move"), ("add", "Add"), ("path", "Paths"), ("remove", "Remove"))
DEFAULT_BONUS = 2
# A laid-out territory's spaces sit on a circle this share of its cell's size.
RING = 0.28


@dataclass
class TerritoryDraft:
    """A territory being edited: its spaces may still be none."""

    id: str
    name: str
    bonus: int
    locations: list[str] = field(default_factory=list)


@dataclass
class BoardDraft:
    """A board being edited: free to be invalid until it is saved."""

    name: str
    territories: list[TerritoryDraft]
    positions: dict[str, Point]
    paths: set[tuple[str, str]]
    min_players: int = MIN_PLAYERS
    max_players: int = MAX_PLAYERS
    description: str = ""
    # The board it was started from, or last saved as: what Start from shows.
    source: str = ""

    @classmethod
    def from_board(cls, board: Board) -> BoardDraft:
        """A draft of a board; a shipped layout's copy gets a name of its own."""
        name = board.name if board.id.startswith("my-") else f"My {board.short_name}"
        positions = {location.id: (location.x, location.y) for location in board.locations}
        return cls(
            name=name,
            territories=[
                TerritoryDraft(t.id, t.label, t.bonus, list(t.locations)) for t in board.territories
            ],
            positions=positions or laid_out(board),
            paths={_pair(a, b) for a, b in board.paths},
            min_players=board.min_players,
            max_players=board.max_players,
            description=board.description,
            source=board.id,
        )

    def copy(self) -> BoardDraft:
        """A copy sharing nothing with this draft: a snapshot for undo."""
        return copy.deepcopy(self)

    @property
    def board_id(self) -> str:
        """The id the board is saved under: always a user board's, never a shipped one's."""
        return user_board_id(self.name)

    def sketch(self) -> Board:
        """The draft as a board for drawing, unchecked: it may not be a valid isle yet."""
        return Board.model_construct(
            id=self.board_id,
            name=self.name,
            territories=tuple(
                Territory.model_construct(
                    id=t.id, name=t.name, bonus=t.bonus, locations=tuple(t.locations)
                )
                for t in self.territories
            ),
            locations=tuple(
                Location.model_construct(id=name, x=x, y=y)
                for name, (x, y) in self.positions.items()
            ),
            paths=tuple(sorted(self.paths)),
            min_players=self.min_players,
            max_players=self.max_players,
            description=self.description,
        )

    def board(self) -> Board:
        """The draft as a valid board for digital play; BoardError says what is wrong."""
        board_name(self.name)
        for territory in self.territories:
            if not territory.locations:
                raise BoardError(
                    f"{territory.name} has no spaces yet: add some with Add, or remove it"
                )
        try:
            board = parse_board(self.sketch().model_dump())
        except BoardError as error:
            # Said of the board on screen, the check's "board: " prefix is only noise.
            raise BoardError(str(error).removeprefix("board: ")) from None
        if not board.paths:
            raise BoardError("join the spaces with paths: creatures move along them")
        return board

    def problem(self) -> str | None:
        """What keeps the draft from being a playable board, or None."""
        try:
            self.board()
        except BoardError as error:
            return str(error)
        return None

    def territory(self, territory_id: str) -> TerritoryDraft:
        """A territory of the draft by id."""
        for territory in self.territories:
            if territory.id == territory_id:
                return territory
        raise KeyError(territory_id)

    def add_territory(self, name: str, bonus: int = DEFAULT_BONUS) -> str:
        """A new territory without spaces; its id."""
        base = slug(name)
        taken = {t.id for t in self.territories}
        key = base
        n = 2
        while key in taken:
            key, n = f"{base}-{n}", n + 1
        self.territories.append(TerritoryDraft(key, name, bonus))
        return key

    def remove_territory(self, territory_id: str) -> None:
        """Remove a territory with all its spaces and their paths."""
        for location in list(self.territory(territory_id).locations):
            self.remove_location(location)
        self.territories = [t for t in self.territories if t.id != territory_id]

    def add_location(self, territory_id: str, point: Point) -> str:
        """A new space of a territory at a board point; its id."""
        territory = self.territory(territory_id)
        n = 1
        while f"{territory.id}-{n}" in self.positions:
            n += 1
        location = f"{territory.id}-{n}"
        territory.locations.append(location)
        self.positions[location] = point
        return location

    def remove_location(self, location: str) -> None:
        """Remove a space and every path to it."""
        for territory in self.territories:
            if location in territory.locations:
                territory.locations.remove(location)
        self.positions.pop(location, None)
        self.paths = {path for path in self.paths if location not in path}

    def move_location(self, location: str, point: Point) -> None:
        """Put a space at another board point."""
        self.positions[location] = point

    def toggle_path(self, a: str, b: str) -> bool:
        """Join two spaces, or part them if joined; whether they are joined now."""
        path = _pair(a, b)
        if path in self.paths:
            self.paths.discard(path)
            return False
        self.paths.add(path)
        return True


@dataclass
class Step:
    """One change to the draft: what it did, and the draft as it was on the other side of it."""

    label: str
    draft: BoardDraft


class DraftHistory:
    """The draft being edited, with undo and redo of every change to it.

    Each change keeps a snapshot of the draft before it. A change made of many events (a drag,
    typing a name) passes the same `merge` key each time and is one step until `settle`.
    """

    def __init__(self, draft: BoardDraft) -> None:
        self.draft = draft
        self.undos: list[Step] = []
        self.redos: list[Step] = []
        # The merge key of the change still going on, if any.
        self.merging: str | None = None

    @property
    def undo_label(self) -> str | None:
        """What Undo takes back, or None if nothing."""
        return self.undos[-1].label if self.undos else None

    @property
    def redo_label(self) -> str | None:
        """What Redo brings back, or None if nothing."""
        return self.redos[-1].label if self.redos else None

    def record(self, label: str, merge: str | None = None) -> BoardDraft:
        """Keep the draft as it is before a change; the draft to change. Redo is cleared."""
        if merge is None or merge != self.merging:
            self.undos.append(Step(label, self.draft.copy()))
            self.redos.clear()
        self.merging = merge
        return self.draft

    def settle(self) -> None:
        """The change going on is over: the next event starts a step of its own."""
        self.merging = None

    def undo(self) -> str | None:
        """Take back the newest change; what it was, or None if there was none."""
        return self._swap(self.undos, self.redos)

    def redo(self) -> str | None:
        """Bring back the newest change undone; what it was, or None if there was none."""
        return self._swap(self.redos, self.undos)

    def _swap(self, source: list[Step], target: list[Step]) -> str | None:
        self.settle()
        if not source:
            return None
        step = source.pop()
        target.append(Step(step.label, self.draft))
        self.draft = step.draft
        return step.label

    # --- the changes, each one step -------------------------------------------------------

    def start_from(self, board: Board) -> None:
        """Begin again from another board."""
        self.record(f"start from {board.name}")
        self.draft = BoardDraft.from_board(board)

    def add_location(self, territory_id: str, point: Point) -> str:
        """A new space of a territory at a board point; its id."""
        name = self.draft.territory(territory_id).name
        return self.record(f"add a space to {name}").add_location(territory_id, point)

    def remove_location(self, location: str) -> None:
        """Remove a space and every path to it."""
        self.record(f"remove {location}").remove_location(location)

    def drag(self, location: str, point: Point) -> None:
        """Move a space while it is dragged: the whole drag is one step, until `settle`."""
        self.record(f"move {location}", merge=f"move {location}").move_location(location, point)

    def toggle_path(self, a: str, b: str) -> bool:
        """Join two spaces, or part them if joined; whether they are joined now."""
        verb = "part" if _pair(a, b) in self.draft.paths else "join"
        return self.record(f"{verb} {a} and {b}").toggle_path(a, b)

    def add_territory(self, name: str) -> str:
        """A new territory without spaces; its id."""
        return self.record(f"add {name}").add_territory(name)

    def remove_territory(self, territory_id: str) -> None:
        """Remove a territory with its spaces; a draft left without one gets a new one."""
        draft = self.record(f"remove {self.draft.territory(territory_id).name}")
        draft.remove_territory(territory_id)
        if not draft.territories:
            # New spaces always need a territory to go to.
            draft.add_territory("Territory 1")

    def rename_territory(self, territory_id: str, name: str) -> None:
        """Rename a territory: typing one name is one step, until `settle`."""
        territory = self.draft.territory(territory_id)
        if name != territory.name:
            self.record(f"rename {territory.name}", merge=f"rename {territory_id}")
            territory.name = name

    def set_bonus(self, territory_id: str, bonus: int) -> None:
        """Set a territory's bonus."""
        territory = self.draft.territory(territory_id)
        if bonus != territory.bonus:
            self.record(f"set {territory.name}'s bonus to {bonus}")
            territory.bonus = bonus

    def rename(self, name: str) -> None:
        """Rename the board: typing one name is one step, until `settle`."""
        if name != self.draft.name:
            self.record("rename the board", merge="rename the board").name = name


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def laid_out(board: Board) -> dict[str, Point]:
    """Drawing positions for a board entered without them: territories in a grid of cells."""
    count = len(board.territories)
    columns = math.ceil(math.sqrt(count))
    rows = math.ceil(count / columns)
    width, height = 100 / columns, 100 / rows
    positions: dict[str, Point] = {}
    for t, territory in enumerate(board.territories):
        cx = width * (t % columns + 0.5)
        cy = height * (t // columns + 0.5)
        spaces = territory.locations
        ring = min(width, height) * RING if len(spaces) > 1 else 0
        for i, location in enumerate(spaces):
            angle = 2 * math.pi * i / len(spaces) - math.pi / 2
            positions[location] = (
                round(cx + ring * math.cos(angle), 1),
                round(cy + ring * math.sin(angle), 1),
            )
    return positions


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
            canvas_height(self.draft.sketch(), width, (app.page.height or 740) * 0.7),
            on_drag=self.dragged,
            on_drop=self.dropped,
            on_tap_sea=self.tapped_sea,
        )

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
