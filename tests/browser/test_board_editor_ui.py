"""The board editor in Chromium: undo and redo of a space added by touch; a board saved, deleted.

Taps on the isle land on canvas coordinates computed with `Layout.fit` from the board's
on-screen box, with the canvas helpers of browser_ui.py.
"""

from __future__ import annotations

import time

from browser_ui import BOARD, PHONE, Screen, click_until, scroll_to, tap_location

from companion.boards import shipped_board
from companion.play.board_draft import BoardDraft
from companion.play.board_layout import Layout
from models.board import Board

READY = "Ready for the digital board: 24 spaces in 7 territories, 34 paths"
JOINED = "Ready for the digital board: 25 spaces in 7 territories, 35 paths"


def settled_canvas(page, board: Board) -> tuple[dict, Layout]:
    """The editor's canvas box and layout, once the whole board has settled in view."""
    box = None
    for _ in range(20):
        tap_location(page, board, "ss1", click=False)
        time.sleep(0.3)
        again = page.locator(BOARD).first.bounding_box()
        if again is not None and again == box:
            return box, Layout.fit(board, box["width"], box["height"], frame=True)
        box = again
    raise AssertionError("the editor's board did not settle")


def test_board_editor_undoes_redoes_saves_and_deletes_a_board(server, browser, artifacts):
    """A space added by touch, undone, redone, joined; the board saved, then deleted."""
    started = time.perf_counter()
    duel = BoardDraft.from_board(shipped_board("duel-isle"))
    ui = Screen(browser.new_page(viewport=PHONE), artifacts)
    ui.open(f"{server.url}/board-editor", READY)
    page = ui.page
    ui.wait_for("Nothing to undo")

    # Add: a space in Skald's Strand, in the open sea east of ss1.
    click_until(ui, ui.button("Add"), "Tap beside the spaces")
    scroll_to(page, page.locator("[flt-semantics-identifier=editor-territory]")).click()
    ui.click(ui.button("Skald's Strand · bonus 1 · 2 spaces"))
    box, layout = settled_canvas(page, duel.sketch())
    x, y = layout.points["ss1"]
    x += 3 * layout.radius
    page.mouse.click(box["x"] + x, box["y"] + y)
    added = duel.add_location("skalds-strand", layout.to_board(x, y))
    ui.wait_for("The isle is not connected")

    # Undo takes the space back, and Redo brings it back; each says what it does.
    ui.tap_matching("^Undo: add a space to Skald's Strand", READY, icon=True)
    ui.wait_for("Redo: add a space to Skald's Strand")
    ui.tap_matching("^Redo: add a space to Skald's Strand", "The isle is not connected", icon=True)
    ui.wait_for("Nothing to redo")

    click_until(ui, ui.button("Paths"), "Tap two spaces to join them")
    box, layout = settled_canvas(page, duel.sketch())
    for location in ("ss2", added):
        px, py = layout.points[location]
        page.mouse.click(box["x"] + px, box["y"] + py)
        time.sleep(0.5)
    ui.wait_for(JOINED)
    # Spaces named as the isle names them, never by their ids.
    ui.wait_for("Undo: join Skald's Strand 2 and Skald's Strand 3")
    ui.shot("phone-32-board-editor-undo", tall=1300)

    scroll_to(page, ui.button("Save board")).click()
    ui.wait_for("Saved My Duel Isle")
    saved = server.data / "boards" / "my-duel-isle.json"
    board = Board.model_validate_json(saved.read_text())
    assert added in board.territory_of(added).locations and board.playable_digitally

    # Opened again in a new tab (a reload would find the same session, draft and all), the
    # editor starts from Duel Isle; the saved board is picked in Start from.
    page.close()
    ui = Screen(browser.new_page(viewport=PHONE), artifacts)
    page = ui.page
    ui.open(f"{server.url}/board-editor", READY)
    # Gathering Isle shows only in the open list of boards to start from.
    click_until(ui, page.locator("[flt-semantics-identifier=editor-start]"), "Gathering Isle")
    ui.click(ui.button("My Duel Isle"))
    ui.wait_for(JOINED)
    delete = scroll_to(page, ui.button("Delete this board"))

    # Cancel keeps the board; Delete removes its file.
    click_until(ui, delete, "Delete My Duel Isle?")
    ui.click(ui.button("Cancel"))
    ui.button("Cancel").wait_for(state="detached")
    assert saved.exists()
    click_until(ui, scroll_to(page, ui.button("Delete this board")), "Delete My Duel Isle?")
    ui.shot("phone-33-board-editor-delete", tall=PHONE["height"])
    ui.click(ui.button("Delete"))
    ui.wait_for("Deleted My Duel Isle. Starting again from Duel Isle")
    ui.wait_for(READY)
    assert not saved.exists() and list((server.data / "boards").glob("*.json")) == []
    assert ui.button("Delete this board").count() == 0
    # The deleted board's draft is one Undo away, to save again.
    ui.wait_for("Undo: start from Duel Isle")
    print(f"\nboard editor: undo, redo, save and delete in {time.perf_counter() - started:.1f} s")
