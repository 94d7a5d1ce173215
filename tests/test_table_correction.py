"""The table's correction dialog built without a browser, on a fake page: it offers only the
players this device may correct, starts on the device's own player, and a refusal of the
record itself (the seats changed while it was open) keeps what was typed, saying why."""

from __future__ import annotations

from types import SimpleNamespace

import flet as ft
import pytest

from companion.app.screens.table_correction import correction_dialog, correction_tool
from companion.language.render import screen_language
from companion.play.session import GameSession
from companion.play.sharing.seats import WATCHER
from companion.play.turns import Turns
from companion.store.store import open_store
from models.commands import Correction
from models.setup import GameSetup

WORDS = screen_language("en")


class Page:
    """What the dialog asks of a page: dialogs shown and closed, updates."""

    def __init__(self) -> None:
        self.dialogs: list[ft.Control] = []

    def show_dialog(self, dialog: ft.Control) -> None:
        self.dialogs.append(dialog)

    def pop_dialog(self) -> None:
        self.dialogs.pop()

    def update(self, *_: object) -> None:
        """Nothing to send: no browser."""


@pytest.fixture
def table():
    """Bob's phone at a shared 2-player table, both players seated, and its screen's parts."""
    with open_store("sqlite://") as store:
        setup = GameSetup(
            players=[{"id": "a", "name": "Ann"}, {"id": "b", "name": "Bob"}], board="duel-isle"
        )
        seat = {"now": "b"}
        session = GameSession(
            store, store.new_game(setup).id, lambda: seat["now"], lambda: {"a", "b"}
        )
        shown = []
        screen = SimpleNamespace(
            app=SimpleNamespace(page=Page()),
            session=session,
            words=WORDS,
            turns=Turns(session, lambda revision: None),
            after=shown.append,
        )
        yield screen, seat, shown


def fields(dialog: ft.AlertDialog):
    """The dialog's player picker (inside its screen reader's name), change and reason."""
    who, amount, reason = dialog.content.controls
    return who.content, amount, reason


def test_the_form_offers_this_phones_own_player_and_records_as_its_phone(table):
    screen, _, shown = table
    correction_dialog(screen)
    (dialog,) = screen.app.page.dialogs
    who, amount, reason = fields(dialog)
    assert [option.key for option in who.options] == ["b"] and who.value == "b"
    amount.value, reason.value = "2", "a Sprite we forgot"
    dialog.actions[1].on_click(None)
    assert screen.app.page.dialogs == [] and shown[0].ok
    assert screen.session.saved.log[-1].command == Correction(
        "b", 2, "a Sprite we forgot", made_by="b"
    )


def test_a_refused_record_keeps_what_was_typed_and_says_why(table):
    screen, seat, shown = table
    correction_dialog(screen)
    (dialog,) = screen.app.page.dialogs
    _, amount, reason = fields(dialog)
    amount.value, reason.value = "2", "a Sprite we forgot"
    # The phone's seat is given up while the dialog is open: the record is refused.
    seat["now"] = WATCHER
    dialog.actions[1].on_click(None)
    assert screen.app.page.dialogs == [dialog] and not shown
    assert (amount.value, reason.value) == ("2", "a Sprite we forgot")
    assert amount.error == "This device is watching: it cannot record anything."
    assert not screen.session.saved.log


def test_a_device_that_may_correct_nobody_says_where_energy_is_corrected(table):
    screen, seat, _ = table
    seat["now"] = WATCHER
    screen.session = GameSession(screen.session.store, screen.session.id, lambda: WATCHER)
    tool = correction_tool(screen)
    assert isinstance(tool, ft.Text) and tool.value == (
        "Energy is corrected by hand on a player's own device or the scorekeeper's."
    )
