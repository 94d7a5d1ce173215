"""Flet's encoder asking `is_dataclass` once per type
(companion/app/flet_patches/dataclass_check.py): the same answers as the standard function,
the same bytes sent for a screen."""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

import flet as ft
import msgpack  # type: ignore[import-untyped]
import pytest
from flet.controls.base_control import BaseControl
from flet.messaging import protocol
from screen_support import SETUP, Screen, scratch_store

from companion.app import flet_patches
from companion.app.flet_patches import dataclass_check
from companion.store.store import Store

ENCODE = protocol.configure_encode_object_for_msgpack(BaseControl)


class Band(enum.Enum):
    LOW = "low"


@dataclasses.dataclass
class Plain:
    value: int = 0


store = pytest.fixture(name="store")(scratch_store)


@pytest.fixture
def standard(monkeypatch: pytest.MonkeyPatch) -> None:
    """Flet's encoder as installed (asking the standard function); restored after."""
    monkeypatch.setattr(protocol, "is_dataclass", dataclasses.is_dataclass)


def test_the_answer_is_the_standard_functions_for_instances_and_classes():
    values: list[object] = [
        ft.Text("1"),
        ft.Border.all(2, ft.Colors.OUTLINE),
        ft.Padding.only(left=4),
        Plain(),
        Plain,  # a dataclass itself, then a class that is not one: each asked anew
        ft.Text,
        str,
        int,
        "Ragna",
        3,
        2.5,
        True,
        None,
        [1],
        {"a": 1},
        Band.LOW,
        ft.Colors.OUTLINE,
    ]
    for _ in range(2):  # asked again: the remembered answer
        assert [dataclass_check.is_dataclass(v) for v in values] == [
            dataclasses.is_dataclass(v) for v in values
        ]


def test_a_screen_is_sent_as_the_standard_function_sends_it(store: Store, standard: None):
    game = store.new_game(SETUP).id
    sent = [msgpack.packb(Screen(store, game).root, default=ENCODE)]
    assert dataclass_check.why_not() is None
    dataclass_check.install()
    assert protocol.is_dataclass is dataclass_check.is_dataclass
    sent.append(msgpack.packb(Screen(store, game).root, default=ENCODE))
    first, second = (msgpack.unpackb(raw, strict_map_key=False) for raw in sent)
    # Two screens built one after the other differ only in their controls' ids.
    assert _without_ids(first) == _without_ids(second) and len(sent[1]) > 10_000


def test_an_encoder_asking_another_function_is_left_alone(monkeypatch: pytest.MonkeyPatch):
    def other(value: object) -> bool:
        return dataclasses.is_dataclass(value)

    flet_patches.restore()
    monkeypatch.setattr(protocol, "is_dataclass", other)
    try:
        assert "dataclass_check" not in flet_patches.install()
        assert protocol.is_dataclass is other
    finally:
        flet_patches.restore()


def _without_ids(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_ids(v) for k, v in value.items() if k != "_i"}
    if isinstance(value, list):
        return [_without_ids(v) for v in value]
    return value
