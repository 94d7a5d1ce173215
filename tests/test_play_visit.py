"""The play layer's bus and a page's visit: what a device may see and where its address
leads, decided without Flet and without a browser."""

from __future__ import annotations

import pytest

from companion.language import Message
from companion.play.bus import DELETED, SEATS, LocalBus, game_topic
from companion.play.language_setting import ENGLISH
from companion.play.service import Service
from companion.play.sharing.access import Role, TableAccess
from companion.play.sharing.links import TableLinks
from companion.play.sharing.seats import WATCHER
from companion.play.visit import Route, Visit
from companion.store.errors import GameNotFound
from companion.store.store import open_store
from models.setup import GameSetup

PLAYERS = [{"id": "red", "name": "Ragna"}, {"id": "blue", "name": "Bjorn"}]


@pytest.fixture
def games(tmp_path):
    """A store with a table game and a digital game."""
    with open_store(str(tmp_path / "games.sqlite3")) as store:
        table = store.new_game(GameSetup(players=PLAYERS, board="duel-isle")).id
        digital = store.new_game(GameSetup(players=PLAYERS, board="duel-isle", mode="digital")).id
        yield store, table, digital


def shared(store) -> tuple[Service, TableAccess]:
    """A service whose table is shared on the network."""
    access = TableAccess(store.tables)
    return Service(store, TableLinks.serving(access, "10.0.0.2", 8550, "127.0.0.1")), access


# --- the bus ----------------------------------------------------------------------------------


def test_the_bus_tells_every_subscriber_but_the_publisher():
    bus = LocalBus()
    heard: list[tuple[str, str, object]] = []
    for page in ("ann", "bob"):
        bus.subscribe(
            game_topic("g1"),
            page,
            lambda topic, value, page=page: heard.append((page, topic, value)),
        )
    bus.subscribe(game_topic("g2"), "cy", lambda topic, value: heard.append(("cy", topic, value)))
    bus.publish(game_topic("g1"), 7, "ann")
    assert heard == [("bob", "game/g1", 7)]
    heard.clear()
    bus.publish(game_topic("g1"), 8)  # no sender: everyone hears
    assert sorted(page for page, *_ in heard) == ["ann", "bob"]


def test_a_failing_subscriber_does_not_keep_the_others_from_hearing(caplog):
    bus = LocalBus()
    heard: list[object] = []

    def fails(_topic: str, _value: object) -> None:
        raise RuntimeError("a page that went away")

    bus.subscribe(SEATS, "gone", fails)
    bus.subscribe(SEATS, "here", lambda _topic, value: heard.append(value))
    bus.publish(SEATS, "g1")
    assert heard == ["g1"]
    assert "a subscriber of table/seats failed" in caplog.text


def test_a_page_that_stops_following_hears_nothing_more():
    bus = LocalBus()
    heard: list[object] = []
    bus.subscribe(SEATS, "page", lambda _topic, value: heard.append(value))
    bus.subscribe(DELETED, "page", lambda _topic, value: heard.append(value))
    bus.unsubscribe_all("page")
    bus.publish(SEATS, "g1")
    bus.publish(DELETED, "g1")
    assert heard == [] and bus.subscribers(SEATS) == 0


# --- where an address leads ------------------------------------------------------------------


def test_this_machines_own_browser_goes_where_its_address_says(games):
    store, table, digital = games
    visit = Visit(Service(store))
    assert visit.route([]) == Route("home")
    assert visit.route(["new"]) == Route("new_game")
    assert visit.route(["board-editor"]) == Route("board_editor")
    assert visit.route(["game", table]) == Route("table", table)
    # A digital game's own screen is the isle.
    assert visit.route(["game", digital]) == Route("board", digital)
    assert visit.route(["game", table, "reset"]) == Route("reset", table)
    assert visit.route(["game", table, "nonsense"]) == Route("home")
    assert visit.route(["nowhere"]) == Route("home")
    with pytest.raises(GameNotFound):
        visit.route(["game", "not-a-game"])
    assert visit.not_found("not-a-game") == Message("app.main.not_saved")
    # Not shared: it records for everyone and may delete any game.
    assert visit.seat(table) is None and visit.delete_refusal(table) is None


def test_a_shared_table_shows_the_code_screen_until_a_code_lets_the_page_in(games):
    store, table, _ = games
    service, access = shared(store)
    visit = Visit(service)
    assert visit.route(["game", table]) == Route("join")
    assert visit.home() == Route("join")
    assert visit.admit("10.0.0.5", "WRONGCOD", "", ENGLISH) == (
        "That is not this table's code. Check it with the host."
    )
    assert visit.admit("10.0.0.5", access.join_code, "", ENGLISH) is None
    # In, but not yet seated in this game: it picks a seat first.
    assert visit.route(["game", table]) == Route("seat", table)
    assert visit.route(["share"]) == Route("home", notice=Message("app.main.share_host_only"))
    access.seats.take(table, visit.ticket.device, "red", ("red", "blue"))
    assert visit.route(["game", table]) == Route("table", table)
    assert visit.seat(table) == "red"


def test_a_watcher_is_shown_only_what_records_nothing(games):
    store, table, _ = games
    service, access = shared(store)
    visit = Visit(service)
    assert visit.admit("10.0.0.6", access.watch_code, "", ENGLISH) is None
    assert visit.role is Role.WATCH and visit.seat(table) == WATCHER
    assert visit.route(["game", table]) == Route("watch", table)
    told = Message("app.main.watch_only")
    assert visit.route(["game", table, "reset"]) == Route("watch", table, told)
    assert visit.route(["new"]) == Route("watch_home", notice=told)
    assert visit.home() == Route("watch_home")


def test_new_codes_send_every_page_but_the_hosts_back_to_the_code_screen(games):
    store, table, _ = games
    service, access = shared(store)
    host, player = Visit(service), Visit(service)
    heard: list[object] = []
    player.follow_table(lambda _t, value: heard.append(value), print, print)
    assert host.admit("127.0.0.1", access.host_key, "", ENGLISH) is None
    assert player.admit("10.0.0.5", access.join_code, "", ENGLISH) is None
    host.renew_code()
    assert heard == [access.generation]
    assert player.renewed_out() and player.ticket is None
    assert player.route(["game", table]) == Route("join")
    assert not host.renewed_out() and host.route(["share"]) == Route("share")
