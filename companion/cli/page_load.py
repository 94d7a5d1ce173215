"""How fast the page is usable over a phone's network (`bench page-load`).

The app is served as `make run` serves it; a headless Chromium at a phone's size loads
it with Chromium's own network emulation (20 Mbit/s down, 5 up, 40 ms added to every
round trip), and a visit is usable when Home's "New game" is on the screen (in the
semantics tree, which the page builds from what it draws). A first visit starts from an
empty browser cache; a reload follows it in the same browser. The web client is packed
first (brotli, companion/app/web_packs.py), as it is on a server that has run once.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.app.web_packs import PackStore, flet_web_dir, web_client_files
from companion.cli.app_waits import app_server, chromium_path, playwright_api

PHONE = {"width": 390, "height": 844}
# Chromium's emulation: bytes per second down and up, milliseconds added to a round trip.
PHONE_NETWORK = {
    "offline": False,
    "downloadThroughput": 20_000_000 / 8,
    "uploadThroughput": 5_000_000 / 8,
    "latency": 40,
}
USABLE = "New game"
VISIT_TIMEOUT_S = 120
_SHOWS = """t => [...document.querySelectorAll('[aria-label]')]
  .some(e => e.getAttribute('aria-label').includes(t)) || document.body.innerText.includes(t)"""


def measure_page_load(visits: int) -> dict[str, Any]:
    """`visits` first visits, each followed by a reload: seconds until usable, and bytes."""
    sync_api = playwright_api()
    PackStore().pack(web_client_files(flet_web_dir()), wait=True)
    first: list[float] = []
    again: list[float] = []
    first_bytes: list[int] = []
    again_bytes: list[int] = []
    with (
        tempfile.TemporaryDirectory() as data,
        app_server(Path(data)) as (url, _db),
        sync_api.sync_playwright() as driver,
    ):
        browser = driver.chromium.launch(
            executable_path=chromium_path(), args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            for _ in range(visits):
                context = browser.new_context(viewport=PHONE)
                page = context.new_page()
                network = context.new_cdp_session(page)
                network.send("Network.enable")
                network.send("Network.emulateNetworkConditions", PHONE_NETWORK)
                received = [0]

                def finished(event: dict[str, Any], received: list[int] = received) -> None:
                    received[0] += int(event["encodedDataLength"])

                network.on("Network.loadingFinished", finished)
                for times, sizes, load in (
                    (first, first_bytes, lambda page=page: page.goto(url, wait_until="commit")),
                    (again, again_bytes, lambda page=page: page.reload(wait_until="commit")),
                ):
                    received[0] = 0
                    started = time.perf_counter()
                    load()
                    _wait_usable(page)
                    times.append(time.perf_counter() - started)
                    sizes.append(received[0])
                context.close()
        finally:
            browser.close()
    return {
        "network": "20 Mbit/s down, 5 up, 40 ms round trip (Chromium's emulation)",
        "visits": visits,
        "first_visit_s": _spread(first),
        "reload_s": _spread(again),
        "first_visit_kib": round(statistics.median(first_bytes) / 1024),
        "reload_kib": round(statistics.median(again_bytes) / 1024),
    }


def _wait_usable(page: Any) -> None:
    """Wait until the page's semantics are on and Home's first control shows."""
    page.wait_for_selector(
        "flt-semantics-placeholder", state="attached", timeout=VISIT_TIMEOUT_S * 1000
    )
    page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
    page.wait_for_function(_SHOWS, arg=USABLE, timeout=VISIT_TIMEOUT_S * 1000)


def _spread(seconds: list[float]) -> dict[str, float]:
    """Median and longest, to the hundredth."""
    return {"median": round(statistics.median(seconds), 2), "longest": round(max(seconds), 2)}
