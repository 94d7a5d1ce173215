"""A hosted server's tables in Chromium: a phone starts a table and is shown its
codes; a phone on another server process joins by the code and sees the table's game; a
stranger who starts a table of its own sees none of it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_ui import seats
from conftest import free_port
from test_share_table import CODE_SCREEN, Device

from companion.play.sharing.codes import normalise
from companion.store.store import open_store
from models.setup import GameSetup


def _serve(db: str, port: int, data: Path) -> subprocess.Popen:
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "companion", "app", "--web", "--hosted"),
            *("--public-url", f"http://127.0.0.1:{port}"),
            *("--host", "127.0.0.1", "--port", str(port), "--db", db),
        ],
        env=dict(os.environ, SUMMONERS_ISLE_DATA=str(data)),
        stdout=subprocess.DEVNULL,
        stderr=(data / f"server-{port}.log").open("w"),
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return process
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                raise
            time.sleep(0.1)


@pytest.fixture
def hosted(tmp_path: Path) -> Iterator[tuple[str, list[str]]]:
    """Two hosted server processes on one database: its path and their addresses."""
    db = str(tmp_path / "games.sqlite3")
    ports = [free_port(), free_port()]
    processes = [_serve(db, port, tmp_path) for port in ports]
    try:
        yield db, [f"http://127.0.0.1:{port}" for port in ports]
    finally:
        for process in processes:
            process.terminate()
            process.wait(timeout=10)


def _start_table(device: Device) -> None:
    device.page.get_by_role("button", name="Start a table").click()
    device.ui.wait_for("Share")


def test_a_started_table_is_joined_on_another_process_and_kept_from_a_stranger(
    browser, artifacts, hosted
):
    db, (first, second) = hosted
    host = Device(browser, artifacts)
    host.open(f"{first}/", CODE_SCREEN)
    _start_table(host)
    host.page.get_by_role("button", name="Share").first.click()
    host.ui.wait_for("Join: take a seat and record")
    # The Join link comes first on the panel, then the Watch link.
    links = re.findall(r"\?code=([2-9A-Z]{8})", host.text())
    assert links
    shown = links[0]
    with open_store(db) as store:
        found = store.tables.find(normalise(shown), "")
        assert found is not None and found[1] == "join"
        setup = GameSetup(players=seats("red", "blue"), board="duel-isle")
        game_id = store.scoped(found[0]).new_game(setup).id
    host.ui.shot("hosted-share")
    phone = Device(browser, artifacts)
    phone.open(f"{second}/?code={normalise(shown)}", "Ragna")
    assert "Bjorn" in phone.text()
    stranger = Device(browser, artifacts)
    stranger.open(f"{second}/", CODE_SCREEN)
    _start_table(stranger)
    stranger.goto(f"{second}/game/{game_id}", "Summoner's Isle")
    stranger.page.wait_for_timeout(1500)
    assert "Ragna" not in stranger.text() and not stranger.seen("Ragna")
