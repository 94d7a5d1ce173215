"""Flet's set-up walk, shortened to what can hold a control
(companion/app/flet_patches/diff_walk.py), sends what Flet's own walk sends and sets every
control up alike: on a screen drawn whole, and on a screen changed in place after a record."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import msgpack  # type: ignore[import-untyped]
import pytest
from flet.controls.base_control import BaseControl
from flet.controls.object_patch import DiffBuilder, ObjectPatch
from flet.messaging.protocol import configure_encode_object_for_msgpack
from screen_support import SETUP, Screen, scratch_store

from companion.app import flet_patches
from companion.app.flet_patches import diff_walk
from companion.store.store import Store

ENCODE = configure_encode_object_for_msgpack(BaseControl)


store = pytest.fixture(name="store")(scratch_store)


@pytest.fixture
def walks() -> Iterator[Callable[[bool], None]]:
    """Switch between Flet's own walk (False) and the shorter one (True); Flet's after."""

    def use(shorter: bool) -> None:
        if shorter:
            assert diff_walk.why_not() is None
            diff_walk.install()
            assert DiffBuilder._configure_dataclass is not diff_walk._FLETS_OWN
        else:
            diff_walk.undo()

    yield use
    diff_walk.undo()


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


def test_another_source_of_flets_walk_is_left_alone(monkeypatch: Any, caplog: Any) -> None:
    flet_patches.restore()
    monkeypatch.setattr(diff_walk, "CHECKED", "a walk of another version of Flet")
    try:
        assert "diff_walk" not in flet_patches.install()
        assert DiffBuilder._configure_dataclass is diff_walk._FLETS_OWN
        assert "Flet patch diff_walk left off: Flet's DiffBuilder" in caplog.text
    finally:
        flet_patches.restore()
