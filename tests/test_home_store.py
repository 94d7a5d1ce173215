"""What Home and History ask of the store: deleting a game for good, wins counted by name."""

import json
import random

import pytest
from sqlalchemy import create_engine, func, select
from store_support import BACKENDS, DUEL, database_url, finished_game, play
from test_store_cli import invoke, one_line_error

from companion.store.errors import GameNotFound
from companion.store.store import open_store
from models.records import CommandRecord, GameRecord
from models.setup import GameSetup


@pytest.fixture(params=BACKENDS)
def url(request, tmp_path):
    yield from database_url(request.param, tmp_path)


def counts(url: str) -> tuple[int, int]:
    """(games, command rows) in the database, read straight from its tables."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            games = connection.execute(select(func.count()).select_from(GameRecord)).scalar()
            commands = connection.execute(select(func.count()).select_from(CommandRecord)).scalar()
            return games, commands
    finally:
        engine.dispose()


def test_delete_game_removes_its_rows_and_no_other_games(url):
    with open_store(url) as store:
        kept = play(store, store.new_game(DUEL), 10, random.Random(1))
        doomed = play(store, store.new_game(DUEL), 12, random.Random(2))
        # One undone command: its row goes too.
        store.undo(doomed.id, doomed.revision)
        assert counts(url) == (2, 22)
        store.delete_game(doomed.id)
        assert counts(url) == (1, 10)
        assert [game.id for game in store.games()] == [kept.id]
        # Gone from memory as well as from the database.
        with pytest.raises(GameNotFound):
            store.load(doomed.id)
        assert store.load(kept.id).log == kept.log


def test_deleting_an_unknown_game_is_game_not_found_and_deletes_nothing(url):
    with open_store(url) as store:
        play(store, store.new_game(DUEL), 5, random.Random(3))
        with pytest.raises(GameNotFound, match="no saved game with id 'nope'"):
            store.delete_game("nope")
        assert counts(url) == (1, 5)


def test_a_game_deleted_on_one_device_is_gone_on_another(url):
    with open_store(url) as phone, open_store(url) as tablet:
        saved = phone.new_game(DUEL)
        tablet.load(saved.id)
        phone.delete_game(saved.id)
        with pytest.raises(GameNotFound):
            tablet.load(saved.id)
        with pytest.raises(GameNotFound):
            tablet.append(saved.id, saved.state.legal_commands()[0], saved.revision)


def duel(first: str, second: str) -> GameSetup:
    return GameSetup(
        players=[{"id": "red", "name": first}, {"id": "blue", "name": second}],
        board="duel-isle",
        mode="digital",
    )


def test_history_counts_wins_by_name_whatever_the_seat_and_letter_case(tmp_path):
    setups = [duel("Alice", "Bo"), duel("bo", "Alice"), duel(" ALICE", "Cy"), duel("Bo", "alice")]
    with open_store(f"sqlite:///{tmp_path}/games.sqlite3") as store:
        finished = [finished_game(store, setup, seed) for seed, setup in enumerate(setups)]
        report = store.history()
    winners = [saved.game.labels[saved.state.winner_id].strip().casefold() for saved in finished]
    # Names as spelt in the most recent game they were in; everyone listed, most wins first.
    expected = {"alice": 0, "bo": 0, "cy": 0}
    for winner in winners:
        expected[winner] += 1
    spelt = {"alice": "alice", "bo": "Bo", "cy": "Cy"}
    assert report.wins_by_name == {
        spelt[key]: expected[key] for key in sorted(expected, key=lambda key: (-expected[key], key))
    }
    assert list(report.wins_by_name.values()) == sorted(report.wins_by_name.values(), reverse=True)
    assert report.to_json()["wins_by_name"] == report.wins_by_name


def test_game_delete_and_history_on_the_command_line(tmp_path):
    db = ("--db", str(tmp_path / "games.sqlite3"))
    game_id = invoke("new", "--players", "red:Ragna,blue:Bjorn", *db).stdout.strip()
    result = invoke("delete", game_id, *db)
    assert (result.returncode, result.stdout) == (0, f"deleted {game_id}\n")
    assert invoke("list", *db).stdout == ""
    assert one_line_error(invoke("delete", game_id, *db)) == (
        f"error: no saved game with id '{game_id}'"
    )
    other = invoke("new", "--players", "red,blue", *db).stdout.strip()
    assert json.loads(invoke("delete", other, "--json", *db).stdout) == {
        "id": other,
        "deleted": True,
    }

    with open_store(db[1]) as store:
        saved = finished_game(store, duel("Ragna", "Bjorn"), 5)
    winner = saved.game.labels[saved.state.winner_id]
    loser = ({"Ragna", "Bjorn"} - {winner}).pop()
    lines = invoke("history", *db).stdout.splitlines()
    assert f"wins by name:            {winner}: 1  {loser}: 0" in lines
    assert json.loads(invoke("history", "--json", *db).stdout)["wins_by_name"] == {
        winner: 1,
        loser: 0,
    }
