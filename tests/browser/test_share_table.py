"""Phones join a shared table: a code lets them in, seats say who records what.

Every device is a browser context of its own (its own kept code, as separate phones have):
the host, two players, a watcher and an intruder, all on loopback, where `--share` asks
for the code all the same.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import msgpack
import pytest
from browser_ui import PHONE, TABLET, Screen, scroll_to, seats
from conftest import free_port

from companion.store.store import open_store
from models.setup import GameSetup

READY = "flt-semantics-placeholder"
CODE_SCREEN = "Join the table"
# Flutter's editing element has the focus; and it holds a text (the field may show it in
# capitals).
EDITING = "() => ['INPUT', 'TEXTAREA'].includes(document.activeElement?.tagName)"
HOLDS = "t => (document.activeElement?.value ?? '').toUpperCase() === t.toUpperCase()"


@dataclass
class SharedServer:
    """`python -m companion app --web --share --host 127.0.0.1` and the links it printed."""

    data: Path
    port: int = field(default_factory=free_port)
    links: dict[str, str] = field(default_factory=dict)
    process: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        """The app's address without a code."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def db(self) -> str:
        """The server's SQLite file."""
        return str(self.data / "games.sqlite3")

    def start(self) -> None:
        """Start the server and read its Join, Watch and Host lines from its standard output."""
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "companion",
                "app",
                "--web",
                "--share",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--db",
                self.db,
            ],
            env=dict(os.environ, SUMMONERS_ISLE_DATA=str(self.data)),
            stdout=subprocess.PIPE,
            # Kept beside the database: what the server said, should a test fail.
            stderr=(self.data / "server.log").open("w"),
            text=True,
        )
        assert self.process.stdout is not None
        for line in self.process.stdout:
            found = re.match(r"(Join|Watch|Host): (\S+)", line)
            if found:
                self.links[found[1]] = found[2]
            if "Host" in self.links:
                break
        else:
            raise AssertionError("the server printed no Join, Watch and Host lines")
        # The links are printed as the server starts; it answers a moment later.
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(self.base, timeout=2):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        """Stop the server."""
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
            self.process = None


@pytest.fixture
def shared(tmp_path: Path) -> Iterator[tuple[SharedServer, str]]:
    """A shared table with one game of Ragna (first) and Bjorn on Duel Isle; its id."""
    server = SharedServer(tmp_path)
    with open_store(server.db) as store:
        setup = GameSetup(
            players=seats("red", "blue"), board="duel-isle", turn_order=["red", "blue"]
        )
        game_id = store.new_game(setup).id
    server.start()
    yield server, game_id
    server.stop()


class Device:
    """One phone: a browser context of its own, its page, and every frame the server sent it."""

    def __init__(self, browser, artifacts: Path, viewport: dict = PHONE) -> None:
        self.context = browser.new_context(viewport=viewport)
        self.page = self.context.new_page()
        self.ui = Screen(self.page, artifacts)
        self.received: list[bytes] = []
        self.page.on("websocket", self._watch_socket)

    def _watch_socket(self, socket) -> None:
        socket.on("framereceived", self._frame)

    def _frame(self, payload) -> None:
        self.received.append(payload if isinstance(payload, bytes) else payload.encode())

    def open(self, url: str, ready: str) -> None:
        """Load a URL and wait until `ready` shows."""
        self.ui.open(url, ready)

    def goto(self, url: str, ready: str) -> None:
        """Load another address in this page (a typed URL or a reload) and wait for `ready`."""
        self.page.goto(url, wait_until="domcontentloaded")
        self.page.wait_for_selector(READY, state="attached", timeout=60000)
        self.page.evaluate(f"document.querySelector('{READY}').click()")
        self.ui.wait_for(ready, timeout=30)

    def text(self) -> str:
        """All the page says: its visible text and every semantics label."""
        return self.page.evaluate(
            """() => document.body.innerText + ' ' + document.body.textContent + ' ' +
              [...document.querySelectorAll('[aria-label]')]
                .map(e => e.getAttribute('aria-label')).join(' ')"""
        )

    def seen(self, text: str) -> bool:
        """Whether any frame the server sent this page held `text`."""
        return any(text.encode() in frame for frame in self.received)

    def type_code(self, code: str, then: str) -> None:
        """Type a code into the code screen's field as a person would, press Enter, and wait
        for `then`. Keys typed before Flutter has taken over its editing element are lost (on
        a loaded machine): the field is read back, and the person types again until it holds
        the code, before Enter."""
        field = self.page.get_by_role("textbox", name=re.compile("Table code"))
        for attempt in range(3):
            field.click()
            try:
                self.page.wait_for_function(EDITING, timeout=10000)
                # A failed try leaves what was typed in the field: it is replaced, not added to.
                self.page.keyboard.press("Control+a")
                self.page.keyboard.type(code, delay=50)
                self.page.wait_for_function(HOLDS, arg=code, timeout=5000)
                break
            except Exception:
                if attempt == 2:
                    raise
        self.page.keyboard.press("Enter")
        self.ui.wait_for(then, timeout=30)

    def take_seat(self, game_url: str, seat: str, said: str) -> None:
        """Open a game, pick a seat on the seat screen, and wait for the table to say `said`."""
        self.goto(game_url, "Who is this device?")
        self.ui.tap(seat, said)


def joined(browser, artifacts: Path, server: SharedServer, viewport: dict = PHONE) -> Device:
    """A device that opened the Join link and shows Home."""
    device = Device(browser, artifacts, viewport)
    device.open(server.links["Join"], "Resume")
    return device


def test_the_printed_join_link_lets_a_device_in_and_an_intruder_gets_only_the_code_screen(
    shared, browser, artifacts
):
    server, game_id = shared
    assert server.links["Join"].startswith(f"{server.base}/?code=")
    player = joined(browser, artifacts, server)
    player.ui.wait_for("Ragna and Bjorn")
    # The code left the address bar: a reload comes back with the kept one.
    assert "code=" not in player.page.url

    intruder = Device(browser, artifacts)
    intruder.open(f"{server.base}/game/{game_id}", CODE_SCREEN)
    intruder.ui.shot("share-code-screen", tall=740)
    intruder.ui.wait_for("Table code")
    intruder.type_code("QQQQ-QQQQ", "That is not this table's code")
    for route in ("/", "/history", f"/game/{game_id}/log", "/share"):
        intruder.goto(f"{server.base}{route}", CODE_SCREEN)
    # A link with a wrong code is refused the same way.
    intruder.goto(f"{server.base}/?code=not-the-code", "That is not this table's code")
    time.sleep(1)
    assert "Ragna" not in intruder.text() and "Bjorn" not in intruder.text()
    assert intruder.received, "the intruder's page got no frame at all"
    assert not intruder.seen("Ragna") and not intruder.seen("Bjorn")
    assert not intruder.seen("energy")

    # Typed right (lower case, with its dash), the code lets the same device in.
    code = server.links["Join"].rsplit("=", 1)[1]
    intruder.type_code(f"{code[:4].lower()}-{code[4:].lower()}", "Ragna and Bjorn")


def test_players_record_their_own_turns_and_are_refused_anothers(shared, browser, artifacts):
    server, game_id = shared
    game = f"{server.base}/game/{game_id}"
    ragna = joined(browser, artifacts, server)
    ragna.goto(game, "Who is this device?")
    ragna.ui.shot("share-seat-picker", tall=740)
    ragna.ui.tap("Ragna", "This device records Ragna's turns")
    bjorn = joined(browser, artifacts, server)
    bjorn.goto(game, "Ragna: taken by Device 1")
    assert bjorn.ui.button("Ragna: taken by Device 1").is_disabled()
    bjorn.ui.tap("Bjorn", "This device records Bjorn's turns")

    ragna.ui.tap("Ragna: done with Wyrms", "Now: Bjorn, Wyrms.")
    # Bjorn decides now; Ragna's phone shows his squares as not its own, and says why, and
    # offers none of his buttons.
    ragna.ui.wait_for("This device records Ragna's turns only")
    assert ragna.ui.button("Bjorn: done with Wyrms").count() == 0
    theirs = ragna.ui.button("Bjorn: a Wyrm (1 left), locked here", exact=False).first
    assert theirs.get_attribute("aria-disabled") == "true"
    # Even a tap forced on it (or a forged event) records nothing.
    theirs.click(force=True)
    time.sleep(1)
    with open_store(server.db) as store:
        assert len(store.load(game_id).log) == 1
    ragna.ui.shot("share-refused-anothers-turn", tall=740)
    bjorn.ui.tap("Bjorn: done with Wyrms", "Now: Ragna, Trolls.")
    with open_store(server.db) as store:
        saved = store.load(game_id)
    assert [entry.command.by for entry in saved.log] == ["red", "blue"]

    host = Device(browser, artifacts)
    host.open(server.links["Host"], "Share this table")
    host.ui.tap("Share this table", "Devices")
    host.ui.wait_for("Ragna in Ragna and Bjorn's game")
    host.ui.wait_for("Bjorn in Ragna and Bjorn's game")
    assert "● connected" in host.text()
    host.ui.shot("share-panel-phone", tall=1400)
    big = Device(browser, artifacts, TABLET)
    big.open(server.links["Host"], "Share this table")
    big.ui.tap("Share this table", "Devices")
    big.ui.shot("share-panel-desktop", tall=800)


def test_the_watcher_follows_live_and_cannot_record(shared, browser, artifacts):
    server, game_id = shared
    watcher = Device(browser, artifacts)
    watcher.open(server.links["Watch"], "Watch Ragna and Bjorn's game")
    watcher.ui.click(watcher.page.get_by_role("button", name="Watch Ragna and Bjorn's game"))
    watcher.ui.wait_for("Nothing recorded yet.")
    watcher.ui.shot("share-watch-phone", tall=740)

    scorekeeper = joined(browser, artifacts, server)
    scorekeeper.take_seat(
        f"{server.base}/game/{game_id}", "Scorekeeper", "This device records for everyone"
    )
    scorekeeper.ui.tap("Ragna: done with Wyrms", "Bjorn: done with Wyrms")
    watcher.ui.wait_for("Last recorded: Ragna")
    watcher.ui.wait_for("Bjorn's turn")
    # No control that records: no tap square, no undo, no seat.
    for name in ("Ragna: done with Wyrms", "Bjorn: done with Wyrms", "Nobody summons more"):
        assert watcher.ui.button(name).count() == 0
    assert watcher.page.get_by_label(re.compile("Undo")).count() == 0

    # Forged: the screens that write, opened by typing their address, are refused in a sentence.
    for route, shown in (
        ("/new", "Games at this table"),
        (f"/game/{game_id}/reset", "Last recorded: Ragna"),
        ("/board-editor", "Games at this table"),
        ("/share", "Games at this table"),
    ):
        watcher.goto(f"{server.base}{route}", shown)
        watcher.ui.wait_for("This device watches: that screen is for the table.")
        for name in ("Start", "Apply", "Save", "Make a new code"):
            assert watcher.ui.button(name).count() == 0
    with open_store(server.db) as store:
        assert len(store.load(game_id).log) == 1
    big = Device(browser, artifacts, TABLET)
    big.open(server.links["Watch"], "Watch Ragna and Bjorn's game")
    big.goto(f"{server.base}/game/{game_id}", "Last recorded: Ragna")
    big.ui.shot("share-watch-desktop", tall=800)


class Droppable:
    """A page whose connection to the server can be cut, and kept cut for a while."""

    def __init__(self, page) -> None:
        self.cut = False
        self.sockets: list = []
        page.route_web_socket(re.compile(r"/ws$"), self.route)

    def route(self, socket) -> None:
        """Pass a new websocket through to the server, unless the line is cut."""
        if self.cut:
            socket.close()
            return
        socket.connect_to_server()
        self.sockets.append(socket)

    def drop(self) -> None:
        """Cut the line: every open websocket closes, and new ones are refused."""
        self.cut = True
        for socket in self.sockets:
            socket.close()
        self.sockets.clear()


def test_a_reload_a_dropped_connection_and_a_new_page_keep_the_seat(shared, browser, artifacts):
    server, game_id = shared
    game = f"{server.base}/game/{game_id}"
    device = Device(browser, artifacts)
    line = Droppable(device.page)
    device.open(server.links["Join"], "Resume")
    device.take_seat(game, "Bjorn", "This device records Bjorn's turns")

    device.page.reload(wait_until="domcontentloaded")
    device.page.wait_for_selector(READY, state="attached", timeout=60000)
    device.page.evaluate(f"document.querySelector('{READY}').click()")
    device.ui.wait_for("This device records Bjorn's turns", timeout=30)
    assert CODE_SCREEN not in device.text()

    line.drop()
    # A loaded machine's page may take a while to see its connection close.
    device.ui.wait_for("Reconnecting to the table", timeout=60)
    device.ui.shot("share-reconnecting", tall=740)
    time.sleep(2)
    line.cut = False
    device.page.wait_for_function(
        "() => !document.body.innerText.includes('Reconnecting')", timeout=60000
    )
    device.ui.wait_for("This device records Bjorn's turns")
    # Back on line, the phone follows the game live and records in its seat.
    other = joined(browser, artifacts, server)
    other.take_seat(game, "Ragna", "This device records Ragna's turns")
    other.ui.tap("Ragna: done with Wyrms", "Ragna is done summoning Wyrms")
    # Bjorn's phone shows Ragna's record before Bjorn taps.
    device.ui.wait_for("Ragna is done summoning Wyrms")
    device.ui.tap("Bjorn: done with Wyrms", "Bjorn is done summoning Wyrms")

    # A phone that slept past its session opens a fresh page: same game, same seat, no code.
    later = device.context.new_page()
    Screen(later, artifacts).open(game, "This device records Bjorn's turns")


class Dying(Droppable):
    """A line whose server dies, once armed, on the next tap it is sent, before answering it:
    the tap never reaches the server, and the page's connection closes."""

    def __init__(self, page) -> None:
        super().__init__(page)
        self.armed = False
        self.swallowed: list[bytes] = []

    def route(self, socket) -> None:
        """Pass a new websocket through, each frame the page sends looked at first."""
        server = socket.connect_to_server()
        self.sockets.append(socket)

        def sent(message) -> None:
            if self.armed and isinstance(message, bytes) and _is_tap(message):
                self.armed = False
                self.swallowed.append(message)
                socket.close()
                return
            server.send(message)

        socket.on_message(sent)


def _is_tap(frame: bytes) -> bool:
    """Whether a frame is a control's click (Flet's event frame: 0, MessagePack [3, {...}])."""
    if not frame or frame[0] != 0:
        return False
    action, body = msgpack.unpackb(frame[1:])
    return action == 3 and body.get("name") == "click"


def test_a_tap_the_server_never_answered_is_said_on_the_phone_once_it_is_back(
    shared, browser, artifacts
):
    server, game_id = shared
    game = f"{server.base}/game/{game_id}"
    device = Device(browser, artifacts)
    line = Dying(device.page)
    device.open(server.links["Join"], "Resume")
    device.take_seat(game, "Ragna", "This device records Ragna's turns")
    line.armed = True
    device.ui.button("Ragna: done with Wyrms").first.click()
    device.ui.wait_for("Your last tap got no answer before the connection was lost", timeout=60)
    assert line.swallowed
    device.ui.shot("share-tap-unanswered", tall=740)
    # It was not recorded: the screen says Ragna is still on Wyrms, and the tap made again is.
    with open_store(server.db) as store:
        assert store.load(game_id).log == ()
    time.sleep(1)
    device.ui.tap("Ragna: done with Wyrms", "Ragna is done summoning Wyrms")
    device.page.wait_for_function(
        "() => !document.body.innerText.includes('Your last tap got no answer')", timeout=20000
    )


def test_a_new_code_sends_every_device_back_to_the_code_screen(shared, browser, artifacts):
    server, game_id = shared
    game = f"{server.base}/game/{game_id}"
    player = joined(browser, artifacts, server)
    player.take_seat(game, "Ragna", "This device records Ragna's turns")
    watcher = Device(browser, artifacts)
    watcher.open(server.links["Watch"], "Watch Ragna and Bjorn's game")
    host = Device(browser, artifacts)
    host.open(server.links["Host"], "Share this table")
    host.ui.tap("Share this table", "Make a new code")
    old = server.links["Join"].rsplit("=", 1)[1]
    scroll_to(host.page, host.ui.button("Make a new code"))
    host.ui.tap("Make a new code", "Keep this code")
    # The dialog's button can take the first click before it listens (it is still sliding in).
    for _ in range(3):
        confirm = host.ui.button("New code")
        confirm.wait_for(timeout=20000)
        confirm.click(trial=True)
        host.page.wait_for_timeout(700)
        confirm.click(force=True)
        try:
            host.page.wait_for_function(
                "() => !document.body.innerText.includes('Keep this code') && "
                "![...document.querySelectorAll('[aria-label]')]"
                ".some(e => e.getAttribute('aria-label').includes('Keep this code'))",
                timeout=5000,
            )
            break
        except Exception:
            continue
    host.page.mouse.move(20, 300)
    host.page.mouse.wheel(0, -3000)

    for device in (player, watcher):
        device.ui.wait_for(CODE_SCREEN, timeout=30)
        assert "Ragna" not in device.text()
    player.goto(game, "The host made a new table code: ask them for it.")
    assert "Ragna" not in player.text()
    # The host's panel shows the new join code in groups of four, as it is read aloud.
    new = host.page.wait_for_function(
        """old => {
          const all = document.body.innerText + ' ' + [...document.querySelectorAll('[aria-label]')]
            .map(e => e.getAttribute('aria-label')).join(' ');
          const codes = all.match(/[2-9A-Z]{4}-[2-9A-Z]{4}/g) || [];
          return codes.find(code => code.replace('-', '') !== old) || null;
        }""",
        arg=old,
        timeout=20000,
    ).json_value()
    # In again, the seats were given up: the game asks who this device is.
    player.type_code(new, "Who is this device?")


def test_a_seated_phone_passes_over_no_other_seated_player_and_a_player_undoes_a_skip_of_them(
    shared, browser, artifacts
):
    """A player's device never passes over another player who has a device of their own, and
    a player may take back a tap that passed them over."""
    server, game_id = shared
    game = f"{server.base}/game/{game_id}"
    ragna = joined(browser, artifacts, server)
    ragna.take_seat(game, "Ragna", "This device records Ragna's turns")
    # Bjorn has no device yet: Ragna's Troll passes over his Wyrms step, as at a real table.
    ragna.ui.tap("Ragna: summon a Troll (3 left)", "Ragna summons a Troll")

    bjorn = joined(browser, artifacts, server)
    bjorn.take_seat(game, "Bjorn", "This device records Bjorn's turns")
    bjorn.ui.wait_for("Ragna summons a Troll")
    # That tap said he was done with Wyrms: his phone takes it back, Ragna's Troll with it.
    bjorn.ui.tap("Undo", "Nothing recorded yet")
    with open_store(server.db) as store:
        assert store.load(game_id).log == ()

    # Both seated now: neither phone decides the other's turn. Ragna's Troll, tapped while
    # Bjorn has his Wyrms to decide, is said ahead: hers alone, his Wyrms still his to say.
    ragna.ui.wait_for("Nothing recorded yet")
    ragna.ui.tap("Ragna: summon a Troll (3 left)", "Ragna summons a Troll")
    bjorn.ui.wait_for("Ragna summons a Troll")
    with open_store(server.db) as store:
        assert [entry.command.by for entry in store.load(game_id).log] == ["red"]
    # Each phone shows the other player's squares locked, says why, and a forced tap on one
    # records nothing.
    for phone, square in (
        (ragna, "Bjorn: a Wyrm (1 left), locked here"),
        (bjorn, "Ragna: a Sprite (9 left), locked here"),
    ):
        phone.ui.wait_for("This device records")
        locked = phone.ui.button(square, exact=False).first
        assert locked.get_attribute("aria-disabled") == "true"
        locked.click(force=True)
    time.sleep(1)
    with open_store(server.db) as store:
        assert [entry.command.by for entry in store.load(game_id).log] == ["red"]
    bjorn.ui.shot("share-not-this-phones", tall=740)
