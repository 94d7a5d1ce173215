"""Panels the table screen and the digital board share, made once and changed in place.

A control that stays the same Python object is sent to the client as a few changed
values; a rebuilt one is sent whole. So these panels keep their controls and `show`
only sets what the new state changes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

import flet as ft

from companion.app.sizes import TAP
from companion.app.theme import ACCENT
from companion.app.widgets import player_chip, reserve_line, section
from companion.engine import GameState, Tally
from companion.language.render import Language
from companion.play.game_words import english, say
from companion.play.session import GameSession
from companion.play.text_width import fitting_size
from companion.play.turns import Turns

if TYPE_CHECKING:
    from companion.app.main import App

NO_BORDER = ft.Border.all(2, ft.Colors.TRANSPARENT)
# The game bar's actions, each a tap target wide: undo, redo, the aid, the log.
BAR_ACTIONS = ("undo", "redo", "aid", "log")
TITLE_SPACING = 4
# Kept free beside the title: the font's measure is close, not exact.
TITLE_MARGIN = 4
TITLE_SIZE = 20
SMALLEST_TITLE = 16
CURRENT_BORDER = ft.Border.all(2, ACCENT)


class RoundBar(Protocol):
    """A bar that shows the round and says what undo and redo would do."""

    title: ft.Text
    undo_button: ft.IconButton
    redo_button: ft.IconButton


def show_round(
    bar: RoundBar,
    words: Language,
    state: GameState,
    undo: str | None,
    redo: str | None,
    round_: int | None = None,
    refused: tuple[str | None, str | None] = (None, None),
) -> None:
    """The round of `state` (or `round_`) on a bar, and what its undo and redo would do;
    `refused` says why this device may not undo or redo (each shown disabled, saying why)."""
    bar.title.value = say(
        words, "game.bar.round", round=round_ or state.round, final=state.game.final_round
    )
    undo_refused, redo_refused = refused
    bar.undo_button.tooltip = undo_refused or (
        say(words, "game.bar.undo", what=undo) if undo else say(words, "game.bar.no_undo")
    )
    bar.undo_button.disabled = undo is None or undo_refused is not None
    bar.redo_button.tooltip = redo_refused or (
        say(words, "game.bar.redo", what=redo) if redo else say(words, "game.bar.no_redo")
    )
    bar.redo_button.disabled = redo is None or redo_refused is not None


class GameBar:
    """The app bar of a game: home, the round rune, undo and redo saying what they do, the
    rules at a glance (`aid`), the log."""

    def __init__(
        self,
        go: Callable[[str], None],
        game_id: str,
        undo: Callable[[ft.Event[Any]], object],
        redo: Callable[[ft.Event[Any]], object],
        words: Language,
        aid: ft.Control,
        width: float,
    ) -> None:
        self.words = words
        self.title = ft.Text(size=TITLE_SIZE)
        self.fit_width(width)
        self.undo_button = ft.IconButton(ft.Icons.UNDO, on_click=undo)
        self.redo_button = ft.IconButton(ft.Icons.REDO, on_click=redo)
        self.control = ft.AppBar(
            title=self.title,
            title_spacing=TITLE_SPACING,
            leading_width=TAP,
            leading=ft.IconButton(
                ft.Icons.HOME, tooltip=say(words, "game.bar.home"), on_click=lambda _: go("/")
            ),
            actions=[
                self.undo_button,
                self.redo_button,
                aid,
                ft.IconButton(
                    ft.Icons.LIST_ALT,
                    tooltip=say(words, "game.bar.log"),
                    on_click=lambda _: go(f"/game/{game_id}/log"),
                ),
            ],
        )

    def show(
        self,
        state: GameState,
        undo: str | None,
        redo: str | None,
        round_: int | None = None,
        refused: tuple[str | None, str | None] = (None, None),
    ) -> None:
        """The round of `state` (or `round_`, one whose Energy and Reset is still shown);
        `undo` and `redo` describe what the buttons would do, or None; `refused` why this
        device may not."""
        show_round(self, self.words, state, undo, redo, round_, refused)
        self.fit_width()

    def fit_width(self, width: float | None = None) -> None:
        """Set the round's title as large as fits beside home and four actions (on a 360 px
        phone about 110 px are left), from TITLE_SIZE down; `width`: the page's, once it
        turned or resized."""
        if width is not None:
            self.room = width - (len(BAR_ACTIONS) + 1) * TAP - TITLE_SPACING - TITLE_MARGIN
        if self.title.value:
            self.title.size = fitting_size(self.title.value, self.room, TITLE_SIZE, SMALLEST_TITLE)

    def refit(self, width: float, shown: bool) -> None:
        """The page turned or resized: the title fits its new width, sent if `shown`."""
        self.fit_width(width)
        if shown:
            self.title.update()


class _PlayerRow:
    """One player's line: place in the order, counter, name, creatures and energy."""

    def __init__(self, name: str, colour: str) -> None:
        self.position = ft.Text(size=16, width=18)
        self.creatures = ft.Text(size=14)
        self.energy = ft.Text(size=30, weight=ft.FontWeight.BOLD)
        self.control = ft.Container(
            padding=8,
            border_radius=8,
            border=NO_BORDER,
            content=ft.Row(
                [
                    self.position,
                    player_chip(name, colour, size=34),
                    ft.Column(
                        [ft.Text(name, size=17, weight=ft.FontWeight.BOLD), self.creatures],
                        spacing=2,
                        expand=True,
                    ),
                    self.energy,
                ],
                spacing=10,
            ),
        )


class PlayersCard:
    """Every player in this round's turn order: energy and creatures, the current one ringed."""

    def __init__(
        self,
        session: GameSession,
        notes: Mapping[str, str] | None = None,
        *,
        words: Language | None = None,
    ) -> None:
        # The device's language (English where a screen gives none).
        words = words or english()
        notes = notes or {}
        self.rows = {
            player: _PlayerRow(
                session.label(player) + notes.get(player, ""), session.colour(player)
            )
            for player in session.state.game.players
        }
        self.words = words
        self.column = ft.Column(spacing=10)
        key = ft.Text(
            say(words, "game.players.key"),
            size=12,
            color=ft.Colors.ON_SURFACE_VARIANT,
        )
        # The key to the rows' short numbers ('W 0·1') goes above them, where the first row
        # is read: under the last row it fell out of sight in a sideways phone's drawer.
        self.control = section(say(words, "game.players.title"), key, self.column)

    def show(self, state: GameState) -> None:
        """Put the rows in turn order and fill in each player's numbers."""
        order = state.order()
        for position, player in enumerate(order, start=1):
            mine = state.holdings(player)
            row = self.rows[player]
            row.position.value = self.words.number(position)
            row.creatures.value = reserve_line(mine)
            row.energy.value = self.words.number(mine.energy)
            row.control.border = CURRENT_BORDER if player == state.current_player else NO_BORDER
        self.column.controls = [self.rows[player].control for player in order]


def tally_lines(
    session: GameSession,
    tally: Tally,
    words: Language,
    choice: Callable[[str, str, bool], None] | None = None,
) -> list[ft.Control]:
    """Each player's numbers and the engine's sentence for them; with `choice`, bonus switches.

    `choice(player, territory, take)` is called when a domination bonus is switched.
    """
    lines: list[ft.Control] = []
    for line in tally.players:
        name = session.label(line.player)
        lines.append(
            ft.Row(
                [
                    player_chip(name, session.colour(line.player)),
                    ft.Text(name, size=17, weight=ft.FontWeight.BOLD, expand=True),
                    ft.Text(
                        say(words, "game.tally.change", before=line.before, after=line.after),
                        size=22,
                        weight=ft.FontWeight.BOLD,
                    ),
                ]
            )
        )
        lines.append(ft.Text(words.render(line.explanation(name)), size=14))
        if choice is None:
            continue
        for held in line.dominated:
            lines.append(
                ft.Switch(
                    label=say(
                        words,
                        "game.tally.take",
                        player=name,
                        territory=held.named,
                        bonus=held.bonus,
                    ),
                    value=held.taken,
                    on_change=lambda e, p=line.player, t=held.territory: choice(
                        p, t, e.control.value
                    ),
                )
            )
    return lines


def page_turns(app: App, session: GameSession) -> Turns:
    """A table screen's turn controller: what it records is announced to the game's other
    devices, and the computer seats' leases are the server's (`Service.leases`)."""
    return Turns(
        session,
        lambda revision: app.bus.announce(session.id, revision),
        leases=app.service.leases,
    )
