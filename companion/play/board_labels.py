"""Where each territory's name goes on the isle: plain Python.

A label must read as its own territory's name: it sits on or beside its own land, clearly
nearer its own spaces than any other territory's, never over another territory's spaces
(what is drawn on them included) nor over another label (at some sizes a
name sat between two territories, on the other one's edge, or two names stacked).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from companion.play.board_layout import (
    LABEL_LEADING,
    LABEL_SIZE,
    MARK_REACH,
    NUMBER_SHARE,
    TIGHT_LABEL_SIZE,
    Layout,
    Point,
)
from companion.play.text_width import text_width
from models.board import Board, Territory

Box = tuple[float, float, float, float]  # left, top, right, bottom

# On a crowded canvas (a phone's) labels are set smaller, to fit between the spaces.
SMALL_LABEL_SIZE = 10.5
CROWDED_RADIUS = 15.0
# Half the side of the square inside a circle, as a share of its radius (1/sqrt 2).
INSCRIBED = 0.71
# A label's own spaces are at least this many times nearer it than any other territory's:
# a label midway between two territories names neither.
CLEAR_OF_OTHERS = 1.5
# Two labels stay this far apart, in pixels: closer, one above the other, they read as one
# (seen in French at 740x360).
LABEL_GAP = 4.0
# Room left beside a label's text, in pixels: its shadow.
LABEL_PAD = 2.0
# What is drawn on a space reaches this many radii from its centre (a token's owner badge
# and its number's tag, at its rim).
BADGE_REACH = 1.3


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


def text_box_size(text: str, size: float) -> tuple[float, float]:
    """The (width, height) a label saying `text` (lines parted by newlines) takes."""
    lines = text.split("\n")
    width = max(text_width(line, size) for line in lines) + LABEL_PAD
    return width, len(lines) * (size + 2) + LABEL_LEADING - 2


def _label_boxes(
    points: list[Point], centre: Point, text: str, size: float, layout: Layout
) -> list[Box]:
    """Places to try for a label saying `text` about a territory's spaces at `points`: above,
    below and beside its land, between its rows, and across its spaces' rims."""
    r = layout.radius
    reach = r + MARK_REACH
    width, height = text_box_size(text, size)
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
    # Across the rim of one of its own spaces, above or below (where there is no room beside
    # the land), and level with one of its spaces, on either side.
    boxes += [
        _inside(x + shift * width - width / 2, y + sign * r - height / 2, width, height, layout)
        for x, y in points
        for sign in (-1, 1)
        for shift in (0.0, -0.34, 0.34)
    ]
    boxes += [
        _inside(x + side, y + level, width, height, layout)
        for x, y in points
        for side in (reach + 1, -reach - 1 - width)
        for level in (-height / 2, -reach * 0.7 - height, reach * 0.7)
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
    """Where each territory's label goes: on or beside its own land, clearly its own.

    Candidates lie above, below and beside the land and among its spaces, on one line or two.
    The best overlaps no label placed before, keeps off every other territory's spaces and
    what is drawn on them, is clearly nearer its own spaces than any other territory's,
    touches its own land, covers none of its own spaces' middles, then grazes no ring, and
    lies nearest the middle of its spaces. Every place is kept inside the canvas. `names`
    are the territories' names as drawn (by id; default as entered): a label is as wide as
    its text in the language shown.
    """
    names = names or {}
    r = layout.radius
    # A space as the square inside its disc (where a token's letter is) and as the square
    # around what is drawn on it (a token, its owner's badge, a mark's ring).
    core = r * INSCRIBED
    reach = r + MARK_REACH
    # And the space's number, in its middle.
    digits = r * NUMBER_SHARE / 2 + 1
    spaces = {
        location: (
            (x - core, y - core, x + core, y + core),
            (x - reach, y - reach, x + reach, y + reach),
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
        if " " in label_text(territory, name):
            # The name may also go on two lines, half as wide.
            two = label_text(territory, name, lines=2)
            candidates += _label_boxes(points, centre, two, size, layout)
        labels = list(placed.values())
        placed[territory.id] = min(
            # Many places come out the same once kept inside the canvas: each is weighed once.
            dict.fromkeys(candidates),
            key=lambda box: _label_cost(box, territory.locations, layout, spaces, labels, centre),
        )
    return placed


def others_clearance(layout: Layout) -> float:
    """How far a label keeps from the centre of another territory's space: its disc and what
    is drawn on it (a token's badges, a mark's ring)."""
    return max(layout.radius * BADGE_REACH, layout.radius + MARK_REACH)


def _label_cost(
    box: Box,
    own: tuple[str, ...],
    layout: Layout,
    spaces: dict[str, tuple[Box, Box, Box]],
    labels: list[Box],
    centre: Point,
) -> tuple[float, ...]:
    """How bad a place is for the label of the territory whose locations are `own`."""
    clearance = others_clearance(layout)
    # A space's squares reach this far from its centre: one farther from the box touches none.
    reach = (layout.radius + MARK_REACH) * math.sqrt(2)
    near_own = near_other = math.inf
    crowding = 0
    own_cores = own_digits = rings = 0.0
    # One pass over the spaces (a layout is drawn again at every turn of a phone).
    for at, point in layout.points.items():
        distance = _distance(box, point)
        mine = at in own
        if mine:
            near_own = min(near_own, distance)
        else:
            near_other = min(near_other, distance)
            if distance < clearance:
                crowding += math.ceil(clearance - distance)
        if distance < reach:
            core, ring, digits = spaces[at]
            rings += _overlap(box, ring)
            if mine:
                own_cores += _overlap(box, core)
                own_digits += _overlap(box, digits)
    middle = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    return (
        # Two labels over each other cannot be read, and two one above the other read as one:
        # that counts first (LABEL_GAP apart at least).
        round(sum(_overlap(_grown(box, LABEL_GAP), other) for other in labels)),
        # Over another territory's space, or what is drawn on it.
        crowding,
        # Midway between two territories a label names neither: clearly nearer its own.
        max(0, math.ceil(near_own * CLEAR_OF_OTHERS - near_other)),
        # On or touching its own land, not out in the sea.
        max(0, math.ceil(near_own - layout.land)),
        # Where there is room, it covers none of its own spaces' middles (a token's letter,
        # a space's number) and grazes no ring either.
        round(own_cores),
        round(own_digits),
        round(rings),
        # One line reads better than two.
        box[3] - box[1] > 1.5 * label_size(layout) + LABEL_LEADING,
        math.dist(middle, centre),
    )


def _grown(box: Box, by: float) -> Box:
    """A box grown by `by` on every side."""
    return box[0] - by, box[1] - by, box[2] + by, box[3] + by


def _distance(box: Box, point: Point) -> float:
    """How far a point lies outside a box (0 inside it)."""
    x, y = point
    dx = box[0] - x if x < box[0] else (x - box[2] if x > box[2] else 0.0)
    dy = box[1] - y if y < box[1] else (y - box[3] if y > box[3] else 0.0)
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
