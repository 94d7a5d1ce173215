"""The board editor: a layout for the digital board, from a shipped one or the user's own board.

Spaces are added, dragged and removed on the canvas, paths drawn between them, territories
named and given a bonus; `models.board.Board` decides whether the result is a valid isle,
and it is saved under the user's boards. Shipped layouts are never changed: the editor
works on a copy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import flet as ft

from companion.app.board_view import IsleCanvas, Point, canvas_height
from companion.app.theme import ACCENT
from companion.app.widgets import big_button, notify, screen, section
from companion.boards import BoardError, parse_board, shipped_board, shipped_board_ids
from companion.user_boards import save_user_board, slug, user_boards
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

    @classmethod
    def from_board(cls, board: Board) -> BoardDraft:
        """A draft of a board; a shipped layout's copy gets a name of its own."""
        name = board.name if board.id.startswith("my-") else f"My {board.name.split(' (')[0]}"
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
        )

    @property
    def board_id(self) -> str:
        """The id the board is saved under: always a user board's, never a shipped one's."""
        key = slug(self.name)
        return key if key.startswith("my-") else f"my-{key}"

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
        if not self.name.strip():
            raise BoardError("give the board a name")
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
    BoardEditor(app, view).render()
    return view


class BoardEditor:
    """The draft, the tool in hand, and the canvas that edits it."""

    def __init__(self, app: App, view: ft.View) -> None:
        self.app = app
        self.view = view
        self.boards = sources()
        self.source = self.boards[0].id
        self.draft = BoardDraft.from_board(self.boards[0])
        self.tool = "move"
        self.selected = self.draft.territories[0].id
        # The space a path starts from, while one is being drawn.
        self.path_start: str | None = None
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

    # --- editing ------------------------------------------------------------------------

    def start_from(self, board_id: str) -> None:
        """Begin again from another board (edits so far are dropped)."""
        board = next(b for b in self.boards if b.id == board_id)
        self.source = board_id
        self.draft = BoardDraft.from_board(board)
        self.selected = self.draft.territories[0].id
        self.path_start = None
        self.refresh()

    def tapped(self, location: str) -> None:
        """A tap on a space: what it does depends on the tool."""
        if self.tool == "remove":
            self.draft.remove_location(location)
        elif self.tool == "path":
            if self.path_start is None or self.path_start == location:
                self.path_start = None if self.path_start == location else location
            else:
                self.draft.toggle_path(self.path_start, location)
                # Paths chain: the next tap goes on from here.
                self.path_start = location
        elif self.tool == "add":
            notify(self.app.page, "Tap the sea or the land beside the spaces to add one.")
            return
        self.refresh()

    def tapped_sea(self, point: Point) -> None:
        """A tap off every space: adds a space to the chosen territory with Add."""
        if self.tool == "add":
            self.draft.add_location(self.selected, point)
        self.path_start = None
        self.refresh()

    def dragged(self, location: str, point: Point) -> None:
        """A space dragged with Move: only the canvas is redrawn while the finger moves."""
        if self.tool != "move":
            return
        self.draft.move_location(location, point)
        self.isle.redraw(self.draft.sketch())
        self.isle.canvas.update()

    def dropped(self) -> None:
        """A dragged space let go: check the board again."""
        if self.tool == "move":
            self.refresh()

    def save(self, _: ft.ControlEvent) -> None:
        """Check the board and save it under the user's boards."""
        try:
            board = self.draft.board()
        except BoardError as error:
            notify(self.app.page, _sentence(str(error)), error=True)
            return
        save_user_board(board)
        self.boards = sources()
        self.source = board.id
        notify(self.app.page, f"Saved {board.name}: New game offers it for the digital board.")
        self.refresh()

    def refresh(self) -> None:
        """Redraw the screen after a change."""
        self.render()
        self.app.page.update()

    # --- drawing ------------------------------------------------------------------------

    def render(self) -> None:
        """Rebuild the screen from the draft."""
        self.view.appbar = ft.AppBar(
            title=ft.Text("Board editor"),
            leading=ft.IconButton(
                ft.Icons.HOME, tooltip="Home", on_click=lambda _: self.app.go("/")
            ),
        )
        self.isle.redraw(self.draft.sketch())
        self.isle.show({}, {}, {}, (self.path_start,) if self.path_start else ())
        start = ft.Dropdown(
            label="Start from",
            value=self.source,
            options=[ft.DropdownOption(key=b.id, text=b.name) for b in self.boards],
            on_select=lambda e: self.start_from(e.control.value),
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
                color=ft.Colors.ERROR if problem else ACCENT,
            ),
        )
        name = ft.TextField(
            label="Board name",
            value=self.draft.name,
            on_change=lambda e: setattr(self.draft, "name", e.control.value),
        )
        self.view.controls = [
            section(
                "Board",
                start,
                ft.Text(
                    "Shipped layouts stay as they are: you edit a copy, saved under your boards.",
                    size=13,
                    color=ft.Colors.ON_SURFACE_VARIANT,
                ),
            ),
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
            territory.name = value

        def set_bonus(value: str) -> None:
            territory.bonus = int(value)
            self.refresh()

        def select(territory_id: str) -> None:
            self.selected = territory_id
            self.refresh()

        def add(_: ft.ControlEvent) -> None:
            self.selected = self.draft.add_territory(f"Territory {len(self.draft.territories) + 1}")
            self.tool = "add"
            self.refresh()

        def remove(_: ft.ControlEvent) -> None:
            self.draft.remove_territory(territory.id)
            if not self.draft.territories:
                self.draft.add_territory("Territory 1")
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
                        on_blur=lambda _: self.refresh(),
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
