"""A real app server and a real Chromium for the browser tests.

Flutter draws on a canvas: tests turn on its semantics tree and find controls by role
and label. Screenshots of every screen go to tests/artifacts/ for a reviewer.

The app runs offline: a browser test during which a page asked a host other than this
machine (the app server) fails, whatever it tested (`OwnHostsOnly`).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from models.setup import GameSetup

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

if not os.path.exists(CHROMIUM):
    pytest.skip(
        "Debian's chromium is not installed (make test installs it as root or in CI)",
        allow_module_level=True,
    )


# A browser test that hangs (a busy renderer answers no Playwright call, and those calls
# have no timeout of their own) fails after this long, with a traceback of where it hung.
BROWSER_TEST_TIMEOUT_S = 300
# Four browsers and four app servers on two cores starve one now and then past any wait a
# test can afford: a browser test that failed runs once more, from the start, and fails the
# suite only if it fails again. Each rerun is listed in the summary (pytest-rerunfailures's
# "R"), with what the screens showed when it failed.
BROWSER_RERUNS = 1


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Put every browser test under the browser timeout, with one rerun."""
    for item in items:
        if "browser" in item.path.parts:
            item.add_marker(pytest.mark.timeout(BROWSER_TEST_TIMEOUT_S))
            item.add_marker(pytest.mark.flaky(reruns=BROWSER_RERUNS))


# What a page shows: its text, then each semantics label not already in it.
SHOWN_TEXT = """body => {
  const text = body.innerText;
  const labels = [...document.querySelectorAll('[aria-label]')]
    .map(e => e.getAttribute('aria-label')).filter(l => l && !text.includes(l));
  return [text, ...labels].join('\\n');
}"""

# The app server's host: a page may ask nothing of any other (nor of a CDN).
OWN_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


class OwnHostsOnly:
    """The browser, with every page it opens watched for requests to another host."""

    def __init__(self, browser) -> None:
        self.browser = browser
        self.foreign: list[str] = []

    def __getattr__(self, name: str):
        return getattr(self.browser, name)

    def new_context(self, **options):
        """A browser context (a phone of its own), watched."""
        context = self.browser.new_context(**options)
        context.on("request", self._requested)
        return context

    def new_page(self, **options):
        """A page in a context of its own, watched."""
        page = self.browser.new_page(**options)
        page.context.on("request", self._requested)
        return page

    def _requested(self, request) -> None:
        url = urlsplit(request.url)
        if url.scheme not in ("data", "blob") and url.hostname not in OWN_HOSTS:
            self.foreign.append(request.url)

    def what_pages_show(self) -> str:
        """The text every open page shows (its semantics' labels too), for a failed test's
        report: what the screen said when the awaited text never came."""
        shown = []
        for number, page in enumerate(
            (page for context in self.browser.contexts for page in context.pages), 1
        ):
            try:
                text = page.locator("body").evaluate(SHOWN_TEXT, timeout=5000)
            except Exception as error:  # a page closed or hung: say so, and go on
                text = f"(unreadable: {type(error).__name__})"
            shown.append(f"--- page {number}: {page.url}\n{text[:3000]}")
        return "\n".join(shown) or "(no open page)"

    def settle(self) -> None:
        """Take in the requests Playwright has not reported yet (it reports them while it is
        called): every open page is asked for nothing, once."""
        for context in self.browser.contexts:
            for page in context.pages:
                # A page closing meanwhile has nothing more to tell.
                with contextlib.suppress(Exception):
                    page.wait_for_timeout(1)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    """Fail a browser test during which a page asked another host than the app server."""
    watched = getattr(item, "funcargs", {}).get("browser")
    if isinstance(watched, OwnHostsOnly):
        watched.foreign.clear()
    try:
        result = yield
    except BaseException:
        if isinstance(watched, OwnHostsOnly):
            item.add_report_section("call", "screens", watched.what_pages_show())
        raise
    if isinstance(watched, OwnHostsOnly):
        watched.settle()
        if watched.foreign:
            asked = sorted(set(watched.foreign))
            raise AssertionError(f"a page asked a host other than the app server: {asked[:5]}")
    return result


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class AppServer:
    """`python -m companion app --web` on a port of its own, with its own database."""

    data: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen | None = None
    started_at: float = 0.0  # when the process was spawned (time.perf_counter)
    answered_at: float = 0.0  # when it first answered HTTP

    @property
    def url(self) -> str:
        """The app's address."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def db(self) -> str:
        """The SQLite file the server writes."""
        return str(self.data / "games.sqlite3")

    @property
    def log(self) -> Path:
        """Where the server's standard error goes."""
        return self.data / "server.log"

    def said(self) -> str:
        """Everything the server wrote to its standard error so far."""
        return self.log.read_text(encoding="utf-8", errors="replace")

    def start(self) -> None:
        """Start the server and wait until it answers."""
        env = dict(os.environ, SUMMONERS_ISLE_DATA=str(self.data))
        self.started_at = time.perf_counter()
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "companion",
                "app",
                "--web",
                "--port",
                str(self.port),
                "--db",
                self.db,
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            # A file, not a pipe nobody reads (which would stall the server once full).
            stderr=self.log.open("w"),
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url, timeout=2):
                    self.answered_at = time.perf_counter()
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the app server did not answer within 60 s")

    def new_game(self, setup: GameSetup) -> str:
        """Save a new game in the server's database, as the store would; its id."""
        from companion.store.store import open_store

        with open_store(self.db) as store:
            return store.new_game(setup).id

    def kill(self) -> None:
        """Stop the server hard, as a dying phone would."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None

    def stop(self) -> None:
        """Stop the server politely."""
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
            self.process = None


@pytest.fixture
def server(tmp_path: Path) -> Iterator[AppServer]:
    """A fresh app server."""
    app = AppServer(tmp_path)
    app.start()
    yield app
    app.stop()


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium, headless, with every host but this machine unreachable.

    A fresh one for each test module: a Chromium that has drawn Flutter apps for a whole
    suite in software has been seen to spin its renderer and stop answering.
    """
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
            ],
        )
        yield OwnHostsOnly(chromium)
        chromium.close()


@pytest.fixture(autouse=True)
def close_pages(browser) -> Iterator[None]:
    """Close every page a test opened: a page left open keeps its Flutter app running (and
    retrying its closed server) in the shared browser, slowing every test after it."""
    yield
    for context in browser.contexts:
        context.close()


@pytest.fixture(scope="session", autouse=True)
def artifacts() -> Path:
    """The folder for screenshots."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
