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
# On a tight canvas less, so that the sea still parts territories whose spaces crowd together.
TIGHT_LAND_MARGIN = 1.25
LABEL_SIZE = 12.0
# On a crowded canvas (a phone's) labels are set smaller, to fit between the spaces.
SMALL_LABEL_SIZE = 10.5
CROWDED_RADIUS = 15.0
# On a tight canvas labels sit among the spaces: smaller still.
TIGHT_LABEL_SIZE = 9.5
# Half the side of the square inside a circle, as a share of its radius (1/sqrt 2).
INSCRIBED = 0.71
# What is drawn on a space (a token, a mark's ring) reaches this far beyond its disc.
MARK_REACH = 4.0
# A label is this many times nearer its own spaces than any other territory's, where it can
# be: a label midway between two territories names neither.
CLEAR_OF_OTHERS = 2.5
# A space's number is set this share of its radius high.
NUMBER_SHARE = 0.75
# A label's height beyond its lines of text.
LABEL_LEADING = 4.0
# A bold label's average glyph width, as a share of its size.
LABEL_WIDTH = 0.62
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


Box = tuple[float, float, float, float]  # left, top, right, bottom


def label_size(layout: Layout) -> float:
    """The size territory names are set in on this layout."""
    if layout.tight:
        return TIGHT_LABEL_SIZE
    return LABEL_SIZE if layout.radius >= CROWDED_RADIUS else SMALL_LABEL_SIZE


def label_text(territory: Territory, name: str | None = None, lines: int = 1) -> str:
    """What a territory's label says: its name (`name`, as the device's language says it,
    or as entered) and its domination bonus; on two `lines`, broken at the space nearest
    the middle."""
    text = f"{name or territory.label} ◆{territory.bonus}"
    if lines < 2:
        return text
    spaces = [at for at, character in enumerate(text) if character == " "]
    middle = min(spaces, key=lambda at: abs(at - len(text) / 2))
    return f"{text[:middle]}\n{text[middle + 1 :]}"


def label_lines(box: Box, size: float) -> int:
    """How many lines a label placed in `box` (by `label_places`) is set on."""
    return 2 if box[3] - box[1] > 1.5 * size + LABEL_LEADING else 1


def _label_boxes(
    points: list[Point], centre: Point, text: str, size: float, layout: Layout
) -> list[Box]:
    """Places to try for a label saying `text` about a territory's spaces at `points`: above,
    below and beside its land, between its rows, and (tight) across its spaces' rims."""
    r = layout.radius
    reach = r + MARK_REACH
    lines = text.split("\n")
    width = max(len(line) for line in lines) * size * LABEL_WIDTH
    height = len(lines) * (size + 2) + LABEL_LEADING - 2
    land = layout.land - 2
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
    boxes = [_inside(x, top, width, height, layout) for x in lefts for top in tops]
    if layout.tight:
        # No room beside the land: across the rim of one of its own spaces, above or below.
        boxes += [
            _inside(x + shift * width - width / 2, y + sign * r - height / 2, width, height, layout)
            for x, y in points
            for sign in (-1, 1)
            for shift in (0.0, -0.34, 0.34)
        ]
    # Beside the land, level with its middle.
    left = min(p[0] for p in points) - layout.land - width
    right = max(p[0] for p in points) + layout.land
    middle = centre[1] - height / 2
    boxes += [_inside(x, middle, width, height, layout) for x in (left, right)]
    return boxes


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
    shore = layout.land * 0.8
    # And the space's number, in its middle.
    digits = r * NUMBER_SHARE / 2 + 1
    spaces = {
        location: (
            (x - core, y - core, x + core, y + core),
            (x - reach, y - reach, x + reach, y + reach),
            (x - shore, y - shore, x + shore, y + shore),
            (x - digits, y - digits, x + digits, y + digits),
        )
        for location, (x, y) in layout.points.items()
    }
    size = label_size(layout)
    placed: dict[str, Box] = {}
    for territory in board.territories:
        if not territory.locations:
            continue
        points = [layout.points[location] for location in territory.locations]
        centre = (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))
        name = names.get(territory.id)
        candidates = _label_boxes(points, centre, label_text(territory, name), size, layout)
        if layout.tight:
            # Crowded: the name may also go on two lines, half as wide.
            two = label_text(territory, name, lines=2)
            candidates += _label_boxes(points, centre, two, size, layout)
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
    spaces: dict[str, tuple[Box, Box, Box, Box]],
    labels: list[Box],
    centre: Point,
) -> tuple[float, ...]:
    """How bad a place is for the label of the territory whose locations are `own`."""
    others = [at for at in layout.points if at not in own]
    near_own = min(_distance(box, layout.points[at]) for at in own)
    near_other = min((_distance(box, layout.points[at]) for at in others), default=math.inf)
    middle = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    own_cores = round(sum(_overlap(box, spaces[at][0]) for at in own))
    # Midway between two territories a label names neither: clearly nearer its own, and off
    # other territories' land, on which it reads as that one's name.
    unclear = (
        max(0, math.ceil(near_own * CLEAR_OF_OTHERS - near_other)),
        round(sum(_overlap(box, spaces[at][2]) for at in others)),
    )
    rings = round(sum(_overlap(box, spaces[at][1]) for at in layout.points))
    # Where there is room, it covers none of its own spaces' middles (their numbers) and
    # grazes no ring either; on a tight canvas there is none, and what it names comes first.
    if layout.tight:
        # Crowded, a label out in the sea sits between territories: it goes on its own land.
        afloat = min(math.dist(middle, layout.points[at]) for at in own) - layout.land
        then: tuple[float, ...] = (
            unclear[1],
            own_cores,
            unclear[0],
            max(0, math.ceil(afloat)),
            rings,
        )
    else:
        then = (own_cores, rings, *unclear)
    return (
        # Two labels over each other cannot be read: that counts first.
        round(sum(_overlap(box, other) for other in labels)),
        # A label nearer another territory's space reads as that territory's name: its own
        # must be nearer by a pixel at least.
        max(0, math.ceil(near_own - near_other + 1)),
        round(sum(_overlap(box, spaces[at][0]) for at in others)),
        *then,
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
