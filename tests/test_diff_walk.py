"""Flet's set-up walk, shortened to what can hold a control (companion/app/diff_walk.py,
issue 22), sends what Flet's own walk sends and sets every control up alike: on a screen
drawn whole, and on a screen changed in place after a record."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import flet as ft
import msgpack  # type: ignore[import-untyped]
import pytest
from flet.controls.base_control import BaseControl
from flet.controls.object_patch import DiffBuilder, ObjectPatch
from flet.messaging.protocol import configure_encode_object_for_msgpack

from companion.app import diff_walk
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

SETUP = GameSetup(
    players=[
        {"id": seat, "name": name}
        for seat, name in (("red", "Ragna"), ("blue", "Bjorn"), ("green", "Cyra"))
    ],
    board="gathering-isle",
)
ENCODE = configure_encode_object_for_msgpack(BaseControl)
WORDS = screen_language("en")


@pytest.fixture
def store(tmp_path: Any) -> Iterator[Store]:
    opened = open_store(str(tmp_path / "games.sqlite3"))
    yield opened
    opened.close()


@pytest.fixture
def walks() -> Iterator[Callable[[bool], None]]:
    """Switch between Flet's own walk (False) and the shorter one (True); Flet's after."""

    def use(shorter: bool) -> None:
        if shorter:
            assert diff_walk.walk_shorter()
            assert DiffBuilder._configure_dataclass is not diff_walk._FLETS_OWN
        else:
            diff_walk.flets_own()

    yield use
    diff_walk.flets_own()


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


def _numbered(value: Any, ids: dict[int, int]) -> Any:
    """A message with each control's id replaced by its order of appearance (two screens
    built one after the other get other ids from Flet's counter)."""
    if isinstance(value, dict):
        return {
            k: (ids.setdefault(v, len(ids)) if k == "_i" else _numbered(v, ids))
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_numbered(v, ids) for v in value]
    return value


def _sent(src: Any, dst: Any, ids: dict[int, int]) -> tuple[Any, list[str], list[Any]]:
    """What a page is sent for a diff, which controls were set up, and how."""
    patch, added, _ = ObjectPatch.from_diff(src, dst, control_cls=BaseControl)
    message = _numbered(
        msgpack.unpackb(msgpack.packb(patch.to_message(), default=ENCODE), strict_map_key=False),
        ids,
    )
    setup = [
        (
            ids.get(c._i),
            c._initialized,
            getattr(c, "_frozen", None),
            ids.get(c.parent._i) if c.parent is not None else None,
            dict(c._dirty),
        )
        for c in added
    ]
    return message, [type(c).__name__ for c in added], setup


def test_a_screen_drawn_whole_is_sent_and_set_up_as_flets_own_walk_does(
    store: Store, walks: Callable[[bool], None]
) -> None:
    game = store.new_game(SETUP).id
    seen = []
    for shorter in (False, True):
        walks(shorter)
        seen.append(_sent(None, Screen(store, game).root, {}))
    own, short = seen
    assert len(short[1]) > 200  # the whole screen was walked, controls nested in controls
    assert short == own


def test_a_screen_changed_in_place_is_sent_and_set_up_as_flets_own_walk_does(
    store: Store, walks: Callable[[bool], None]
) -> None:
    saved = store.new_game(SETUP)
    screens, ids = [], []
    for shorter in (False, True):
        walks(shorter)
        screen, numbered = Screen(store, saved.id), dict[int, int]()
        _sent(None, screen.root, numbered)
        screens.append(screen)
        ids.append(numbered)
    store.append(saved.id, saved.state.legal_commands()[0], saved.revision)
    seen = []
    for shorter, screen, numbered in zip((False, True), screens, ids, strict=True):
        walks(shorter)
        screen.redraw(store, saved.id)
        seen.append(_sent(screen.root, screen.root, numbered))
    own, short = seen
    assert own[1]  # the new drawing's controls were set up
    assert short == own


def test_another_version_of_flets_walk_is_left_alone(monkeypatch: Any) -> None:
    monkeypatch.setattr(diff_walk, "CHECKED", "a walk of another version of Flet")
    assert not diff_walk.walk_shorter()
    assert DiffBuilder._configure_dataclass is diff_walk._FLETS_OWN
