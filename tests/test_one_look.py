"""One look at the store per drawing of a screen (companion/store/one_look.py):
within a look each table row, game and seat is read once; a write of the look's own thread,
or another process's write seen by the next look, is never hidden by it."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import event
from store_support import BACKENDS, DUEL, database_url, two_stores

from companion.play.sharing.access import TableAccess
from companion.store import table_codes
from companion.store.one_look import one_look
from companion.store.store import Store

PLAYERS = ("red", "blue")


@pytest.fixture(params=BACKENDS)
def two(request, tmp_path):
    """Two stores on one database: two server processes' views of it."""
    for url in database_url(request.param, tmp_path):
        yield from two_stores(url)


class Statements:
    """The statements a store sends its database, by their first word."""

    def __init__(self, store: Store) -> None:
        self.sent: list[str] = []
        event.listen(store._database.engine, "before_cursor_execute", self._seen)

    def _seen(self, _conn: object, _cursor: object, statement: str, *_: object) -> None:
        self.sent.append(statement.split()[0].upper())

    def count(self, kind: str = "SELECT") -> int:
        return self.sent.count(kind)


def test_within_a_look_each_table_row_game_and_seat_is_read_once(two):
    first, _ = two
    access = TableAccess(first.tables)
    view = first.scoped(access.id)
    game = view.new_game(DUEL)
    device = access.admit("10.0.0.5", access.join_code)
    assert not isinstance(device, str)
    access.seats.take(game.id, device.device, "red", PLAYERS)
    sent = Statements(first)
    with one_look():
        for _ in range(3):
            assert access.valid(device) and access.join_code
            assert view.load(game.id).id == game.id
            assert access.seats.seat_of(game.id, device.device) == "red"
            assert set(access.seats.taken(game.id)) == {"red"}
    assert sent.count() == 3  # the table row, the game, the game's seats (the device's among them)
    # Outside a look every question is asked of the database.
    assert access.join_code == access.join_code
    assert access.seats.seat_of(game.id, device.device) == "red"
    assert sent.count() == 6


def test_a_device_coming_back_with_its_kept_code_is_let_in_by_one_read(two):
    # Two hundred pages come back at once to the process left; each one's
    # admission reads its table's row and its own device's row in one statement.
    first, _ = two
    access = TableAccess(first.tables)
    ticket = access.admit("10.0.0.5", access.join_code)
    assert not isinstance(ticket, str)
    code, stranger = access.join_code, "no-such-device"
    sent = Statements(first)
    with one_look():
        again = access.admit("10.0.0.5", code, ticket.device)
        assert not isinstance(again, str) and again.device == ticket.device
        assert access.valid(again)
    assert sent.count() == 1 and sent.count("INSERT") == 0
    # A device id the table never let in is a new device, numbered after the first.
    with one_look():
        other = access.admit("10.0.0.6", code, stranger)
    assert not isinstance(other, str) and other.device not in (stranger, ticket.device)
    assert [device.number for device in access.devices()] == [1, 2]


def test_a_write_within_a_look_is_seen_by_its_next_read(two):
    first, _ = two
    access = TableAccess(first.tables)
    game = first.scoped(access.id).new_game(DUEL)
    device = access.admit("10.0.0.5", access.join_code)
    assert not isinstance(device, str)
    with one_look():
        assert access.seats.seat_of(game.id, device.device) is None
        access.seats.take(game.id, device.device, "red", PLAYERS)
        assert access.seats.seat_of(game.id, device.device) == "red"
        old = access.join_code
        access.renew()
        assert access.join_code != old
        view = first.scoped(access.id)
        saved = view.load(game.id)
        view.append(game.id, saved.state.legal_commands()[0], saved.revision)
        assert view.load(game.id).revision == saved.revision + 1


def test_another_processs_write_is_read_by_the_next_look(two):
    first, second = two
    access = TableAccess(first.tables)
    view = first.scoped(access.id)
    game = view.new_game(DUEL)
    with one_look():
        before = view.load(game.id)
    second.append(game.id, before.state.legal_commands()[0], before.revision)
    with one_look():
        assert view.load(game.id).revision == before.revision + 1


def test_a_look_is_its_threads_own(two):
    first, _ = two
    access = TableAccess(first.tables)
    sent = Statements(first)
    codes: list[str] = []
    with one_look():
        codes.append(access.join_code)
        other = threading.Thread(target=lambda: codes.extend([access.join_code, access.join_code]))
        other.start()
        other.join()
        codes.append(access.join_code)
    assert len(codes) == 4 and len(set(codes)) == 1
    assert sent.count() == 3  # once in the look, twice in the other thread


def test_a_table_is_said_to_be_used_once_a_minute_by_a_process(two, monkeypatch):
    first, _ = two
    access = TableAccess(first.tables)
    now = [1000.0]
    monkeypatch.setattr(table_codes.time, "monotonic", lambda: now[0])
    sent = Statements(first)
    for _ in range(5):
        first.tables.touch(access.id)
    assert sent.count("UPDATE") == 1
    now[0] += table_codes.TOUCH_EVERY_S
    first.tables.touch(access.id)
    assert sent.count("UPDATE") == 2
