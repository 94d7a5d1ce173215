"""Flet's walk over a new screen, spared plain values (companion/app/diff_walk.py, issue 22),
sends what Flet's own walk sends and sets every control up alike."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import flet as ft
import msgpack  # type: ignore[import-untyped]
import pytest
from flet.controls.base_control import BaseControl
from flet.controls.object_patch import DiffBuilder, ObjectPatch
from flet.messaging.protocol import configure_encode_object_for_msgpack

from companion.app import diff_walk
from companion.app.screens.table_turn import TurnCard
from companion.app.widgets import EnergyTrack
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


@pytest.fixture
def store(tmp_path: Any) -> Iterator[Store]:
    opened = open_store(str(tmp_path / "games.sqlite3"))
    yield opened
    opened.close()


def _screen(store: Store, game: str) -> ft.Control:
    """A table screen's biggest parts: its turn card and its energy track."""
    words = screen_language("en")
    card = TurnCard(
        GameSession(store, game),
        lambda *_: None,
        lambda _: None,
        lambda _: None,
        words,
        TapGuard(),
        lambda: None,
    )
    card.show(None)
    track = EnergyTrack((("Ragna", "red", 3), ("Bjorn", "blue", 0)), words)
    return ft.Column([card.control, track.control])


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


def _sent_first(store: Store, game: str) -> tuple[Any, list[str], list[Any]]:
    """What a page is sent when a screen is new to it, the controls set up, and how."""
    patch, added, _ = ObjectPatch.from_diff(None, _screen(store, game), control_cls=BaseControl)
    wire = msgpack.unpackb(msgpack.packb(patch.to_message(), default=ENCODE))
    ids: dict[int, int] = {}
    message = _numbered(wire, ids)
    setup = [
        (
            ids.get(c._i),
            c._initialized,
            getattr(c, "_frozen", None),
            ids.get(c.parent._i) if c.parent is not None else None,
        )
        for c in added
    ]
    return message, [type(c).__name__ for c in added], setup


def test_the_walk_spared_plain_values_sends_and_sets_up_what_flets_own_does(store: Store) -> None:
    game = store.new_game(SETUP).id
    diff_walk.flets_own()
    try:
        own = _sent_first(store, game)
        diff_walk.skip_plain_values()
        spared = _sent_first(store, game)
        assert DiffBuilder._configure_dataclass is not diff_walk._FLETS_OWN
    finally:
        diff_walk.flets_own()
    message, kinds, setup = spared
    assert len(kinds) > 150  # the whole screen was walked, controls nested in controls
    assert (message, kinds, setup) == own
