"""A page's failure shown by the app, not by Flet.

Flet catches an exception raised by an event handler (or by the page's start), logs it with
its traceback, and hands the text to the page's `Session.error`, which sends it to the
browser to show in place of the page. The app puts its own function in each page's
`Session.error` (companion/app/edge.py). Without that method, Flet shows its own error.
"""

from __future__ import annotations

from collections.abc import Callable

import flet as ft
from flet.messaging.session import Session

# Whether `on_failure` replaces each page's `Session.error` (install() says).
_used = False


def why_not() -> str | None:
    """Why a page's failures cannot be shown by the app here, or None if they can."""
    if not callable(getattr(Session, "error", None)):
        return "Flet's Session has no error method"
    return None


def install() -> None:
    """Have `on_failure` replace each page's `Session.error`."""
    global _used
    _used = True


def undo() -> None:
    """Have pages show Flet's own error again."""
    global _used
    _used = False


def on_failure(page: ft.Page, failed: Callable[[str], None]) -> None:
    """Have Flet call `failed(text)`, not show its error, whenever this page's code fails."""
    if _used:
        # Flet calls `session.error(text)` for every failure it catches in a session.
        page.session.error = failed  # type: ignore[method-assign,assignment]


def fail(page: ft.Page) -> None:
    """Tell this page its code failed, as Flet does when an event's handler raises."""
    report = getattr(page.session, "error", None)
    if report is not None:
        report("")
