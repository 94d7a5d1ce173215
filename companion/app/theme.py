"""Colours, marks and sizes shared by every screen: display only, never rules."""

from __future__ import annotations

from dataclasses import dataclass

import flet as ft

from companion.language import Term
from companion.language.render import Language
from models.rules import ENERGY_BANDS, CreatureKind
from models.setup import SEAT_COLOURS

FONT = "Isle Sans"
# One face: Flutter draws bold from it, so a bold file would be one more download unused.
FONTS = {FONT: "fonts/DejaVuSans.ttf"}
ACCENT = "#F2B53A"  # spirit energy gold, for fills, rings and borders
# Gold text: the theme's primary colour, grown from ACCENT, light on the dark theme and dark
# on the light one (ACCENT itself on cream is too faint to read).
ACCENT_TEXT = ft.Colors.PRIMARY
# Text on the energy track's tints, which are dark in both themes.
ON_TINT = "#E8E8E8"


@dataclass(frozen=True)
class PlayerColour:
    """A seat colour with a letter and a shape, so no one depends on telling hues apart."""

    id: str
    name: str
    hex: str
    on_hex: str
    mark: str


# How each seat colour (models/setup.py lists them) looks: name, hue, text on it, shape.
_LOOKS = {
    "red": ("Red", "#E5484D", "#FFFFFF", "●"),
    "blue": ("Blue", "#3E8BF0", "#FFFFFF", "■"),
    "green": ("Green", "#30A46C", "#FFFFFF", "▲"),
    "yellow": ("Yellow", "#F5D90A", "#1B1B1B", "◆"),
    "purple": ("Purple", "#9E6CE8", "#FFFFFF", "★"),
    "white": ("White", "#ECEDEE", "#1B1B1B", "✚"),
}
PLAYER_COLOURS: tuple[PlayerColour, ...] = tuple(
    PlayerColour(colour, *_LOOKS[colour]) for colour in SEAT_COLOURS
)
COLOUR_BY_ID = {colour.id: colour for colour in PLAYER_COLOURS}

CREATURE_MARK = {CreatureKind.WYRM: "W", CreatureKind.TROLL: "T", CreatureKind.SPRITE: "S"}

# Shading of the energy track, one tint per band, from gain (green) to loss (red).
BAND_TINT = {
    band.label: tint
    for band, tint in zip(
        ENERGY_BANDS,
        ("#1F4D3A", "#2C4A2A", "#3A3A3A", "#4D3A22", "#5A2626"),
        strict=True,
    )
}


def colour_of(colour_id: str) -> PlayerColour:
    """A seat colour by id, falling back to the first for an unknown id."""
    return COLOUR_BY_ID.get(colour_id, PLAYER_COLOURS[0])


# The catalog context of the seat colours' names ('Red' is 'Rouge' in French).
COLOUR = "colour"


def colour_name(colour_id: str, words: Language) -> str:
    """A seat colour's name in a language: 'Red', 'Rouge'."""
    return words.value(Term(colour_of(colour_id).name, COLOUR))


def theme(mode: ft.ThemeMode) -> ft.Theme:
    """The app theme: large type for arm's length, a warm accent, 48 px buttons of all kinds."""
    # Flutter's buttons are 40 px tall, and packed to 32 on a desktop browser: the standard
    # density and room above and below the label make them 48 wherever the app runs. Set
    # per button kind, not for the whole theme, which would pack lists and fields too.
    full_size = ft.ButtonStyle(
        visual_density=ft.VisualDensity.STANDARD,
        padding=ft.Padding.symmetric(vertical=14, horizontal=20),
    )
    return ft.Theme(
        color_scheme_seed=ACCENT,
        font_family=FONT,
        # Flutter's icon buttons are 40 px (24 and 8 around it): 12 around makes a full target.
        icon_button_theme=ft.IconButtonTheme(style=ft.ButtonStyle(padding=12)),
        button_theme=ft.ButtonTheme(style=full_size),
        filled_button_theme=ft.FilledButtonTheme(style=full_size),
        outlined_button_theme=ft.OutlinedButtonTheme(style=full_size),
        text_button_theme=ft.TextButtonTheme(style=full_size),
        segmented_button_theme=ft.SegmentedButtonTheme(style=full_size),
    )
