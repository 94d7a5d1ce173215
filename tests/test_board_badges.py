"""A move's cost badge beside its space, as geometry.

At 844x390 a "→1" badge was drawn under the next space up and a "→2" badge over
"Wyrmfell ◆3". Wherever a creature with three actions stands on an empty isle (the most
moves a creature is ever offered), at the sideways sizes and on a tablet and phone upright:
no badge covers another space, another badge or a territory's label.
"""

import math
from collections import deque

import pytest
from test_board_labels import SIZES, screen_layout

from companion.boards import shipped_board, shipped_board_ids
from companion.language.render import language
from companion.play.board_badges import badge_places
from companion.play.board_labels import label_places
from companion.play.game_words import territory_names

BOARDS = [
    shipped_board(board_id)
    for board_id in shipped_board_ids()
    if shipped_board(board_id).playable_digitally
]


def moves_from(board, start: str, actions: int = 3) -> dict[str, int]:
    """The empty spaces a creature at `start` reaches, with the actions each takes."""
    near: dict[str, set[str]] = {at: set() for at in board.location_ids}
    for a, b in board.paths:
        near[a].add(b)
        near[b].add(a)
    cost = {start: 0}
    queue = deque([start])
    while queue:
        at = queue.popleft()
        for nxt in near[at]:
            if nxt not in cost and cost[at] < actions:
                cost[nxt] = cost[at] + 1
                queue.append(nxt)
    del cost[start]
    return cost


def overlap(a, b) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def on_disc(box, centre, radius) -> bool:
    dx = max(box[0] - centre[0], 0, centre[0] - box[2])
    dy = max(box[1] - centre[1], 0, centre[1] - box[3])
    return math.hypot(dx, dy) < radius - 0.5


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: b.id)
@pytest.mark.parametrize(("width", "height"), SIZES, ids=lambda v: str(v))
def test_move_badges_cover_no_other_space_badge_or_label(board, width, height):
    layout = screen_layout(board, width, height)
    labels = list(label_places(board, layout, territory_names(board, language("fr"))).values())
    labels += list(label_places(board, layout, territory_names(board, language("en"))).values())
    for start in board.location_ids:
        costs = moves_from(board, start)
        places = badge_places(layout, costs, labels)
        assert set(places) == set(costs)
        boxes = list(places.items())
        for i, (location, box) in enumerate(boxes):
            assert box[0] >= 0 and box[2] <= layout.width and 0 <= box[1] <= box[3] <= layout.height
            for other, centre in layout.points.items():
                if other != location:
                    assert not on_disc(box, centre, layout.radius), (start, location, other)
            assert not any(overlap(box, b) for _, b in boxes[i + 1 :]), (start, location)
            assert not any(overlap(box, label) for label in labels), (start, location)
