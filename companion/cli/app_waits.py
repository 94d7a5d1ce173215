"""A person's waits measured in the app itself, in Chromium (`bench waits-app`).

`bench waits` times the computers' searches and the app's pacing on their own. This
measures what a person at the table sees: the app serves a digital game to a headless
Chromium at a phone's size, four computer seats at "normal" play it through the real
screen, turn controller and store, and every command's time comes from the game's log.
Each seat in turn stands for the person: a wait runs from one of that seat's commands
to the last computer command before its next one (an Energy and Reset ends a wait: a
person goes on from it with a tap). A person's own command gives the next computer no
head start, so each wait gets that computer's first search added, at its most (half the
level's budget per turn): the figures err long, never short.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from companion.bots.waits import WaitReport
from companion.engine.queries import made_by
from companion.store.store import LogEntry, open_store
from models.opponents import MCTS_LEVELS
from models.setup import GameSetup, Mode

LEVEL = "normal"
SEATS = ("red", "blue", "green", "yellow")
# A phone held upright, the size the cold trial's waits were seen at.
PHONE = {"width": 390, "height": 844}
# A whole game takes a few minutes; past this one is taken to have stalled.
GAME_TIMEOUT_S = 30 * 60


class AppWaitsUnavailable(RuntimeError):
    """What this benchmark needs and this machine lacks, in one sentence."""


def waits_from_log(log: Sequence[LogEntry], person: str, head_start: float) -> list[float]:
    """The waits of the seat `person` in a played game, from when each command was logged."""
    waits: list[float] = []
    since: float | None = None
    last: float | None = None
    for entry in log:
        at = entry.created.timestamp()
        mine = made_by(entry.command) == person
        if not mine and since is not None:
            last = at
        # A wait ends at the person's next command, or at an Energy and Reset: from that
        # the person goes on with a tap, and a new wait starts after it.
        if since is not None and (mine or entry.reset is not None):
            waits.append(0.0 if last is None else last - since + head_start)
            since = last = None
        if mine and entry.reset is None:
            since = at
    return waits


def measure_app_waits(games: int) -> WaitReport:
    """Play `games` games of four "normal" computers in the app and time every seat's waits."""
    playwright = playwright_api()
    chromium = chromium_path()
    bot = f"mcts:{LEVEL}"
    report = WaitReport(games, (bot,) * 3)
    head_start = MCTS_LEVELS[LEVEL] / 1000 / 2
    with (
        tempfile.TemporaryDirectory() as data,
        app_server(Path(data)) as (url, db),
        playwright.sync_playwright() as driver,
    ):
        browser = driver.chromium.launch(
            executable_path=chromium, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            for _number in range(games):
                log = _play(browser, url, db, bot)
                for person in SEATS:
                    report.waits.extend(waits_from_log(log, person, head_start))
        finally:
            browser.close()
    return report


def chromium_path() -> str:
    """Debian's Chromium, or why a browser benchmark cannot run."""
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    if not os.path.exists(chromium):
        raise AppWaitsUnavailable("Debian's chromium is not installed (make test installs it).")
    return chromium


def playwright_api() -> Any:  # the module, imported only when a browser benchmark runs
    """Playwright's sync API, or why this benchmark cannot run."""
    try:
        from playwright import sync_api
    except ImportError as error:
        raise AppWaitsUnavailable(
            "the browser benchmarks drive Chromium with Playwright; `make test` installs both."
        ) from error
    return sync_api


def _play(browser, url: str, db: str, bot: str) -> tuple[LogEntry, ...]:  # noqa: ANN001
    """One whole game of computers on a phone-sized page; its log."""
    setup = GameSetup(
        players=[{"id": seat, "name": seat.title(), "colour": seat, "bot": bot} for seat in SEATS],
        board="gathering-isle",
        mode=Mode.DIGITAL,
    )
    with open_store(db) as store:
        game_id = store.new_game(setup).id
    page = browser.new_page(viewport=PHONE)
    try:
        page.goto(f"{url}/game/{game_id}")
        deadline = time.monotonic() + GAME_TIMEOUT_S
        while time.monotonic() < deadline:
            time.sleep(2)
            with open_store(db) as store:
                saved = store.load(game_id)
            if saved.state.is_terminal:
                return saved.log
        raise AppWaitsUnavailable(f"a game of computers did not end within {GAME_TIMEOUT_S} s.")
    finally:
        page.close()


@contextmanager
def app_server(data: Path) -> Iterator[tuple[str, str]]:
    """The app served on a free port with a database of its own: its address and database."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    db = str(data / "games.sqlite3")
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "companion", "app", "--web", "--port", str(port), "--db", db]
    env = dict(os.environ, SUMMONERS_ISLE_DATA=str(data))
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(url, timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    message = "the app server did not answer within 60 s."
                    raise AppWaitsUnavailable(message) from None
                time.sleep(0.1)
        yield url, db
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
