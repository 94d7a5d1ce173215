"""Sizes the screens share, in logical pixels: the play layer's, which the board's geometry
(`companion/play/board_layout.py`) uses too."""

from companion.play.sizes import TAP

__all__ = ["TAP"]
