"""Driving the Flet app in Chromium: its accessibility tree, the isle's canvas, tap timings."""

from __future__ import annotations

import re
import statistics
import time
from pathlib import Path

from playwright.sync_api import Browser, Locator, Page

from companion.play.board_frame import BOTTOM_BAR
from companion.play.board_layout import Layout
from companion.play.tap_guard import GUARD_S

PHONE = {"width": 360, "height": 740}
# Added to the app's tap guard between two taps of a test, as a person's pace.
PACE_MARGIN_S = 0.25
TABLET = {"width": 1280, "height": 800}
APP_BAR = 56
# The seats the browser tests play, by player id: name and colour as New game sets them.
SEATS = {"red": "Ragna", "blue": "Bjorn", "green": "Sigrid"}
BOARD = "[flt-semantics-identifier=board]"

# Finds text in the page's visible text or in any semantics label; a no-break space (the
# app keeps '5 → 10' on one line) counts as a space.
HAS_TEXT = """t => {
  const plain = s => s.replaceAll('\\u00a0', ' ');
  return plain(document.body.innerText).includes(t) ||
    [...document.querySelectorAll('[aria-label]')]
      .some(e => plain(e.getAttribute('aria-label')).includes(t));
}"""
# The page's own clock for taps: when the pointer went down (the event's time), and, polled
# every animation frame, the frame in which the awaited text showed.
_TAP_CLOCK = """window.__tappedAt = null;
addEventListener('pointerdown', e => { window.__tappedAt = e.timeStamp; }, true);"""
_SHOWN_AT = f"t => ({HAS_TEXT})(t) && performance.now()"


def seats(*ids: str, **bots: str) -> list[dict[str, str]]:
    """Setup entries for the named seats; a keyword gives that seat a bot, e.g. blue="greedy"."""
    return [
        {"id": seat, "name": SEATS[seat], "colour": seat}
        | ({"bot": bots[seat]} if seat in bots else {})
        for seat in ids
    ]


class Screen:
    """A page of the app with semantics on, plus the timings of every tap."""

    def __init__(self, page: Page, artifacts: Path) -> None:
        self.page = page
        self.artifacts = artifacts
        self.tap_ms: list[float] = []
        self.round_trip_ms: list[float] = []
        self.last_tap = 0.0
        page.add_init_script(_TAP_CLOCK)

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
        """Wait until some visible text or label contains `text`.

        What shows may have come from another device's record: the screen just changed, and a
        person's next tap comes after reading it (the app refuses a tap sooner).
        """
        self.page.wait_for_function(HAS_TEXT, arg=text, timeout=timeout * 1000)
        self.last_tap = max(self.last_tap, time.monotonic())

    def pace(self) -> None:
        """Wait as a person would before the next tap: past the app's tap guard, plus a margin.

        A tap sooner after this device's last one is a double tap's second half, and one
        sooner after another device redrew the screen may be aimed at what was there; the app
        drops both. The margin covers the taps' uneven way to the server.
        """
        time.sleep(max(0.0, self.last_tap + GUARD_S + PACE_MARGIN_S - time.monotonic()))
        self.last_tap = time.monotonic()

    def click(self, target: Locator) -> None:
        """Click a control at a person's pace (see `pace`), without waiting for an outcome."""
        self.wait_until_shown(target)
        self.pace()
        target.click()

    def wait_until_shown(self, target: Locator) -> None:
        """Wait for a control; one that had to be waited for is a change a person reads first."""
        if not target.is_visible():
            target.wait_for(timeout=20000)
            self.last_tap = max(self.last_tap, time.monotonic())

    def button(self, name: str, exact: bool = True):
        """A button by its accessible name."""
        return self.page.get_by_role("button", name=name, exact=exact)

    def tap(self, name: str, then: str, exact: bool = True) -> None:
        """Tap a button and wait for `then` to show; the time goes into the tap timings."""
        self._timed_tap(self.button(name, exact).first, then)

    def tap_matching(self, pattern: str, then: str, *, icon: bool = False) -> None:
        """Tap the button whose name matches a regular expression (icons: their tooltip)."""
        # A space in the pattern matches a no-break space too (the app keeps '2 → 1' together).
        pattern = pattern.replace(" ", "[ \u00a0]")
        if icon:
            target = self.page.get_by_label(re.compile(pattern)).first
        else:
            target = self.page.get_by_role("button", name=re.compile(pattern)).first
        self._timed_tap(target, then)

    def _timed_tap(self, target: Locator, then: str) -> None:
        """Click once the target takes taps, and time it from the pointer going down to `then`.

        The page's clock times it, as a player would see it. The test's own round trip (Python
        to Playwright's driver to Chromium and back, 30-110 ms here) is kept apart, in
        `round_trip_ms`. Playwright's checks (scrolled into view, not moving) happen first,
        untimed: a person's finger does not wait for them.
        """
        self.wait_until_shown(target)
        target.click(trial=True)
        # The trial sends its pointer events to the page (Playwright stops them at the target
        # to see they land there): the page takes them for a tap, and a tap right after it
        # for a double tap's second half. A person's pace runs from it.
        self.last_tap = time.monotonic()
        self.pace()
        self.page.evaluate("window.__tappedAt = null")
        started = time.perf_counter()
        target.click(force=True)
        shown_at = self.page.wait_for_function(_SHOWN_AT, arg=then, timeout=20000).json_value()
        # The app's guard time runs from when the tap was recorded and shown (a busy server
        # takes a while): so does a person's pace to the next tap.
        self.last_tap = time.monotonic()
        self.round_trip_ms.append((time.perf_counter() - started) * 1000)
        tapped_at = self.page.evaluate("window.__tappedAt")
        assert tapped_at is not None, f"the page saw no pointer go down before {then!r} showed"
        self.tap_ms.append(shown_at - tapped_at)

    def energy_label(self) -> str:
        """The energy track's label, e.g. 'Energy track: Ragna 6 and Bjorn 6'."""
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
        """The median tap-to-updated-screen time so far, by the page's clock."""
        return statistics.median(self.tap_ms) if self.tap_ms else 0.0

    def median_round_trip_ms(self) -> float:
        """The median time from the test's click call to it seeing the update."""
        return statistics.median(self.round_trip_ms) if self.round_trip_ms else 0.0


def devices(
    browser: Browser, artifacts: Path, url: str, ready: str, *viewports: dict
) -> list[Screen]:
    """One page per viewport, each opened on `url` and shown once `ready` is there."""
    screens = [Screen(browser.new_page(viewport=viewport), artifacts) for viewport in viewports]
    for screen in screens:
        screen.open(url, ready)
    return screens


# --- the isle's canvas: taps at computed coordinates ----------------------------------


def tap_location(page, board, location: str, click: bool = True) -> None:
    """Click a location's space on the canvas, scrolling the whole board into view first.

    The board's semantics box is clipped to what is on screen, so it gives the canvas's true
    size only when the whole board shows.
    """
    height = page.viewport_size["height"]
    for _ in range(10):
        box = page.locator(BOARD).first.bounding_box()
        if box is None:
            # Scrolled off the screen, where Flutter leaves it out of the semantics tree: the
            # board is near the top of both screens that have one.
            page.mouse.move(20, height / 2)
            page.mouse.wheel(0, -300)
            time.sleep(0.5)
            continue
        # The scrolling area ends above the bar of buttons at the bottom and the screen's 12 px
        # padding: a box reaching that far may be cut.
        below = box["y"] + box["height"] - (height - BOTTOM_BAR - 24)
        above = APP_BAR + 4 - box["y"]
        if below < 0 and above < 0:
            if click:
                layout = Layout.fit(board, box["width"], box["height"])
                x, y = layout.points[location]
                page.mouse.click(box["x"] + x, box["y"] + y)
            return
        page.mouse.move(box["x"] + 4, max(box["y"], APP_BAR) + 4)
        page.mouse.wheel(0, 60 if below >= 0 else -max(above, 60))
        time.sleep(0.5)
    raise AssertionError(f"could not bring the whole board into view to tap {location}")


def scroll_to(page, target):
    """Scroll the screen (Flutter's, with the wheel) until a control is in view; the control."""
    height = page.viewport_size["height"]
    for _ in range(20):
        box = target.bounding_box()
        if box is not None and box["y"] > APP_BAR and box["y"] + box["height"] < height - 20:
            return target
        page.mouse.move(20, height / 2)
        page.mouse.wheel(0, 200 if box is None or box["y"] > APP_BAR else -200)
        time.sleep(0.4)
    raise AssertionError("could not scroll the control into view")


def click_until(ui, target, then: str, tries: int = 3) -> None:
    """Click a control until `then` shows: a first click can land before Flutter listens."""
    for attempt in range(tries):
        target.click()
        try:
            ui.wait_for(then, timeout=5 * (attempt + 1))
            return
        except Exception:
            if attempt == tries - 1:
                raise


def box_in_view(ui, locator, timeout: float = 10) -> dict | None:
    """A control's box once it is wholly inside the viewport, without scrolling; None if not."""
    size = ui.page.viewport_size
    deadline = time.monotonic() + timeout
    while True:
        box = locator.bounding_box()
        if (
            box is not None
            and box["x"] >= 0
            and box["y"] >= 0
            and box["x"] + box["width"] <= size["width"]
            and box["y"] + box["height"] <= size["height"]
        ):
            return box
        if time.monotonic() > deadline:
            return None
        time.sleep(0.25)


# --- a finger on a touch screen, as the phone's own clock times it ----------------------


class Finger:
    """Taps on a touch page, each stamped with the moment the finger made it.

    A phone stamps a touch when it happens, however long its busy page takes to get to it.
    Playwright's own clicks are stamped when the page takes them, and each waits for the
    page: on a throttled page, two clicks meant 120 ms apart reach it 400 ms apart. These
    taps go through DevTools with their own times, one after another as a finger makes them.
    """

    # How long a finger stays down for a tap.
    PRESS_S = 0.04

    def __init__(self, page: Page) -> None:
        self.page = page
        self.devtools = page.context.new_cdp_session(page)

    def throttle(self, rate: float) -> None:
        """Make the page's CPU `rate` times slower, as a slow phone's."""
        self.devtools.send("Emulation.setCPUThrottlingRate", {"rate": rate})

    def taps(self, x: float, y: float, *after_s: float) -> None:
        """Taps at (x, y): the first now, then one `after_s` seconds after the first each."""
        start = time.time()
        for at in (0.0, *after_s):
            time.sleep(max(0.0, start + at - time.time()))
            for kind, delay in (("touchStart", 0.0), ("touchEnd", self.PRESS_S)):
                self.devtools.send(
                    "Input.dispatchTouchEvent",
                    {
                        "type": kind,
                        "touchPoints": [{"x": x, "y": y}] if kind == "touchStart" else [],
                        "timestamp": start + at + delay,
                    },
                )
