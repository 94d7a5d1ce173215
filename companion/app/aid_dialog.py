"""The rules at a glance in the app: the player aid in a dialog over any screen, opened at the
part where the player is, with a search in the device's language.

A dialog, not a screen: closing it leaves the player exactly where they were (a half-entered
Energy and Reset, an attack's panel), and it needs no route of its own. What it shows and
where it opens are the play layer's (`companion/play/aid_view.py`); the aid's content is
`companion.aid.content`'s, the same the printed page shows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

import flet as ft

from companion.app.theme import ACCENT, ACCENT_TEXT
from companion.play.aid_view import AidPart, AidTable, aid_parts, marked, search
from companion.play.game_words import say

if TYPE_CHECKING:
    from companion.app.main import App

# A page's size before the browser has told it.
PHONE_WIDTH = 360
PHONE_HEIGHT = 740
# Narrower (or shorter) than this, the dialog takes the whole width (or height) but a thin
# margin.
PHONE = 600
PHONE_INSET = 6
WIDE_INSET = 32
# The aid reads as a column: wider than this, lines grow too long to read.
MOST_WIDTH = 760
# Inside the dialog's edge, around its content.
PADDING = 14
HEAD_RULE = ft.BorderSide(1.5, ft.Colors.OUTLINE)
ROW_RULE = ft.BorderSide(0.5, ft.Colors.OUTLINE_VARIANT)
# A table's width shared between its heads' column and each other column.
HEAD_SHARE = 4
CELL_SHARE = 3
# Flet declares its keys through a decorator mypy cannot read: the key made from its value.
scroll_key = cast(Callable[[str], ft.ScrollKey], ft.ScrollKey)


def aid_button(app: App, part: Callable[[], str | None]) -> ft.IconButton:
    """The button that opens the aid; `part()` says where, when tapped (None: the top)."""
    return ft.IconButton(
        ft.Icons.MENU_BOOK,
        tooltip=say(app.words, "aid.app.title"),
        on_click=lambda _: open_aid(app, part()),
    )


def open_aid(app: App, part: str | None = None) -> None:
    """Show the aid over the current screen, at the part keyed `part` (None: the top)."""
    AidDialog(app, part).open()


class AidDialog:
    """The aid's parts in a scrolling column under a search field."""

    def __init__(self, app: App, part: str | None) -> None:
        self.app = app
        self.words = words = app.words
        self.here = part
        self.parts = aid_parts(words)
        self.drawn: dict[str, ft.Control] = {}
        width = app.page.width or PHONE_WIDTH
        height = app.page.height or PHONE_HEIGHT
        inset = PHONE_INSET if width < PHONE else WIDE_INSET
        # A phone on its side is wide but short: the rules get its whole height.
        rise = (PHONE_INSET if height < PHONE else WIDE_INSET) + 6
        self.column = ft.Column(scroll=ft.ScrollMode.AUTO, expand=True, spacing=18)
        self.said = ft.Text(size=14, color=ft.Colors.ON_SURFACE_VARIANT, visible=False)
        self.field = ft.TextField(
            label=say(words, "aid.app.search"),
            prefix_icon=ft.Icons.SEARCH,
            dense=True,
            on_change=lambda event: self.find(event.control.value or ""),
            suffix=ft.IconButton(
                ft.Icons.CLEAR,
                tooltip=say(words, "aid.app.clear"),
                on_click=self.clear,
            ),
        )
        title = ft.Text(say(words, "aid.app.title"), size=20)
        close = ft.IconButton(
            ft.Icons.CLOSE,
            tooltip=say(words, "aid.app.close"),
            on_click=lambda _: app.page.pop_dialog(),
        )
        # The title and the close button are the content's first row: in the dialog's title
        # slot the two would be read as one label, and the button by none. Wide, the search
        # field stands between them, leaving the height to the rules (a phone on its side).
        if width < PHONE:
            title.expand = True
            top: list[ft.Control] = [ft.Row([title, close]), self.field]
        else:
            self.field.expand = True
            top = [ft.Row([title, self.field, close], spacing=16)]
        self.dialog = ft.AlertDialog(
            content_padding=ft.Padding.symmetric(horizontal=PADDING, vertical=PADDING / 2),
            inset_padding=ft.Padding.symmetric(horizontal=inset, vertical=rise),
            content=ft.Container(
                width=min(MOST_WIDTH, width - 2 * (inset + PADDING)),
                height=height - 2 * rise - PADDING,
                content=ft.Column(
                    [*top, self.said, self.column],
                    spacing=8,
                    horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
                ),
            ),
        )
        self.show(self.parts)

    def open(self) -> None:
        """Show the dialog, then scroll to the part it opens at."""
        self.app.page.show_dialog(self.dialog)
        if self.here is not None:
            self.app.page.run_task(self.column.scroll_to, scroll_key=self.here)

    def show(self, parts: list[AidPart], query: str = "") -> None:
        """Draw `parts`, the one the player is at marked (the whole aid is drawn once, then
        kept); a search's finds are drawn with what it found marked in them."""
        if query.strip():
            self.column.controls = [part_control(part, query=query) for part in parts]
            return
        marked = say(self.words, "aid.app.here")
        for part in parts:
            if part.key not in self.drawn:
                here = marked if part.key == self.here else None
                self.drawn[part.key] = part_control(part, here)
        self.column.controls = [self.drawn[part.key] for part in parts]

    def find(self, query: str) -> None:
        """Only the parts that say `query`, and how many there are."""
        found = search(self.parts, query)
        if self.here is not None:
            # A search shows what it found: no part is marked where the player is any more.
            self.drawn.pop(self.here, None)
            self.here = None
        self.said.visible = bool(query.strip())
        if found:
            self.said.value = say(self.words, "aid.app.found", count=len(found), query=query)
        else:
            self.said.value = say(self.words, "aid.app.none", query=query)
        self.show(found, query)
        self.dialog.update()
        # What was found is read from its first part, wherever the column had been scrolled.
        self.app.page.run_task(self.column.scroll_to, offset=0, duration=0)

    def clear(self, _: ft.Event[Any]) -> None:
        """The whole aid again."""
        self.field.value = ""
        self.find("")


def part_control(part: AidPart, here: str | None = None, query: str = "") -> ft.Control:
    """One part: its title, its sentences, its table; where the player is, marked with
    `here`'s words ('Where you are') and a border; the words of a search's `query`
    underlined in bold wherever it says them."""
    head: list[ft.Control] = [
        searched(part.title, query, size=18, weight=ft.FontWeight.BOLD, color=ACCENT_TEXT)
    ]
    lines: list[ft.Control] = [
        searched(f"{number}. {line}" if part.numbered else line, query, size=15)
        for number, line in enumerate(part.lines, start=1)
    ]
    if part.table is not None:
        lines.append(table_control(part.table, query))
    body = ft.Column([*head, *lines], spacing=8)
    if here is None:
        return ft.Container(key=scroll_key(part.key), content=body)
    return ft.Container(
        key=scroll_key(part.key),
        padding=10,
        border=ft.Border.all(2, ACCENT),
        border_radius=8,
        content=ft.Column(
            [ft.Row([ft.Icon(ft.Icons.PLACE, size=18), ft.Text(here, size=13)]), body],
            spacing=4,
        ),
    )


def searched(text: str, query: str, **style: Any) -> ft.Text:
    """A text, the words of `query` in it marked (bold, underlined and tinted: not by colour
    alone); without a query, plain."""
    if not query.strip():
        return ft.Text(text, **style)
    found = ft.TextStyle(
        weight=ft.FontWeight.BOLD,
        decoration=ft.TextDecoration.UNDERLINE,
        bgcolor=ft.Colors.with_opacity(0.25, ACCENT),
    )
    return ft.Text(
        spans=[ft.TextSpan(run, found if hit else None) for run, hit in marked(text, query)],
        **style,
    )


def table_control(table: AidTable, query: str = "") -> ft.Control:
    """A small table ruled under each row, a search's words marked in it; one wider than tall
    is turned, so it fits a phone."""
    if len(table.columns) > len(table.rows) + 1:
        table = table.transposed()
    return ft.Column(
        [
            ft.Container(
                border=ft.Border.only(bottom=HEAD_RULE if number == 0 else ROW_RULE),
                padding=ft.Padding.symmetric(vertical=6),
                content=ft.Row(
                    [
                        searched(
                            cell,
                            query,
                            # The heads' column a little wider: 'Défenseur' on a phone.
                            expand=HEAD_SHARE if first else CELL_SHARE,
                            size=14,
                            weight=ft.FontWeight.BOLD if first or number == 0 else None,
                            text_align=ft.TextAlign.START if first else ft.TextAlign.CENTER,
                        )
                        for first, cell in ((index == 0, cell) for index, cell in enumerate(row))
                    ],
                    spacing=6,
                    vertical_alignment=ft.CrossAxisAlignment.START,
                ),
            )
            for number, row in enumerate((table.columns, *table.rows))
        ],
        spacing=0,
    )
