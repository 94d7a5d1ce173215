"""Where a move's cost badge ('→2') goes beside its space: plain Python.

A badge straddles its own space's rim. Always at the top right, it fell under the next
space up or over a territory's name where spaces crowd (seen at 844x390): each
badge takes the place around its space that covers no other space, no badge placed before
and no label, where one does; else the one that covers least.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from companion.play.board_labels import Box
from companion.play.board_layout import Layout

# Where to try a badge, as the direction from its space's centre (degrees, 0 to the right,
# counted clockwise on a canvas whose y grows downwards): top right first, as it always was.
DIRECTIONS = (-55.0, -125.0, 55.0, 125.0, 0.0, 180.0, -90.0, 90.0)
# A badge's centre lies this many radii from its space's centre: across the rim.
RIM = 1.0
# A badge's text is this share of the radius high, at least MIN_SIZE.
SIZE_SHARE = 0.6
MIN_SIZE = 10.0


def badge_size(layout: Layout, text: str) -> tuple[float, float, float]:
    """(text size, width, height) of a badge saying `text` on this layout."""
    size = max(MIN_SIZE, layout.radius * SIZE_SHARE)
    return size, size * 0.75 * len(text) + 6, size + 5


def badge_text(cost: int) -> str:
    """What a move's badge says: an arrow and the actions it takes."""
    return f"→{cost}"


def badge_places(
    layout: Layout, costs: Mapping[str, int], labels: Iterable[Box] = ()
) -> dict[str, Box]:
    """Each marked space's badge box (by location), placed in turn, clear of other spaces,
    of the badges before it and of `labels` where it can be."""
    r = layout.radius
    kept = list(labels)
    placed: dict[str, Box] = {}
    for location in sorted(costs):
        x, y = layout.points[location]
        _, width, height = badge_size(layout, badge_text(costs[location]))
        candidates = []
        for degrees in DIRECTIONS:
            angle = math.radians(degrees)
            cx, cy = x + math.cos(angle) * r * RIM, y + math.sin(angle) * r * RIM
            candidates.append(_inside(cx - width / 2, cy - height / 2, width, height, layout))
        others = [point for at, point in layout.points.items() if at != location]
        placed[location] = min(
            candidates,
            key=lambda box: (
                round(sum(_on_disc(box, point, r) for point in others)),
                round(sum(_overlap(box, other) for other in [*placed.values(), *kept])),
            ),
        )
    return placed


def _on_disc(box: Box, centre: tuple[float, float], radius: float) -> float:
    """How deep a box reaches into a disc (0 when clear of it)."""
    dx = max(box[0] - centre[0], 0.0, centre[0] - box[2])
    dy = max(box[1] - centre[1], 0.0, centre[1] - box[3])
    return max(0.0, radius - math.hypot(dx, dy))


def _inside(left: float, top: float, width: float, height: float, layout: Layout) -> Box:
    """A box moved, if need be, to lie within the canvas."""
    left = min(max(left, 1.0), layout.width - width - 1)
    top = min(max(top, 1.0), layout.height - height - 1)
    return left, top, left + width, top + height


def _overlap(a: Box, b: Box) -> float:
    """The area two boxes share."""
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    return width * height if width > 0 and height > 0 else 0.0
