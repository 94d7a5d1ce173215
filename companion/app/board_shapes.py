"""The shapes the isle is drawn with on a flet canvas: land, spaces, tokens, badges, marks.

`IsleCanvas` (`board_view`) decides which to draw where and keeps them between drawings;
these functions only make them, for a layout (`play/board_layout`).
"""

from __future__ import annotations

import flet as ft
import flet.canvas as cv

from companion.app.theme import ACCENT, CREATURE_MARK, FONT, PlayerColour
from companion.engine.queries import Creature
from companion.play.board_badges import MIN_SIZE, SIZE_SHARE, badge_text
from companion.play.board_labels import Box
from companion.play.board_layout import NUMBER_SHARE, Layout, Point, convex_hull
from companion.play.board_taps import Mark, Target
from models.board import Board
from models.rules import CreatureKind

# Creatures differ in size as well as in letter, so kinds read apart at a glance.
TOKEN_SCALE = {CreatureKind.WYRM: 1.0, CreatureKind.TROLL: 0.88, CreatureKind.SPRITE: 0.74}
# A space's number is set at least this large (in the middle of an empty space) and, on the
# tag of a space a token covers, at least TAG_SIZE.
NUMBER_SIZE = 10.0
TAG_SIZE = 8.5
NUMBER_COLOUR = "#A9BDBD"

SEA = "#0F2A38"
PATH = "#D9C9A3"
SPACE = "#1C2626"
SPACE_RING = "#D9C9A3"
LAND = ("#35553A", "#5A5034", "#454A66", "#5A3C3C", "#355A57", "#54466A", "#4B5A36", "#5E4A33")
MOVE_COLOUR = "#4ADE80"
ATTACK_COLOUR = "#FF5A5A"
SWAP_COLOUR = "#6CB8FF"
FLASH_COLOUR = "#FFFFFF"


def ground(board: Board, layout: Layout) -> list[cv.Shape]:
    """The isle itself: sea, land, paths and spaces."""
    r = layout.radius
    shapes: list[cv.Shape] = [
        cv.Rect(0, 0, layout.width, layout.height, border_radius=12, paint=fill(SEA))
    ]
    for t, territory in enumerate(board.territories):
        if territory.locations:
            shapes.extend(
                land(
                    [layout.points[name] for name in territory.locations],
                    layout.land,
                    LAND[t % 8],
                )
            )
    path_paint = ft.Paint(
        color=PATH, stroke_width=max(2.0, r * 0.18), style=ft.PaintingStyle.STROKE
    )
    for a, b in board.paths:
        (ax, ay), (bx, by) = layout.points[a], layout.points[b]
        shapes.append(cv.Line(ax, ay, bx, by, paint=path_paint))
    for x, y in layout.points.values():
        shapes.append(cv.Circle(x, y, r, paint=fill(SPACE)))
        shapes.append(cv.Circle(x, y, r, paint=stroke(SPACE_RING, 1.5)))
    return shapes


def number(
    board: Board, layout: Layout, location: str, x: float, y: float, *, occupied: bool, marked: bool
) -> list[cv.Shape]:
    """A space's number in its territory: in the middle of an empty space (gold where a
    tap would summon there or move there), on a tag at the rim of one a token covers
    (opposite its owner's badge); none for a territory of one space, which sentences
    name without a number."""
    territory = board.territory_of(location)
    if len(territory.locations) < 2:
        return []
    number = str(board.location_numbers[location])
    r = layout.radius
    if not occupied:
        size = max(NUMBER_SIZE, r * NUMBER_SHARE)
        colour = ACCENT if marked else NUMBER_COLOUR
        return [text_at(number, x, y, size, colour, weight=ft.FontWeight.BOLD)]
    size = max(TAG_SIZE, r * 0.45)
    width, height = size * 0.7 * len(number) + 5, size + 3
    tx, ty = x - r * 0.85, y + r * 0.7
    box = (tx - width / 2, ty - height / 2)
    return [
        cv.Rect(*box, width, height, border_radius=3, paint=fill("#101010")),
        cv.Rect(*box, width, height, border_radius=3, paint=stroke(NUMBER_COLOUR, 1)),
        text_at(number, tx, ty, size, "#F4ECD8", weight=ft.FontWeight.BOLD),
    ]


def token(
    layout: Layout, colour: PlayerColour, piece: Creature, x: float, y: float
) -> list[cv.Shape]:
    """A creature's token: its owner's colour and its letter, face up or down."""
    size = layout.radius * TOKEN_SCALE[piece.kind]
    if piece.face_down:
        # Face-down: the creature's back, its owner's colour only as a ring.
        face, ring, ink = "#2B2B2B", colour.hex, colour.hex
    else:
        face, ring, ink = colour.hex, "#101010", colour.on_hex
    shapes: list[cv.Shape] = [
        cv.Circle(x, y, size, paint=fill(face)),
        cv.Circle(x, y, size, paint=stroke(ring, 2.5 if piece.face_down else 2)),
        text_at(
            CREATURE_MARK[piece.kind],
            x,
            y,
            size * 1.05,
            ink,
            weight=ft.FontWeight.BOLD,
        ),
    ]
    if piece.active:
        shapes.append(cv.Circle(x, y, layout.radius + 4, paint=stroke(ACCENT, 4)))
    return shapes


def badge(layout: Layout, colour: PlayerColour, x: float, y: float) -> list[cv.Shape]:
    """The owner's shape on a badge at the rim of their token's space: two seats' tokens
    differ by more than their colour. Drawn over the marks: an attack's ring leaves it
    in sight."""
    # Never under 8.5 px: its shape (set at 1.4 times that) must read on a phone.
    badge = max(8.5, layout.radius * 0.45)
    # At the space's rim whatever the token's size: on a small Sprite it stays off the S.
    rim = layout.radius
    bx, by = x + rim * 0.85, y + rim * 0.7
    return [
        cv.Circle(bx, by, badge, paint=fill("#101010")),
        cv.Circle(bx, by, badge, paint=stroke(colour.hex, 1.5)),
        text_at(colour.mark, bx, by, badge * 1.4, "#F4ECD8"),
    ]


def fill(colour: str) -> ft.Paint:
    """A paint that fills with a colour."""
    return ft.Paint(color=colour, style=ft.PaintingStyle.FILL)


def stroke(colour: str, width: float, dashes: list[float] | None = None) -> ft.Paint:
    """A paint that draws a line of a colour and width, dashed if asked."""
    return ft.Paint(
        color=colour,
        stroke_width=width,
        style=ft.PaintingStyle.STROKE,
        stroke_dash_pattern=dashes,
    )


def text_at(
    value: str,
    x: float,
    y: float,
    size: float,
    colour: str,
    *,
    weight: ft.FontWeight | None = None,
    alignment: ft.Alignment = ft.Alignment.CENTER,
) -> cv.Text:
    """A line of text in the app's font, placed by `alignment` at (x, y)."""
    return cv.Text(
        x,
        y,
        value,
        alignment=alignment,
        style=ft.TextStyle(size=size, color=colour, weight=weight, font_family=FONT),
    )


def land(points: list[Point], pad: float, colour: str) -> list[cv.Shape]:
    """A territory's land: its spaces' hull, widened by `pad` with a round-cornered stroke."""
    hull = convex_hull(points)
    if len(hull) == 1:
        (x, y) = hull[0]
        return [cv.Circle(x, y, pad, paint=fill(colour))]
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
        shapes.append(cv.Path(elements, paint=fill(colour)))
    return shapes


def territory_label(text: str, box: Box, size: float) -> cv.Text:
    """A territory's label (`label_text`), in the box `label_places` found for it."""
    return cv.Text(
        (box[0] + box[2]) / 2,
        box[3],
        text,
        alignment=ft.Alignment.BOTTOM_CENTER,
        text_align=ft.TextAlign.CENTER,
        style=ft.TextStyle(
            size=size,
            height=(size + 2) / size,
            color="#F4ECD8",
            weight=ft.FontWeight.BOLD,
            font_family=FONT,
            shadow=ft.BoxShadow(blur_radius=3, color="#000000"),
        ),
    )


def mark(
    target: Target, x: float, y: float, radius: float, badge: Box | None = None
) -> list[cv.Shape]:
    """How a space a tap would use is marked: a coloured ring, and for a move its cost on a
    badge in the `badge` box (`badge_places`)."""
    if target.mark in (Mark.SUMMON, Mark.ACTIVATE):
        # A gold dashed ring; the space keeps its number (no '+' over it) for the sentences.
        return [cv.Circle(x, y, radius + 3, paint=stroke(ACCENT, 3, [6, 4]))]
    if target.mark is Mark.MOVE:
        # A cost is a badge with an arrow ("→2": two actions), nothing like a space's plain
        # number, which sits in the middle of an empty space.
        said = badge_text(target.cost)
        size = max(MIN_SIZE, radius * SIZE_SHARE)
        assert badge is not None, "a move's badge is placed"
        bx, by = badge[0], badge[1]
        width, height = badge[2] - badge[0], badge[3] - badge[1]
        return [
            cv.Circle(x, y, radius + 3, paint=stroke(MOVE_COLOUR, 3)),
            cv.Rect(bx, by, width, height, border_radius=height / 2, paint=fill(MOVE_COLOUR)),
            cv.Rect(bx, by, width, height, border_radius=height / 2, paint=stroke("#101010", 1.5)),
            text_at(
                said, bx + width / 2, by + height / 2, size, "#101010", weight=ft.FontWeight.BOLD
            ),
        ]
    colour, glyph = (ATTACK_COLOUR, "⚔") if target.mark is Mark.ATTACK else (SWAP_COLOUR, "⇄")
    # A glyph beside the ring, so the kind of target never depends on telling colours apart.
    bx, by, glyph_size = x + radius * 0.85, y - radius * 0.85, max(9.0, radius * 0.5)
    return [
        cv.Circle(x, y, radius + 4, paint=stroke(colour, 4)),
        cv.Circle(bx, by, glyph_size, paint=fill(colour)),
        text_at(glyph, bx, by, glyph_size * 1.3, "#101010", weight=ft.FontWeight.BOLD),
    ]


# The computer's move ("What would the computer do?"): a colour no other mark uses, on a dark
# halo so it reads on every land, and shapes of its own (a double ring, an arrow), so it is
# never told by colour alone.
HINT_COLOUR = "#F0ABFC"
HALO = "#101010"


def hint_ring(x: float, y: float, radius: float) -> list[cv.Shape]:
    """A space the computer's move is about: a double ring outside the marks' rings."""
    # Just outside a mark's ring (radius + 4, 4 wide), which the inner ring shows through.
    outer = radius + 8
    return [
        cv.Circle(x, y, outer, paint=stroke(HALO, 5)),
        cv.Circle(x, y, outer, paint=stroke(HINT_COLOUR, 3)),
        cv.Circle(x, y, outer - 4, paint=stroke(HINT_COLOUR, 1.5)),
    ]


def hint_arrow(points: list[Point], radius: float) -> list[cv.Shape]:
    """The computer's move from its first space to its last, along `points` (a move's way
    through the spaces it passes): out of the first space's creature, its head on the last
    space's rim (neighbouring spaces are close: a shorter arrow would hardly show)."""
    if len(points) < 2:
        return []
    start = _toward(points[0], points[1], radius * 0.8)
    end = _toward(points[-1], points[-2], radius + 1)
    line = [start, *points[1:-1], end]
    elements: list[cv.Path.PathElement] = [cv.Path.MoveTo(*line[0])]
    elements.extend(cv.Path.LineTo(*p) for p in line[1:])
    (px, py), (ex, ey) = line[-2], end
    length = max(1e-6, ((ex - px) ** 2 + (ey - py) ** 2) ** 0.5)
    ux, uy = (ex - px) / length, (ey - py) / length
    head = max(10.0, radius * 0.6)
    left = (ex - ux * head - uy * head * 0.55, ey - uy * head + ux * head * 0.55)
    right = (ex - ux * head + uy * head * 0.55, ey - uy * head - ux * head * 0.55)
    tip: list[cv.Path.PathElement] = [
        cv.Path.MoveTo(ex, ey),
        cv.Path.LineTo(*left),
        cv.Path.LineTo(*right),
        cv.Path.Close(),
    ]
    return [
        cv.Path(elements, paint=line_paint(HALO, 8)),
        cv.Path(elements, paint=line_paint(HINT_COLOUR, 4)),
        cv.Path(tip, paint=line_paint(HALO, 4)),
        cv.Path(tip, paint=fill(HINT_COLOUR)),
    ]


def line_paint(colour: str, width: float) -> ft.Paint:
    """A paint for a line with round joins and ends."""
    return ft.Paint(
        color=colour,
        stroke_width=width,
        style=ft.PaintingStyle.STROKE,
        stroke_join=ft.StrokeJoin.ROUND,
        stroke_cap=ft.StrokeCap.ROUND,
    )


def hint_summon(kind: CreatureKind, x: float, y: float, radius: float) -> list[cv.Shape]:
    """The creature a summon would bring, drawn hollow on its space: its letter in the hint's
    colour."""
    size = radius * TOKEN_SCALE[kind]
    return [
        cv.Circle(x, y, size, paint=fill(HALO)),
        cv.Circle(x, y, size, paint=stroke(HINT_COLOUR, 2, [4, 3])),
        text_at(CREATURE_MARK[kind], x, y, size * 1.05, HINT_COLOUR, weight=ft.FontWeight.BOLD),
    ]


def _toward(point: Point, other: Point, by: float) -> Point:
    """`point` moved `by` toward `other` (not past the middle between them)."""
    (x, y), (ox, oy) = point, other
    length = ((ox - x) ** 2 + (oy - y) ** 2) ** 0.5
    if length < 1e-6:
        return point
    step = min(by, length / 2) / length
    return (x + (ox - x) * step, y + (oy - y) * step)
