"""The app's edge: an error in a page's code never shows the browser a Python traceback.

Flet catches an exception raised by an event handler (or by the page's start), logs it with
its traceback, and sends the text to the browser to show in place of the page. Here each
page has the failure handed to it instead (companion/app/flet_patches/errors.py): the browser
is shown one sentence in the device's language, the page stays, and the traceback stays in
the server's log, where Flet wrote it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import flet as ft

from companion.app.flet_patches.errors import on_failure
from companion.app.widgets import notify

log = logging.getLogger("companion.app")


def guard_page(
    page: ft.Page, sentence: Callable[[], str], then: Callable[[], None] | None = None
) -> None:
    """Show `sentence()` on this page, not Flet's error text, whenever its code fails; then
    call `then` (the app hangs up on a device without the code whose input did it)."""

    def failed(_details: str) -> None:
        # Flet has logged the exception with its traceback already; `_details` holds the
        # same text, which must not reach the browser.
        try:
            notify(page, sentence(), error=True)
            page.update()
            if then is not None:
                then()
        except Exception:
            log.exception("could not tell a page that its code failed")

    on_failure(page, failed)
