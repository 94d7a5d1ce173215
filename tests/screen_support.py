"""Screens built without a browser: the table screen's parts, and every control below a view."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import flet as ft

from companion.app.game_panels import PlayersCard
from companion.app.order_strip import OrderStrip
from companion.app.screens.table_turn import TurnCard
from companion.app.widgets import EnergyTrack, big_button, board_options
from companion.boards import shipped_board, shipped_board_ids
from companion.language.render import screen_language
from companion.play.session import GameSession
from companion.play.tap_guard import TapGuard
from companion.store.store import Store, open_store
from models.setup import GameSetup


def scratch_store(tmp_path: Path) -> Iterator[Store]:
    """A store on a new SQLite file, closed after (a test module's `store` fixture)."""
    opened = open_store(str(tmp_path / "games.sqlite3"))
    yield opened
    opened.close()


def every_control(control: ft.Control) -> list[ft.Control]:
    """`control` and every control below it (contents, rows, columns), depth first."""
    found = [control]
    for name in ("controls", "content"):
        below = getattr(control, name, None)
        for child in below if isinstance(below, list) else [below]:
            if isinstance(child, ft.Control):
                found.extend(every_control(child))
    return found


# A three-player table game on a shipped board.
SETUP = GameSetup(
    players=[
        {"id": seat, "name": name}
        for seat, name in (("red", "Ragna"), ("blue", "Bjorn"), ("green", "Cyra"))
    ],
    board="gathering-isle",
)
WORDS = screen_language("en")


class Screen:
    """A table screen's parts, drawn from the game as it is."""

    def __init__(self, store: Store, game: str) -> None:
        session = GameSession(store, game)
        self.card = TurnCard(
            session,
            lambda *_: None,
            lambda _: None,
            lambda _: None,
            WORDS,
            TapGuard(),
            lambda: None,
        )
        self.card.show(None)
        self.track = EnergyTrack((("Ragna", "red", 3), ("Bjorn", "blue", 3)), WORDS)
        self.players = PlayersCard(session, words=WORDS)
        self.strip = OrderStrip(session, WORDS)
        self.root = ft.Column(
            [
                self.strip.control,
                self.card.control,
                self.players.control,
                self.track.control,
                big_button("Roll a d6", lambda _: None, icon=ft.Icons.CASINO),
                ft.Dropdown(
                    options=board_options([shipped_board(b) for b in shipped_board_ids()], WORDS)
                ),
            ]
        )

    def redraw(self, store: Store, game: str) -> None:
        """Show the game as it is now, in place."""
        session = GameSession(store, game)
        self.card.session = session
        self.card.show("the last record")
        self.players.show(session.state)
        self.strip.show(session.state)
        self.track.show((("Ragna", "red", 0), ("Bjorn", "blue", 3), ("Cyra", "green", 3)))
