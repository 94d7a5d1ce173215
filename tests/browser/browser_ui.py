"""Driving the Flet app through Chromium's accessibility tree, and timing it."""

from __future__ import annotations

import re
import statistics
import time
from pathlib import Path

from playwright.sync_api import Locator, Page

PHONE = {"width": 360, "height": 740}
TABLET = {"width": 1280, "height": 800}

# Finds text in the page's visible text or in any semantics label.
_HAS_TEXT = """t => document.body.innerText.includes(t) ||
  [...document.querySelectorAll('[aria-label]')]
    .some(e => e.getAttribute('aria-label').includes(t))"""


class Screen:
    """A page of the app with semantics on, plus the timings of every tap."""

    def __init__(self, page: Page, artifacts: Path) -> None:
        self.page = page
        self.artifacts = artifacts
        self.tap_ms: list[float] = []

    def open(self, url: str, ready: str, timeout: float = 60) -> float:
        """Load a URL, turn on semantics, wait until `ready` shows; seconds it took."""
        started = time.perf_counter()
        # Ready is when Flutter's semantics come up, not the page's load event, which waits
        # for every script and can hang on a request the app no longer needs.
        self.page.goto(url, timeout=timeout * 1000, wait_until="domcontentloaded")
        self.page.wait_for_selector(
            "flt-semantics-placeholder", state="attached", timeout=timeout * 1000
        )
        self.page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
        self.wait_for(ready, timeout)
        return time.perf_counter() - started

    def wait_for(self, text: str, timeout: float = 20) -> None:
        """Wait until some visible text or label contains `text`."""
        self.page.wait_for_function(_HAS_TEXT, arg=text, timeout=timeout * 1000)

    def button(self, name: str, exact: bool = True):
        """A button by its accessible name."""
        return self.page.get_by_role("button", name=name, exact=exact)

    def tap(self, name: str, then: str, exact: bool = True) -> None:
        """Tap a button and wait for `then` to show; the time goes into the tap timings."""
        self._timed_tap(self.button(name, exact).first, then)

    def tap_matching(self, pattern: str, then: str, *, icon: bool = False) -> None:
        """Tap the button whose name matches a regular expression (icons: their tooltip)."""
        if icon:
            target = self.page.get_by_label(re.compile(pattern)).first
        else:
            target = self.page.get_by_role("button", name=re.compile(pattern)).first
        self._timed_tap(target, then)

    def _timed_tap(self, target: Locator, then: str) -> None:
        """Click once the target takes taps; the clock runs from the click to `then` showing.

        Playwright's own checks (scrolled into view, not moving) happen first, untimed: a
        person's finger does not wait for them.
        """
        target.wait_for(timeout=20000)
        target.click(trial=True)
        started = time.perf_counter()
        target.click(force=True)
        self.wait_for(then)
        self.tap_ms.append((time.perf_counter() - started) * 1000)

    def energy_label(self) -> str:
        """The energy track's label, e.g. 'Energy track: Ragna 6, Bjorn 6'."""
        label = self.page.locator("[flt-semantics-identifier=energy-track]").first
        return label.get_attribute("aria-label") or label.inner_text()

    def shot(self, name: str, tall: int = 1600) -> None:
        """Save a screenshot of the whole screen: the page grows tall for it, then shrinks back."""
        size = self.page.viewport_size
        self.page.set_viewport_size({"width": size["width"], "height": max(tall, size["height"])})
        time.sleep(2)
        self.page.screenshot(path=str(self.artifacts / f"{name}.png"))
        self.page.set_viewport_size(size)
        time.sleep(0.5)

    def median_tap_ms(self) -> float:
        """The median tap-to-updated-screen time so far."""
        return statistics.median(self.tap_ms) if self.tap_ms else 0.0
