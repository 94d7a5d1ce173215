"""A hosted server: tables as the unit, each device at its own table's games only,
limits held in the database, idle tables removed. The play layer, without a browser; two
stores on one database stand for two server processes.
"""

from __future__ import annotations

import time
from types import SimpleNamespace

import flet as ft
import pytest
from screen_support import every_control
from store_support import BACKENDS, DUEL, database_url

from companion.app.guard import public_address
from companion.app.main import App
from companion.app.screens import seat
from companion.play.bus import SEATS
from companion.play.language_setting import ENGLISH
from companion.play.service import Service
from companion.play.sharing.access import Role
from companion.play.sharing.hosting import HostedLimits, Hosting
from companion.play.sharing.policy import WATCHERS_RECORD_NOTHING
from companion.play.visit import Route, Visit
from companion.store.errors import GameNotFound
from companion.store.store import open_store
from models.commands import Pass
from models.reset_draft import DraftEntries

PUBLIC = "https://isle.example.org"


class Clock:
    """A wall clock the test moves by hand, from now."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


@pytest.fixture(params=BACKENDS)
def url(request, tmp_path):
    """A fresh database: a SQLite file, or a schema of the test PostgreSQL server."""
    yield from database_url(request.param, tmp_path)


@pytest.fixture
def servers(url):
    """Two hosted servers' services on one database (two processes), with one clock."""
    clock = Clock()
    stores = [open_store(url), open_store(url)]
    limits = HostedLimits(starts_per_hour=2)
    services = [
        Service(store, hosting=Hosting(store.tables, PUBLIC, limits, clock)) for store in stores
    ]
    try:
        yield services, clock
    finally:
        for store in stores:
            store.close()


def started(service: Service, client: str = "198.51.100.1") -> Visit:
    """A page that starts a table of its own."""
    visit = Visit(service)
    assert visit.start_table(client, ENGLISH) is None
    return visit


def test_a_page_with_no_table_sees_the_code_screen_and_no_game(servers):
    (service, _), _ = servers
    service.store.new_game(DUEL)  # a game of this machine's own, belonging to no table
    visit = Visit(service)
    assert visit.shared and not visit.admitted
    assert visit.route([]) == Route("join")
    assert visit.store.unfinished() == []


def test_the_device_that_starts_a_table_is_its_host_and_gets_its_codes(servers):
    (service, _), _ = servers
    visit = started(service)
    assert visit.admitted and visit.role is Role.HOST
    assert visit.route([]) == Route("home") and visit.route(["share"]) == Route("share")
    links = visit.links
    assert links is not None and links.join == f"{PUBLIC}/?code={links.access.join_code}"
    # The host key is what its browser keeps; the database keeps only its hash.
    assert visit.kept_code() == links.access.host_key and len(links.access.host_key) >= 20


def test_a_device_sees_and_writes_only_its_own_tables_games_on_every_process(servers):
    (first, second), _ = servers
    ann = started(first)
    game = ann.store.new_game(DUEL).id
    cy = started(second, "198.51.100.2")
    other = cy.store.new_game(DUEL).id
    assert [g.id for g in ann.store.unfinished()] == [game]
    assert [g.id for g in cy.store.unfinished()] == [other]
    # Another table's game is not there for it: by its address, a write, or a delete.
    with pytest.raises(GameNotFound):
        cy.route(["game", game])
    with pytest.raises(GameNotFound):
        cy.session(game)
    saved = first.store.load(game)  # in memory now, which a write from another table skips
    with pytest.raises(GameNotFound):
        cy.store.append(game, saved.state.legal_commands()[0], saved.revision)
    with pytest.raises(GameNotFound):
        cy.store.save_draft(game, 1, DraftEntries(), 0)
    assert first.store.load(game).revision == 0
    # A phone let in by Ann's join code on the other process sees Ann's game only.
    links = ann.links
    assert links is not None
    bob = Visit(second)
    assert bob.admit("198.51.100.3", links.access.join_code, "", ENGLISH) is None
    assert bob.role is Role.JOIN and [g.id for g in bob.store.unfinished()] == [game]
    assert bob.route(["game", game]) == Route("seat", game)


def test_a_delete_from_another_table_removes_nothing(servers):
    (first, second), _ = servers
    ann, cy = started(first), started(second, "198.51.100.2")
    game = ann.store.new_game(DUEL).id
    with pytest.raises(GameNotFound):
        cy.store.delete_game(game)
    assert first.store.load(game).id == game


def test_a_watcher_records_nothing_on_either_process(servers):
    (first, second), _ = servers
    ann = started(first)
    game = ann.store.new_game(DUEL).id
    links = ann.links
    assert links is not None
    for service in (first, second):
        watcher = Visit(service)
        assert watcher.admit("198.51.100.4", links.access.watch_code, "", ENGLISH) is None
        assert watcher.route(["game", game]) == Route("watch", game)
        assert watcher.session(game).do(Pass(), by="red").said == WATCHERS_RECORD_NOTHING
    assert first.store.load(game).revision == 0


def test_tables_started_from_one_address_are_limited_across_processes(servers):
    (first, second), clock = servers
    started(first)
    started(second)
    refused = Visit(first).start_table("198.51.100.1", ENGLISH)
    assert refused == "Too many tables started from this network address: try again in 60 min."
    assert Visit(second).start_table("198.51.100.1", ENGLISH) == refused
    assert Visit(second).start_table("198.51.100.9", ENGLISH) is None
    clock.now += 3601
    assert Visit(second).start_table("198.51.100.1", ENGLISH) is None


def test_wrong_codes_are_limited_per_address_across_processes(servers):
    (first, second), _ = servers
    started(first)
    for n in range(5):
        assert isinstance(Visit(first).admit("203.0.113.7", f"WRONG{n}ZZ", "", ENGLISH), str)
    locked = Visit(second).admit("203.0.113.7", "WRONG9ZZ", "", ENGLISH)
    assert locked is not None and locked.startswith("Too many wrong codes")


def test_a_table_idle_for_the_configured_time_is_removed_with_its_games(servers):
    (first, second), clock = servers
    ann = started(first)
    game = ann.store.new_game(DUEL).id
    assert second.hosting is not None
    joined = ann.links
    assert joined is not None  # someone joined: the table is in use, kept while used
    assert Visit(second).admit("198.51.100.4", joined.access.join_code, "", ENGLISH) is None
    clock.now += 29 * 86400
    assert second.hosting.remove_idle() == []
    links = ann.links
    assert links is not None
    clock.now += 2 * 86400
    assert second.hosting.remove_idle() == [links.access.id]
    with pytest.raises(GameNotFound):
        first.store.load(game)
    assert not ann.admitted and ann.route([]) == Route("join")


def test_each_tables_pages_hear_only_their_own_tables_changes(servers):
    (service, _), _ = servers
    ann, cy = started(service), started(service, "198.51.100.2")
    heard: list[str] = []
    cy.follow_table(lambda *_: None, lambda *_: heard.append("cy"), lambda *_: None)
    ann.follow_table(lambda *_: None, lambda *_: heard.append("ann"), lambda *_: None)
    ann.announce(ann.topic(SEATS), "", everyone=True)
    assert heard == ["ann"]


def test_the_guard_accepts_the_public_address_as_a_proxy_forwards_it():
    hosts, origins = public_address("https://isle.example.org")
    assert hosts == {"isle.example.org", "isle.example.org:443"}
    assert origins == {"https://isle.example.org"}
    hosts, origins = public_address("http://Isle.Example.org:8080/")
    assert hosts == {"isle.example.org:8080"} and origins == {"http://isle.example.org:8080"}


def test_a_tables_games_are_bounded(servers, monkeypatch):
    import companion.store.core as core
    from companion.play.new_game import NewGameForm

    (first, second), _ = servers
    monkeypatch.setattr(core, "TABLE_GAMES", 2)
    ann = started(first)
    ann.store.new_game(DUEL)
    ann.store.new_game(DUEL)
    refused = NewGameForm(board_id="duel-isle").start(ann.store)
    assert str(refused) == "This table keeps at most 2 games: delete one to start another."
    # Another table, and this machine's own store, are not held by it.
    assert started(second, "198.51.100.2").store.new_game(DUEL).id
    assert first.store.new_game(DUEL).id


def test_a_tables_devices_and_a_servers_tables_are_bounded(servers, monkeypatch):
    import companion.play.sharing.access as access

    (first, second), _ = servers
    monkeypatch.setattr(access, "TABLE_DEVICES", 2)
    ann = started(first)  # the host is one device
    links = ann.links
    assert links is not None
    assert Visit(second).admit("198.51.100.5", links.access.join_code, "", ENGLISH) is None
    crowded = Visit(second).admit("198.51.100.6", links.access.join_code, "", ENGLISH)
    assert crowded == (
        "This table has let in 2 devices, its most: the host can make a new code to start afresh."
    )
    assert second.hosting is not None
    second.hosting.limits = HostedLimits(most_tables=1)
    assert Visit(second).start_table("198.51.100.7", ENGLISH) == (
        "This server has as many tables as it can keep: try again later."
    )


def test_a_hosted_server_answers_its_public_name_and_its_health_check(servers):
    from starlette.testclient import TestClient

    from companion.app.server import web_app

    (service, _), _ = servers
    assert service.hosting is not None
    app = web_app(service.store, "127.0.0.1", 8551, hosting=service.hosting)
    client = TestClient(app, base_url="http://127.0.0.1:8551")
    public = {"host": "isle.example.org", "origin": PUBLIC}
    health = client.get("/healthz", headers=public)
    assert (health.status_code, health.text) == (200, "ok\n")
    assert client.get("/healthz").status_code == 200  # a proxy's check on the backend
    refused = client.get("/healthz", headers={"host": "evil.example"})
    assert refused.status_code == 403


def test_the_health_check_says_when_the_database_is_unreachable():
    from starlette.testclient import TestClient

    from companion.app.health import Health

    async def never(scope, receive, send):
        raise AssertionError("the health check is answered before the app")

    def unreachable() -> None:
        raise OSError("connection refused")

    answer = TestClient(Health(never, unreachable)).get("/healthz")
    assert (answer.status_code, answer.text) == (503, "database unreachable\n")


def test_a_hosted_server_sweeps_idle_tables_at_once_and_then_every_while(servers):
    from companion.app.server import sweep_idle_tables

    (first, _), clock = servers
    ann = started(first)
    links = ann.links
    assert links is not None and first.hosting is not None
    clock.now += 31 * 86400
    stop = sweep_idle_tables(first.hosting, every_s=0.05)
    try:
        deadline = time.monotonic() + 10
        while first.store.tables.get(links.access.id) is not None:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    finally:
        stop.set()


def test_a_seat_taken_or_given_up_is_heard_by_the_other_pages_of_its_table(servers):
    # A seat picked on one phone shows as taken on the others' pickers without a reload: on a
    # hosted server the pages follow their own table's topic, and that is where it is told.
    (service, _), _ = servers
    ann = started(service)
    game = ann.store.new_game(DUEL).id
    links = ann.links
    assert links is not None
    bob = Visit(service)
    assert bob.admit("198.51.100.3", links.access.join_code, "", ENGLISH) is None
    cy = started(service, "198.51.100.2")  # another table's host
    heard: list[tuple[str, object]] = []
    for name, visit in (("ann", ann), ("cy", cy)):
        visit.follow_table(
            lambda *_: None, lambda _, value, n=name: heard.append((n, value)), lambda *_: None
        )
    app = App(SimpleNamespace(), service)  # type: ignore[arg-type]
    app.visit = bob
    app.show = lambda: None
    view = seat.build(app, game)
    first = next(c for c in every_control(view) if isinstance(c, ft.Button) and not c.disabled)
    first.on_click(None)
    assert bob.seat(game) == "red" and heard == [("ann", game)]
    line = seat.seat_line(app, game)
    assert line is not None
    change = next(c for c in every_control(line) if isinstance(c, ft.TextButton))
    change.on_click(None)
    assert bob.seat(game) != "red" and heard == [("ann", game), ("ann", game)]
