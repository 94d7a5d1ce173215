"""The table's turn card changes in place: a tap sends each device a small patch,
and a tap made on the drawing before still reaches a handler of its own, never a control
that now records something else.

No browser: the card is diffed as Flet's server diffs it, and the patches are applied by the
load generator's client (`companion/load/screen.py`, `Screen`), as a browser applies them.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import flet as ft
import msgpack  # type: ignore[import-untyped]
import pytest
from flet.controls.base_control import BaseControl
from flet.controls.object_patch import ObjectPatch
from flet.messaging.protocol import configure_encode_object_for_msgpack

from companion.app.screens.table_turn import TurnCard
from companion.language.render import render, screen_language
from companion.load.screen import Screen, shown, tappable
from companion.play.session import GameSession
from companion.play.table_turn import Tap, turn_view
from companion.play.tap_guard import TapGuard
from companion.store.store import Store, open_store
from models.commands import Command
from models.setup import GameSetup

SEATS = ("red", "blue", "green", "yellow")
SETUP = GameSetup(
    players=[
        {"id": seat, "name": name}
        for seat, name in zip(SEATS, ("Ragna", "Bjorn", "Cyra", "Dag"), strict=True)
    ],
    board="gathering-isle",
)
ENCODE = configure_encode_object_for_msgpack(BaseControl)


def wire(value: Any) -> Any:
    """`value` as it crosses the websocket."""
    return msgpack.unpackb(msgpack.packb(value, default=ENCODE), strict_map_key=False)


def meaning(value: Any) -> Any:
    """`value` without empty or default properties: a patch sends a text set back to "" as
    "" (and a control shown again as visible), a whole control leaves it out (it is the
    default), and a client reads both alike."""
    if isinstance(value, dict):
        return {
            k: meaning(v)
            for k, v in value.items()
            if v not in (None, "") and not (k == "visible" and v is True)
        }
    if isinstance(value, list):
        return [meaning(v) for v in value]
    return value


class Clock:
    """A tap guard's clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Device:
    """One seated player's table card, what its client holds, and what its taps recorded."""

    def __init__(self, store: Store, game: str, seat: str | None) -> None:
        self.store, self.game, self.seat = store, game, seat
        self.recorded: list[tuple[tuple[Command, ...], str | None, int]] = []
        self.clock = Clock()
        self.card = TurnCard(
            self.session(),
            self.record,
            lambda _: None,
            lambda _: None,
            screen_language("en"),
            TapGuard(self.clock),
            lambda: None,
        )
        self.root = ft.Column([self.card.control])
        self.card.show(None)
        self.screen = Screen()
        self.screen.registered(wire(self.root))

    def session(self) -> GameSession:
        return GameSession(self.store, self.game, seat=lambda: self.seat, seated=lambda: SEATS)

    def record(
        self, commands: Sequence[Command], by: str | None, revision: int, *_: object
    ) -> None:
        self.recorded.append((tuple(commands), by, revision))

    def squares(self) -> list[Any]:
        """The summon grid's squares."""
        assert self.card.parts is not None and self.card.parts.grid is not None
        return [square for row in self.card.parts.grid.rows for square in row.squares]

    def update(self) -> int:
        """Show the game as it is now; the bytes of the patch sent."""
        self.card.session = self.session()
        self.card.show("the last record")
        patch, _, _ = ObjectPatch.from_diff(self.root, self.root, control_cls=BaseControl)
        sent = msgpack.packb(patch.to_message(), default=ENCODE)
        received = msgpack.unpackb(sent, strict_map_key=False)
        self.screen.patch({"id": self.root._i, "patch": received})
        self.clock.now += 1
        return len(sent)


def seat_of(player: str) -> Callable[[], str]:
    """A device's seat: `player`."""
    return lambda: player


def taps(store: Store, game: str, count: int) -> Iterator[None]:
    """Play `count` taps as the load generator does, each by the player whose turn it is."""
    rng = random.Random(22)
    for _ in range(count):
        player = GameSession(store, game).state.current_player
        if player is None:
            return
        session = GameSession(store, game, seat=seat_of(player), seated=lambda: SEATS)
        card = turn_view(session)
        choices: list[Tap] = [chip.tap for chip in card.removals]
        for row in card.grid:
            choices += [s.tap for s in row.squares if s.tap is not None and s.open and row.now]
        assert card.done is not None
        tap = card.done if not choices or rng.random() < 0.4 else rng.choice(choices)
        assert session.do_all(list(tap.commands), tap.by).ok
        yield


@pytest.fixture
def store(tmp_path: Any) -> Iterator[Store]:
    opened = open_store(str(tmp_path / "games.sqlite3"))
    yield opened
    opened.close()


@pytest.mark.parametrize("seat", ["red", None])
def test_client_holds_what_the_server_drew(store: Store, seat: str | None) -> None:
    """Patch after patch, through a round's Summoning and Actions, the client's copy of the
    card is the card (the wire client applies Flet's patches as the web client does)."""
    game = store.new_game(SETUP).id
    device = Device(store, game, seat)
    for _ in taps(store, game, 40):
        device.update()
        assert meaning(device.screen.page) == meaning(wire(device.root))


def test_a_tap_sends_a_small_patch(store: Store) -> None:
    """Within a phase a tap's patch is a small part of the card, not the card drawn anew
    (a card redrawn whole, with the drawing before kept hidden, sent about twice the card).
    Every control that records is made anew for each drawing: on a player's own phone those
    are their squares, their removal chips and swap, and their "done" buttons."""
    game = store.new_game(SETUP).id
    device = Device(store, game, "red")
    whole = len(msgpack.packb(device.root, default=ENCODE))
    sizes = []
    phase = device.card.phase
    for _ in taps(store, game, 40):
        size = device.update()
        if device.card.phase is phase:
            sizes.append(size)
        phase = device.card.phase
    assert len(sizes) >= 10
    assert statistics.median(sizes) < whole / 3, (sizes, whole)


def taken_by_taps(page: Any) -> set[int]:
    """The ids of the controls a finger can reach that take taps."""
    covered: set[int] = set()
    for control in shown(page):
        if control.get("_c") == "Stack":
            for layer in control.get("controls", [])[:-1]:
                covered |= {c["_i"] for c in shown(layer)}
    return {c["_i"] for c in shown(page) if c.get("on_click") and c["_i"] not in covered}


def test_what_records_is_new_for_every_drawing(store: Store) -> None:
    """No control the phone can tap now is one it could tap before the update: a tap made on
    the drawing before lands on a control of its own, kept mounted (a button hidden, a
    square's touch layer under the new one, where the finger may already be), whose handler
    records for the revision that drawing showed (and the store refuses it, unless the tap
    means the same now)."""
    game = store.new_game(SETUP).id
    device = Device(store, game, None)
    before = taken_by_taps(device.screen.page)
    old = device.card.targets[:]
    layers = [square.touch for square in device.squares()]
    revision = device.card.revision
    for _ in taps(store, game, 1):
        device.update()
    now = taken_by_taps(device.screen.page)
    assert now and not now & before
    assert all(control in device.card.stale.controls for control in old)
    # A summon square tapped on the old drawing: its layer is still there, under the new one,
    # and its handler records for the old revision.
    square, layer = next(
        (square, layer)
        for square, layer in zip(device.squares(), layers, strict=True)
        if layer is not None and square.touch is not None
    )
    assert layer in square.layers.controls and square.layers.controls[-1] is not layer
    handler: Any = layer.on_click
    handler(None)
    assert device.recorded and device.recorded[-1][2] == revision < device.card.revision


def test_the_shown_square_is_the_one_tapped(store: Store) -> None:
    """A square's words change in place; the client finds its touch layer of this drawing."""
    game = store.new_game(SETUP).id
    device = Device(store, game, None)
    for _ in taps(store, game, 3):
        device.update()
    session = GameSession(store, game)
    card = turn_view(session)
    square = next(s for row in card.grid for s in row.squares if s.open)
    found = tappable(device.screen.page, render(square.label))
    assert found is not None
    assert found in {shown.touch._i for shown in device.squares() if shown.touch is not None}
