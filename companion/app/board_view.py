"""The isle drawn from its board data on a flet canvas: territories, paths, spaces, creatures.

Below the drawing is plain Python, tested without a browser: where each location falls
on a canvas of any size (`Layout`), which space a tap hits, what a tap on each space would
do now (`targets`, from the engine's legal commands) and which command a tap means
(`tap_command`). `IsleCanvas` only turns these into shapes and taps into location ids.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from itertools import pairwise

import flet as ft
import flet.canvas as cv

from companion.app.theme import ACCENT, CREATURE_MARK, FONT, TAP, PlayerColour
from companion.engine import GameState, Phase
from models.board import Board, Territory
from models.commands import Activate, Attack, Command, Move, Summon, Swap
from models.rules import KIND_ORDER, CreatureKind

Point = tuple[float, float]

# A space's radius is this share of the shortest distance between two spaces, within limits.
SPACE_SHARE = 0.34
MIN_RADIUS = 13.0
# In the editor spaces are drawn as if this many board units apart.
FRAME_SPACING = 10.0
MAX_RADIUS = 30.0
# Creatures differ in size as well as in letter, so kinds read apart at a glance.
TOKEN_SCALE = {CreatureKind.WYRM: 1.0, CreatureKind.TROLL: 0.88, CreatureKind.SPRITE: 0.74}
# Land reaches this many radii beyond its outermost spaces.
LAND_MARGIN = 1.6
LABEL_SIZE = 12.0
# Spaces at least this large show their number in the territory when empty.
NUMBER_RADIUS = 18.0
# Half the side of the square inside a circle, as a share of its radius (1/sqrt 2).
INSCRIBED = 0.71
# A bold label's average glyph width, as a share of its size.
LABEL_WIDTH = 0.62
# A canvas never grows taller than this share of its width (tall boards scroll instead).
MAX_ASPECT = 1.4
# While a space is dragged, its new place is sent at most this often.
DRAG_INTERVAL_MS = 40

SEA = "#0F2A38"
PATH = "#D9C9A3"
SPACE = "#1C2626"
SPACE_RING = "#D9C9A3"
LAND = ("#35553A", "#5A5034", "#454A66", "#5A3C3C", "#355A57", "#54466A", "#4B5A36", "#5E4A33")
MOVE_COLOUR = "#4ADE80"
ATTACK_COLOUR = "#FF5A5A"
SWAP_COLOUR = "#6CB8FF"
FLASH_COLOUR = "#FFFFFF"


class Mark(StrEnum):
    """What a tap on a space would do now."""

    SUMMON = "summon"
    ACTIVATE = "activate"
    MOVE = "move"
    ATTACK = "attack"
    SWAP = "swap"


@dataclass(frozen=True, slots=True)
class Target:
    """A legal command reached by tapping one space, and what to mark the space with."""

    command: Command
    mark: Mark
    # Actions a move takes (ruling 6); 0 for everything else.
    cost: int = 0


@dataclass(frozen=True, slots=True)
class Piece:
    """A creature on the board as the drawing needs it."""

    player: str
    kind: CreatureKind
    face_down: bool
    active: bool


@dataclass(frozen=True, slots=True)
class Layout:
    """Where the board's spaces fall on a canvas of one size, in logical pixels."""

    width: float
    height: float
    radius: float
    points: dict[str, Point]
    # Pixels per board unit, and where the board point `corner` falls, for mapping back.
    scale: float = 1.0
    origin: Point = (0.0, 0.0)
    corner: Point = (0.0, 0.0)

    @classmethod
    def fit(cls, board: Board, width: float, height: float, *, frame: bool = False) -> Layout:
        """Scale and centre the board's drawing positions on a width x height canvas.

        With `frame`, the whole 0-100 square is shown, whatever the board's extent: spaces
        then stay put while one of them is dragged in the editor.
        """
        if frame:
            low_x, low_y, span_x, span_y = 0.0, 0.0, 100.0, 100.0
        else:
            xs = [location.x for location in board.locations]
            ys = [location.y for location in board.locations]
            low_x, low_y = min(xs), min(ys)
            span_x = max(max(xs) - low_x, 1.0)
            span_y = max(max(ys) - low_y, 1.0)
        # The radius depends on the scale and the margins on the radius: two rounds settle it.
        radius = MIN_RADIUS
        scale = 1.0
        for _ in range(2):
            side, top = _margins(radius)
            scale = min((width - 2 * side) / span_x, (height - top - side) / span_y)
            scale = max(scale, 0.1)
            # Editing, the spaces keep one size: they would jump about as the closest pair changes.
            radius = _clamp(scale * FRAME_SPACING * SPACE_SHARE) if frame else _radius(board, scale)
        side, top = _margins(radius)
        left = (width - span_x * scale) / 2
        upper = top + (height - top - side - span_y * scale) / 2
        points = {
            location.id: (left + (location.x - low_x) * scale, upper + (location.y - low_y) * scale)
            for location in board.locations
        }
        return cls(width, height, radius, points, scale, (left, upper), (low_x, low_y))

    def to_board(self, x: float, y: float) -> Point:
        """The board position (0-100 on each axis) under a canvas point."""
        bx = self.corner[0] + (x - self.origin[0]) / self.scale
        by = self.corner[1] + (y - self.origin[1]) / self.scale
        return (round(min(max(bx, 0.0), 100.0), 1), round(min(max(by, 0.0), 100.0), 1))

    @property
    def reach(self) -> float:
        """How far from a space's centre a tap still hits it: never under half a tap target."""
        return max(TAP / 2, self.radius * 1.2)

    def location_at(self, x: float, y: float) -> str | None:
        """The location whose space a tap at (x, y) hits: the nearest one within reach."""
        best: str | None = None
        best_distance = self.reach
        for location, (px, py) in self.points.items():
            distance = math.hypot(px - x, py - y)
            if distance <= best_distance:
                best, best_distance = location, distance
        return best


def _margins(radius: float) -> tuple[float, float]:
    """(sides and bottom, top) margins in pixels: the land around spaces, and room for labels."""
    side = radius * LAND_MARGIN + 4
    return side, side + LABEL_SIZE + 8


def _radius(board: Board, scale: float) -> float:
    points = [(location.x, location.y) for location in board.locations]
    closest = min(
        (
            math.dist(a, b)
            for i, a in enumerate(points)
            for b in points[i + 1 :]
            if math.dist(a, b) > 0
        ),
        default=20.0,
    )
    return _clamp(closest * scale * SPACE_SHARE)


def _clamp(radius: float) -> float:
    return min(MAX_RADIUS, max(MIN_RADIUS, radius))


def canvas_height(board: Board, width: float, max_height: float | None = None) -> float:
    """The canvas height that shows the whole board at a width, at most `max_height`."""
    xs = [location.x for location in board.locations]
    ys = [location.y for location in board.locations]
    aspect = max(max(ys) - min(ys), 1.0) / max(max(xs) - min(xs), 1.0)
    height = width * min(aspect, MAX_ASPECT) + LABEL_SIZE + 8
    return min(height, max_height) if max_height else height


def convex_hull(points: Iterable[Point]) -> list[Point]:
    """The corners of the smallest convex shape around the points, anticlockwise."""
    unique = sorted(set(points))
    if len(unique) < 3:
        return unique

    def turn(o: Point, a: Point, b: Point) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[Point] = []
    for p in unique:
        while len(lower) >= 2 and turn(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[Point] = []
    for p in reversed(unique):
        while len(upper) >= 2 and turn(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


# --- what a tap does -----------------------------------------------------------------------


def targets(state: GameState) -> dict[str, Target]:
    """What a tap on each space would do now: the engine's legal commands that name a place."""
    found: dict[str, Target] = {}
    costs: dict[int, int] = {}
    if state.active is not None:
        costs = state.reachable(state.active, state.actions_left)
    index = state.game.isle.index
    for command in state.legal_commands():
        if isinstance(command, Summon) and command.location is not None:
            found[command.location] = Target(command, Mark.SUMMON)
        elif isinstance(command, Activate):
            found[command.location] = Target(command, Mark.ACTIVATE)
        elif isinstance(command, Move):
            found[command.to] = Target(command, Mark.MOVE, costs[index[command.to]])
        elif isinstance(command, Attack):
            found[command.target] = Target(command, Mark.ATTACK)
        elif isinstance(command, Swap) and command.with_location is not None:
            found[command.with_location] = Target(command, Mark.SWAP)
    return found


def tap_command(state: GameState, location: str) -> Command | None:
    """The command a tap on a space asks for, legal or not; None where a tap means nothing.

    A refused one is still worth asking for: the engine's refusal tells the player why.
    """
    kind = state.step_kind
    if state.phase is Phase.SUMMONING:
        assert kind is not None, "every Summoning step is of a kind"
        return Summon(kind, location)
    if state.phase is not Phase.ACTIONS:
        return None
    if state.active is None:
        return Activate(location)
    token = state.occupant[state.game.isle.index[location]]
    if token is None:
        return Move(location)
    if token[0] != state.current_seat:
        return Attack(location)
    if kind is CreatureKind.WYRM and location != state.game.isle.location_ids[state.active]:
        return Swap(location)
    return Activate(location)


def route(board: Board, empty: Collection[str], start: str, goal: str) -> list[str]:
    """The spaces a moving creature passes, start to goal along paths through empty spaces.

    Only for drawing a move the engine has allowed (the shortest way, breadth first);
    without one, straight from start to goal.
    """
    neighbours: dict[str, list[str]] = {}
    for a, b in board.paths:
        neighbours.setdefault(a, []).append(b)
        neighbours.setdefault(b, []).append(a)
    came_from: dict[str, str | None] = {start: None}
    frontier = deque([start])
    while frontier:
        here = frontier.popleft()
        if here == goal:
            spaces = [goal]
            while (before := came_from[spaces[-1]]) is not None:
                spaces.append(before)
            return spaces[::-1]
        for there in neighbours.get(here, ()):
            if there not in came_from and (there in empty or there == goal):
                came_from[there] = here
                frontier.append(there)
    return [start, goal]


def along(points: list[Point], fraction: float) -> Point:
    """The point `fraction` (0-1) of the way along a line through `points`, by length."""
    remaining = max(0.0, min(1.0, fraction)) * sum(math.dist(a, b) for a, b in pairwise(points))
    for a, b in pairwise(points):
        length = math.dist(a, b)
        if remaining <= length and length > 0:
            share = remaining / length
            return (a[0] + (b[0] - a[0]) * share, a[1] + (b[1] - a[1]) * share)
        remaining -= length
    return points[-1]


def pieces(state: GameState) -> dict[str, Piece]:
    """Every creature on the board by location."""
    game = state.game
    return {
        game.isle.location_ids[i]: Piece(
            game.players[token[0]], KIND_ORDER[token[1]], state.face_down[i], i == state.active
        )
        for i, token in enumerate(state.occupant)
        if token is not None
    }


def describe_board(
    on_board: Mapping[str, Piece],
    labels: Mapping[str, str],
    marks: Mapping[str, Target],
    names: Mapping[str, str],
) -> str:
    """The board in words, for screen readers: each creature and each space a tap would use.

    `names` are what players call the spaces (`Board.location_names`).
    """
    parts = []
    for location, piece in sorted(on_board.items()):
        state = " active" if piece.active else " face-down" if piece.face_down else ""
        parts.append(f"{labels[piece.player]}'s{state} {piece.kind.title} at {names[location]}")
    creatures = "; ".join(parts) if parts else "no creatures"
    text = f"The isle: {creatures}."
    for mark in Mark:
        places = sorted(names[at] for at, target in marks.items() if target.mark is mark)
        if places:
            text += f" Tap to {mark.value}: {', '.join(places)}."
    return text


# --- drawing --------------------------------------------------------------------------------


class IsleCanvas:
    """The board as one canvas; taps come back as location ids."""

    def __init__(
        self,
        board: Board,
        colours: Mapping[str, PlayerColour],
        on_tap: Callable[[str], None],
        width: float,
        height: float,
        *,
        on_drag: Callable[[str, Point], None] | None = None,
        on_drop: Callable[[], None] | None = None,
        on_tap_sea: Callable[[Point], None] | None = None,
    ) -> None:
        self.board = board
        self.colours = colours
        self.on_tap = on_tap
        # The editor's handlers: a space dragged to a board point, let go, a tap off every space.
        self.on_drag = on_drag
        self.on_drop = on_drop
        self.on_tap_sea = on_tap_sea
        self.frame = on_drag is not None
        self.dragging: str | None = None
        self.layout = Layout.fit(board, width, height, frame=self.frame)
        self.on_board: dict[str, Piece] = {}
        self.marks: dict[str, Target] = {}
        self.flash: tuple[str, ...] = ()
        # A creature on its way between spaces, drawn at a canvas point.
        self.gliding: tuple[Piece, Point] | None = None
        self.canvas = cv.Canvas(
            height=height, on_resize=self._resized, resize_interval=150, expand=False
        )
        self.semantics = ft.Semantics(
            identifier="board",
            # One sentence for screen readers; the tap goes to the canvas at its position.
            exclude_semantics=True,
            content=ft.GestureDetector(
                content=self.canvas,
                on_tap_down=self._tapped,
                on_pan_start=self._drag_start if self.frame else None,
                on_pan_update=self._drag_update if self.frame else None,
                on_pan_end=self._drag_end if self.frame else None,
                drag_interval=DRAG_INTERVAL_MS,
                mouse_cursor=ft.MouseCursor.CLICK,
            ),
        )

    @property
    def control(self) -> ft.Control:
        """The control to put on the screen."""
        return self.semantics

    def show(
        self,
        on_board: dict[str, Piece],
        marks: dict[str, Target],
        labels: Mapping[str, str],
        flash: tuple[str, ...] = (),
        gliding: tuple[Piece, Point] | None = None,
    ) -> None:
        """Draw this position: creatures, the spaces a tap would use, spaces to point out, and
        a creature `gliding` between spaces (at a canvas point) while a move is shown."""
        self.on_board = on_board
        self.marks = marks
        self.flash = flash
        self.gliding = gliding
        self.semantics.label = describe_board(on_board, labels, marks, self.board.location_names)
        self.canvas.shapes = self._shapes()

    def redraw(self, board: Board) -> None:
        """Draw another version of the board (the editor's), keeping the canvas size."""
        self.board = board
        self.layout = Layout.fit(board, self.layout.width, self.layout.height, frame=self.frame)
        self.canvas.shapes = self._shapes()

    def _resized(self, event: cv.CanvasResizeEvent) -> None:
        if abs(event.width - self.layout.width) < 1 and abs(event.height - self.layout.height) < 1:
            return
        self.layout = Layout.fit(self.board, event.width, event.height, frame=self.frame)
        self.canvas.shapes = self._shapes()
        self.canvas.update()

    def _tapped(self, event: ft.TapEvent) -> None:
        position = event.local_position
        if position is None:
            return
        location = self.layout.location_at(position.x, position.y)
        if location is not None:
            self.on_tap(location)
        elif self.on_tap_sea is not None:
            self.on_tap_sea(self.layout.to_board(position.x, position.y))

    def _drag_start(self, event: ft.DragStartEvent) -> None:
        position = event.local_position
        self.dragging = self.layout.location_at(position.x, position.y)

    def _drag_update(self, event: ft.DragUpdateEvent) -> None:
        if self.dragging is not None and self.on_drag is not None:
            position = event.local_position
            self.on_drag(self.dragging, self.layout.to_board(position.x, position.y))

    def _drag_end(self, event: ft.DragEndEvent) -> None:
        if self.dragging is not None and self.on_drop is not None:
            self.on_drop()
        self.dragging = None

    def _shapes(self) -> list[cv.Shape]:
        layout = self.layout
        r = layout.radius
        shapes: list[cv.Shape] = [
            cv.Rect(0, 0, layout.width, layout.height, border_radius=12, paint=_fill(SEA))
        ]
        for t, territory in enumerate(self.board.territories):
            if territory.locations:
                shapes.extend(
                    _land([layout.points[name] for name in territory.locations], r, LAND[t % 8])
                )
        path_paint = ft.Paint(
            color=PATH, stroke_width=max(2.0, r * 0.18), style=ft.PaintingStyle.STROKE
        )
        for a, b in self.board.paths:
            (ax, ay), (bx, by) = layout.points[a], layout.points[b]
            shapes.append(cv.Line(ax, ay, bx, by, paint=path_paint))
        places = label_places(self.board, layout)
        for territory in self.board.territories:
            if territory.locations:
                shapes.append(_territory_label(territory, places[territory.id]))
        for x, y in layout.points.values():
            shapes.append(cv.Circle(x, y, r, paint=_fill(SPACE)))
            shapes.append(cv.Circle(x, y, r, paint=_stroke(SPACE_RING, 1.5)))
        if r >= NUMBER_RADIUS:
            # Where there is room, empty spaces show their number in the territory: the log
            # and the guide call a space 'North Cliffs 4'.
            numbers = self.board.location_numbers
            for location, (x, y) in layout.points.items():
                if location not in self.on_board and location not in self.marks:
                    shapes.append(_text(str(numbers[location]), x, y, r * 0.7, "#8FA3A3"))
        for location, piece in self.on_board.items():
            shapes.extend(self._token(piece, *layout.points[location]))
        for location, target in self.marks.items():
            shapes.extend(_mark(target, *layout.points[location], r))
        for location in self.flash:
            x, y = layout.points[location]
            shapes.append(cv.Circle(x, y, r + 6, paint=_stroke(FLASH_COLOUR, 4)))
        if self.gliding is not None:
            piece, (x, y) = self.gliding
            shapes.extend(self._token(piece, x, y))
        return shapes

    def _token(self, piece: Piece, x: float, y: float) -> list[cv.Shape]:
        colour = self.colours[piece.player]
        size = self.layout.radius * TOKEN_SCALE[piece.kind]
        if piece.face_down:
            # Face-down: the creature's back, its owner's colour only as a ring.
            fill, ring, ink = "#2B2B2B", colour.hex, colour.hex
        else:
            fill, ring, ink = colour.hex, "#101010", colour.on_hex
        shapes: list[cv.Shape] = [
            cv.Circle(x, y, size, paint=_fill(fill)),
            cv.Circle(x, y, size, paint=_stroke(ring, 2.5 if piece.face_down else 2)),
            _text(
                CREATURE_MARK[piece.kind],
                x,
                y,
                size * 1.05,
                ink,
                weight=ft.FontWeight.BOLD,
            ),
        ]
        if piece.active:
            shapes.append(cv.Circle(x, y, self.layout.radius + 4, paint=_stroke(ACCENT, 4)))
        return shapes


def _fill(colour: str) -> ft.Paint:
    return ft.Paint(color=colour, style=ft.PaintingStyle.FILL)


def _stroke(colour: str, width: float, dashes: list[float] | None = None) -> ft.Paint:
    return ft.Paint(
        color=colour,
        stroke_width=width,
        style=ft.PaintingStyle.STROKE,
        stroke_dash_pattern=dashes,
    )


def _text(
    value: str,
    x: float,
    y: float,
    size: float,
    colour: str,
    *,
    weight: ft.FontWeight | None = None,
    alignment: ft.Alignment = ft.Alignment.CENTER,
) -> cv.Text:
    return cv.Text(
        x,
        y,
        value,
        alignment=alignment,
        style=ft.TextStyle(size=size, color=colour, weight=weight, font_family=FONT),
    )


def _land(points: list[Point], radius: float, colour: str) -> list[cv.Shape]:
    """A territory's land: its spaces' hull, widened by a round-cornered stroke."""
    hull = convex_hull(points)
    pad = radius * LAND_MARGIN
    if len(hull) == 1:
        (x, y) = hull[0]
        return [cv.Circle(x, y, pad, paint=_fill(colour))]
    elements: list[cv.Path.PathElement] = [cv.Path.MoveTo(*hull[0])]
    elements.extend(cv.Path.LineTo(*p) for p in hull[1:])
    elements.append(cv.Path.Close())
    outline = ft.Paint(
        color=colour,
        stroke_width=pad * 2,
        style=ft.PaintingStyle.STROKE,
        stroke_join=ft.StrokeJoin.ROUND,
        stroke_cap=ft.StrokeCap.ROUND,
    )
    shapes: list[cv.Shape] = [cv.Path(elements, paint=outline)]
    if len(hull) > 2:
        shapes.append(cv.Path(elements, paint=_fill(colour)))
    return shapes


Box = tuple[float, float, float, float]  # left, top, right, bottom


def label_text(territory: Territory) -> str:
    """What a territory's label says: its name and its domination bonus."""
    return f"{territory.label} ◆{territory.bonus}"


def label_places(board: Board, layout: Layout) -> dict[str, Box]:
    """Where each territory's label goes: above its land, else below it, else nudged sideways.

    The first place that overlaps no label placed before and no space wins; failing that,
    the one that overlaps labels least, then spaces. Every place is kept inside the canvas.
    """
    r = layout.radius
    # A space as the square inside its disc: a label may graze a ring, not cover a space.
    core = r * INSCRIBED
    spaces = [(x - core, y - core, x + core, y + core) for x, y in layout.points.values()]
    placed: dict[str, Box] = {}
    for territory in board.territories:
        if not territory.locations:
            continue
        points = [layout.points[location] for location in territory.locations]
        width = len(label_text(territory)) * LABEL_SIZE * LABEL_WIDTH
        height = LABEL_SIZE + 4
        centre = sum(p[0] for p in points) / len(points)
        above = min(p[1] for p in points) - r * LAND_MARGIN + 2 - height
        below = max(p[1] for p in points) + r * LAND_MARGIN - 2
        candidates = [
            _inside(centre + shift * width - width / 2, top, width, height, layout)
            for shift in (0.0, -0.34, 0.34, -0.67, 0.67)
            for top in (above, below)
        ]
        # Beside the land, level with its middle, where above and below are taken.
        middle = sum(p[1] for p in points) / len(points) - height / 2
        left = min(p[0] for p in points) - r * LAND_MARGIN - width
        right = max(p[0] for p in points) + r * LAND_MARGIN
        candidates += [_inside(x, middle, width, height, layout) for x in (left, right)]
        labels = list(placed.values())
        # Two labels over each other cannot be read: that counts before covering a space.
        placed[territory.id] = min(
            candidates,
            key=lambda box: (
                sum(_overlap(box, other) for other in labels),
                sum(_overlap(box, space) for space in spaces),
            ),
        )
    return placed


def _inside(left: float, top: float, width: float, height: float, layout: Layout) -> Box:
    """A box moved, if need be, to lie within the canvas."""
    left = min(max(left, 2.0), layout.width - width - 2)
    top = min(max(top, 0.0), layout.height - height)
    return left, top, left + width, top + height


def _overlap(a: Box, b: Box) -> float:
    """The area two boxes share."""
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    return width * height if width > 0 and height > 0 else 0.0


def _territory_label(territory: Territory, box: Box) -> cv.Text:
    """The territory's name and bonus, in the box `label_places` found for it."""
    return cv.Text(
        (box[0] + box[2]) / 2,
        box[3],
        label_text(territory),
        alignment=ft.Alignment.BOTTOM_CENTER,
        style=ft.TextStyle(
            size=LABEL_SIZE,
            color="#F4ECD8",
            weight=ft.FontWeight.BOLD,
            font_family=FONT,
            shadow=ft.BoxShadow(blur_radius=3, color="#000000"),
        ),
    )


def _mark(target: Target, x: float, y: float, radius: float) -> list[cv.Shape]:
    """How a space a tap would use is marked: a coloured ring, and a cost for moves."""
    if target.mark is Mark.SUMMON:
        return [
            cv.Circle(x, y, radius + 3, paint=_stroke(ACCENT, 3, [6, 4])),
            _text("+", x, y, radius * 1.2, ACCENT, weight=ft.FontWeight.BOLD),
        ]
    if target.mark is Mark.ACTIVATE:
        return [cv.Circle(x, y, radius + 4, paint=_stroke(ACCENT, 3, [6, 4]))]
    if target.mark is Mark.MOVE:
        return [
            cv.Circle(x, y, radius + 3, paint=_stroke(MOVE_COLOUR, 3)),
            _text(str(target.cost), x, y, radius * 0.95, MOVE_COLOUR, weight=ft.FontWeight.BOLD),
        ]
    colour, glyph = (ATTACK_COLOUR, "⚔") if target.mark is Mark.ATTACK else (SWAP_COLOUR, "⇄")
    # A glyph beside the ring, so the kind of target never depends on telling colours apart.
    bx, by, badge = x + radius * 0.85, y - radius * 0.85, max(9.0, radius * 0.5)
    return [
        cv.Circle(x, y, radius + 4, paint=_stroke(colour, 4)),
        cv.Circle(bx, by, badge, paint=_fill(colour)),
        _text(glyph, bx, by, badge * 1.3, "#101010", weight=ft.FontWeight.BOLD),
    ]
