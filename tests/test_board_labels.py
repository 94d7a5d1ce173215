"""Territory labels on the isle, as geometry.

At 740x360 "Frostfang Peaks" was drawn over Rune Hollow, at 844x390 "Thingstead" over
Mimir's Well, and in French at 915x412 and 390x844 two labels stacked. On every board the
digital board can draw, at every screen size a player was seen with, in both languages: each
label sits on or beside its own territory (touching its land, clearly nearer its own spaces
than any other's), never over another territory's spaces or what is drawn on them, never
over another label, inside the canvas, and as wide as the text drawn in it.
"""

import math
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from companion.boards import shipped_board, shipped_board_ids
from companion.language.render import language
from companion.play.board_frame import (
    Arrangement,
    arrangement,
    isle_height,
    isle_width,
    sideways_isle,
)
from companion.play.board_labels import (
    CLEAR_OF_OTHERS,
    LABEL_GAP,
    label_lines,
    label_places,
    label_size,
    label_text,
    others_clearance,
)
from companion.play.board_layout import Layout
from companion.play.game_words import territory_names

ROOT = Path(__file__).resolve().parent.parent
BOARDS = [
    shipped_board(board_id)
    for board_id in shipped_board_ids()
    if shipped_board(board_id).playable_digitally
]
SIZES = [(360, 740), (390, 844), (844, 390), (740, 360), (915, 412), (1280, 800)]
# Flutter draws bold over the regular font by widening each glyph's strokes.
FAUX_BOLD = 1.04


def screen_layout(board, width: float, height: float) -> Layout:
    """The isle's layout as the digital board's screen fits it on a page of this size."""
    if arrangement(width, height) is Arrangement.SIDEWAYS:
        return Layout.fit(board, *sideways_isle(board, width, height), tight=True)
    canvas = isle_width(board, width, height)
    return Layout.fit(board, canvas, isle_height(board, canvas, width, height))


def distance(box, point) -> float:
    dx = max(box[0] - point[0], 0, point[0] - box[2])
    dy = max(box[1] - point[1], 0, point[1] - box[3])
    return math.hypot(dx, dy)


def grown(box, by: float):
    return box[0] - by, box[1] - by, box[2] + by, box[3] + by


def overlap(a, b) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


FONT = TTFont(ROOT / "assets" / "fonts" / "DejaVuSans.ttf")


def drawn_width(text: str, size: float) -> float:
    """How wide the shipped font draws a line of text in bold, in pixels."""
    glyphs, advances = FONT.getBestCmap(), FONT["hmtx"]
    units = sum(advances[glyphs[ord(c)]][0] for c in text)
    return units / FONT["head"].unitsPerEm * size * FAUX_BOLD


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: b.id)
@pytest.mark.parametrize("code", ["en", "fr"])
@pytest.mark.parametrize(("width", "height"), SIZES, ids=lambda v: str(v))
def test_each_label_sits_by_its_own_territory_and_over_nothing_else(board, code, width, height):
    layout = screen_layout(board, width, height)
    names = territory_names(board, language(code))
    places = label_places(board, layout, names)
    size = label_size(layout)
    clearance = others_clearance(layout)
    for territory in board.territories:
        box = places[territory.id]
        name = names[territory.id]
        assert box[0] >= 0 and box[1] >= 0, name
        assert box[2] <= layout.width and box[3] <= layout.height, name
        text = label_text(territory, name, lines=label_lines(box, size))
        assert max(drawn_width(line, size) for line in text.split("\n")) <= box[2] - box[0], name
        others = [at for at in layout.points if at not in territory.locations]
        near_own = min(distance(box, layout.points[at]) for at in territory.locations)
        near_other = min(distance(box, layout.points[at]) for at in others)
        # Over no other territory's space, nor its token's badges or a mark's ring.
        assert near_other >= clearance, (name, near_other, clearance)
        # Clearly its own territory's name: touching its land, nearer its spaces.
        assert near_own <= layout.land, (name, near_own)
        assert near_other >= near_own * CLEAR_OF_OTHERS, (name, near_own, near_other)
        for other in board.territories:
            if other.id != territory.id:
                apart = grown(places[other.id], LABEL_GAP - 0.5)
                assert not overlap(box, apart), (name, names[other.id])
