"""What Home and New game stand on, without a browser: where games stand, imports, typed names."""

import json

import pytest
from store_support import DUEL, TABLE, random_log

from companion.engine import Phase
from companion.play.home import Standing, Standings, import_log_file, players_of
from companion.play.new_game import name_problems as problems_of
from companion.store.store import open_store
from models.commands import Pass
from models.game_log import GameLog

# Home's cache of where each game stands, as a server holds one (Service.standings).
standing = Standings().of


@pytest.fixture
def store(tmp_path):
    with open_store(str(tmp_path / "games.sqlite3")) as opened:
        yield opened


def summary_of(store, game_id):
    return next(summary for summary in store.games() if summary.id == game_id)


def test_a_games_standing_names_its_board_round_and_whose_turn(store):
    saved = store.new_game(TABLE)
    assert standing(store, summary_of(store, saved.id)) == Standing(
        board="Gathering Isle", round="Round 1/6", turn="red's turn", route=f"/game/{saved.id}"
    )
    # Everyone done with every step: nobody's turn, the table tallies.
    while saved.state.phase is not Phase.ENERGY_AND_RESET:
        saved = store.append(saved.id, Pass(), saved.revision)
    waiting = standing(store, summary_of(store, saved.id))
    assert waiting.turn == "Energy and Reset"
    # Resume opens the screen the table needs next.
    assert waiting.route == f"/game/{saved.id}/reset"


def test_a_standing_is_read_once_per_revision(store, monkeypatch):
    saved = store.new_game(DUEL)
    summary = summary_of(store, saved.id)
    first = standing(store, summary)
    monkeypatch.setattr(store, "load", lambda _: pytest.fail("read again"))
    assert standing(store, summary) == first
    monkeypatch.undo()
    saved = store.append(saved.id, saved.state.legal_commands()[0], saved.revision)
    assert standing(store, summary_of(store, saved.id)).turn == "Bjorn's turn"


def test_players_are_named_as_people_list_them():
    assert players_of(["Ragna"]) == "Ragna"
    assert players_of(["Ragna", "Bjorn", "Sigrid"]) == "Ragna, Bjorn and Sigrid"


def test_an_exported_log_imports_as_a_new_game(store):
    log = random_log(DUEL, 2)
    saved, message = import_log_file(store, json.dumps(log.to_json()).encode())
    assert message == "Imported Ragna and Bjorn's finished game."
    # Exported as version 2: the same commands, each saying who made it.
    exported = store.export(saved.id)
    assert exported.version == 2
    assert [{k: v for k, v in c.items() if k != "by"} for c in exported.commands] == log.commands
    unfinished = GameLog(version=1, setup=DUEL, commands=log.commands[:5])
    saved, message = import_log_file(store, json.dumps(unfinished.to_json()).encode())
    assert message == "Imported Ragna and Bjorn's game."
    assert len(store.load(saved.id).log) == 5


def refused(store, data: bytes) -> str:
    saved, message = import_log_file(store, data)
    assert saved is None
    assert store.games() == []
    return message


def test_a_refused_log_is_one_sentence_and_saves_nothing(store):
    good = random_log(DUEL, 2).to_json()
    assert refused(store, b"\xff\xfe") == (
        "Not imported: that file is not a game log (it is not text)."
    )
    assert refused(store, b"{oops") == (
        "Not imported: that file is not a game log (its JSON breaks at line 1, column 2)."
    )
    assert refused(store, b"") == (
        "Not imported: that file is not a game log (its JSON breaks at line 1, column 1)."
    )
    for other in ([1, 2], {"format": "chess-pgn"}, {"players": []}):
        assert refused(store, json.dumps(other).encode()) == (
            "Not imported: that file is not a Summoner's Isle game log."
        )
    newer = refused(store, json.dumps(good | {"version": 99}).encode())
    assert newer.startswith("Not imported: this log is format version 99, newer than this app")
    players = [{"id": "red", "name": "Ragna"}, {"id": "blue", "name": "ragna"}]
    alike = good | {"setup": good["setup"] | {"players": players}}
    assert refused(store, json.dumps(alike).encode()) == (
        "Not imported: in this game log, Player 2's name is already Ragna's."
    )
    illegal = good | {"commands": [{"type": "pass"}, *good["commands"]]}
    assert refused(store, json.dumps(illegal).encode()).startswith("Not imported: command ")


def name_problems(names, words=None):
    """The form's sentence for each seat's name, in a language (English by default)."""
    from companion.language.render import language

    words = words or language("en")
    return [None if said is None else words.render(said) for said in problems_of(names)]


def test_typed_names_are_checked_as_the_model_checks_them():
    assert name_problems(["Ragna", "Bjorn"]) == [None, None]
    assert name_problems(["Ragna", " ragna", "", "A\tB"]) == [
        None,
        "Player 2's name is already Ragna's.",
        "Player 3's name is blank.",
        "Player 4's name has a control character (a tab or a line break, say) in it.",
    ]


def test_import_reads_the_file_as_strictly_as_every_other_input(store):
    """Import reads through the strict reader: duplicate keys, a 5,000-digit number or deep
    nesting are refused with a sentence, never taken silently or crashing the session."""
    good = random_log(DUEL, 2).to_json()
    text = json.dumps(good)
    twice = text[:-1] + ', "commands": []}'
    assert refused(store, twice.encode()) == (
        "Not imported: the key 'commands' appears twice in one object."
    )
    huge = text.replace(f'"version": {good["version"]}', '"version": ' + "9" * 5000)
    assert refused(store, huge.encode()) == (
        "Not imported: a number of 5000 characters (999999999999...); none may be longer than 32."
    )
    deep = text[:-1] + ', "x": ' + "[" * 10_000 + "]" * 10_000 + "}"
    assert refused(store, deep.encode()) == (
        "Not imported: the file is nested 10001 levels deep; at most 32 are read."
    )
    assert refused(store, b" " * (5 * 1024 * 1024)) == (
        "Not imported: the file is larger than 3 MiB."
    )


def test_an_import_refusal_is_said_in_french_too(store):
    from companion.language.render import language

    saved, said = import_log_file(store, b'{"format": 1, "format": 2}', language("fr"))
    assert saved is None
    assert said == ("Non importé\u202f: la clé 'format' figure deux fois dans un même objet.")
