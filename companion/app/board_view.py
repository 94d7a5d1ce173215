"""The isle drawn on a flet canvas: territories, paths, spaces, creatures, marks; taps back as ids.

Geometry (where spaces fall, which one a tap hits) is `play/board_layout`, what a tap means
`play/board_taps`; the shapes are `board_shapes`'; `IsleCanvas` decides what is drawn where
and keeps it between drawings, and turns taps into location ids.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import flet as ft
import flet.canvas as cv

from companion.app import board_shapes as shapes_of
from companion.app.theme import PlayerColour
from companion.engine.queries import Creature
from companion.language import Message, Term
from companion.language.render import Language
from companion.play.board_badges import badge_places
from companion.play.board_hint import HintMarks
from companion.play.board_labels import Box, label_lines, label_places, label_size, label_text
from companion.play.board_layout import Layout, Point
from companion.play.board_taps import Mark, Target, describe_board
from companion.play.game_words import board_place_terms, english, territory_names
from models.board import Board

# While a space is dragged, its new place is sent at most this often.
DRAG_INTERVAL_MS = 40


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
        # The computer's move asked for ("What would the computer do?"), drawn over the rest.
        self.hint: HintMarks | None = None
        # The reader boxes of the spaces, and of the spaces the hint is about.
        self._space_nodes: list[ft.Control] = []
        self._hint_nodes: list[ft.Control] = []
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
        hint: tuple[HintMarks, str] | None = None,
    ) -> None:
        """Draw this position: creatures, the spaces a tap would use, spaces to point out, a
        creature `gliding` between spaces (at a canvas point) while a move is shown, and the
        computer's move asked for (`hint`: what it draws, and its sentence)."""
        self.on_board = on_board
        self.marks = marks
        self.flash = flash
        self.gliding = gliding
        said = describe_board(on_board, labels, marks, self.places, self.words)
        self.semantics.label = said if hint is None else f"{said} {hint[1]}"
        marks_of_hint = None if hint is None else hint[0]
        if marks_of_hint != self.hint:
            self.hint = marks_of_hint
            self._place_hint()
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
        self.ground.shapes = shapes_of.ground(self.board, self.layout)
        self.canvas.shapes = self._pieces()
        self._place_spaces()

    def _named(self, board: Board) -> tuple[dict[str, Term], dict[str, str]]:
        """The board's spaces as terms, and its territories' names as drawn, in the language."""
        return board_place_terms(board), territory_names(board, self.words)

    def _place_spaces(self) -> None:
        r = self.layout.radius
        words = self.words
        names = {location: words.value(term, "nu") for location, term in self.places.items()}
        self._space_nodes = [
            reader_box(f"space-{location}", names[location], x, y, r)
            for location, (x, y) in self.layout.points.items()
        ]
        self._place_hint()

    def _place_hint(self) -> None:
        """The reader boxes of the spaces the hint is about (`hint-<id>`), over theirs."""
        hint = self.hint
        spaces = () if hint is None else dict.fromkeys((*hint.arrow[:1], *hint.rings))
        r = self.layout.radius
        self._hint_nodes = [
            reader_box(
                f"hint-{location}",
                self.words.render(Message("hint.space", place=self.places[location])),
                *self.layout.points[location],
                r,
            )
            for location in spaces
        ]
        self.stack.controls = [self.semantics, *self._space_nodes, *self._hint_nodes]

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

    def _hint_rings(self, hint: HintMarks) -> list[cv.Shape]:
        """The computer's move's rings around its spaces, and a summon's creature."""
        layout = self.layout
        r = layout.radius
        shapes: list[cv.Shape] = []
        for location in hint.rings:
            x, y = layout.points[location]
            shapes.extend(shapes_of.hint_ring(x, y, r))
            if hint.summons is not None:
                shapes.extend(shapes_of.hint_summon(hint.summons, x, y, r))
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
                made[key] = shapes_of.token(
                    layout, self.colours[piece.player], piece, *layout.points[location]
                )
            shapes.extend(made[key])
        badges = badge_places(
            layout,
            {at: target.cost for at, target in self.marks.items() if target.mark is Mark.MOVE},
            self.label_boxes.values(),
        )
        # The computer's move: its rings under the marks (an attack's ⚔ badge sits where
        # they go), its arrow over them; the numbers and the badges over both stay read.
        hint = self.hint
        if hint is not None:
            key = ("hint", hint)
            if key not in made:
                made[key] = self._hint_rings(hint)
            shapes.extend(made[key])
        for location, target in self.marks.items():
            badge = badges.get(location)
            key = ("mark", location, target.mark, target.cost, badge)
            if key not in made:
                made[key] = shapes_of.mark(target, *layout.points[location], r, badge)
            shapes.extend(made[key])
        if hint is not None and hint.arrow:
            key = ("hint arrow", hint.arrow)
            if key not in made:
                points = [layout.points[location] for location in hint.arrow]
                made[key] = shapes_of.hint_arrow(points, r)
            shapes.extend(made[key])
        summoned = hint.rings if hint is not None and hint.summons is not None else ()
        # Over the marks' rings: each token's owner badge, and every space's number (the log
        # and the guide call a space 'North Cliffs 4', on every screen and in every step).
        for location, (x, y) in layout.points.items():
            there = self.on_board.get(location)
            marked = location in self.marks
            # The creature a hinted summon would bring takes the middle: the number goes on a tag.
            covered = there is not None or location in summoned
            key = ("number", location, covered, marked)
            if key not in made:
                made[key] = shapes_of.number(
                    self.board, layout, location, x, y, occupied=covered, marked=marked
                )
            shapes.extend(made[key])
            if there is not None:
                key = ("badge", location, there.player)
                if key not in made:
                    made[key] = shapes_of.badge(layout, self.colours[there.player], x, y)
                shapes.extend(made[key])
        for location in self.flash:
            x, y = layout.points[location]
            shapes.append(cv.Circle(x, y, r + 6, paint=shapes_of.stroke(shapes_of.FLASH_COLOUR, 4)))
        if self.gliding is not None:
            piece, (x, y) = self.gliding
            shapes.extend(shapes_of.token(layout, self.colours[piece.player], piece, x, y))
            shapes.extend(shapes_of.badge(layout, self.colours[piece.player], x, y))
        # Names go on top: placed clear of the spaces where there is room, they stay readable
        # where a crowded canvas makes one graze a token's ring.
        if ("labels",) not in made:
            places = self.label_boxes
            size = label_size(layout)
            made[("labels",)] = [
                shapes_of.territory_label(
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


def reader_box(identifier: str, label: str, x: float, y: float, radius: float) -> ft.Control:
    """A node of the screen-reader tree over a space at (x, y): named, taking no taps (they
    fall through to the canvas)."""
    return ft.Container(
        left=x - radius,
        top=y - radius,
        width=2 * radius,
        height=2 * radius,
        ignore_interactions=True,
        content=ft.Semantics(identifier=identifier, label=label, content=ft.Container()),
    )
