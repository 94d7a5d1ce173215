"""The saved-games store: the log is the record, undo keeps rows, writes check revisions."""

import importlib.util
import json
import random
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError
from sqlalchemy import Column, Integer, MetaData, Table, create_engine, select
from sqlmodel import SQLModel
from store_support import (
    BACKENDS,
    DUEL,
    GATHERING,
    TABLE,
    choose,
    database_url,
    finished_game,
    play,
)

from companion.engine import Game, IllegalCommand
from companion.engine.dice import with_rolls
from companion.engine.replay import replay
from companion.engine.serialize import state_to_json
from companion.language.render import render
from companion.store import DB_ENV
from companion.store.database import (
    HEAD_REVISION,
    SQLITE_HEADER,
    alembic_config,
    default_path,
    migrate,
    open_database,
    resolve_url,
    schema_revision,
)
from companion.store.dice import dice_for
from companion.store.errors import (
    GameMovedOn,
    GameNotFound,
    LogError,
    NothingToRedo,
    NothingToUndo,
    StoreError,
)
from companion.store.store import open_store
from models.commands import Attack, Correction, Pass, Skip, Summon, command_to_json
from models.game_log import GameLog
from models.records import CommandRecord, GameStatus, Mark
from models.rules import WINNING_ENERGY, CreatureKind

FIXTURE_DB = Path(__file__).parent / "data" / "store-schema-0001.sqlite3"


@pytest.fixture(params=BACKENDS)
def url(request, tmp_path):
    yield from database_url(request.param, tmp_path)


@pytest.fixture
def store(url):
    with open_store(url) as opened:
        yield opened


def rows(url: str, game_id: str) -> list[tuple[int, str | None]]:
    """(seq, mark) of every command row of a game, read straight from the database."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            query = (
                select(CommandRecord.seq, CommandRecord.mark)
                .where(CommandRecord.game_id == game_id)
                .order_by(CommandRecord.seq)
            )
            return [tuple(row) for row in connection.execute(query)]
    finally:
        engine.dispose()


def test_a_new_game_has_no_commands_and_revision_zero(store):
    saved = store.new_game(DUEL)
    assert saved.revision == 0
    assert saved.log == ()
    assert saved.status is GameStatus.ACTIVE
    assert state_to_json(saved.state) == state_to_json(
        Game(DUEL, saved.game.board).new_initial_state()
    )


def test_append_stores_the_command_and_its_sentence_and_survives_reopening(url, store):
    saved = store.new_game(DUEL)
    rng = random.Random(3)
    expected = []
    for _ in range(25):
        command = choose(saved, rng)
        filled = with_rolls(saved.state, command, dice_for(saved.secret, len(saved.log), command))
        expected.append((filled, str(saved.state.sentence(filled))))
        saved = store.append(saved.id, command, saved.revision)
    assert saved.revision == 25
    with open_store(url) as other:
        reopened = other.load(saved.id)
    assert [(e.command, str(e.sentence)) for e in reopened.log] == expected
    assert [e.seq for e in reopened.log] == list(range(1, 26))
    assert state_to_json(reopened.state) == state_to_json(saved.state)
    assert state_to_json(reopened.state) == state_to_json(
        replay(saved.game, [command for command, _ in expected])
    )


def test_the_handed_out_state_is_a_copy(store):
    saved = store.new_game(DUEL)
    saved.state.apply(saved.state.legal_commands()[0])
    assert store.load(saved.id).state.energy_of("red") == 5


def test_a_refused_command_is_not_stored(url, store):
    saved = store.new_game(DUEL)
    saved = store.append(saved.id, Summon("wyrm", "rh1"), saved.revision)
    with pytest.raises(IllegalCommand, match="not vacant"):
        store.append(saved.id, Summon("wyrm", "rh1"), saved.revision)
    assert rows(url, saved.id) == [(1, None)]
    assert store.load(saved.id).revision == 1


def test_a_write_from_an_old_revision_is_refused_and_changes_nothing(url, store):
    saved = store.new_game(DUEL)
    first = store.append(saved.id, saved.state.legal_commands()[0], saved.revision)
    for write in (
        lambda: store.append(saved.id, saved.state.legal_commands()[1], saved.revision),
        lambda: store.undo(saved.id, saved.revision),
        lambda: store.redo(saved.id, saved.revision),
    ):
        with pytest.raises(GameMovedOn, match="the game moved on") as caught:
            write()
        assert (caught.value.expected, caught.value.current) == (0, 1)
    with pytest.raises(GameMovedOn, match="no revision 7"):
        store.append(saved.id, Pass(), 7)
    assert rows(url, saved.id) == [(1, None)]
    assert store.load(saved.id).log == first.log


def test_a_second_device_sees_the_first_ones_writes(url, store):
    with open_store(url) as phone:
        saved = store.new_game(DUEL)
        mine = phone.load(saved.id)
        saved = store.append(saved.id, saved.state.legal_commands()[0], saved.revision)
        with pytest.raises(GameMovedOn):
            phone.append(mine.id, mine.state.legal_commands()[0], mine.revision)
        mine = phone.load(saved.id)
        assert mine.revision == 1
        assert mine.log == saved.log


def test_unknown_games(store):
    with pytest.raises(GameNotFound, match="no saved game with id 'nope'"):
        store.load("nope")
    with pytest.raises(GameNotFound):
        store.append("nope", Pass(), 0)


def attack_ready(store, seed: int = 1):
    """A duel played until an attack is among the legal commands."""
    rng = random.Random(seed)
    for _ in range(50):
        saved = store.new_game(DUEL)
        while not saved.state.is_terminal:
            attacks = [c for c in saved.state.legal_commands() if type(c) is Attack]
            if attacks:
                return saved, attacks[0]
            saved = store.append(saved.id, choose(saved, rng), saved.revision)
    raise AssertionError("no attack came up")


def test_an_attack_without_dice_is_stored_with_seeded_dice(url, store):
    saved, attack = attack_ready(store)
    assert attack.attack_roll is None
    index = len(saved.log)
    expected = with_rolls(saved.state, attack, dice_for(saved.secret, index, attack))
    saved = store.append(saved.id, attack, saved.revision)
    stored = saved.log[-1].command
    assert stored == expected
    assert stored.attack_roll is not None
    assert "against" in str(saved.log[-1].sentence)
    # The same game and place in its line always roll the same faces.
    first, again = dice_for(saved.secret, index, attack), dice_for(saved.secret, index, attack)
    assert [first() for _ in range(20)] == [again() for _ in range(20)]
    with open_store(url) as other:
        assert other.load(saved.id).log[-1].command == expected


def test_an_attack_with_dice_keeps_them(store):
    saved, attack = attack_ready(store, seed=2)
    rolled = with_rolls(saved.state, attack, lambda: 6)
    saved = store.append(saved.id, rolled, saved.revision)
    assert saved.log[-1].command == rolled


def test_undo_keeps_the_row_marked_and_redo_brings_it_back_after_a_restart(url, store):
    saved = play(store, store.new_game(DUEL), 6, random.Random(4))
    before = state_to_json(saved.state)
    labels = [str(entry.sentence) for entry in saved.log]
    for _ in range(3):
        assert str(saved.undo_label) == labels[len(saved.log) - 1]
        saved = store.undo(saved.id, saved.revision)
    assert [str(e.sentence) for e in saved.undone] == labels[3:]
    assert rows(url, saved.id) == [(1, None), (2, None), (3, None)] + [
        (seq, Mark.UNDONE) for seq in (4, 5, 6)
    ]
    with open_store(url) as restarted:
        saved = restarted.load(saved.id)
        assert str(saved.redo_label) == labels[3]
        assert state_to_json(saved.state) == state_to_json(
            replay(saved.game, [e.command for e in saved.log])
        )
        for _ in range(3):
            saved = restarted.redo(saved.id, saved.revision)
    assert state_to_json(saved.state) == before
    assert saved.revision == 6 + 3 + 3
    assert rows(url, saved.id) == [(seq, None) for seq in range(1, 7)]


def test_a_new_command_after_undo_abandons_the_redo_branch(url, store):
    saved = play(store, store.new_game(DUEL), 5, random.Random(5))
    saved = store.undo(saved.id, saved.revision)
    saved = store.undo(saved.id, saved.revision)
    saved = store.append(saved.id, saved.state.legal_commands()[-1], saved.revision)
    assert saved.undone == ()
    assert [e.seq for e in saved.log] == [1, 2, 3, 6]
    with pytest.raises(NothingToRedo):
        store.redo(saved.id, saved.revision)
    assert rows(url, saved.id) == [
        (1, None),
        (2, None),
        (3, None),
        (4, Mark.ABANDONED),
        (5, Mark.ABANDONED),
        (6, None),
    ]
    saved = store.undo(saved.id, saved.revision)
    assert [e.seq for e in saved.undone] == [6]
    with open_store(url) as other:
        assert [e.seq for e in other.load(saved.id).undone] == [6]


def test_nothing_to_undo(store):
    saved = store.new_game(DUEL)
    with pytest.raises(NothingToUndo):
        store.undo(saved.id, saved.revision)


def test_undo_reopens_a_finished_game_across_rounds(store):
    saved = finished_game(store, DUEL, 6)
    assert saved.status is GameStatus.FINISHED
    assert store.games(GameStatus.FINISHED)[0].id == saved.id
    assert store.unfinished() == []
    with pytest.raises(IllegalCommand, match="the game is over"):
        store.append(saved.id, Pass(), saved.revision)
    last_round = saved.state.round
    while saved.state.round == last_round:
        saved = store.undo(saved.id, saved.revision)
    assert saved.status is GameStatus.ACTIVE
    assert [game.id for game in store.unfinished()] == [saved.id]
    assert store.unfinished()[0].round == last_round - 1
    assert store.unfinished()[0].winner is None


def test_resume_lists_unfinished_games_and_reopens_them_where_they_stopped(url, store):
    rng = random.Random(7)
    done = finished_game(store, DUEL, 7)
    first = play(store, store.new_game(GATHERING), 30, rng)
    second = play(store, store.new_game(TABLE), 4, rng)
    with open_store(url) as restarted:
        unfinished = restarted.unfinished()
        assert [game.id for game in unfinished] == [second.id, first.id]
        assert unfinished[1].labels == ("red", "blue", "green", "yellow")
        assert unfinished[1].round == first.state.round
        assert unfinished[1].updated >= unfinished[1].created
        assert done.id not in {game.id for game in unfinished}
        for saved in (first, second):
            resumed = restarted.load(saved.id)
            assert state_to_json(resumed.state) == state_to_json(saved.state)
            assert resumed.revision == saved.revision


def test_table_games_are_stored_too(store):
    saved = store.new_game(TABLE)
    saved = store.append(saved.id, Summon("wyrm"), saved.revision)
    saved = store.append(saved.id, Correction("blue", 2, "miscounted at the table"), saved.revision)
    assert saved.state.energy_of("blue") == 7
    assert "miscounted at the table" in str(saved.log[-1].sentence)


def test_history_counts_wins_and_energy_by_round(store):
    rng = random.Random(8)
    finished = [finished_game(store, GATHERING, seed) for seed in range(3)]
    finished.append(finished_game(store, DUEL, 3))
    play(store, store.new_game(DUEL), 3, rng)
    report = store.history()
    assert report.games == 4
    seats = [str(s.game.players.index(s.state.winner_id) + 1) for s in finished]
    positions = [str(s.setup.first_turn_order.index(s.state.winner_id) + 1) for s in finished]
    assert report.wins_by_seat == {p: seats.count(p) for p in "1234"}
    assert report.wins_by_start_position == {p: positions.count(p) for p in "1234"}
    assert report.summoner_wins == sum(s.state.summoner for s in finished)
    assert report.summoner_wins + report.final_round_wins == 4
    for saved in finished:
        energy = store.energy_by_round(saved.id)
        assert set(energy) == set(saved.game.players)
        for player, rounds in energy.items():
            assert len(rounds) == saved.state.round
            assert rounds[-1] == saved.state.energy_of(player)
            assert all(0 <= e < WINNING_ENERGY for e in rounds[:-1])


def test_energy_by_round_is_read_at_each_round_end(store):
    saved = store.new_game(DUEL)
    rng = random.Random(9)
    ends = {player: [] for player in saved.game.players}
    while saved.state.round < 3:
        before = saved.state.round
        saved = store.append(saved.id, choose(saved, rng), saved.revision)
        if saved.state.round > before:
            for player in ends:
                ends[player].append(saved.state.energy_of(player))
    assert store.energy_by_round(saved.id) == ends


def test_export_then_import_gives_the_same_log_and_state(store):
    rng = random.Random(10)
    for setup, count in ((GATHERING, 60), (DUEL, 40), (TABLE, 6)):
        saved = play(store, store.new_game(setup), count, rng)
        saved = store.undo(saved.id, saved.revision)
        exported = store.export(saved.id)
        # Saved without `by`, exported as version 2: the same commands, each naming its player.
        assert exported.version == 2
        assert [
            {key: value for key, value in command.items() if key != "by"}
            for command in exported.commands
        ] == [command_to_json(e.command) for e in saved.log]
        assert all(
            "by" in command
            for command in exported.commands
            if command["type"] not in ("correction", "energy_and_reset")
        )
        copy = store.import_log(GameLog.model_validate_json(exported.model_dump_json()))
        assert copy.id != saved.id
        assert store.export(copy.id) == exported
        assert state_to_json(copy.state) == state_to_json(saved.state)
        assert [str(e.sentence) for e in copy.log] == [str(e.sentence) for e in saved.log]
        assert store.load(copy.id).revision == len(saved.log)


def test_import_fills_missing_dice_and_checks_every_command(store):
    saved, attack = attack_ready(store, seed=3)
    log = store.export(saved.id)
    attack = saved.state.sign(attack)
    log.commands.append(command_to_json(attack))
    copy = store.import_log(log)
    assert copy.log[-1].command == with_rolls(
        saved.state, attack, dice_for(copy.secret, len(copy.log) - 1, attack)
    )
    bad = store.export(saved.id)
    bad.commands.insert(
        1, {"type": "summon", "kind": "wyrm", "location": "nowhere", "by": bad.commands[1]["by"]}
    )
    count = len(store.games())
    with pytest.raises(LogError, match=r"^command 1: "):
        store.import_log(bad)
    assert len(store.games()) == count


def test_a_log_from_a_newer_format_is_refused():
    data = {"format": "summoners-isle-game", "version": 3, "setup": DUEL.model_dump(mode="json")}
    with pytest.raises(ValidationError, match="newer than this app reads"):
        GameLog.model_validate(data)


def test_a_setup_the_board_cannot_take_is_refused(store):
    with pytest.raises(StoreError, match="is for 2 players, not"):
        store.new_game(TABLE.model_copy(update={"board": "duel-isle"}))


# --- the database file --------------------------------------------------------------------


def test_the_default_database_is_a_file_in_the_user_data_directory(monkeypatch, tmp_path):
    monkeypatch.delenv(DB_ENV, raising=False)
    assert resolve_url(None).database == str(default_path())
    assert "summoners-isle" in str(default_path())
    monkeypatch.setenv(DB_ENV, "sqlite:///elsewhere.db")
    assert resolve_url(None).database == "elsewhere.db"
    assert resolve_url(str(tmp_path / "g.db")).database == str(tmp_path / "g.db")
    for bad in ("://x", "postgresql://host:port/db"):
        with pytest.raises(StoreError, match="not a database URL"):
            resolve_url(bad)
    with pytest.raises(StoreError, match="cannot use the database URL"):
        open_store("nonsense://x")


def test_sqlite_is_in_wal_mode_and_syncs_every_commit(tmp_path):
    database = open_database(str(tmp_path / "g.db"))
    with database.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        # 2 is FULL: the WAL is synced before a commit returns.
        assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == 2
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    database.engine.dispose()


def test_the_head_revision_constant_is_the_newest_migration():
    from alembic.script import ScriptDirectory

    assert ScriptDirectory.from_config(alembic_config()).get_current_head() == HEAD_REVISION


def test_the_migrations_build_exactly_the_models_tables(url):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    open_store(url).close()
    engine = create_engine(url)
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        differences = compare_metadata(context, SQLModel.metadata)
    engine.dispose()
    assert differences == []


def test_alembic_check_finds_the_migrations_up_to_date_with_the_models(url):
    # Through the migrations' own env.py: its target_metadata is the models' schema.
    from alembic import command
    from alembic.util import AutogenerateDiffsDetected

    open_store(url).close()
    engine = create_engine(url)
    config = alembic_config()
    try:
        with engine.connect() as connection:
            config.attributes["connection"] = connection
            command.check(config)
            # A table the migrations do not create is found: the check compares for real.
            extra = Table("extra", MetaData(), Column("id", Integer, primary_key=True))
            extra.to_metadata(SQLModel.metadata)
            try:
                with pytest.raises(AutogenerateDiffsDetected, match=r"add_table.*extra"):
                    command.check(config)
            finally:
                SQLModel.metadata.remove(SQLModel.metadata.tables["extra"])
    finally:
        engine.dispose()


def test_a_database_written_by_the_first_schema_opens_and_plays_on(tmp_path):
    """tests/data/store-schema-0001.sqlite3 was written by the store at schema revision 0001.

    It holds one duel: 20 seeded random commands, two undos, one new command, one undo;
    21 command rows (18 active, 2 abandoned, 1 undone) at revision 24.
    """
    path = tmp_path / "old.sqlite3"
    shutil.copy(FIXTURE_DB, path)
    with sqlite3.connect(path) as connection:
        assert connection.execute("SELECT version_num FROM alembic_version").fetchall() == [
            ("0001",)
        ]
    with open_store(str(path)) as store:
        assert store.notices == []
        (summary,) = store.games()
        saved = store.load(summary.id)
        assert (saved.revision, len(saved.log), len(saved.undone), saved.last_seq) == (
            24,
            18,
            1,
            21,
        )
        assert state_to_json(saved.state) == state_to_json(
            replay(saved.game, [e.command for e in saved.log])
        )
        assert (saved.state.round, saved.state.phase.value) == (2, "actions")
        assert (saved.state.energy_of("red"), saved.state.energy_of("blue")) == (0, 2)
        assert "6+2=8 against 7, removed" in str(saved.log[-1].sentence)
        # Its rows hold English words, from before sentences were data: the active ones are
        # told again from their commands, so every language reads them; the undone one
        # keeps its words as recorded.
        assert "6+2=8 contre 7, retiré" in render(saved.log[-1].sentence, "fr")
        assert saved.undone[0].sentence.id == "log.recorded"
        saved = store.redo(saved.id, saved.revision)
        saved = store.append(saved.id, saved.state.legal_commands()[0], saved.revision)
        assert saved.last_seq == 22
    with sqlite3.connect(path) as connection:
        assert connection.execute("SELECT version_num FROM alembic_version").fetchall() == [
            (HEAD_REVISION,)
        ]


def test_a_database_built_by_revision_0001_alone_upgrades(tmp_path):
    url = f"sqlite:///{tmp_path}/g.db"
    engine = create_engine(url)
    migrate(engine, "0001")
    with engine.connect() as connection:
        assert schema_revision(connection) == "0001"
    engine.dispose()
    with open_store(url) as store:
        saved = store.new_game(DUEL)
        assert store.append(saved.id, Pass(), 0).revision == 1


def test_a_database_from_a_newer_app_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "g.db"
    open_store(str(path)).close()
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '9999'")
    before = path.read_bytes()
    with pytest.raises(StoreError, match="newer than this app knows"):
        open_store(str(path))
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir() if "corrupt" in p.name) == []


def test_a_damaged_sqlite_file_is_moved_aside_and_a_new_one_started(tmp_path):
    path = tmp_path / "games.sqlite3"
    garbage = SQLITE_HEADER + b"this is not a database, it is a shopping list\n" * 200
    path.write_bytes(garbage)
    with open_store(str(path)) as store:
        (notice,) = store.notices
        (aside,) = [p for p in tmp_path.iterdir() if ".corrupt-" in p.name]
        assert aside.read_bytes() == garbage
        assert str(aside) in str(notice)
        assert "moved to" in str(notice)
        assert store.games() == []
        store.new_game(DUEL)
    with open_store(str(path)) as store:
        assert store.notices == []
        assert len(store.games()) == 1


@pytest.mark.parametrize(
    "content",
    [
        b"this is not a database, it is a shopping list\n" * 200,
        b'{"games": []}',
        b"S",
        SQLITE_HEADER[:-1],
    ],
    ids=["text", "json", "one byte", "most of the sqlite header"],
)
def test_a_file_that_is_not_sqlite_is_refused_and_left_alone(tmp_path, content):
    path = tmp_path / "notes.json"
    path.write_bytes(content)
    with pytest.raises(StoreError, match=f"{path} is not a games database"):
        open_store(str(path))
    assert path.read_bytes() == content
    assert [p.name for p in tmp_path.iterdir()] == ["notes.json"]


def test_an_empty_file_becomes_a_new_database(tmp_path):
    path = tmp_path / "games.sqlite3"
    path.touch()
    with open_store(str(path)) as store:
        assert store.notices == []
        store.new_game(DUEL)
    assert path.read_bytes().startswith(SQLITE_HEADER)
    assert not list(tmp_path.glob("*.corrupt-*"))
    with open_store(str(path)) as store:
        assert len(store.games()) == 1


@pytest.mark.parametrize("under", ["games.db", "saves/games.db"])
def test_a_database_path_under_a_file_names_the_folder(tmp_path, under):
    blocker = tmp_path / "notes.json"
    blocker.write_text("{}")
    path = blocker / under
    with pytest.raises(StoreError, match=f"cannot make the folder {path.parent} for the database"):
        open_store(str(path))
    assert blocker.read_text() == "{}"


@pytest.mark.skipif(
    importlib.util.find_spec("MySQLdb") is not None, reason="the MySQL driver is installed"
)
def test_a_database_whose_driver_is_missing_is_one_clear_error():
    with pytest.raises(StoreError, match="its database driver is not installed"):
        open_store("mysql://host/db")


def test_a_database_with_damaged_pages_is_moved_aside(tmp_path):
    path = tmp_path / "games.sqlite3"
    with open_store(str(path)) as store:
        for _ in range(3):
            finished_game(store, DUEL, 11)
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 6 * page
    # Scribble over the middle of the file, leaving the header intact.
    data[3 * page : 5 * page] = bytes(range(256)) * (2 * page // 256)
    path.write_bytes(bytes(data))
    with open_store(str(path)) as store:
        assert len(store.notices) == 1
        assert store.games() == []
    (aside,) = [p for p in tmp_path.iterdir() if ".corrupt-" in p.name and p.name.endswith("Z")]
    assert aside.read_bytes() == bytes(data)


def test_postgresql_without_its_driver_names_the_extra(monkeypatch):
    # As if psycopg were not installed: `import psycopg` fails.
    monkeypatch.setitem(sys.modules, "psycopg", None)
    with pytest.raises(StoreError) as raised:
        open_store("postgresql+psycopg://nobody:secret@127.0.0.1:1/none")
    message = str(raised.value)
    assert "its database driver is not installed" in message
    assert "pip install 'summoners-isle-companion[postgres]'" in message
    assert "secret" not in message and "\n" not in message


@pytest.mark.skipif(importlib.util.find_spec("psycopg") is None, reason="the postgres extra")
def test_an_unreadable_database_url_is_one_clear_error():
    with pytest.raises(StoreError, match="cannot open the database"):
        open_store("postgresql+psycopg://nobody:secret@127.0.0.1:1/none?connect_timeout=2")


def test_export_is_the_game_log_format(store):
    saved = play(store, store.new_game(DUEL), 5, random.Random(12))
    data = json.loads(store.export(saved.id).model_dump_json())
    assert data["format"] == "summoners-isle-game"
    assert data["version"] == 2
    assert data["setup"] == DUEL.model_dump(mode="json")


def test_a_computer_seat_is_exported_and_a_person_s_seat_does_not_mention_bots(store):
    blue = DUEL.players[1]
    setup = DUEL.model_copy(
        update={"players": (DUEL.players[0], blue.model_copy(update={"bot": "mcts:easy"}))}
    )
    data = store.export(store.new_game(setup).id).to_json()
    person, computer = data["setup"]["players"]
    # Left out when empty, so a log without bots reads in builds from before them.
    assert "bot" not in person
    assert computer["bot"] == "mcts:easy"
    copy = store.import_log(GameLog.model_validate(data))
    assert copy.setup.players[1].bot == "mcts:easy"


def test_the_bench_reports_its_three_figures(tmp_path):
    """Only the keys and their sense are checked here; the figures come from `bench` itself."""
    from companion.store.bench import store_bench

    figures = store_bench(appends=20, reopens=1, folder=tmp_path)
    assert set(figures) == {"append_p50_ms", "append_p99_ms", "reopen_rebuild_ms"}
    assert 0 < figures["append_p50_ms"] <= figures["append_p99_ms"]
    assert figures["reopen_rebuild_ms"] > 0
    assert list(tmp_path.iterdir()) == []


def test_a_write_that_cannot_get_the_database_is_one_error_and_changes_nothing(
    tmp_path, monkeypatch
):
    monkeypatch.setattr("companion.store.database.BUSY_TIMEOUT_S", 0.2)
    path = tmp_path / "games.sqlite3"
    with open_store(str(path)) as store:
        saved = store.new_game(DUEL)
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        with pytest.raises(StoreError, match=r"could not save to .*: database is locked"):
            store.append(saved.id, saved.state.legal_commands()[0], saved.revision)
        other.execute("ROLLBACK")
        other.close()
        assert store.load(saved.id).revision == 0
        assert store.append(saved.id, saved.state.legal_commands()[0], 0).revision == 1


def test_append_all_records_every_command_of_a_tap_or_none(store, url):
    saved = store.new_game(TABLE)
    skip = Skip("summoning", CreatureKind.TROLL, "green")
    # After one Troll green cannot afford another, so the step moves on to red and the
    # second summon is refused: the whole tap is refused and nothing is stored.
    with pytest.raises(IllegalCommand, match="green cannot summon Trolls: 2 energy"):
        store.append_all(
            saved.id, [skip, Summon("troll", by="green"), Summon("troll", by="green")], 0
        )
    assert rows(url, saved.id) == []
    assert store.load(saved.id).revision == 0
    saved = store.append_all(saved.id, [skip, Summon("troll", by="green")], 0)
    # One write, two entries, undone one at a time.
    assert saved.revision == 1
    assert [str(entry.sentence) for entry in saved.log] == [
        "red, blue and green are done summoning Wyrms; red and blue are done summoning Trolls",
        "green summons a Troll for 3 energy (5 → 2)",
    ]
    assert rows(url, saved.id) == [(1, None), (2, None)]
    # One tap, one undo: the skip and the summon it led to go back together, and come again.
    both = "; ".join(str(entry.sentence) for entry in saved.log)
    assert str(saved.undo_label) == both
    undone = store.undo(saved.id, 1)
    assert undone.log == () and str(undone.redo_label) == both
    assert rows(url, saved.id) == [(1, "undone"), (2, "undone")]
    redone = store.redo(saved.id, 2)
    assert [entry.seq for entry in redone.log] == [1, 2]
    assert str(store.load(saved.id).undo_label) == both
    # A skip recorded on a tap of its own is undone on its own.
    alone = store.append(saved.id, Skip("summoning"), 3)
    assert str(alone.undo_label) == str(alone.log[-1].sentence)
    assert len(store.undo(saved.id, 4).log) == 2
