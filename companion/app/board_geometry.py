"""Where a board's spaces fall on a canvas of any size, and where its labels go: plain Python.

`Layout` scales the board's 0-100 drawing positions onto a canvas and finds the space a
tap hits; `label_places` puts each territory's name where it covers no other label and
no space; `along` is a point part of the way along a line of spaces (a creature gliding).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import pairwise

from companion.app.sizes import TAP
from models.board import Board, Territory

Point = tuple[float, float]

# A space's radius is this share of the shortest distance between two spaces, within limits.
SPACE_SHARE = 0.34
MIN_RADIUS = 13.0
# Neighbouring spaces' centres are never closer than this on a canvas sized by
# `canvas_height`: the smallest spaces then keep a clear gap between them.
MIN_SPACING = 36.0
# However small the canvas, a space's radius stays under this share of the closest pair's
# distance, so spaces shrink rather than overlap.
MAX_SHARE = 0.45
# In the editor spaces are drawn as if this many board units apart.
FRAME_SPACING = 10.0
MAX_RADIUS = 30.0
# Land reaches this many radii beyond its outermost spaces.
LAND_MARGIN = 1.6
LABEL_SIZE = 12.0
# On a crowded canvas (a phone's) labels are set smaller, to fit between the spaces.
SMALL_LABEL_SIZE = 10.5
CROWDED_RADIUS = 15.0
# Half the side of the square inside a circle, as a share of its radius (1/sqrt 2).
INSCRIBED = 0.71
# What is drawn on a space (a token, a mark's ring) reaches this far beyond its disc.
MARK_REACH = 4.0
# A bold label's average glyph width, as a share of its size.
LABEL_WIDTH = 0.62
# A canvas never grows taller than this share of its width (tall boards scroll instead).
MAX_ASPECT = 1.4


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
        if not frame:
            radius = min(radius, closest_pair(board) * scale * MAX_SHARE)
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


def closest_pair(board: Board) -> float:
    """The distance, in board units, between the two spaces closest to each other."""
    points = [(location.x, location.y) for location in board.locations]
    return min(
        (
            math.dist(a, b)
            for i, a in enumerate(points)
            for b in points[i + 1 :]
            if math.dist(a, b) > 0
        ),
        default=20.0,
    )


def _radius(board: Board, scale: float) -> float:
    return _clamp(closest_pair(board) * scale * SPACE_SHARE)


def _clamp(radius: float) -> float:
    return min(MAX_RADIUS, max(MIN_RADIUS, radius))


def canvas_height(
    board: Board, width: float, max_height: float | None = None, *, frame: bool = False
) -> float:
    """The canvas height that shows the whole board at a width, at most `max_height`.

    Never so low that neighbouring spaces come closer than MIN_SPACING while the width
    would allow more: on a short screen (a phone turned sideways) the board scrolls instead.
    With `frame`, the canvas shows the whole 0-100 square, as the editor draws it.
    """
    if frame:
        span_x = span_y = 100.0
    else:
        xs = [location.x for location in board.locations]
        ys = [location.y for location in board.locations]
        span_x, span_y = max(max(xs) - min(xs), 1.0), max(max(ys) - min(ys), 1.0)
    natural = width * min(span_y / span_x, MAX_ASPECT) + LABEL_SIZE + 8
    side, top = _margins(MIN_RADIUS)
    floor = span_y * MIN_SPACING / closest_pair(board) + top + side
    height = natural if max_height is None else min(natural, max(max_height, floor))
    return max(height, 2 * (top + side))


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


Box = tuple[float, float, float, float]  # left, top, right, bottom


def label_size(layout: Layout) -> float:
    """The size territory names are set in on this layout."""
    return LABEL_SIZE if layout.radius >= CROWDED_RADIUS else SMALL_LABEL_SIZE


def label_text(territory: Territory, name: str | None = None) -> str:
    """What a territory's label says: its name (`name`, as the device's language says it,
    or as entered) and its domination bonus."""
    return f"{name or territory.label} ◆{territory.bonus}"


def label_places(
    board: Board, layout: Layout, names: Mapping[str, str] | None = None
) -> dict[str, Box]:
    """Where each territory's label goes: on or beside its own land, nearer its own spaces.

    Candidates lie above, below and beside the land and among its spaces. The best is the one
    that overlaps no label placed before, is nearer one of its own spaces than any other
    territory's, covers no other territory's space, then none of its own, then lies nearest
    the middle of its spaces. Every place is kept inside the canvas. `names` are the
    territories' names as drawn (by id; default as entered): a label is as wide as its text
    in the language shown.
    """
    names = names or {}
    r = layout.radius
    # A space as the square inside its disc (where a token's letter is) and as the square
    # around what is drawn on it (a token, its owner's badge, a mark's ring): a label keeps
    # off both where it can, and where it cannot, grazes the rings rather than the middles.
    core = r * INSCRIBED
    reach = r + MARK_REACH
    # And the land around it: a label on another territory's land reads as that one's.
    shore = r * LAND_MARGIN * 0.8
    spaces = {
        location: (
            (x - core, y - core, x + core, y + core),
            (x - reach, y - reach, x + reach, y + reach),
            (x - shore, y - shore, x + shore, y + shore),
        )
        for location, (x, y) in layout.points.items()
    }
    size = label_size(layout)
    placed: dict[str, Box] = {}
    for territory in board.territories:
        if not territory.locations:
            continue
        points = [layout.points[location] for location in territory.locations]
        width = len(label_text(territory, names.get(territory.id))) * size * LABEL_WIDTH
        height = size + 4
        centre = (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))
        land = r * LAND_MARGIN - 2
        above = min(p[1] for p in points) - land - height
        below = max(p[1] for p in points) + land
        tops = [above, below, centre[1] - height / 2]
        # Just clear of each space's marks, above and below it: between rows of the land.
        tops += [
            y + sign * (clear + 1) - (height if sign < 0 else 0)
            for _, y in points
            for sign in (-1, 1)
            for clear in (r, reach)
        ]
        lefts = [centre[0] + shift * width - width / 2 for shift in (0.0, -0.34, 0.34, -0.67, 0.67)]
        candidates = [_inside(x, top, width, height, layout) for x in lefts for top in tops]
        # Beside the land, level with its middle.
        left = min(p[0] for p in points) - r * LAND_MARGIN - width
        right = max(p[0] for p in points) + r * LAND_MARGIN
        middle = centre[1] - height / 2
        candidates += [_inside(x, middle, width, height, layout) for x in (left, right)]
        labels = list(placed.values())

        placed[territory.id] = min(
            candidates,
            key=lambda box: _label_cost(box, territory.locations, layout, spaces, labels, centre),
        )
    return placed


def _label_cost(
    box: Box,
    own: tuple[str, ...],
    layout: Layout,
    spaces: dict[str, tuple[Box, Box, Box]],
    labels: list[Box],
    centre: Point,
) -> tuple[float, ...]:
    """How bad a place is for the label of the territory whose locations are `own`."""
    others = [at for at in layout.points if at not in own]
    near_own = min(_distance(box, layout.points[at]) for at in own)
    near_other = min((_distance(box, layout.points[at]) for at in others), default=math.inf)
    middle = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    return (
        # Two labels over each other cannot be read: that counts first.
        round(sum(_overlap(box, other) for other in labels)),
        # A label nearer another territory's space reads as that territory's name: its own
        # must be nearer by a pixel at least.
        max(0, math.ceil(near_own - near_other + 1)),
        round(sum(_overlap(box, spaces[at][0]) for at in others)),
        round(sum(_overlap(box, spaces[at][0]) for at in own)),
        round(sum(_overlap(box, spaces[at][2]) for at in others)),
        round(sum(_overlap(box, spaces[at][1]) for at in layout.points)),
        math.dist(middle, centre),
    )


def _distance(box: Box, point: Point) -> float:
    """How far a point lies outside a box (0 inside it)."""
    dx = max(box[0] - point[0], 0.0, point[0] - box[2])
    dy = max(box[1] - point[1], 0.0, point[1] - box[3])
    return math.hypot(dx, dy)


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
