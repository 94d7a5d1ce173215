"""The isle drawn on a flet canvas: territories, paths, spaces, creatures, marks; taps back as ids.

Geometry (where spaces fall, which one a tap hits) is `board_geometry`, what a tap means
is `board_taps`; `IsleCanvas` only turns them into shapes, and taps into location ids.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import flet as ft
import flet.canvas as cv

from companion.app.theme import ACCENT, CREATURE_MARK, FONT, PlayerColour
from companion.engine.queries import Creature
from companion.language import Term
from companion.language.render import Language
from companion.play.board_badges import MIN_SIZE, SIZE_SHARE, badge_places, badge_text
from companion.play.board_labels import Box, label_lines, label_places, label_size, label_text
from companion.play.board_layout import NUMBER_SHARE, Layout, Point, convex_hull
from companion.play.board_taps import Mark, Target, describe_board
from companion.play.game_words import board_place_terms, english, territory_names
from models.board import Board
from models.rules import CreatureKind

# Creatures differ in size as well as in letter, so kinds read apart at a glance.
TOKEN_SCALE = {CreatureKind.WYRM: 1.0, CreatureKind.TROLL: 0.88, CreatureKind.SPRITE: 0.74}
# A space's number is set at least this large (in the middle of an empty space) and, on the
# tag of a space a token covers, at least TAG_SIZE.
NUMBER_SIZE = 10.0
TAG_SIZE = 8.5
NUMBER_COLOUR = "#A9BDBD"
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


class IsleCanvas:
    """The board as one canvas; taps come back as location ids."""

    def __init__(
        self,
        board: Board,
        colours: Mapping[str, PlayerColour],
        on_tap: Callable[[str], None],
        width: float,
        height_for: Callable[[float], float],
        *,
        on_drag: Callable[[str, Point], None] | None = None,
        on_drop: Callable[[], None] | None = None,
        on_tap_sea: Callable[[Point], None] | None = None,
        words: Language | None = None,
        tight: bool = False,
    ) -> None:
        self.board = board
        # The device's language: shipped names are drawn and read out in it.
        self.words = words or english()
        self.places, self.names = self._named(board)
        self.colours = colours
        self.on_tap = on_tap
        # The editor's handlers: a space dragged to a board point, let go, a tap off every space.
        self.on_drag = on_drag
        self.on_drop = on_drop
        self.on_tap_sea = on_tap_sea
        self.frame = on_drag is not None
        self.dragging: str | None = None
        # The canvas's height for a width, read afresh whenever the canvas or the page changes
        # size: a height fixed once would keep the page's shape from when the screen was built.
        self.height_for = height_for
        # Fitted tight (a phone turned sideways: the isle takes the screen's height, its
        # labels go among the spaces); the screen sets it, then refits.
        self.tight = tight
        height = height_for(width)
        self.layout = Layout.fit(board, width, height, frame=self.frame, tight=tight)
        self.on_board: dict[str, Creature] = {}
        self.marks: dict[str, Target] = {}
        self.flash: tuple[str, ...] = ()
        # A creature on its way between spaces, drawn at a canvas point.
        self.gliding: tuple[Creature, Point] | None = None
        # The shapes of what stands on a space, by what it is, for the layout as it is: the
        # same shapes drawn again are compared, not sent again, when the game changes.
        self._made: dict[tuple[object, ...], list[cv.Shape]] = {}
        # Two layers: the isle itself (sea, land, paths, names, spaces), drawn again only when
        # the board or its size changes, and above it what moves (creatures, marks, numbers
        # of empty spaces), drawn at every change of the game: a computer's command or a
        # glide's frame sends the few shapes that move, not the whole isle again.
        self.ground = cv.Canvas(
            height=height, on_resize=self._resized, resize_interval=150, expand=False
        )
        self.canvas = cv.Canvas(height=height, expand=False)
        self.semantics = ft.Semantics(
            identifier="board",
            # One sentence for screen readers; the tap goes to the canvas at its position.
            exclude_semantics=True,
            content=ft.GestureDetector(
                content=ft.Stack([self.ground, self.canvas], fit=ft.StackFit.PASS_THROUGH),
                on_tap_down=self._tapped,
                on_pan_start=self._drag_start if self.frame else None,
                on_pan_update=self._drag_update if self.frame else None,
                on_pan_end=self._drag_end if self.frame else None,
                drag_interval=DRAG_INTERVAL_MS,
                mouse_cursor=ft.MouseCursor.CLICK,
            ),
        )
        # Each space also shows in the screen-reader tree, named and where it is drawn: the
        # boxes let a reader (and a test) find every space. They take no taps: those fall
        # through to the canvas.
        # Passing the column's width on to the canvas: a stack would otherwise shrink it to nothing.
        self.stack = ft.Stack([self.semantics], fit=ft.StackFit.PASS_THROUGH)
        # Where the territories' names go on the layout as it is (worked out in `_draw`).
        self.label_boxes: dict[str, Box] = {}
        # ... kept for each size the canvas has had: a phone turned back and forth (each turn
        # fits the canvas two or three times) places them once per size.
        self._labels_by_size: dict[tuple[float, float, bool], dict[str, Box]] = {}
        self._draw()

    @property
    def control(self) -> ft.Control:
        """The control to put on the screen."""
        return self.stack

    def show(
        self,
        on_board: dict[str, Creature],
        marks: dict[str, Target],
        labels: Mapping[str, str],
        flash: tuple[str, ...] = (),
        gliding: tuple[Creature, Point] | None = None,
    ) -> None:
        """Draw this position: creatures, the spaces a tap would use, spaces to point out, and
        a creature `gliding` between spaces (at a canvas point) while a move is shown."""
        self.on_board = on_board
        self.marks = marks
        self.flash = flash
        self.gliding = gliding
        self.semantics.label = describe_board(on_board, labels, marks, self.places, self.words)
        self.canvas.shapes = self._pieces()

    def redraw(self, board: Board) -> None:
        """Draw another version of the board (the editor's), keeping the canvas size."""
        self.board = board
        self.places, self.names = self._named(board)
        self._labels_by_size.clear()
        self.layout = Layout.fit(
            board, self.layout.width, self.layout.height, frame=self.frame, tight=self.tight
        )
        self._draw()

    def send_drawing(self) -> None:
        """Send both layers as they are now, and nothing else of the screen (a drag's step)."""
        self.ground.update()
        self.canvas.update()

    def refit(self, width: float | None = None, *, send: bool = True) -> None:
        """Size the canvas again for the page as it is now (turned, resized, reloaded), and
        for `width` if the screen knows it before the canvas reports it; not `send`, when the
        screen sends the whole page next."""
        self._fit(width or self.layout.width, send=send)

    def _resized(self, event: cv.CanvasResizeEvent) -> None:
        # The width is the layout's to give; the height follows from it and the page.
        self._fit(event.width)

    def _fit(self, width: float, *, send: bool = True) -> None:
        height = self.height_for(width)
        layout = self.layout
        if (
            abs(width - layout.width) < 1
            and abs(height - layout.height) < 1
            and self.tight == layout.tight
        ):
            return
        self.ground.height = self.canvas.height = height
        self.layout = Layout.fit(self.board, width, height, frame=self.frame, tight=self.tight)
        self._draw()
        if send:
            self.stack.update()

    def _draw(self) -> None:
        """Draw both layers and place the spaces' reader boxes, for the layout as it is."""
        self._made.clear()
        layout = self.layout
        key = (layout.width, layout.height, layout.tight)
        if key not in self._labels_by_size:
            self._labels_by_size[key] = label_places(self.board, layout, self.names)
        self.label_boxes = self._labels_by_size[key]
        self.ground.shapes = self._ground()
        self.canvas.shapes = self._pieces()
        self._place_spaces()

    def _named(self, board: Board) -> tuple[dict[str, Term], dict[str, str]]:
        """The board's spaces as terms, and its territories' names as drawn, in the language."""
        return board_place_terms(board), territory_names(board, self.words)

    def _place_spaces(self) -> None:
        r = self.layout.radius
        words = self.words
        names = {location: words.value(term, "nu") for location, term in self.places.items()}
        self.stack.controls = [
            self.semantics,
            *(
                ft.Container(
                    left=x - r,
                    top=y - r,
                    width=2 * r,
                    height=2 * r,
                    ignore_interactions=True,
                    content=ft.Semantics(
                        identifier=f"space-{location}",
                        label=names[location],
                        content=ft.Container(),
                    ),
                )
                for location, (x, y) in self.layout.points.items()
            ),
        ]

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

    def _ground(self) -> list[cv.Shape]:
        layout = self.layout
        r = layout.radius
        shapes: list[cv.Shape] = [
            cv.Rect(0, 0, layout.width, layout.height, border_radius=12, paint=_fill(SEA))
        ]
        for t, territory in enumerate(self.board.territories):
            if territory.locations:
                shapes.extend(
                    _land(
                        [layout.points[name] for name in territory.locations],
                        layout.land,
                        LAND[t % 8],
                    )
                )
        path_paint = ft.Paint(
            color=PATH, stroke_width=max(2.0, r * 0.18), style=ft.PaintingStyle.STROKE
        )
        for a, b in self.board.paths:
            (ax, ay), (bx, by) = layout.points[a], layout.points[b]
            shapes.append(cv.Line(ax, ay, bx, by, paint=path_paint))
        for x, y in layout.points.values():
            shapes.append(cv.Circle(x, y, r, paint=_fill(SPACE)))
            shapes.append(cv.Circle(x, y, r, paint=_stroke(SPACE_RING, 1.5)))
        return shapes

    def _pieces(self) -> list[cv.Shape]:
        layout = self.layout
        r = layout.radius
        made = self._made
        key: tuple[object, ...]
        shapes: list[cv.Shape] = []
        for location, piece in self.on_board.items():
            key = ("token", location, piece.player, piece.kind, piece.face_down, piece.active)
            if key not in made:
                made[key] = self._token(piece, *layout.points[location])
            shapes.extend(made[key])
        badges = badge_places(
            layout,
            {at: target.cost for at, target in self.marks.items() if target.mark is Mark.MOVE},
            self.label_boxes.values(),
        )
        for location, target in self.marks.items():
            badge = badges.get(location)
            key = ("mark", location, target.mark, target.cost, badge)
            if key not in made:
                made[key] = _mark(target, *layout.points[location], r, badge)
            shapes.extend(made[key])
        # Over the marks' rings: each token's owner badge, and every space's number (the log
        # and the guide call a space 'North Cliffs 4', on every screen and in every step).
        for location, (x, y) in layout.points.items():
            there = self.on_board.get(location)
            marked = location in self.marks
            key = ("number", location, there is None, marked)
            if key not in made:
                made[key] = self._number(location, x, y, occupied=there is not None, marked=marked)
            shapes.extend(made[key])
            if there is not None:
                key = ("badge", location, there.player)
                if key not in made:
                    made[key] = self._badge(there.player, x, y)
                shapes.extend(made[key])
        for location in self.flash:
            x, y = layout.points[location]
            shapes.append(cv.Circle(x, y, r + 6, paint=_stroke(FLASH_COLOUR, 4)))
        if self.gliding is not None:
            piece, (x, y) = self.gliding
            shapes.extend(self._token(piece, x, y))
            shapes.extend(self._badge(piece.player, x, y))
        # Names go on top: placed clear of the spaces where there is room, they stay readable
        # where a crowded canvas makes one graze a token's ring.
        if ("labels",) not in made:
            places = self.label_boxes
            size = label_size(layout)
            made[("labels",)] = [
                _territory_label(
                    label_text(
                        territory,
                        self.names.get(territory.id),
                        lines=label_lines(places[territory.id], size),
                    ),
                    places[territory.id],
                    size,
                )
                for territory in self.board.territories
                if territory.locations
            ]
        shapes.extend(made[("labels",)])
        return shapes

    def _number(
        self, location: str, x: float, y: float, *, occupied: bool, marked: bool
    ) -> list[cv.Shape]:
        """A space's number in its territory: in the middle of an empty space (gold where a
        tap would summon there or move there), on a tag at the rim of one a token covers
        (opposite its owner's badge); none for a territory of one space, which sentences
        name without a number."""
        territory = self.board.territory_of(location)
        if len(territory.locations) < 2:
            return []
        number = str(self.board.location_numbers[location])
        r = self.layout.radius
        if not occupied:
            size = max(NUMBER_SIZE, r * NUMBER_SHARE)
            colour = ACCENT if marked else NUMBER_COLOUR
            return [_text(number, x, y, size, colour, weight=ft.FontWeight.BOLD)]
        size = max(TAG_SIZE, r * 0.45)
        width, height = size * 0.7 * len(number) + 5, size + 3
        tx, ty = x - r * 0.85, y + r * 0.7
        box = (tx - width / 2, ty - height / 2)
        return [
            cv.Rect(*box, width, height, border_radius=3, paint=_fill("#101010")),
            cv.Rect(*box, width, height, border_radius=3, paint=_stroke(NUMBER_COLOUR, 1)),
            _text(number, tx, ty, size, "#F4ECD8", weight=ft.FontWeight.BOLD),
        ]

    def _token(self, piece: Creature, x: float, y: float) -> list[cv.Shape]:
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

    def _badge(self, player: str, x: float, y: float) -> list[cv.Shape]:
        """The owner's shape on a badge at the rim of their token's space: two seats' tokens
        differ by more than their colour. Drawn over the marks: an attack's ring leaves it
        in sight."""
        colour = self.colours[player]
        # Never under 8.5 px: its shape (set at 1.4 times that) must read on a phone.
        badge = max(8.5, self.layout.radius * 0.45)
        # At the space's rim whatever the token's size: on a small Sprite it stays off the S.
        rim = self.layout.radius
        bx, by = x + rim * 0.85, y + rim * 0.7
        return [
            cv.Circle(bx, by, badge, paint=_fill("#101010")),
            cv.Circle(bx, by, badge, paint=_stroke(colour.hex, 1.5)),
            _text(colour.mark, bx, by, badge * 1.4, "#F4ECD8"),
        ]


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


def _land(points: list[Point], pad: float, colour: str) -> list[cv.Shape]:
    """A territory's land: its spaces' hull, widened by `pad` with a round-cornered stroke."""
    hull = convex_hull(points)
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


def _territory_label(text: str, box: Box, size: float) -> cv.Text:
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


def _mark(
    target: Target, x: float, y: float, radius: float, badge: Box | None = None
) -> list[cv.Shape]:
    """How a space a tap would use is marked: a coloured ring, and for a move its cost on a
    badge in the `badge` box (`badge_places`)."""
    if target.mark in (Mark.SUMMON, Mark.ACTIVATE):
        # A gold dashed ring; the space keeps its number (no '+' over it) for the sentences.
        return [cv.Circle(x, y, radius + 3, paint=_stroke(ACCENT, 3, [6, 4]))]
    if target.mark is Mark.MOVE:
        # A cost is a badge with an arrow ("→2": two actions), nothing like a space's plain
        # number, which sits in the middle of an empty space.
        text = badge_text(target.cost)
        size = max(MIN_SIZE, radius * SIZE_SHARE)
        assert badge is not None, "a move's badge is placed"
        bx, by = badge[0], badge[1]
        width, height = badge[2] - badge[0], badge[3] - badge[1]
        return [
            cv.Circle(x, y, radius + 3, paint=_stroke(MOVE_COLOUR, 3)),
            cv.Rect(bx, by, width, height, border_radius=height / 2, paint=_fill(MOVE_COLOUR)),
            cv.Rect(bx, by, width, height, border_radius=height / 2, paint=_stroke("#101010", 1.5)),
            _text(
                text, bx + width / 2, by + height / 2, size, "#101010", weight=ft.FontWeight.BOLD
            ),
        ]
    colour, glyph = (ATTACK_COLOUR, "⚔") if target.mark is Mark.ATTACK else (SWAP_COLOUR, "⇄")
    # A glyph beside the ring, so the kind of target never depends on telling colours apart.
    bx, by, glyph_size = x + radius * 0.85, y - radius * 0.85, max(9.0, radius * 0.5)
    return [
        cv.Circle(x, y, radius + 4, paint=_stroke(colour, 4)),
        cv.Circle(bx, by, glyph_size, paint=_fill(colour)),
        _text(glyph, bx, by, glyph_size * 1.3, "#101010", weight=ft.FontWeight.BOLD),
    ]
