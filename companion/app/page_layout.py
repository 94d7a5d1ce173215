"""A page's margins as its size changes: one column of cards centred on a wide screen, the
screens sized to the page (WIDE, SIZED) built again, the digital board laid out in place."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from companion.app.widgets import PADDING, RESIZES, SIZED, WIDE

# On tablets and desktops a single column of cards reads best at about this width.
COLUMN_WIDTH = 760


class PageLayout:
    """Whether the page is wide, and what the screen shown wants done when its size changes."""

    def __init__(self, page: ft.Page) -> None:
        self.page = page
        self.wide = False
        # Set by the screen shown as it is built (the isle's canvas follows the page's size).
        self.on_resize: Callable[[], None] | None = None

    def _is_wide(self) -> bool:
        return (self.page.width or 0) > COLUMN_WIDTH + 40

    def fit(self, view: ft.View) -> None:
        """Centre a new screen's column on a wide page (screens of their own width excepted)."""
        self.wide = self._is_wide()
        if view.data not in (WIDE, RESIZES) and self.wide:
            view.padding = centred(self.page.width or 0)

    def resized(self, show: Callable[[], None]) -> None:
        """Follow a change of the page's size; `show` builds the screen again when it must."""
        # A change of layout (one column or centred) needs the screen built again...
        wide = self._is_wide()
        view = self.page.views[-1] if self.page.views else None
        if wide != self.wide and view is not None and view.data == RESIZES:
            # Laid out again in place below: building the digital board again at every turn
            # of a phone would take a second or more during a computer's turn.
            self.wide = wide
        elif wide != self.wide:
            if view is None or view.data in (WIDE, SIZED):
                show()
                return
            # Any other screen only needs new margins; a screen built anew would leave a dialog
            # open on it (a phone turned while asked to confirm) on the client, never to close.
            self.wide = wide
            view.padding = centred(self.page.width or 0) if wide else PADDING
            view.update()
        # ... and any change of size one sized to the page (the isle's canvas).
        if self.on_resize is not None:
            self.on_resize()


def centred(width: float) -> ft.Padding:
    """Margins that centre a column of COLUMN_WIDTH on a screen `width` wide."""
    return ft.Padding.symmetric(horizontal=(width - COLUMN_WIDTH) / 2, vertical=PADDING)
