"""The player aid on paper: `python -m companion aid` and the server's /aid, one page.

The printed page's length is checked in Chromium (tests/browser/test_aid_print.py).
"""

import asyncio
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from companion.aid.page import aid_page
from companion.app.aid_page import PATH
from companion.app.web_page import OfflinePage
from companion.boards import shipped_board
from companion.engine.dice import attack_odds
from companion.language.render import language
from models.rules import CREATURES, CreatureKind

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "assets"


def aid(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "companion", "aid", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k != "SUMMONERS_ISLE_LANG"},
    )


class Texts(HTMLParser):
    """The page's headings and table cells, as a reader sees them."""

    def __init__(self) -> None:
        super().__init__()
        self.headings: list[str] = []
        self.cells: list[str] = []
        self.inside: str | None = None
        self.attributes: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag, attrs):
        self.attributes.extend(attrs)
        if tag in ("h1", "h2", "th", "td"):
            self.inside = tag

    def handle_endtag(self, tag):
        self.inside = None

    def handle_data(self, data):
        if self.inside in ("h1", "h2"):
            self.headings.append(data)
        elif self.inside in ("th", "td"):
            self.cells.append(data)


def read(page: str) -> Texts:
    texts = Texts()
    texts.feed(page)
    return texts


@pytest.mark.parametrize(
    ("code", "title", "bounty", "territory"),
    [
        ("en", "Summoner's Isle: the rules at a glance", "Bounty", "North Cliffs"),
        ("fr", "Summoner's Isle\u202f: les règles en bref", "Prime", "Falaises du Nord"),
    ],
)
def test_the_command_prints_the_page_in_each_language_with_the_boards_territories(
    code, title, bounty, territory
):
    printed = aid("--lang", code, "--board", "duel-isle")
    assert printed.returncode == 0, printed.stderr
    assert printed.stdout == aid_page(language(code), shipped_board("duel-isle"))
    texts = read(printed.stdout)
    assert texts.headings[0] == title
    assert f'<html lang="{code}">' in printed.stdout
    assert bounty in texts.cells and territory in texts.cells
    bonuses = {t.bonus for t in shipped_board("duel-isle").territories}
    row = texts.cells[texts.cells.index(territory) : texts.cells.index(territory) + 3]
    assert int(row[2]) in bonuses


def test_the_command_without_a_board_leaves_the_territories_out_and_refuses_an_unknown_one():
    printed = aid()
    assert printed.returncode == 0 and "North Cliffs" not in printed.stdout
    assert "Territory" not in read(printed.stdout).cells
    refused = aid("--board", "atlantis")
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr == (
        "error: unknown board 'atlantis' (shipped boards: duel-isle, gathering-isle)\n"
    )


def test_the_page_asks_nothing_of_any_host_and_shows_the_odds_as_percentages():
    page = aid_page(language("en"), shipped_board("gathering-isle"))
    # No script, no link, no image, no font or style from elsewhere: only its inline style.
    assert not re.search(r"<(script|link|img|iframe)|@import|url\(|https?:", page)
    texts = read(page)
    assert all(name not in ("src", "href") for name, _ in texts.attributes)
    wyrm_on_troll = attack_odds(CreatureKind.WYRM, CreatureKind.TROLL)
    troll_row = texts.cells.index("Troll", texts.cells.index("Defender ↓ · attacker →") + 4)
    assert texts.cells[troll_row + 1] == f"{round(float(wyrm_on_troll) * 100)}%"
    assert str(CREATURES[CreatureKind.WYRM].cost) in texts.cells


def _get(path: str, query: bytes = b"", accept: bytes = b"") -> tuple[dict, bytes]:
    async def flet_app(scope, receive, send):
        raise AssertionError(f"{scope['path']} reached the app")

    page = OfflinePage(flet_app, "Isle Sans", ASSETS / "fonts" / "DejaVuSans.ttf")
    sent: list[dict] = []

    async def send(message: dict) -> None:
        sent.append(message)

    async def receive() -> dict:
        return {"type": "http.request", "body": b""}

    headers = [(b"accept-language", accept)] if accept else []
    scope = {"type": "http", "method": "GET", "path": path, "query_string": query}
    asyncio.run(page({**scope, "headers": headers}, receive, send))
    return sent[0], b"".join(m.get("body", b"") for m in sent[1:])


def test_the_server_answers_the_same_page_at_aid():
    start, body = _get(PATH, b"lang=fr&board=gathering-isle")
    headers = dict(start["headers"])
    assert start["status"] == 200
    assert headers[b"content-type"] == b"text/html; charset=utf-8"
    assert headers[b"content-security-policy"] == b"default-src 'none'; style-src 'unsafe-inline'"
    assert body.decode() == aid_page(language("fr"), shipped_board("gathering-isle"))


def test_the_servers_page_speaks_the_browsers_language_unless_asked_and_refuses_a_board():
    _, french = _get(PATH, accept=b"fr-CA,fr;q=0.9,en;q=0.5")
    assert french.decode() == aid_page(language("fr"))
    _, english = _get(PATH, b"lang=en", accept=b"fr-CA")
    assert english.decode() == aid_page(language("en"))
    start, refused = _get(PATH, b"board=atlantis", accept=b"fr")
    assert start["status"] == 404
    assert refused.decode() == (
        "le plateau 'atlantis' est inconnu (plateaux fournis\u202f: duel-isle, gathering-isle)\n"
    )
