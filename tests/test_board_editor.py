"""The board editor's undo and redo, saving and deleting user boards, without a browser."""

from __future__ import annotations

import json
from unittest.mock import MagicMock

import flet as ft
import pytest

from companion.app.screens.board_editor import BoardEditor
from companion.boards import BoardError, shipped_board, shipped_board_ids
from companion.boards.user import (
    BoardExists,
    FolderShelf,
    board_from_counts,
    boards_dir,
    delete_user_board,
    keep_both,
    save_user_board,
    user_boards,
)
from companion.language.render import language
from companion.play.board_draft import BoardDraft, DraftHistory

DUEL = shipped_board("duel-isle")
GATHERING = shipped_board("gathering-isle")


def fresh() -> DraftHistory:
    """A history of a draft of Duel Isle, nothing done yet."""
    return DraftHistory(BoardDraft.from_board(DUEL))


def typed(history: DraftHistory, territory_id: str, word: str) -> None:
    """Type a territory's new name one key at a time, as the name field reports it."""
    for end in range(1, len(word) + 1):
        history.rename_territory(territory_id, word[:end])
    history.settle()


EDITS = {
    "add a space": (
        lambda h: h.add_location("skalds-strand", (95.0, 60.0)),
        "add a space to Skald's Strand",
        lambda d: d.territory("skalds-strand").locations == ["ss1", "ss2", "skalds-strand-1"],
    ),
    "remove a space": (
        lambda h: h.remove_location("ss1"),
        "remove Skald's Strand 1",
        lambda d: "ss1" not in d.positions and all("ss1" not in path for path in d.paths),
    ),
    "join two spaces": (
        lambda h: h.toggle_path("nc1", "er3"),
        "join North Cliffs 1 and Ember Reach 3",
        lambda d: ("er3", "nc1") in d.paths,
    ),
    "part two spaces": (
        lambda h: h.toggle_path("fh3", "ss1"),
        "part Frostholm 3 and Skald's Strand 1",
        lambda d: ("fh3", "ss1") not in d.paths,
    ),
    "add a territory": (
        lambda h: h.add_territory("Mist Isle"),
        "add Mist Isle",
        lambda d: d.territories[-1].name == "Mist Isle" and not d.territories[-1].locations,
    ),
    "remove a territory": (
        lambda h: h.remove_territory("frostholm"),
        "remove Frostholm",
        lambda d: "frostholm" not in {t.id for t in d.territories} and "fh1" not in d.positions,
    ),
    "rename a territory": (
        lambda h: typed(h, "troll-fen", "Bog"),
        "rename Troll Fen",
        lambda d: d.territory("troll-fen").name == "Bog",
    ),
    "set a bonus": (
        lambda h: h.set_bonus("skalds-strand", 3),
        "set Skald's Strand's bonus to 3",
        lambda d: d.territory("skalds-strand").bonus == 3,
    ),
    "start from another board": (
        lambda h: h.start_from(GATHERING),
        "start from Gathering Isle (companion layout, 3-4 players)",
        lambda d: d.source == "gathering-isle" and d.name == "My Gathering Isle",
    ),
    "rename the board": (
        lambda h: h.rename("Duel Isle, my way"),
        "rename the board",
        lambda d: d.name == "Duel Isle, my way" and d.board_id == "my-duel-isle-my-way",
    ),
}


@pytest.mark.parametrize("edit", EDITS)
def test_every_kind_of_edit_is_one_step_that_undoes_and_redoes(edit):
    change, label, done = EDITS[edit]
    history = fresh()
    before = history.draft.copy()
    assert history.undo_label is None and history.undo() is None

    change(history)
    after = history.draft.copy()
    assert done(history.draft) and history.draft != before
    assert history.undo_label == label and history.redo_label is None

    assert history.undo() == label
    assert history.draft == before and not done(history.draft)
    assert history.undo_label is None and history.redo_label == label

    assert history.redo() == label
    assert history.draft == after and done(history.draft)
    assert history.undo_label == label and history.redo() is None


def test_a_drag_is_one_step_however_many_events_it_sends():
    history = fresh()
    start = history.draft.positions["ss1"]
    for step in range(1, 21):
        history.drag("ss1", (50.0 + step, 40.0))
    history.settle()
    assert history.draft.positions["ss1"] == (70.0, 40.0)
    assert len(history.undos) == 1 and history.undo_label == "move Skald's Strand 1"

    # A second drag of the same space after the drop is a step of its own.
    history.drag("ss1", (10.0, 10.0))
    history.settle()
    assert history.undo() == "move Skald's Strand 1"
    assert history.draft.positions["ss1"] == (70.0, 40.0)
    assert history.undo() == "move Skald's Strand 1"
    assert history.draft.positions["ss1"] == start and history.undo() is None


def test_typing_one_name_is_one_step_but_two_fields_are_two():
    history = fresh()
    typed(history, "troll-fen", "Bog")
    history.rename("Fen Isle")
    history.rename("Fen Isle 2")
    assert [str(step.label) for step in history.undos] == ["rename Troll Fen", "rename the board"]
    history.undo()
    assert (
        history.draft.name == "My Duel Isle" and history.draft.territory("troll-fen").name == "Bog"
    )


def test_a_new_edit_after_undo_clears_redo():
    history = fresh()
    history.add_location("skalds-strand", (95.0, 60.0))
    history.set_bonus("skalds-strand", 3)
    history.undo()
    assert history.redo_label == "set Skald's Strand's bonus to 3"
    history.remove_location("nc1")
    assert history.redo_label is None and history.redo() is None
    assert history.draft.territory("skalds-strand").bonus == 1
    assert [str(step.label) for step in history.undos] == [
        "add a space to Skald's Strand",
        "remove North Cliffs 1",
    ]


def test_undo_goes_all_the_way_back_and_redo_all_the_way_forward():
    history = fresh()
    original = history.draft.copy()
    new = history.add_location("skalds-strand", (95.0, 60.0))
    history.toggle_path("ss2", new)
    history.drag(new, (97.5, 61.0))
    history.settle()
    finished = history.draft.copy()
    assert finished.problem() is None

    while history.undo() is not None:
        pass
    assert history.draft == original
    while history.redo() is not None:
        pass
    assert history.draft == finished and new in history.draft.board().location_ids


def test_nothing_changed_is_no_step():
    history = fresh()
    history.set_bonus("skalds-strand", 1)
    history.rename_territory("troll-fen", "Troll Fen")
    history.rename("My Duel Isle")
    assert history.undo_label is None


def test_removing_the_last_territory_leaves_a_new_one_in_the_same_step():
    table = board_from_counts("Kitchen Table", [("North", 2, 3)])
    history = DraftHistory(BoardDraft.from_board(table))
    history.remove_territory("north")
    assert [t.name for t in history.draft.territories] == ["Territory 1"]
    assert history.undo() == "remove North"
    assert [t.name for t in history.draft.territories] == ["North"]
    assert len(history.draft.positions) == 3


def test_a_snapshot_shares_nothing_with_the_draft():
    history = fresh()
    history.add_location("skalds-strand", (95.0, 60.0))
    snapshot = history.undos[-1].draft
    assert "skalds-strand-1" not in snapshot.positions
    assert snapshot.territory("skalds-strand").locations == ["ss1", "ss2"]


# --- deleting a saved user board ------------------------------------------------------------


@pytest.fixture
def data(tmp_path, monkeypatch):
    """User boards kept in a folder of the test's own."""
    monkeypatch.setenv("SUMMONERS_ISLE_DATA", str(tmp_path))
    return tmp_path


def test_deleting_a_user_board_removes_its_file_and_only_it(data):
    kitchen = board_from_counts("Kitchen Table", [("North", 2, 3)])
    saved = BoardDraft.from_board(DUEL).board()
    kitchen_file = save_user_board(kitchen)
    save_user_board(saved)
    assert kitchen_file == data / "boards" / "my-kitchen-table.json"

    delete_user_board("my-kitchen-table")
    assert not kitchen_file.exists()
    assert [board.id for board in user_boards()] == ["my-duel-isle"]
    assert (data / "boards" / "my-duel-isle.json").exists()


def test_a_board_is_deleted_by_the_id_inside_its_file(data):
    kitchen = board_from_counts("Kitchen Table", [("North", 2, 3)])
    folder = boards_dir()
    folder.mkdir(parents=True)
    copied = folder / "from-a-friend.json"
    copied.write_text(json.dumps(kitchen.model_dump(mode="json")), encoding="utf-8")
    assert [board.id for board in user_boards()] == ["my-kitchen-table"]

    delete_user_board("my-kitchen-table")
    assert not copied.exists() and user_boards() == []


@pytest.mark.parametrize("board_id", shipped_board_ids())
def test_a_shipped_layout_cannot_be_deleted_even_copied_among_the_users(data, board_id):
    copied = save_user_board(shipped_board(board_id))
    with pytest.raises(BoardError, match="shipped layout: it cannot be deleted"):
        delete_user_board(board_id)
    assert copied.exists()


def test_deleting_a_board_never_saved_says_so(data):
    with pytest.raises(BoardError, match="no saved board 'my-nowhere'"):
        delete_user_board("my-nowhere")
    save_user_board(board_from_counts("Kitchen Table", [("North", 2, 3)]))
    with pytest.raises(BoardError, match="no saved board 'my-nowhere'"):
        delete_user_board("my-nowhere")
    assert len(user_boards()) == 1


# --- saving: a board is never replaced unless the user says so ------------------------------


def edited_copy_of_duel_isle(x: float) -> BoardDraft:
    """A copy of Duel Isle, as the editor starts it, with one space moved."""
    draft = BoardDraft.from_board(DUEL)
    draft.move_location("ss1", (x, 50.0))
    return draft


def test_a_second_copy_of_a_shipped_layout_does_not_replace_the_first(data):
    first = edited_copy_of_duel_isle(10.0).board()
    second = edited_copy_of_duel_isle(20.0).board()
    assert first.name == second.name == "My Duel Isle"
    path = save_user_board(first)
    before = path.read_bytes()

    with pytest.raises(BoardExists, match="'My Duel Isle' is saved under the same name") as clash:
        save_user_board(second)
    assert clash.value.saved == first
    assert path.read_bytes() == before

    both = keep_both(second)
    assert (both.name, both.id) == ("My Duel Isle 2", "my-duel-isle-2")
    save_user_board(both)
    assert [board.name for board in user_boards()] == ["My Duel Isle", "My Duel Isle 2"]
    assert keep_both(second).name == "My Duel Isle 3"


def test_replacing_is_done_only_when_asked(data):
    path = save_user_board(edited_copy_of_duel_isle(10.0).board())
    second = edited_copy_of_duel_isle(20.0).board()
    save_user_board(second, replace=True)
    assert user_boards() == [second]
    assert json.loads(path.read_text(encoding="utf-8"))["locations"][0]["x"] == 20.0


def test_names_that_differ_only_in_case_and_punctuation_are_not_merged_silently(data):
    save_user_board(board_from_counts("my isle", [("North", 2, 3)]))
    with pytest.raises(BoardExists, match="'my isle'"):
        save_user_board(board_from_counts("My Isle!!", [("South", 1, 2)]))
    assert [board.name for board in user_boards()] == ["my isle"]


NAMES = ["龍の島", "Μήλος", "Остров", "द्वीप", "جزيرة", "Zoë's Isle", "Isle 2"]


def test_names_in_any_script_are_saved_side_by_side(data):
    for name in NAMES:
        save_user_board(board_from_counts(name, [("North", 2, 3)]))
    saved = user_boards()
    assert sorted(board.name for board in saved) == sorted(NAMES)
    assert len({board.id for board in saved}) == len(NAMES)
    assert "my-龍の島" in {board.id for board in saved}
    assert len(list(boards_dir().glob("*.json"))) == len(NAMES)


@pytest.mark.parametrize("name", ["", "   ", "\u200b", "\u200b\u200d \u2060"])
def test_a_name_that_shows_nothing_is_refused(name):
    with pytest.raises(BoardError, match=r"give the board a name|no visible character"):
        board_from_counts(name, [("North", 2, 3)])
    draft = BoardDraft.from_board(DUEL)
    draft.name = name
    assert draft.problem() is not None


def test_a_name_with_a_control_character_is_refused():
    with pytest.raises(BoardError, match="control character U\\+001B"):
        board_from_counts("Isle\x1b[2J", [("North", 2, 3)])


def test_territories_named_in_any_script_are_told_apart():
    board = board_from_counts("島", [("南", 2, 3), ("北", 1, 2), ("Δ", 3, 1)])
    assert [territory.id for territory in board.territories] == ["南", "北", "δ"]
    assert board.territories[0].locations == ("南-1", "南-2", "南-3")
    with pytest.raises(BoardError, match="two territories are called 'north'"):
        board_from_counts("Isle", [("North", 2, 3), ("north", 1, 1)])


def dialogs(page) -> list:
    """The dialogs (not the notices) a stand-in page was asked to show."""
    return [
        c.args[0] for c in page.show_dialog.call_args_list if isinstance(c.args[0], ft.AlertDialog)
    ]


def test_the_editor_asks_before_saving_over_another_board_and_can_keep_both(data):
    app = MagicMock()
    app.page.width, app.page.height = 400, 800
    app.words = language("en")
    app.visit.boards = FolderShelf()
    first = BoardEditor(app, ft.View(route="/board-editor"))
    first.save(None)
    assert dialogs(app.page) == []

    second = BoardEditor(app, ft.View(route="/board-editor"))
    second.draft.move_location("ss1", (20.0, 50.0))
    second.save(None)
    (asked,) = dialogs(app.page)
    assert asked.title.value == "Replace My Duel Isle?"
    assert [board.name for board in user_boards()] == ["My Duel Isle"]

    cancel, keep, replace = asked.actions
    assert (cancel.content, keep.content, replace.content) == ("Cancel", "Keep both", "Replace")
    keep.on_click(None)
    assert [board.name for board in user_boards()] == ["My Duel Isle", "My Duel Isle 2"]
    assert second.draft.name == "My Duel Isle 2"
    # Saving again updates the board it was saved as, without asking.
    second.save(None)
    assert len(dialogs(app.page)) == 1

    third = BoardEditor(app, ft.View(route="/board-editor"))
    third.draft.move_location("ss1", (30.0, 50.0))
    third.save(None)
    dialogs(app.page)[-1].actions[2].on_click(None)
    (replaced,) = [board for board in user_boards() if board.name == "My Duel Isle"]
    assert next(loc.x for loc in replaced.locations if loc.id == "ss1") == 30.0
