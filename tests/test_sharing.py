"""Sharing a table, below the screens: codes, the limit on wrong tries, seats, who may record.

The browser tests (tests/browser/test_share_table.py) drive the same through the app; these
check each rule directly and fast.
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections import Counter

import msgpack
import pytest
from screen_support import every_control
from store_support import tables
from websockets.sync.client import connect

from companion.app.reconnect import NOTICE, ReconnectNotice
from companion.play.bus import DELETED, PRESENCE, SEATS
from companion.play.language_setting import ENGLISH
from companion.play.service import Service
from companion.play.session import GameSession
from companion.play.sharing import codes
from companion.play.sharing.access import Role, TableAccess, Ticket
from companion.play.sharing.limiter import TryLimiter
from companion.play.sharing.links import TableLinks, link, png_qr, terminal_qr
from companion.play.sharing.policy import (
    CODE_REPLACED,
    LOCKED,
    WATCHERS_RECORD_NOTHING,
    others_refusal,
    refusal,
    signed,
)
from companion.play.sharing.seats import SCOREKEEPER, WATCHER
from companion.play.visit import Visit
from companion.store.store import open_store
from models.commands import Correction, LateRemoval, LateSummon, Pass, Skip, Summon
from models.rules import CreatureKind
from models.setup import GameSetup

PLAYERS = ("red", "blue")


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# --- codes ----------------------------------------------------------------------------------


def test_a_code_carries_at_least_40_bits_from_an_unambiguous_alphabet():
    assert len(set(codes.ALPHABET)) == len(codes.ALPHABET) == 32
    assert not set("01IO") & set(codes.ALPHABET)
    assert codes.LENGTH * math.log2(len(codes.ALPHABET)) >= 40
    made = [codes.new_code() for _ in range(2000)]
    assert all(len(code) == codes.LENGTH and set(code) <= set(codes.ALPHABET) for code in made)
    assert len(set(made)) == len(made)
    # Every symbol turns up, about as often as the others (8 x 2000 draws, 500 expected each).
    counts = Counter("".join(made))
    assert set(counts) == set(codes.ALPHABET)
    assert max(counts.values()) < 650 and min(counts.values()) > 350


def test_a_typed_code_is_read_loosely_and_the_host_key_exactly():
    assert codes.normalise(" ab2c-d3ef ") == "AB2CD3EF"
    assert codes.normalise("ab2c d3ef") == codes.normalise("AB2C_D3EF") == "AB2CD3EF"
    access = TableAccess(tables())
    assert isinstance(access.admit("10.0.0.5", access.host_key), Ticket)
    assert isinstance(access.admit("10.0.0.5", access.host_key.swapcase()), str)
    assert isinstance(access.admit("10.0.0.5", access.join_code[:-1]), str)
    assert codes.grouped("AB2CD3EF") == "AB2C-D3EF"


def test_a_log_never_holds_a_typed_code_whole():
    assert codes.masked("AB2CD3EF") == "A… (8 characters)"
    assert "B2CD3EF" not in codes.masked("AB2CD3EF")


# --- the limit on wrong tries ---------------------------------------------------------------


def test_wrong_tries_are_limited_per_client_over_a_sliding_minute():
    clock = Clock()
    limiter = TryLimiter(tries=3, window_s=60, clock=clock)
    for _ in range(3):
        assert limiter.wait_s("10.0.0.5") == 0
        assert limiter.attempt("10.0.0.5") == 0
        clock.now += 1
    assert limiter.wait_s("10.0.0.5") == pytest.approx(57)
    assert limiter.wait_s("10.0.0.6") == 0  # another client is not held back
    clock.now += 57
    assert limiter.wait_s("10.0.0.5") == 0  # the oldest try has left the window
    assert limiter.attempt("10.0.0.5") == 0
    assert limiter.wait_s("10.0.0.5") == pytest.approx(1)


def test_a_client_that_stopped_trying_is_forgotten():
    clock = Clock()
    limiter = TryLimiter(tries=2, window_s=60, clock=clock)
    for client in range(100):
        limiter.attempt(f"10.0.{client}.1")
    clock.now += 61
    for client in range(100):
        assert limiter.wait_s(f"10.0.{client}.1") == 0
    assert not limiter._failures


# --- the door -------------------------------------------------------------------------------


def test_each_code_lets_a_device_in_with_its_role_and_a_wrong_one_is_counted(caplog):
    access = TableAccess(tables(), limiter=TryLimiter(tries=2, window_s=60, clock=Clock()))
    assert access.join_code != access.watch_code
    joined = access.admit("10.0.0.5", codes.grouped(access.join_code).lower())
    watching = access.admit("10.0.0.6", access.watch_code)
    host = access.admit("127.0.0.1", access.host_key)
    assert isinstance(joined, Ticket) and joined.role is Role.JOIN
    assert isinstance(watching, Ticket) and watching.role is Role.WATCH
    assert isinstance(host, Ticket) and host.role is Role.HOST
    assert len({joined.device, watching.device, host.device}) == 3

    with caplog.at_level(logging.WARNING, logger="companion.sharing"):
        wrong = "ZZZZ" + access.join_code[4:]
        refused = access.admit("10.0.0.9", wrong)
    assert refused == "That is not this table's code. Check it with the host."
    assert wrong not in caplog.text and wrong[1:] not in caplog.text
    assert "10.0.0.9" in caplog.text
    access.admit("10.0.0.9", "ZZZZZZZZ")
    # Past the limit even the right code waits: trying cannot find it.
    blocked = access.admit("10.0.0.9", access.join_code)
    assert isinstance(blocked, str) and blocked.startswith("Too many wrong codes")
    assert access.admit("10.0.0.9", "   ") == "Type the table code the host shows."


def test_a_device_keeps_its_id_when_it_comes_back_with_its_kept_code():
    access = TableAccess(tables())
    first = access.admit("10.0.0.5", access.join_code)
    assert isinstance(first, Ticket)
    again = access.admit("10.0.0.5", access.code_for(first), first.device)
    assert again == first
    # A device id is no key: with the watch code the same id is a new, watching device.
    watching = access.admit("10.0.0.5", access.watch_code, first.device)
    assert isinstance(watching, Ticket) and watching.device != first.device


def test_a_new_code_turns_every_ticket_but_the_hosts_away_and_frees_the_seats():
    access = TableAccess(tables(), limiter=TryLimiter(tries=1, window_s=60, clock=Clock()))
    player = access.admit("10.0.0.5", access.join_code)
    host = access.admit("127.0.0.1", access.host_key)
    assert isinstance(player, Ticket) and isinstance(host, Ticket)
    access.seats.take("g1", player.device, "red", PLAYERS)
    old_join = access.join_code
    access.renew()
    assert access.join_code != old_join
    assert not access.valid(player) and access.valid(host)
    assert access.seats.seat_of("g1", player.device) is None
    # The old code is known as old: it says so and is not counted as a guess.
    for _ in range(3):
        assert (
            access.admit("10.0.0.5", old_join) == "The host made a new table code: ask them for it."
        )
    assert isinstance(access.admit("10.0.0.5", access.join_code), Ticket)
    assert [device.role for device in access.devices()] == [Role.HOST, Role.JOIN]


def test_the_share_panel_lists_devices_with_their_connections():
    access = TableAccess(tables())
    ticket = access.admit("10.0.0.5", access.join_code)
    assert isinstance(ticket, Ticket)
    access.connected(ticket, "g1")
    access.connected(ticket, None)
    access.disconnected(ticket)
    (device,) = access.devices()
    assert (device.name, device.connections, device.game) == ("Device 1", 1, None)


# --- seats ----------------------------------------------------------------------------------


def test_a_players_seat_and_the_scorekeepers_are_one_devices_and_anyone_watches():
    seats = TableAccess(tables()).seats
    assert seats.take("g1", "phone-a", "red", PLAYERS) is None
    assert seats.take("g1", "phone-b", "red", PLAYERS) == (
        "Another device has taken that seat; pick another."
    )
    assert seats.take("g1", "phone-b", "blue", PLAYERS) is None
    assert seats.take("g1", "phone-c", SCOREKEEPER, PLAYERS) is None
    assert seats.take("g1", "phone-d", SCOREKEEPER, PLAYERS) is not None
    assert seats.take("g1", "phone-d", WATCHER, PLAYERS) is None
    assert seats.take("g1", "phone-e", WATCHER, PLAYERS) is None
    assert seats.take("g1", "phone-e", "green", PLAYERS) == "That seat is not in this game."
    assert seats.taken("g1") == {"red": "phone-a", "blue": "phone-b", SCOREKEEPER: "phone-c"}
    # Seats are per game, and a device may move to a free seat, freeing its own.
    assert seats.take("g2", "phone-b", "red", PLAYERS) is None
    seats.leave("g1", "phone-a")
    assert seats.take("g1", "phone-b", "red", PLAYERS) is None
    assert seats.taken("g1") == {"red": "phone-b", SCOREKEEPER: "phone-c"}
    assert seats.of_device("phone-b") == {"g1": "red", "g2": "red"}


# --- who may record -------------------------------------------------------------------------


def test_a_players_device_makes_every_players_command_as_that_player():
    assert signed("red", Summon(CreatureKind.TROLL, by="blue")) == Summon(
        CreatureKind.TROLL, by="red"
    )
    assert signed("red", Pass()) == Pass(by="red")
    # A computer's moves, and a player with no device of their own, stay theirs.
    assert signed("red", Pass(by="bot"), others={"bot"}) == Pass(by="bot")
    assert signed("red", Pass(by="blue"), others={"blue"}) == Pass(by="blue")
    assert signed(SCOREKEEPER, Pass(by="blue")) == Pass(by="blue")
    assert signed(None, Pass(by="blue")) == Pass(by="blue")
    skip = Skip(phase="summoning", kind=CreatureKind.WYRM, player="blue")
    assert signed("red", skip) == skip


def test_watchers_and_replaced_codes_record_nothing():
    fix = Correction(player="red", delta=2, reason="miscounted")
    assert refusal(WATCHER, [Pass()]) == WATCHERS_RECORD_NOTHING
    assert refusal(LOCKED, [fix]) == CODE_REPLACED
    assert refusal("red", [Pass()]) is None


def test_a_players_phone_corrects_its_own_players_energy_and_the_scorekeeper_anyones():
    """Who may correct energy by hand: the scorekeeper's device anyone's, a player's phone
    its own player's, and, as every record, a player's with no device of their own."""
    labels = {"red": "Ragna", "blue": "Bjorn"}
    fix = Correction(player="red", delta=2, reason="miscounted")
    assert others_refusal("red", [fix], (), labels, {"red", "blue"}) is None
    assert others_refusal(SCOREKEEPER, [fix], (), labels, {"red", "blue"}) is None
    refused = others_refusal("blue", [fix], (), labels, {"red", "blue"})
    assert str(refused) == "Ragna's energy is corrected on Ragna's own device or the scorekeeper's."
    assert others_refusal("blue", [fix], (), labels, {"blue"}) is None
    # The log says whose phone made it; the scorekeeper's stays the table's.
    assert signed("blue", fix) == fix._replace(made_by="blue")
    assert signed(SCOREKEEPER, fix) == fix
    assert signed(None, fix) == fix


@pytest.fixture
def saved_game(tmp_path):
    """A store with a new 2-player table game: Ragna (red) decides first."""
    with open_store(str(tmp_path / "games.sqlite3")) as store:
        setup = GameSetup(
            players=[{"id": "red", "name": "Ragna"}, {"id": "blue", "name": "Bjorn"}],
            board="duel-isle",
            turn_order=["red", "blue"],
        )
        yield store, store.new_game(setup).id


def test_a_seated_session_records_its_players_turns_and_is_refused_anothers(saved_game):
    store, game_id = saved_game
    seat = {"now": "blue"}
    seated = {"red", "blue"}
    session = GameSession(store, game_id, lambda: seat["now"], lambda: seated)
    # Bjorn's phone taps a button drawn for Ragna: it is told whose turns it records.
    refused = session.do(Pass(), by="red")
    assert not refused.ok and str(refused.said) == (
        "This device records Bjorn's turns only: Ragna's are recorded on Ragna's device or "
        "the scorekeeper's."
    )
    assert store.load(game_id).revision == 0
    seat["now"] = "red"
    assert session.do(Pass(), by="red").ok
    saved = store.load(game_id)
    assert [entry.command.by for entry in saved.log] == ["red"]
    # Bjorn's phone cannot take back Ragna's record; hers can.
    seat["now"] = "blue"
    assert str(session.undo().said) == (
        "That is Ragna's record: their device or the scorekeeper's undoes it."
    )
    seat["now"] = WATCHER
    assert session.do(Pass(), by="blue").said == WATCHERS_RECORD_NOTHING
    assert session.redo().said == WATCHERS_RECORD_NOTHING
    seat["now"] = "red"
    assert session.undo().ok
    assert store.load(game_id).revision == 2 and not store.load(game_id).log
    # With no device of her own, Ragna's turn is recorded from Bjorn's phone, as hers.
    seated.discard("red")
    seat["now"] = "blue"
    assert session.do(Pass(), by="red").ok
    assert [entry.command.by for entry in store.load(game_id).log] == ["red"]


# --- links and the reconnect notice ---------------------------------------------------------


def test_the_links_carry_their_codes_and_the_qr_codes_are_drawn():
    access = TableAccess(tables())
    links = TableLinks.serving(access, "10.0.0.7", 8550, "127.0.0.1")
    assert links.join == f"http://10.0.0.7:8550/?code={access.join_code}"
    assert links.watch == f"http://10.0.0.7:8550/?code={access.watch_code}"
    assert links.host.startswith("http://127.0.0.1:8550/?code=")
    assert link("http://[fe80::1]:80", "a/b") == "http://[fe80::1]:80/?code=a%2Fb"
    drawn = terminal_qr(links.join)
    assert {"█", "▀", "▄"} & set(drawn) and len(drawn.splitlines()) > 10
    assert png_qr(links.join).startswith(b"\x89PNG")


def _served(body: bytes, content_type: bytes, method: str = "GET") -> tuple[dict, bytes]:
    async def page(scope, receive, send):
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-type", content_type),
                    (b"content-length", b"%d" % len(body)),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body[:10], "more_body": True})
        await send({"type": "http.response.body", "body": body[10:]})

    sent: list[dict] = []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request"}

    scope = {"type": "http", "method": method, "path": "/"}
    asyncio.run(ReconnectNotice(page)(scope, receive, send))
    return sent[0], b"".join(m.get("body", b"") for m in sent[1:])


def test_every_html_page_gets_the_reconnecting_notice_and_nothing_else_changes():
    html = b"<html><head><title>x</title></head><body></body></html>"
    start, body = _served(html, b"text/html; charset=utf-8")
    assert NOTICE.encode() in body and body.index(NOTICE.encode()) < body.index(b"</head>")
    assert dict(start["headers"])[b"content-length"] == str(len(body)).encode()
    script = b"console.log('</head>')"
    assert _served(script, b"text/javascript")[1] == script
    assert _served(html, b"text/html", method="HEAD")[1] == html


# --- the real server, spoken to as Flet's client speaks ------------------------------------


@pytest.fixture
def shared_server(tmp_path):
    """`app --web --share` on loopback with one game of Ragnhild and Bjorn; port and Join code."""
    db = tmp_path / "games.sqlite3"
    with open_store(str(db)) as store:
        setup = GameSetup(
            players=[{"id": "red", "name": "Ragnhild"}, {"id": "blue", "name": "Bjorn"}],
            board="duel-isle",
        )
        game_id = store.new_game(setup).id
    port = _free_port()
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "companion", "app", "--web", "--share"),
            *("--host", "127.0.0.1", "--port", str(port), "--db", str(db)),
        ],
        env=dict(os.environ, SUMMONERS_ISLE_DATA=str(tmp_path)),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        join = next(line for line in process.stdout if line.startswith("Join: "))
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        yield port, game_id, join.strip().rsplit("=", 1)[1]
    finally:
        process.terminate()
        process.wait(timeout=10)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _as_a_client(port: int, route: str, then_routes: list[str], listen_s: float = 5) -> bytes:
    """Register as Flet's web client does on `route` (a browser that keeps nothing), ask for
    other routes, and return every byte the server sent."""
    with connect(f"ws://127.0.0.1:{port}/ws", origin=f"http://127.0.0.1:{port}") as websocket:
        page = {"route": route, "width": 400, "height": 800, "web": True, "platform": "linux"}
        register = [1, {"session_id": "", "page_name": "", "page": page}]
        websocket.send(b"\x00" + msgpack.packb(register))
        seen = b""
        deadline = time.monotonic() + listen_s
        while time.monotonic() < deadline:
            try:
                message = websocket.recv(timeout=max(0.01, deadline - time.monotonic()))
            except TimeoutError:
                break
            assert isinstance(message, bytes)
            seen += message
            action, body = msgpack.unpackb(message[1:], strict_map_key=False)
            if action == 1:  # registered: now ask for every other route
                for other in then_routes:
                    event = {"target": body["page_patch"]["_i"], "name": "route_change"}
                    event["data"] = {"route": other}
                    websocket.send(b"\x00" + msgpack.packb([3, event]))
            elif action == 5:  # the server asks what the browser keeps: nothing
                answer = {"control_id": body["control_id"], "call_id": body["call_id"]}
                answer |= {"result": None, "error": None}
                websocket.send(b"\x00" + msgpack.packb([5, answer]))
        return seen


def test_a_client_without_the_code_is_sent_no_game_whatever_it_asks_for(shared_server):
    port, game_id, code = shared_server
    routes = ["/", f"/game/{game_id}", f"/game/{game_id}/log", "/history", "/share"]
    for route in (f"/game/{game_id}", "/?code=WRONGCODE", "/history"):
        seen = _as_a_client(port, route, routes)
        assert b"Ragnhild" not in seen and b"Bjorn" not in seen
    # The same client with the code in its address is let in and shown the game.
    assert b"Ragnhild" in _as_a_client(port, f"/?code={code}", [])


# --- deleting a shared game -----------------------------------------------------------------


def _shared_visit(store, role_code: str | None = None):
    """A page's visit to a shared table (the play layer, no Flet), and what others hear."""
    access = TableAccess(store.tables)
    table = TableLinks.serving(access, "10.0.0.2", 8550, "127.0.0.1")
    service = Service(store, table)
    visit = Visit(service)
    heard: list[tuple[str, object]] = []
    for topic in (DELETED, SEATS):
        service.bus.subscribe(
            topic, "another page", lambda topic, value: heard.append((topic, value))
        )
    refused = visit.admit("10.0.0.5", role_code or access.join_code, "", ENGLISH)
    assert refused is None
    return visit, access, heard


def _shared_app(store):
    """A page of a shared table's app over a visit (its page a stand-in: nothing drawn)."""
    from types import SimpleNamespace

    from companion.app.main import App

    visit, access, heard = _shared_visit(store)
    app = App(SimpleNamespace(), visit.service)  # type: ignore[arg-type]
    app.visit = visit
    return app, access, heard


def test_only_the_host_and_the_scorekeeper_delete_a_shared_game(saved_game):
    from companion.play.sharing.policy import DELETE_REFUSED, delete_refusal

    assert delete_refusal(True, WATCHER) is None
    assert delete_refusal(False, SCOREKEEPER) is None
    assert delete_refusal(False, "red") == DELETE_REFUSED
    assert delete_refusal(False, WATCHER) == DELETE_REFUSED
    store, game_id = saved_game
    visit, access, heard = _shared_visit(store)
    device = visit.ticket.device
    access.seats.take(game_id, device, "red", PLAYERS)
    # Ragna's phone is refused, with a sentence, and the game stays.
    assert visit.delete_game(game_id) == DELETE_REFUSED
    assert store.load(game_id).id == game_id
    access.seats.take(game_id, device, SCOREKEEPER, PLAYERS)
    assert visit.delete_refusal(game_id) is None
    assert visit.delete_game(game_id) is None
    assert game_id not in {summary.id for summary in store.unfinished()}
    # The other devices are told, its seats are freed, and it is known as deleted.
    assert (DELETED, game_id) in heard
    assert access.was_deleted(game_id) and access.seats.seat_of(game_id, device) is None


def test_the_hosts_link_deletes_a_shared_game_without_a_seat(saved_game):
    store, game_id = saved_game
    app, access, _ = _shared_app(store)
    assert app.role is Role.JOIN and app.delete_refusal(game_id) is not None
    host = access.admit("127.0.0.1", access.host_key)
    assert isinstance(host, Ticket)
    app.visit.ticket = host
    assert app.delete_game(game_id) is None


def test_a_tap_on_a_deleted_game_says_it_was_deleted(saved_game):
    store, game_id = saved_game
    session = GameSession(store, game_id, lambda: "red")
    store.delete_game(game_id)
    assert str(session.do(Pass(), by="red").said) == "This game was deleted."


def test_a_new_code_keeps_the_hosts_own_seat():
    access = TableAccess(tables())
    host = access.admit("127.0.0.1", access.host_key)
    player = access.admit("10.0.0.5", access.join_code)
    assert isinstance(host, Ticket) and isinstance(player, Ticket)
    access.seats.take("g1", host.device, SCOREKEEPER, PLAYERS)
    access.seats.take("g1", player.device, "red", PLAYERS)
    access.renew()
    assert access.seats.taken("g1") == {SCOREKEEPER: host.device}


def test_a_new_code_prints_the_new_links_for_a_headless_host(saved_game, capsys):
    store, _ = saved_game
    app, access, _ = _shared_app(store)
    host = access.admit("127.0.0.1", access.host_key)
    assert isinstance(host, Ticket)
    app.visit.ticket = host
    app.renew_code()
    printed = capsys.readouterr().out
    assert f"Join: {app.table.join}\n" in printed and access.join_code in app.table.join
    assert f"Watch: {app.table.watch}\n" in printed


def test_the_share_panel_reads_its_codes_out_and_frees_a_seat(saved_game):
    import flet as ft

    from companion.app.screens import share

    store, game_id = saved_game
    app, access, heard = _shared_app(store)
    player = app.ticket
    access.seats.take(game_id, player.device, "red", PLAYERS)
    host = access.admit("127.0.0.1", access.host_key)
    assert isinstance(host, Ticket)
    app.visit.ticket = host
    view = share.build(app)
    labels = {c.label for c in every_control(view) if isinstance(c, ft.Semantics)}
    assert f"Join code: {codes.grouped(access.join_code)}" in labels
    assert f"Watch link: {app.table.watch}" in labels
    (free,) = [
        c
        for c in every_control(view)
        if isinstance(c, ft.TextButton) and str(c.content).startswith("Free this seat")
    ]
    assert free.content == "Free this seat: Ragna in Ragna and Bjorn's game"
    app.show = lambda: None
    free.on_click(None)
    assert access.seats.seat_of(game_id, player.device) is None
    assert (SEATS, game_id) in heard


def test_a_page_opening_elsewhere_leaves_a_game_screen_alone_and_a_freed_seat_does_not(
    saved_game,
):
    # A hundred pages coming back after a process died each tell every page of their
    # table; a game's screen looks up its seat only when a seat changed.
    store, game_id = saved_game
    app, access, heard = _shared_app(store)
    device = app.ticket.device
    access.seats.take(game_id, device, "red", PLAYERS)
    app.page.route, app.page.views = f"/game/{game_id}", []
    shown: list[str] = []
    app.show = lambda: shown.append(app.page.route)
    looked: list[str] = []
    seated = app.visit.seated
    app.visit.seated = lambda game: looked.append(game) or seated(game)
    app.visit.connected(game_id)  # this device's page opened: the others hear no seat changed
    assert heard[-1] == (SEATS, PRESENCE)
    app._seats_changed(PRESENCE)
    assert looked == [] and shown == []
    # The host frees this device's seat: its game's screen, drawn with the seats as they
    # were, is drawn again (it picks again).
    app._seats_drawn = app.visit.seats_of(game_id)
    access.seats.leave(game_id, device)
    app._seats_changed(game_id)
    assert shown == [f"/game/{game_id}"]
    # Another device takes a seat in another game: this game's screen stays as it is.
    app._seats_changed("another-game")
    assert shown == [f"/game/{game_id}"]


def test_a_game_screen_follows_the_seats_its_locks_say(saved_game):
    """Another phone takes a seat: the table screen of that game on this phone is drawn again,
    its locks read afresh (the session's seats are those of the new drawing)."""
    from companion.play.table_turn import turn_view

    store, game_id = saved_game
    app, access, _ = _shared_app(store)
    access.seats.take(game_id, app.ticket.device, "red", PLAYERS)
    session = app.visit.session(game_id)
    before = turn_view(session)
    other = access.admit("10.0.0.9", access.join_code)
    assert isinstance(other, Ticket)
    access.seats.take(game_id, other.device, "blue", PLAYERS)
    app.page.route, app.page.views = f"/game/{game_id}", []
    shown: list[str] = []
    app.show = lambda: shown.append(app.page.route)
    # This phone's screen was drawn before Bjorn sat down; his phone drew its own after.
    app._seats_drawn = frozenset({("red", app.ticket.device)})
    app._seats_changed(game_id)
    assert shown == [f"/game/{game_id}"]
    app._seats_drawn = app.visit.seats_of(game_id)
    app._seats_changed(game_id)
    assert shown == [f"/game/{game_id}"]
    after = turn_view(app.visit.session(game_id))
    blue = [row for row in after.grid if row.player == "blue"]
    assert blue and not any(square.open for square in blue[0].squares)
    assert before.grid != after.grid


def test_a_screen_drawn_again_on_its_game_does_not_tell_the_table_again(saved_game):
    store, game_id = saved_game
    visit, access, _ = _shared_visit(store)
    access.seats.take(game_id, visit.ticket.device, "red", PLAYERS)
    told: list[str | None] = []
    showing = access.showing
    access.showing = lambda ticket, game: told.append(game) or showing(ticket, game)
    for path in (["game", game_id], ["game", game_id], ["game", game_id, "log"], []):
        visit.route(path)
    # The Share panel's line for the device says which game it shows: written on a change.
    assert told == [game_id, None]
    (device,) = access.devices()
    assert device.game is None
    visit.connected(game_id)  # a page opening again says what it shows at once
    visit.route(["game", game_id])
    assert told == [game_id, None]
    assert access.devices()[0].game == game_id


def test_a_locked_out_address_is_told_so_not_its_device():
    clock = Clock()
    access = TableAccess(tables(), limiter=TryLimiter(tries=1, window_s=60, clock=clock))
    access.admit("10.0.0.5", "WRONGCOD")
    said = access.admit("10.0.0.5", access.join_code)
    assert said == "Too many wrong codes from this network address: try again in 61 s."


def test_a_late_record_is_its_players_to_make():
    """The late-record dialogs never record for another seated player."""
    labels = {"red": "Ragna", "blue": "Bjorn", "green": "Sigrid"}
    late = LateRemoval("blue", "green", CreatureKind.TROLL)
    refused = others_refusal("red", [late], (), labels, {"red", "blue"})
    assert str(refused) == (
        "This device records Ragna's turns only: Bjorn's are recorded on Bjorn's device or "
        "the scorekeeper's."
    )
    # Sigrid has no device: anyone at the table records for her.
    assert (
        others_refusal(
            "red", [LateSummon("green", CreatureKind.TROLL)], (), labels, {"red", "blue"}
        )
        is None
    )


def test_a_stranger_behind_the_same_router_cannot_keep_the_tables_own_devices_out():
    """Wrong tries hold back an address; what only the table's devices hold (the
    host's key, or the code a device came in with and the id it kept) still opens."""
    access = TableAccess(tables(), limiter=TryLimiter(tries=5, window_s=60, clock=Clock()))
    router = "203.0.113.5"  # a café's one public address, in the hosted mode
    phone = access.admit(router, access.join_code)
    assert isinstance(phone, Ticket)
    for n in range(5):
        access.admit(router, f"WRONG{n}ZZ")
    # The phone comes back (a reload, a new session) with its kept code and id.
    back = access.admit(router, access.join_code, phone.device)
    assert isinstance(back, Ticket) and back.device == phone.device
    assert isinstance(access.admit(router, access.host_key), Ticket)
    # A guess does not pass by naming a known device, and a device new to the table waits.
    locked = "Too many wrong codes from this network address: try again in 61 s."
    assert access.admit(router, "WRONGXXX", phone.device) == locked
    assert access.admit(router, access.join_code) == locked
    # Another address is not held back at all.
    assert isinstance(access.admit("203.0.113.6", access.join_code), Ticket)
