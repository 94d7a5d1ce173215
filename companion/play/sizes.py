"""Sizes the screens and the board's geometry share, in logical pixels: plain numbers, no Flet."""

TAP = 48  # the smallest tap target
