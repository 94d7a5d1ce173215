"""The bus across processes: changes announced through PostgreSQL's LISTEN/NOTIFY.

Two `PostgresBus` objects with their own connections stand for two server processes on one
database: what a page records on one is heard by the pages of the other.
"""

from __future__ import annotations

import threading
import time

import pytest
from store_support import PG_SKIP, PG_URL

from companion.play.bus import SEATS, game_topic
from companion.store.notices import CHANNEL, PostgresBus, Subscribers, conninfo

needs_pg = pytest.mark.skipif(not PG_URL, reason=PG_SKIP)


class Heard:
    """What one page hears, with a way to wait for it."""

    def __init__(self) -> None:
        self.told: list[tuple[str, object]] = []
        self.changed = threading.Condition()

    def __call__(self, topic: str, value: object) -> None:
        with self.changed:
            self.told.append((topic, value))
            self.changed.notify_all()

    def wait_for(self, count: int, timeout: float = 10) -> list[tuple[str, object]]:
        """What was heard once `count` notices are in (or the time is up)."""
        with self.changed:
            self.changed.wait_for(lambda: len(self.told) >= count, timeout)
            return list(self.told)


@pytest.fixture
def processes():
    """Two buses on the test database, listening."""
    buses = [PostgresBus(PG_URL), PostgresBus(PG_URL)]
    try:
        assert all(bus.wait_until_listening() for bus in buses)
        yield buses
    finally:
        for bus in buses:
            bus.close()


def test_a_sqlalchemy_url_becomes_psycopgs_connection_string():
    said = conninfo("postgresql+psycopg://summoners:secret@127.0.0.1:5433/isle")
    assert said == "postgresql://summoners:secret@127.0.0.1:5433/isle"


@needs_pg
def test_a_record_on_one_process_is_heard_by_the_pages_of_another(processes):
    first, second = processes
    recorder, beside, elsewhere = object(), Heard(), Heard()
    first.subscribe(game_topic("g1"), recorder, Heard())
    first.subscribe(game_topic("g1"), "a page beside it", beside)
    second.subscribe(game_topic("g1"), "a page on another process", elsewhere)
    second.subscribe(game_topic("g2"), "another game's page", Heard())
    first.publish(game_topic("g1"), 7, recorder)
    assert elsewhere.wait_for(1) == [("game/g1", 7)]
    # The publisher's own process hears it once, at once (not again when NOTIFY comes back).
    time.sleep(0.5)
    assert beside.told == [("game/g1", 7)]


@needs_pg
def test_every_process_hears_the_tables_changes_in_the_order_they_were_made(processes):
    first, second = processes
    heard = Heard()
    second.subscribe(SEATS, "page", heard)
    for game in ("g1", "g2", "g3"):
        first.publish(SEATS, game)
    assert heard.wait_for(3) == [(SEATS, "g1"), (SEATS, "g2"), (SEATS, "g3")]


@needs_pg
def test_a_stranger_notice_on_the_channel_is_ignored(processes, caplog):
    first, second = processes
    heard = Heard()
    second.subscribe(SEATS, "page", heard)
    import psycopg

    with psycopg.connect(conninfo(PG_URL), autocommit=True) as connection:
        connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, "not json"))
    first.publish(SEATS, "g1")
    assert heard.wait_for(1) == [(SEATS, "g1")]
    assert "is not the app's was ignored" in caplog.text


@needs_pg
def test_a_listener_whose_connection_drops_listens_again(processes):
    first, second = processes
    heard = Heard()
    second.subscribe(SEATS, "page", heard)
    import psycopg

    with psycopg.connect(conninfo(PG_URL), autocommit=True) as connection:
        ended = connection.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE query = %s AND pid <> pg_backend_pid()",
            (f"LISTEN {CHANNEL}",),
        ).fetchall()
    assert ended  # both listeners were cut
    deadline = time.monotonic() + 15
    while not heard.told and time.monotonic() < deadline:
        if second.wait_until_listening(0.5):
            first.publish(SEATS, "after")
        time.sleep(0.5)
    assert (SEATS, "after") in heard.told


@needs_pg
def test_a_notice_too_long_for_notify_is_refused_with_its_topic(processes):
    first, _ = processes
    with pytest.raises(ValueError, match="a notice on table/seats is too long"):
        first.publish(SEATS, "x" * 9000)


def test_a_server_on_sqlite_keeps_its_bus_in_process(tmp_path):
    from companion.app.server import bus_for
    from companion.play.bus import LocalBus
    from companion.store.store import open_store

    with open_store(str(tmp_path / "games.sqlite3")) as store:
        assert store.shared_url is None and isinstance(bus_for(store), LocalBus)


@needs_pg
def test_a_server_on_postgresql_announces_through_it():
    from companion.app.server import bus_for
    from companion.store.store import open_store

    with open_store(PG_URL) as store:
        bus = bus_for(store)
        try:
            assert isinstance(bus, PostgresBus) and bus.wait_until_listening()
        finally:
            bus.close()


def test_a_page_leaving_its_topics_leaves_only_its_own():
    subscribers = Subscribers()
    heard: list[tuple[str, str, object]] = []
    pages = [object() for _ in range(3)]
    for number, page in enumerate(pages):
        for topic in ("game/a", f"table/{number}"):
            subscribers.subscribe(
                topic, page, lambda t, v, n=number: heard.append((f"page {n}", t, v))
            )
    subscribers.unsubscribe_all(pages[1])
    subscribers.unsubscribe_all(pages[1])  # twice: nothing left to leave
    subscribers.deliver("game/a", 7)
    subscribers.deliver("table/1", 8)
    subscribers.deliver("table/2", 9)
    assert heard == [("page 0", "game/a", 7), ("page 2", "game/a", 7), ("page 2", "table/2", 9)]
    assert subscribers.count("table/1") == 0 and subscribers.count("game/a") == 2
    # A page that follows again after leaving hears again.
    subscribers.subscribe("table/1", pages[1], lambda t, v: heard.append(("page 1", t, v)))
    subscribers.deliver("table/1", 10)
    assert heard[-1] == ("page 1", "table/1", 10)
