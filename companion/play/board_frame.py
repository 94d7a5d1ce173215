"""How the digital board's screen is arranged on a page of a given size: plain Python.

Three arrangements:

- a phone held upright: one column, the isle on top, the bars above and below the screen;
- a tablet or a desktop: the isle beside the panels, the bars above and below;
- a phone on its side (wider than tall, and short): the isle takes the screen's whole height
  at the left, fitted tight (`Layout.fit(..., tight=True)`), and everything else goes beside
  it, never above or below: a rail (home, round, undo, redo, log, the panels), the turn
  card, and the buttons that end a turn. The panels (players, energy, the last tally, the
  computers' pace) fold into a drawer.

A sideways phone 360 px high leaves the isle 352 px: Gathering Isle's closest spaces then
stand 40 px apart, room for spaces 36 px wide, where bars above and below left it 238 px.
"""

from __future__ import annotations

from enum import StrEnum

from companion.play.board_layout import canvas_height, tight_width
from models.board import Board


class Arrangement(StrEnum):
    """How the board's screen is laid out."""

    PHONE = "phone"
    TABLET = "tablet"
    SIDEWAYS = "sideways"


# Page widths from which the isle and the panels sit side by side (Flet's "md" breakpoint).
SIDE_BY_SIDE = 768
# A page wider than tall and less high than this is a phone on its side.
SHORT = 560
# The screen's padding (as `widgets.screen` sets it) and, on a phone on its side, the little
# left around the isle: every pixel of height goes to the spaces.
PADDING = 12
SIDEWAYS_PADDING = 4
# Between the isle and what stands beside it.
SPACING = 10
# Side by side on a tablet, the isle takes this many of twelve columns.
BOARD_COLUMNS = 7
# On a phone on its side, the isle takes at most this share of the width: the turn card
# beside it keeps room to be read.
ISLE_MOST = 0.6
# The height of the bar of buttons pinned to the bottom of the screen, and what a tablet
# leaves above the isle (the app bar, the screen's padding).
BOTTOM_BAR = 72
ABOVE_ISLE = 140


def arrangement(width: float, height: float) -> Arrangement:
    """The arrangement for a page `width` x `height`."""
    if width > height and height < SHORT:
        return Arrangement.SIDEWAYS
    return Arrangement.TABLET if width >= SIDE_BY_SIDE else Arrangement.PHONE


def sideways_isle(board: Board, width: float, height: float) -> tuple[float, float]:
    """The isle's canvas (width, height) on a phone on its side: the page's height, and the
    width that shows the whole board at it (at most ISLE_MOST of the page's)."""
    canvas = height - 2 * SIDEWAYS_PADDING
    return min(tight_width(board, canvas), width * ISLE_MOST), canvas


def side_width(board: Board, width: float, height: float) -> float:
    """On a phone on its side, the width of the column beside the isle."""
    return width - sideways_isle(board, width, height)[0] - SPACING - 2 * SIDEWAYS_PADDING


def isle_width(board: Board, width: float, height: float) -> float:
    """A first guess at the isle's canvas width (the canvas reports its own once laid out)."""
    shown = arrangement(width, height)
    if shown is Arrangement.SIDEWAYS:
        return sideways_isle(board, width, height)[0]
    inner = width - 2 * PADDING
    if shown is Arrangement.TABLET:
        return inner * BOARD_COLUMNS / 12 - SPACING
    return inner


def isle_height(board: Board, canvas_width: float, width: float, height: float) -> float:
    """The isle's canvas height for a canvas `canvas_width` wide on a page as it is."""
    shown = arrangement(width, height)
    if shown is Arrangement.SIDEWAYS:
        return sideways_isle(board, width, height)[1]
    # Beside the panels the isle may fill the screen's height; above them, most of it.
    most = height - ABOVE_ISLE - BOTTOM_BAR if shown is Arrangement.TABLET else height * 0.7
    return canvas_height(board, canvas_width, most)
