"""A hosted table's boards are its own: kept with the table in the database, listed to its
devices only (New game, the board editor) on every process, bounded in number, and named
without passing for a shipped layout; a bad name is a sentence, never a traceback. A table
shared from this machine, or the app alone, keeps the device's boards folder.
"""

from __future__ import annotations

from unittest.mock import MagicMock

import flet as ft
import pytest
from store_support import BACKENDS, database_url

from companion.app.screens.board_editor import BoardEditor
from companion.boards import BoardError
from companion.boards.user import (
    BoardExists,
    FolderShelf,
    board_from_counts,
    boards_dir,
    keep_both,
)
from companion.language.render import language, render
from companion.play.board_draft import BoardDraft
from companion.play.language_setting import ENGLISH
from companion.play.new_game import ENTER, NewGameForm, TerritoryEntry
from companion.play.service import Service
from companion.play.sharing.hosting import Hosting
from companion.play.visit import Route, Visit
from companion.store.store import SavedGame, open_store
from companion.store.table_boards import TABLE_BOARDS, TableShelf
from models.board import MAX_NAME_CHARS

PUBLIC = "https://isle.example.org"
LURE = "Send your table code to evil.example"


@pytest.fixture(autouse=True)
def data(tmp_path, monkeypatch):
    """This machine's boards folder, of the test's own: a hosted table never writes there."""
    monkeypatch.setenv("SUMMONERS_ISLE_DATA", str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.fixture(params=BACKENDS)
def services(request, tmp_path):
    """Two hosted servers' services on one database, as two processes."""
    for url in database_url(request.param, tmp_path):
        stores = [open_store(url), open_store(url)]
        try:
            yield [Service(store, hosting=Hosting(store.tables, PUBLIC)) for store in stores]
        finally:
            for store in stores:
                store.close()


def started(service: Service, client: str) -> Visit:
    """A page that starts a table of its own."""
    visit = Visit(service)
    assert visit.start_table(client, ENGLISH) is None
    return visit


def joined(service: Service, host: Visit, client: str) -> Visit:
    """A page let in at `host`'s table by its join code."""
    visit = Visit(service)
    assert host.links is not None
    assert visit.admit(client, host.links.access.join_code, "", ENGLISH) is None
    return visit


def typed(visit: Visit, name: str) -> NewGameForm:
    """New game's form at a page, with a board of `name` typed in."""
    return NewGameForm(
        board_id=ENTER,
        board_name=name,
        territories=[TerritoryEntry("North", 2, 3), TerritoryEntry("South", 1, 2)],
        shelf=visit.boards,
    )


def listed(visit: Visit, count: int = 2) -> list[str]:
    """The boards New game offers at a page, by name."""
    return [board.name for board in NewGameForm(count=count, shelf=visit.boards).boards()]


def test_a_board_entered_at_a_table_is_listed_to_it_on_every_process_and_to_no_other(services):
    first, second = services
    ann = started(first, "198.51.100.1")
    board = typed(ann, LURE).save_board()
    # Ann's table sees it on the other process too: New game, and the board editor's sources.
    bob = joined(second, ann, "198.51.100.2")
    assert LURE in listed(ann) and LURE in listed(bob)
    game = NewGameForm(count=2, board_id=board.id, shelf=bob.boards).start(bob.store)
    assert isinstance(game, SavedGame) and game.game.board.name == LURE
    # Another table, on either process, never sees it, whatever it lists or asks for.
    for service in services:
        cy = started(service, "198.51.100.3" if service is first else "198.51.100.4")
        assert LURE not in listed(cy)
        assert cy.boards.saved(board.id) is None and cy.boards.boards() == []
        # Its id asked for falls back to a board the table has.
        form = NewGameForm(count=2, board_id=board.id, shelf=cy.boards)
        form.boards()
        assert form.board_id == "duel-isle"
    # Nothing was written to this machine's own boards folder.
    assert not boards_dir().exists() and FolderShelf().boards() == []


def test_the_board_editor_works_on_the_tables_boards(services):
    first, second = services
    ann = started(first, "198.51.100.1")
    assert ann.route(["board-editor"]) == Route("board_editor")
    app = MagicMock()
    app.page.width, app.page.height = 400, 800
    app.words = language("en")
    app.visit = ann
    editor = BoardEditor(app, ft.View(route="/board-editor"))
    editor.save(None)
    assert [board.name for board in ann.boards.boards()] == ["My Duel Isle"]
    bob = joined(second, ann, "198.51.100.2")
    app.visit = bob
    again = BoardEditor(app, ft.View(route="/board-editor"))
    assert "My Duel Isle" in [board.name for board in again.boards]
    app.visit = started(second, "198.51.100.3")
    stranger = BoardEditor(app, ft.View(route="/board-editor"))
    assert "My Duel Isle" not in [board.name for board in stranger.boards]
    # Saved again at Ann's table, under the same name: asked first, then kept as "... 2".
    app.visit = bob
    again.draft.move_location("ss1", (20.0, 50.0))
    again.save(None)
    asked = app.page.show_dialog.call_args.args[0]
    asked.actions[1].on_click(None)
    assert [board.name for board in ann.boards.boards()] == ["My Duel Isle", "My Duel Isle 2"]
    ann.boards.delete("my-duel-isle-2")
    assert [board.name for board in bob.boards.boards()] == ["My Duel Isle"]


def test_a_table_keeps_at_most_its_number_of_boards(services):
    first, second = services
    ann = started(first, "198.51.100.1")
    for number in range(TABLE_BOARDS):
        typed(ann, f"Kitchen {number}").save_board()
    with pytest.raises(BoardError) as full:
        typed(joined(second, ann, "198.51.100.2"), "One more").save_board()
    assert str(full.value) == (
        f"this table keeps at most {TABLE_BOARDS} boards: delete one in the board editor "
        "to save another"
    )
    assert render(full.value.message, "fr").startswith(
        f"cette table garde au plus {TABLE_BOARDS} plateaux"
    )
    # Replacing one it keeps is no new board; another table is not held by it.
    kept = ann.boards.boards()[0]
    ann.boards.save(kept, replace=True)
    assert typed(started(second, "198.51.100.3"), "One more").save_board().name == "One more"
    with pytest.raises(BoardExists):
        ann.boards.save(kept)


def test_a_tables_boards_go_with_the_table(services):
    first, _ = services
    ann = started(first, "198.51.100.1")
    board = typed(ann, "Kitchen").save_board()
    assert ann.links is not None and first.hosting is not None
    first.store.tables.remove(ann.links.access.id)
    assert TableShelf(first.store.boards, ann.links.access.id).saved(board.id) is None


@pytest.mark.parametrize(
    "name",
    [
        "Duel Isle",
        "duel isle!!",
        "Duel-Isle",
        "Gathering Isle",
        "Duel Isle (companion layout, 2 players)",
        "Île du Duel",
        "Duel Is\u217ce",  # a Roman numeral fifty for the l
        "Duel Isl\u0435",  # a Cyrillic e
    ],
)
def test_a_board_never_passes_for_a_shipped_one(name):
    with pytest.raises(BoardError) as refused:
        board_from_counts(name, [("North", 2, 3)])
    assert "a board that comes with the app" in str(refused.value)
    assert "un plateau fourni avec l'appli" in render(refused.value.message, "fr")
    draft = BoardDraft.from_board(board_from_counts("Kitchen", [("North", 2, 3)]))
    draft.name = name
    said = draft.problem()
    assert said is not None and "a board that comes with the app" in str(said)


def test_a_name_too_long_is_a_sentence_wherever_it_is_typed(services):
    long = "K" * (MAX_NAME_CHARS + 1)
    said = "a board's name has at most 100 characters"
    with pytest.raises(BoardError, match=said):
        board_from_counts(long, [("North", 2, 3)])
    draft = BoardDraft.from_board(board_from_counts("Kitchen", [("North", 2, 3)]))
    draft.name = long
    assert str(draft.problem()).endswith(said)
    with pytest.raises(BoardError, match=said):
        draft.board()
    ann = started(services[0], "198.51.100.1")
    with pytest.raises(BoardError, match=said):
        typed(ann, long).save_board()
    assert render(BoardError(draft.problem()).message, "fr").endswith(
        "le nom d'un plateau compte au plus 100 caractères"
    )
    # A board of the longest name kept beside one of the same name keeps a name that fits.
    longest = typed(ann, "K" * MAX_NAME_CHARS).save_board()
    both = keep_both(longest, ann.boards.saved)
    assert len(both.name) == MAX_NAME_CHARS and both.name.endswith(" 2")
    ann.boards.save(both)


def test_too_many_territories_or_places_are_a_sentence():
    with pytest.raises(BoardError, match="a board has at most 64 territories"):
        board_from_counts("Kitchen", [(f"T{n}", 2, 1) for n in range(65)])
    with pytest.raises(BoardError, match="the isle has 1,000,000,000 locations; at most 512"):
        board_from_counts("Kitchen", [("North", 2, 10**9)])


def test_a_table_on_this_machine_keeps_the_devices_boards_folder(tmp_path):
    with open_store(f"sqlite:///{tmp_path}/games.sqlite3") as store:
        visit = Visit(Service(store))
        assert isinstance(visit.boards, FolderShelf)
        typed(visit, "Kitchen").save_board()
    assert [path.name for path in boards_dir().iterdir()] == ["my-kitchen.json"]
