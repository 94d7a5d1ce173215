"""The host's Share panel as a view-model: the codes and links, every
device let in with how it came in, whether it is connected and its seats, and the host's
Free for each player's seat (a seat held by a lost phone), without a browser."""

from __future__ import annotations

import pytest

from companion.language.render import language
from companion.play.language_setting import ENGLISH
from companion.play.service import Service
from companion.play.share_panel import share_panel
from companion.play.sharing.access import TableAccess
from companion.play.sharing.links import TableLinks
from companion.play.sharing.seats import SCOREKEEPER, WATCHER
from companion.play.visit import Visit
from companion.store.store import open_store
from models.setup import GameSetup

EN, FR = ENGLISH, language("fr")
PLAYERS = [{"id": "red", "name": "Ragna"}, {"id": "blue", "name": "Bjorn"}]


@pytest.fixture
def table(tmp_path):
    """A shared table with one game, and its host's visit."""
    with open_store(str(tmp_path / "games.sqlite3")) as store:
        game = store.new_game(GameSetup(players=PLAYERS, board="duel-isle")).id
        access = TableAccess(store.tables)
        service = Service(store, TableLinks.serving(access, "10.0.0.2", 8550, "127.0.0.1"))
        host = Visit(service)
        assert host.admit("127.0.0.1", access.host_key, "", ENGLISH) is None
        yield service, host, game


def panel_of(service, host):
    """The panel as the host's page builds it."""
    assert host.links is not None and host.ticket is not None
    return share_panel(host.links, host.store, host.ticket.device)


def lines(panel, words=EN):
    """Each device's line as the panel reads it."""
    return [
        " · ".join(
            [
                words.render(d.name),
                words.render(d.role),
                words.render(d.state),
                ", ".join(words.render(s) for s in d.seats),
            ]
        )
        for d in panel.devices
    ]


def test_the_codes_are_grouped_and_their_links_carry_them(table):
    service, host, _ = table
    access = host.links.access
    panel = panel_of(service, host)
    assert panel.join.code.replace(" ", "").replace("-", "") == access.join_code
    assert panel.join.link == host.links.join and access.join_code in panel.join.link
    assert panel.watch.link == host.links.watch
    assert EN.render(panel.join.code_said) == f"Join code: {panel.join.code}"
    assert host.links.join in EN.render(panel.qr_said)


def test_the_host_alone_is_this_device_with_no_seat(table):
    service, host, _ = table
    panel = panel_of(service, host)
    assert lines(panel) == ["Device 1 (this device) · host · ○ not connected · no seat yet"]
    assert panel.devices[0].frees == ()


def test_devices_are_listed_in_the_order_they_came_with_their_seats(table):
    service, host, game = table
    access = host.links.access
    player, watcher = Visit(service), Visit(service)
    assert player.admit("10.0.0.5", access.join_code, "", ENGLISH) is None
    assert watcher.admit("10.0.0.6", access.watch_code, "", ENGLISH) is None
    assert access.seats.take(game, player.ticket.device, "red", ("red", "blue")) is None
    assert access.seats.take(game, host.ticket.device, SCOREKEEPER, ("red", "blue")) is None
    assert access.seats.take(game, watcher.ticket.device, WATCHER, ("red", "blue")) is None
    player.connected(game)
    panel = panel_of(service, host)
    assert lines(panel) == [
        "Device 1 (this device) · host · ○ not connected · "
        "the scorekeeper in Ragna and Bjorn's game",
        "Device 2 · joined · ● connected · Ragna in Ragna and Bjorn's game",
        "Device 3 · watch link · ○ not connected · a watcher in Ragna and Bjorn's game",
    ]
    # A player's seat and the scorekeeper's can be freed by the host; a watcher holds none.
    assert [len(d.frees) for d in panel.devices] == [1, 1, 0]
    free = panel.devices[1].frees[0]
    assert (free.game_id, free.device) == (game, player.ticket.device)
    assert EN.render(free.label) == "Free this seat: Ragna in Ragna and Bjorn's game"
    # The seat is named in the device's language, not kept in English.
    assert FR.render(panel.devices[0].seats[0]) == "le marqueur dans la partie de Ragna et de Bjorn"


def test_freeing_a_seat_takes_it_off_the_panel(table):
    service, host, game = table
    access = host.links.access
    player = Visit(service)
    assert player.admit("10.0.0.5", access.join_code, "", ENGLISH) is None
    access.seats.take(game, player.ticket.device, "blue", ("red", "blue"))
    free = panel_of(service, host).devices[1].frees[0]
    host.free_seat(free.game_id, free.device)
    after = panel_of(service, host).devices[1]
    assert [EN.render(s) for s in after.seats] == ["no seat yet"] and after.frees == ()


def test_a_deleted_games_seats_are_not_listed(table):
    service, host, game = table
    access = host.links.access
    player = Visit(service)
    assert player.admit("10.0.0.5", access.join_code, "", ENGLISH) is None
    access.seats.take(game, player.ticket.device, "red", ("red", "blue"))
    host.store.delete_game(game)
    line = panel_of(service, host).devices[1]
    assert [EN.render(s) for s in line.seats] == ["no seat yet"] and line.frees == ()


def test_a_new_code_lists_only_the_host(table):
    service, host, _ = table
    access = host.links.access
    player = Visit(service)
    assert player.admit("10.0.0.5", access.join_code, "", ENGLISH) is None
    assert len(panel_of(service, host).devices) == 2
    host.renew_code()
    panel = panel_of(service, host)
    assert [d.device for d in panel.devices] == [host.ticket.device]
    assert panel.join.link == host.links.join
