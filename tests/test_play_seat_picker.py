"""Who a device is in a shared game, as a view-model: the
seats it may pick, those another device holds shown as taken and by which, a computer's seat
offered to nobody, and the line a game screen shows of its seat, without a browser."""

from __future__ import annotations

import pytest

from companion.language.render import language
from companion.play.language_setting import ENGLISH
from companion.play.seat_picker import seat_picker, seat_said, take_seat
from companion.play.service import Service
from companion.play.sharing.access import TableAccess
from companion.play.sharing.links import TableLinks
from companion.play.sharing.seats import SCOREKEEPER, WATCHER
from companion.play.visit import Visit
from companion.store.store import open_store
from models.setup import GameSetup

FR = language("fr")
PLAYERS = [
    {"id": "red", "name": "Ragna"},
    {"id": "blue", "name": "Bjorn"},
    {"id": "green", "name": "Sigrid", "bot": "greedy"},
]


@pytest.fixture
def table(tmp_path):
    """A shared table with one game (Sigrid a computer), its host's and a phone's devices."""
    with open_store(str(tmp_path / "games.sqlite3")) as store:
        setup = GameSetup(players=PLAYERS, board="gathering-isle", mode="digital")
        saved = store.new_game(setup)
        access = TableAccess(store.tables)
        service = Service(store, TableLinks.serving(access, "10.0.0.2", 8550, "127.0.0.1"))
        host, phone = Visit(service), Visit(service)
        assert host.admit("127.0.0.1", access.host_key, "", ENGLISH) is None
        assert phone.admit("10.0.0.5", access.join_code, "", ENGLISH) is None
        yield access, saved, host.ticket.device, phone.ticket.device


def test_every_persons_seat_is_offered_and_no_computers(table):
    access, saved, host, _ = table
    shown = seat_picker(access, saved, host)
    assert shown.game == "Ragna, Bjorn and Sigrid's game"
    assert [(s.seat, s.title, s.detail, s.taken) for s in shown.players] == [
        ("red", "Ragna", "Records Ragna's turns only.", False),
        ("blue", "Bjorn", "Records Bjorn's turns only.", False),
    ]
    assert (shown.scorekeeper.seat, shown.scorekeeper.title) == (SCOREKEEPER, "Scorekeeper")
    assert (shown.watcher.seat, shown.watcher.detail) == (
        WATCHER,
        "Follows the game; records nothing.",
    )


def test_a_seat_another_device_holds_is_taken_and_names_it(table):
    access, saved, host, phone = table
    assert take_seat(access, saved, phone, "red") is None
    ragna = seat_picker(access, saved, host).players[0]
    assert (ragna.title, ragna.taken) == ("Ragna: taken by Device 2", True)
    # The device holding it sees it as its own, free to pick again.
    assert not seat_picker(access, saved, phone).players[0].taken
    assert take_seat(access, saved, host, "red") == (
        "Another device has taken that seat; pick another."
    )
    # Any number watch: a watcher's seat is never taken.
    assert take_seat(access, saved, phone, WATCHER) is None
    assert take_seat(access, saved, host, WATCHER) is None
    assert not seat_picker(access, saved, host).watcher.taken


def test_a_seat_not_in_the_game_is_refused(table):
    access, saved, host, _ = table
    assert take_seat(access, saved, host, "yellow") == "That seat is not in this game."


def test_a_game_screen_says_who_this_device_is(table):
    access, saved, host, phone = table
    assert seat_said(access, saved, phone) is None
    take_seat(access, saved, phone, "blue")
    take_seat(access, saved, host, SCOREKEEPER)
    assert seat_said(access, saved, phone) == "This device records Bjorn's turns."
    assert seat_said(access, saved, host) == "This device records for everyone."
    assert seat_picker(access, saved, phone, FR).scorekeeper.title.startswith("Marqueur")
