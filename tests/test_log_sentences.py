"""One sentence form: the log keeps each record's sentence as a message
(its id and values), and every reader renders it in their own language; English is one
rendering like French."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import create_engine, text
from store_support import DUEL, GATHERING, TABLE, finished_game

from companion.language import Message, Term
from companion.language.render import language, render
from companion.language.stored import NotAMessage, message_from_json, message_to_json
from companion.play.session import GameSession
from companion.store.store import open_store
from models.commands import Pass, Summon

FR = language("fr")


@pytest.fixture
def store():
    with open_store("sqlite://") as opened:
        yield opened


@pytest.mark.parametrize("setup", [DUEL, GATHERING], ids=["duel", "gathering"])
def test_every_sentence_of_whole_games_goes_through_json_unchanged(store, setup):
    for seed in range(3):
        saved = finished_game(store, setup, seed)
        said = [entry.sentence for entry in saved.log]
        said += [entry.reset for entry in saved.log if entry.reset is not None]
        for message in said:
            data = json.loads(json.dumps(message_to_json(message), ensure_ascii=False))
            assert message_from_json(data) == message


@pytest.mark.parametrize(
    "data",
    [
        "Ragna passes",
        ["m", "v"],
        {"m": "pass"},
        {"m": 7, "v": {}},
        {"m": "pass", "v": []},
        {"m": "pass", "v": {"flag": True}},
        {"m": "pass", "v": {"name": {"t": "Rune Hollow", "c": None}}},
        {"m": "pass", "v": {"name": {"t": "Rune Hollow", "c": None, "n": "1"}}},
        {"m": "pass", "v": {"name": None}},
        {"m": "pass", "v": {"x": 1}, "extra": 2},
    ],
)
def test_data_that_is_not_a_stored_message_is_named_as_such(data):
    with pytest.raises(NotAMessage):
        message_from_json(data)


def test_terms_and_lists_keep_their_context_and_number():
    message = Message(
        "join.comma", first=Term("Rune Hollow", "board duel-isle", 2), rest=("a", 3, Term("x"))
    )
    assert message_from_json(message_to_json(message)) == message


def test_the_log_row_keeps_the_message_and_every_language_reads_it(tmp_path):
    url = f"sqlite:///{tmp_path}/games.sqlite3"
    with open_store(url) as first:
        saved = first.new_game(DUEL)
        saved = first.append(saved.id, Summon("wyrm", "rh1"), saved.revision)
    engine = create_engine(url)
    with engine.connect() as connection:
        (stored,) = connection.execute(text("SELECT description FROM commands")).scalars()
    engine.dispose()
    assert json.loads(stored)["m"] == saved.log[0].sentence.id
    with open_store(url) as reopened:
        entry = reopened.load(saved.id).log[0]
    assert render(entry.sentence, "en") == (
        "Ragna summons a Wyrm onto Rune Hollow 1 for 5 energy (5 → 0)"
    )
    assert render(entry.sentence, "fr") == (
        "Ragna invoque un Wyrm au Creux des Runes 1 pour 5 points d'énergie (5 → 0)"
    )


def test_undo_and_redo_say_the_records_of_one_tap_in_the_devices_language(store):
    saved = store.new_game(TABLE)
    session = GameSession(store, saved.id)
    # One tap at the table: a skip to green, then green's Wyrm (two records, one tap).
    assert session.do_all(session.state.reach(Summon("wyrm", by="green"))).ok
    french = session.undo_text(FR)
    assert french == (
        "red et blue n'invoquent plus de Wyrms\u202f; green invoque un Wyrm pour 5 points "
        "d'énergie (5 → 0)"
    )
    undone = session.undo()
    assert undone.ok and session.redo_text(FR) == french
    assert session.do(Pass(), by="red").ok and session.redo_text(FR) is None
