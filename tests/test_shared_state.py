"""What another server process must see lives in the database: a shared table's
codes, seats and wrong tries, the computers' leases, and the saved games behind the cache.

Two stores on one database stand for two server processes (each has its own connections and
its own memory); where a process must really stop or write on its own, a second Python
process does.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from sqlalchemy import event
from store_support import BACKENDS, DUEL, database_url, two_stores

from companion.engine.position import position_text
from companion.play.language_setting import ENGLISH
from companion.play.leases import LEASE_S, StoredLeases
from companion.play.sharing.access import Role, TableAccess, Ticket
from companion.play.sharing.limiter import StoredTries
from companion.play.sharing.seats import SCOREKEEPER
from companion.store.errors import GameMovedOn, GameNotFound
from companion.store.store import Store, open_store

PLAYERS = ("red", "blue")


class Clock:
    """A wall clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(params=BACKENDS)
def url(request, tmp_path):
    """A fresh database: a SQLite file, or a schema of the test PostgreSQL server."""
    yield from database_url(request.param, tmp_path)


@pytest.fixture
def two(url):
    """Two stores on one database: two server processes' views of it."""
    yield from two_stores(url)


def test_a_tables_codes_let_a_device_in_on_another_process_and_new_ones_reach_it(two):
    first, second = two
    here = TableAccess(first.tables)
    there = TableAccess(second.tables, table_id=here.id)
    assert (there.join_code, there.watch_code) == (here.join_code, here.watch_code)
    phone = there.admit("10.0.0.5", here.join_code)
    host = there.admit("127.0.0.1", here.host_key)
    assert isinstance(phone, Ticket) and phone.role is Role.JOIN
    assert isinstance(host, Ticket) and host.role is Role.HOST
    assert [device.role for device in here.devices()] == [Role.JOIN, Role.HOST]
    old = here.join_code
    here.renew()
    # The other process sees the new codes at once: the phone's ticket is void there.
    assert not there.valid(phone) and there.valid(host)
    assert there.join_code == here.join_code != old
    assert there.admit("10.0.0.5", old) == ("The host made a new table code: ask them for it.")
    assert [device.role for device in there.devices()] == [Role.HOST]


def test_a_seat_taken_on_one_process_is_held_on_the_other(two):
    first, second = two
    here = TableAccess(first.tables)
    there = TableAccess(second.tables, table_id=here.id)
    ann = here.admit("10.0.0.5", here.join_code)
    bob = there.admit("10.0.0.6", here.join_code)
    assert isinstance(ann, Ticket) and isinstance(bob, Ticket)
    assert here.seats.take("g1", ann.device, "red", PLAYERS) is None
    assert there.seats.seat_of("g1", ann.device) == "red"
    assert there.seats.take("g1", bob.device, "red", PLAYERS) == (
        "Another device has taken that seat; pick another."
    )
    assert there.seats.take("g1", bob.device, SCOREKEEPER, PLAYERS) is None
    assert here.seats.taken("g1") == {"red": ann.device, SCOREKEEPER: bob.device}
    there.deleted("g1")
    assert here.was_deleted("g1") and here.seats.taken("g1") == {}


def test_wrong_codes_on_one_process_lock_the_address_out_on_the_other(two):
    first, second = two
    clock = Clock()
    here = TableAccess(first.tables, StoredTries(first.tables, "code", 3, 60, clock))
    there = TableAccess(
        second.tables, StoredTries(second.tables, "code", 3, 60, clock), table_id=here.id
    )
    for n in range(3):
        wrong = here.admit("203.0.113.9", f"WRONG{n}ZZ")
        assert wrong == "That is not this table's code. Check it with the host."
    locked = there.admit("203.0.113.9", here.join_code)
    assert isinstance(locked, str) and "Too many wrong codes" in locked
    # Another address is not held back, and the window passes.
    assert isinstance(there.admit("203.0.113.10", here.join_code), Ticket)
    clock.now += 61
    assert isinstance(there.admit("203.0.113.9", here.join_code), Ticket)


def test_a_lease_held_on_one_process_is_taken_over_on_another_once_it_lapses(two):
    first, second = two
    clock = Clock()
    tablet, phone = StoredLeases(first.tables, clock), StoredLeases(second.tables, clock)
    assert tablet.holds("g1", "tablet")
    assert not phone.holds("g1", "phone")
    clock.now += LEASE_S - 0.5
    tablet.renew("g1", "tablet")
    clock.now += LEASE_S - 0.5
    assert not phone.holds("g1", "phone")
    clock.now += 1
    assert phone.holds("g1", "phone") and not tablet.holds("g1", "tablet")
    phone.release("g1", "phone")
    assert tablet.holds("g1", "tablet")
    phone.claim("g1", "phone")
    assert not tablet.holds("g1", "tablet")


HOLDER = """
import sys, time
from companion.play.leases import BEAT_S, StoredLeases
from companion.store.store import open_store
leases = StoredLeases(open_store(sys.argv[1]).tables)
assert leases.holds("g1", "killed")
print("holding", flush=True)
while True:
    time.sleep(BEAT_S)
    leases.renew("g1", "killed")
"""


def test_a_lease_whose_process_was_killed_is_taken_over_within_a_few_seconds(url):
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, url], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        with open_store(url) as store:
            leases = StoredLeases(store.tables)
            time.sleep(LEASE_S + 0.5)
            assert not leases.holds("g1", "survivor")  # still renewed by a live process
            os.kill(holder.pid, signal.SIGKILL)
            holder.wait()
            killed = time.monotonic()
            while not leases.holds("g1", "survivor"):
                assert time.monotonic() - killed < LEASE_S + 2
                time.sleep(0.2)
    finally:
        holder.kill()
        holder.wait()


def _record_elsewhere(url: str, game_id: str) -> None:
    """A record made by another process, through the command line."""
    done = subprocess.run(
        [sys.executable, "-m", "companion", "game", "do", game_id, "-", "--db", url],
        input='{"type": "pass"}',
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_a_game_kept_in_memory_is_checked_against_the_database_written_by_another_process(
    url,
):
    with open_store(url) as store:
        saved = store.new_game(DUEL)
        saved = store.load(saved.id)  # in this process's memory now
        _record_elsewhere(url, saved.id)
        # A write from the revision held in memory is refused, not applied over the other's.
        with pytest.raises(GameMovedOn):
            store.append(saved.id, saved.state.legal_commands()[0], saved.revision)
        latest = store.load(saved.id)
        assert latest.revision == saved.revision + 1 and len(latest.log) == 1
        _record_elsewhere(url, saved.id)
        again = store.load(saved.id)
        assert again.revision == latest.revision + 1 and len(again.log) == 2


class Statements:
    """Counts the statements a store sends its database."""

    def __init__(self, store: Store) -> None:
        self.count = 0
        event.listen(store._database.engine, "before_cursor_execute", self._seen)

    def _seen(self, *_: object) -> None:
        self.count += 1


def test_a_notices_revision_already_in_memory_is_shown_without_reading_the_database(two):
    first, second = two
    games = [first.new_game(DUEL) for _ in range(20)]
    for saved in games:  # another process records in each; its notice says the revision
        second.append(saved.id, saved.state.legal_commands()[0], saved.revision)
    statements = Statements(first)
    heard = [first.load(saved.id, saved.revision + 1) for saved in games]
    assert all(len(game.log) == 1 for game in heard)  # not in memory yet: read
    read = statements.count
    assert read > 0
    # A second page of this process hears the same notices: every game is in memory at the
    # revision said (more games than one table's, as a hosted server shows).
    again = [first.load(saved.id, saved.revision + 1) for saved in games]
    assert statements.count == read
    assert [position_text(game.state) for game in again] == [
        position_text(game.state) for game in heard
    ]
    # A notice of a revision memory does not hold is read, never answered from memory.
    second.append(games[0].id, heard[0].state.legal_commands()[0], heard[0].revision)
    assert len(first.load(games[0].id, heard[0].revision + 1).log) == 2
    assert statements.count > read


def test_a_tables_view_never_takes_another_tables_game_from_memory(two):
    first, _ = two
    mine, theirs = TableAccess(first.tables), TableAccess(first.tables)
    saved = first.scoped(mine.id).new_game(DUEL)
    assert first.scoped(mine.id).load(saved.id, saved.revision).id == saved.id
    stranger = first.scoped(theirs.id)  # the same process's memory holds the game
    with pytest.raises(GameNotFound):
        stranger.load(saved.id, saved.revision)
    with pytest.raises(GameNotFound):
        stranger.append(saved.id, saved.state.legal_commands()[0], saved.revision)
    assert len(first.load(saved.id).log) == 0


def _shared(store: Store) -> TableAccess:
    return TableAccess(store.tables)


def test_a_table_started_on_one_process_is_found_by_its_code_from_another(two):
    from companion.play.sharing.access import admit_at

    first, second = two
    mine, theirs = _shared(first), _shared(second)
    table, ticket = admit_at(
        second.tables, StoredTries(second.tables, "code"), "10.0.0.5", mine.watch_code, "", ENGLISH
    )
    assert table == mine.id != theirs.id
    assert isinstance(ticket, Ticket) and ticket.role is Role.WATCH
    # A table's code does not open another table.
    assert isinstance(theirs.admit("10.0.0.5", mine.join_code), str)


def test_a_new_share_run_voids_the_last_runs_table_and_keeps_every_game(tmp_path):
    with open_store(str(tmp_path / "games.sqlite3")) as store:
        game = store.new_game(DUEL).id
        before = TableAccess(store.tables)
        phone = before.admit("10.0.0.5", before.join_code)
        assert isinstance(phone, Ticket)
        before.seats.take(game, phone.device, "red", PLAYERS)
        store.tables.remove_local()
        after = TableAccess(store.tables)
        assert not before.valid(phone) and store.tables.count() == 1
        assert isinstance(after.admit("10.0.0.5", before.join_code), str)
        assert store.load(game).id == game
