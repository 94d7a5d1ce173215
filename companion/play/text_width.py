"""How wide the app's font sets a line of text: plain Python, from the shipped font's metrics.

The isle's labels are placed by their width (`board_labels`): estimated from a count of
characters, a name with wide letters ('Wyrm ◆3') ran past its box, and a box made wide
enough for the widest letters everywhere crowded the isle. The shipped font (DejaVu Sans,
`assets/fonts/`) says each glyph's advance; fontTools reads it.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from fontTools.ttLib import TTFont

FONT_FILE = Path(__file__).resolve().parent.parent.parent / "assets" / "fonts" / "DejaVuSans.ttf"
# Bold is drawn over the regular font with strokes widened: a little wider.
BOLD = 1.05
# A character the font lacks is drawn by the browser's fallback font: counted a whole em.
MISSING = 1.0


@cache
def _advances() -> dict[int, float]:
    """Each character's advance in the shipped font, in ems."""
    font = TTFont(FONT_FILE, lazy=True)
    per_em = font["head"].unitsPerEm
    metrics = font["hmtx"]
    return {code: metrics[glyph][0] / per_em for code, glyph in font.getBestCmap().items()}


def text_width(line: str, size: float, *, bold: bool = True) -> float:
    """The width of one line of text set `size` px high in the app's font, in pixels."""
    advances = _advances()
    ems = sum(advances.get(ord(character), MISSING) for character in line)
    return ems * size * (BOLD if bold else 1.0)


def fitting_size(line: str, room: float, largest: int, smallest: int, *, bold: bool = False) -> int:
    """The largest whole size from `largest` down to `smallest` that sets `line` within
    `room` pixels (`smallest` if none does)."""
    return next(
        (
            size
            for size in range(largest, smallest, -1)
            if text_width(line, size, bold=bold) <= room
        ),
        smallest,
    )
