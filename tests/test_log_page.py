"""The game log a page at a time (companion/play/log_page.py, companion/app/screens/log.py):
however long the game, a log screen draws at most PAGE_RECORDS records, newest first, undone
records above, and Newer and Older turn its pages."""

from __future__ import annotations

from types import SimpleNamespace

import flet as ft
import pytest
from screen_support import every_control
from test_game_cache import corrections_log

from companion.app.main import App
from companion.app.screens import log as log_screen
from companion.language.render import render
from companion.play.log_page import PAGE_RECORDS, log_page
from companion.play.service import Service
from companion.store.store import open_store
from models.game_size import most_records


@pytest.fixture
def store():
    with open_store("sqlite://") as opened:
        yield opened


def test_a_page_holds_at_most_its_records_newest_first_with_undone_ones_above(store):
    saved = store.import_log(corrections_log(2 * PAGE_RECORDS + 7, "a reason"))
    saved = store.undo(saved.id, saved.revision)
    saved = store.undo(saved.id, saved.revision)
    first = log_page(saved)
    assert (first.number, first.pages, first.records) == (0, 3, 2 * PAGE_RECORDS + 7)
    assert first.newer is None and first.older == 1
    # The undone ones first (the next to redo on top), then the newest active record down.
    top = PAGE_RECORDS * 2 + 7
    assert [(line.seq, line.undone) for line in first.lines[:3]] == [
        (top, True),
        (top - 1, True),
        (top - 2, False),
    ]
    assert len(first.lines) == PAGE_RECORDS
    last = log_page(saved, 2)
    assert [line.seq for line in last.lines] == list(range(7, 0, -1))
    assert last.older is None and last.newer == 1
    assert render(last.heading, "en") == "Page 3 of 3"
    assert render(last.heading, "fr") == "Page 3 sur 3"
    # A page past the last (the log shrank meanwhile) is the last.
    assert log_page(saved, 9).number == 2


def test_a_short_log_is_one_page_without_a_heading(store):
    saved = store.import_log(corrections_log(3, "a reason"))
    page = log_page(saved)
    assert page.pages == 1 and page.heading is None and len(page.lines) == 3
    empty = log_page(store.new_game(saved.setup))
    assert empty.lines == () and empty.pages == 1


def _texts(view: ft.View) -> list[str]:
    return [c.value for c in every_control(view) if isinstance(c, ft.Text) and c.value]


def test_the_log_screen_of_the_longest_game_draws_one_page_and_turns_to_the_next(store):
    most = most_records(4, 7)
    saved = store.import_log(corrections_log(most, "a reason"))
    updates: list[object] = []
    page = SimpleNamespace(update=lambda *_: updates.append(1), web=True)
    app = App(page, Service(store))  # type: ignore[arg-type]
    view = log_screen.build(app, saved.id)
    tiles = [c for c in every_control(view) if isinstance(c, ft.ListTile)]
    assert len(tiles) == PAGE_RECORDS
    pages = -(-most // PAGE_RECORDS)
    assert f"Page 1 of {pages}" in _texts(view)
    assert tiles[0].leading.value == f"{most:,}"
    older = next(
        c for c in every_control(view) if isinstance(c, ft.TextButton) and c.content == "Older"
    )
    older.on_click(None)
    assert updates and f"Page 2 of {pages}" in _texts(view)
    tiles = [c for c in every_control(view) if isinstance(c, ft.ListTile)]
    assert tiles[0].leading.value == f"{most - PAGE_RECORDS:,}"
