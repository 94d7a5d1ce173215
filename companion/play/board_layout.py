"""Where a board's spaces fall on a canvas of any size: plain Python.

`Layout` scales the board's 0-100 drawing positions onto a canvas and finds the space a
tap hits; `canvas_height` and `tight_width` size a canvas for a screen; `along` is a point
part of the way along a line of spaces (a creature gliding). Where the territories' names
go is `board_labels`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise

from companion.play.sizes import TAP
from models.board import Board

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
# On a tight canvas less, so that the sea still parts territories whose spaces crowd together.
TIGHT_LAND_MARGIN = 1.25
# Territories' names are set this large (`board_labels`), and room is left for them above
# the isle; on a tight canvas they sit among the spaces, set smaller.
LABEL_SIZE = 12.0
TIGHT_LABEL_SIZE = 9.5
# What is drawn on a space (a token, a mark's ring) reaches this far beyond its disc.
MARK_REACH = 4.0
# A space's number is set this share of its radius high.
NUMBER_SHARE = 0.75
# A label's height beyond its lines of text.
LABEL_LEADING = 4.0
# A canvas never grows taller than this share of its width (tall boards scroll instead).
MAX_ASPECT = 1.4
# A tight layout (a phone turned sideways, where the isle takes the screen's whole height)
# draws spaces this large where the closest pair leaves room: 37 px, at least 36 on screen.
TIGHT_RADIUS = 18.5


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
    # Fitted tight (`fit(..., tight=True)`): labels go among the spaces, set smaller.
    tight: bool = False

    @classmethod
    def fit(
        cls, board: Board, width: float, height: float, *, frame: bool = False, tight: bool = False
    ) -> Layout:
        """Scale and centre the board's drawing positions on a width x height canvas.

        With `frame`, the whole 0-100 square is shown, whatever the board's extent: spaces
        then stay put while one of them is dragged in the editor. With `tight`, the margins
        only keep what is drawn on a space inside the canvas (the land may run off its edge,
        labels go among the spaces), and spaces are drawn TIGHT_RADIUS where they can be:
        the isle of a phone turned sideways, short and with every pixel of height needed.
        """
        if frame:
            low_x, low_y, span_x, span_y = 0.0, 0.0, 100.0, 100.0
        else:
            xs = [location.x for location in board.locations]
            ys = [location.y for location in board.locations]
            low_x, low_y = min(xs), min(ys)
            span_x = max(max(xs) - low_x, 1.0)
            span_y = max(max(ys) - low_y, 1.0)
        # Tight, a band for labels above the isle where the height leaves room for it with
        # spaces of TIGHT_RADIUS; else none.
        for band in (True, False) if tight else (False,):
            # The radius depends on the scale and the margins on the radius: two rounds.
            radius = MIN_RADIUS
            scale = 1.0
            for _ in range(2):
                side, top = _margins(radius, tight, band)
                scale = min((width - 2 * side) / span_x, (height - top - side) / span_y)
                scale = max(scale, 0.1)
                # Editing, spaces keep one size: they would jump about as the closest pair changes.
                radius = (
                    _clamp(scale * FRAME_SPACING * SPACE_SHARE) if frame else _radius(board, scale)
                )
                if tight:
                    radius = max(radius, TIGHT_RADIUS)
            if not frame:
                radius = min(radius, closest_pair(board) * scale * MAX_SHARE)
            if radius >= TIGHT_RADIUS - 0.01:
                break
        side, top = _margins(radius, tight, band)
        left = (width - span_x * scale) / 2
        upper = top + (height - top - side - span_y * scale) / 2
        points = {
            location.id: (left + (location.x - low_x) * scale, upper + (location.y - low_y) * scale)
            for location in board.locations
        }
        return cls(width, height, radius, points, scale, (left, upper), (low_x, low_y), tight)

    def to_board(self, x: float, y: float) -> Point:
        """The board position (0-100 on each axis) under a canvas point."""
        bx = self.corner[0] + (x - self.origin[0]) / self.scale
        by = self.corner[1] + (y - self.origin[1]) / self.scale
        return (round(min(max(bx, 0.0), 100.0), 1), round(min(max(by, 0.0), 100.0), 1))

    @property
    def land(self) -> float:
        """How far a territory's land reaches beyond its spaces' centres, in pixels."""
        return self.radius * (TIGHT_LAND_MARGIN if self.tight else LAND_MARGIN)

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


def _margins(radius: float, tight: bool = False, band: bool = True) -> tuple[float, float]:
    """(sides and bottom, top) margins in pixels: the land around spaces, and room for labels;
    `tight`, only what is drawn on a space (a token's ring, a mark's), and a `band` of room
    for labels above it if asked."""
    if tight:
        side = radius + MARK_REACH + 1
        return side, side + (TIGHT_LABEL_SIZE + LABEL_LEADING + 2 if band else 0)
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


def tight_width(board: Board, height: float) -> float:
    """The width of a tight canvas (`Layout.fit(..., tight=True)`) `height` high that shows
    the whole board with no room to spare at its sides."""
    xs = [location.x for location in board.locations]
    ys = [location.y for location in board.locations]
    span_x, span_y = max(max(xs) - min(xs), 1.0), max(max(ys) - min(ys), 1.0)
    # With a band for labels above the isle if spaces keep TIGHT_RADIUS with it, else none.
    width = height
    for band in (True, False):
        # The margins depend on the radius, and the radius on the scale: three rounds.
        radius = TIGHT_RADIUS
        for _ in range(3):
            side, top = _margins(radius, tight=True, band=band)
            scale = max((height - top - side) / span_y, 0.1)
            width = span_x * scale + 2 * side
            radius = min(TIGHT_RADIUS, closest_pair(board) * scale * MAX_SHARE)
        if radius >= TIGHT_RADIUS - 0.01:
            break
    return math.ceil(width) + 1


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
