"""A record names the tap it belongs to, so undo and redo take back exactly what
one tap recorded, and export, import and replay keep where taps begin. No clock decides it.
"""

from __future__ import annotations

import json

import pytest
from sqlalchemy import create_engine, text
from store_support import BACKENDS, database_url

from companion.store.database import migrate
from companion.store.store import open_store
from models.commands import Removal, Skip, Summon
from models.game_log import GameLog
from models.problems import problem
from models.rules import CreatureKind
from models.setup import GameSetup

W, T, S = CreatureKind.WYRM, CreatureKind.TROLL, CreatureKind.SPRITE
SETUP = GameSetup(
    players=[{"id": "a", "name": "Ann"}, {"id": "b", "name": "Bob"}, {"id": "c", "name": "Cy"}],
    board="gathering-isle",
)
# Round 1 as a table records it, tap by tap: skips and summons in one tap, a skip alone
# ("To Bob's Trolls"), then Bob's removal in a tap of its own.
TAPS = [
    [Skip("summoning", T, "a"), Summon(T, by="a")],
    [Summon(T, by="b")],
    [Skip("summoning", S, "c"), Summon(S, by="c")],
    [Summon(S, by="c")],
    [Skip("summoning")],
    [Skip("actions", T, "b")],
    [Removal("c", S, by="b")],
]


@pytest.fixture(params=BACKENDS)
def url(request, tmp_path):
    yield from database_url(request.param, tmp_path)


@pytest.fixture
def store(url):
    with open_store(url) as opened:
        yield opened


def played(store):
    """The taps recorded one by one; the saved game."""
    saved = store.new_game(SETUP)
    for tap in TAPS:
        saved = store.append_all(saved.id, tap, saved.revision)
    return saved


def undone_tap_by_tap(store, saved) -> list[list[str]]:
    """Undo until nothing is left: what each undo took back, as command types."""
    taken = []
    while saved.log:
        before = len(saved.log)
        saved = store.undo(saved.id, saved.revision)
        taken.append(
            [type(entry.command).__name__ for entry in saved.undone[: before - len(saved.log)]]
        )
    return taken


def test_undo_takes_back_one_tap_whatever_the_clock_says(store):
    saved = played(store)
    assert undone_tap_by_tap(store, saved) == [
        [type(command).__name__ for command in tap] for tap in reversed(TAPS)
    ]


def test_an_exported_table_game_reimported_undoes_tap_by_tap_as_the_original(store):
    saved = played(store)
    log = store.export(saved.id)
    # The skip alone and Bob's removal after it are two taps, which the commands alone do not
    # say: the log names the taps.
    assert log.taps == [len(tap) for tap in TAPS]
    text_form = json.dumps(log.to_json())
    copy = store.import_log(GameLog.model_validate_json(text_form))
    assert undone_tap_by_tap(store, copy) == undone_tap_by_tap(store, store.load(saved.id))


def test_a_log_whose_commands_say_their_taps_leaves_them_out():
    commands = [command for tap in TAPS[:4] for command in tap]
    log = GameLog.of(SETUP, commands, taps=[len(tap) for tap in TAPS[:4]])
    assert "taps" not in log.to_json()  # readable by a build from before taps were kept
    assert GameLog.of(SETUP, commands).taps is None


def test_taps_that_do_not_add_up_to_the_commands_are_refused():
    with pytest.raises(ValueError) as refused:
        GameLog.model_validate(
            {"setup": SETUP.model_dump(mode="json"), "commands": [], "taps": [1]}
        )
    said = str(problem(refused.value, {}))
    assert "taps of 1 commands in all, but holds 0" in said


def test_rows_saved_before_taps_were_kept_get_them_from_the_migration(tmp_path):
    """Schema 0002 told taps apart by time: the migration keeps those taps, once."""
    url = f"sqlite:///{tmp_path}/games.sqlite3"
    engine = create_engine(url)
    migrate(engine, "0002")
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO games (id, created, updated, board, setup, players, options, "
                "status, round, summoner, revision, secret) VALUES ('g1', :now, :now, "
                "'gathering-isle', :setup, '[\"a\",\"b\",\"c\"]', :options, 'active', 1, 0, 3, "
                "'00')"
            ),
            {
                "now": "2026-11-01 10:00:00",
                "setup": json.dumps(SETUP.model_dump(mode="json")),
                "options": json.dumps(
                    {"final_round": 6, "mode": "table", "turn_order": ["a", "b", "c"]}
                ),
            },
        )
        for seq, (command, at) in enumerate(
            [
                ({"type": "summon", "kind": "wyrm", "by": "a"}, "10:01"),
                ({"type": "skip", "phase": "summoning", "kind": "sprite", "player": "c"}, "10:02"),
                ({"type": "summon", "kind": "sprite", "by": "c"}, "10:02"),
            ],
            start=1,
        ):
            connection.execute(
                text(
                    "INSERT INTO commands (game_id, seq, command, description, created) "
                    "VALUES ('g1', :seq, :command, '', :at)"
                ),
                {"seq": seq, "command": json.dumps(command), "at": f"2026-11-01 {at}:00"},
            )
    engine.dispose()
    with open_store(url) as store:
        saved = store.load("g1")
        assert [entry.tap for entry in saved.log] == [1, 2, 2]
        assert undone_tap_by_tap(store, saved) == [["Skip", "Summon"], ["Summon"]]
