"""`python -m companion game ...` as a script or a support person meets it.

Every subcommand runs at least once in a real subprocess; the many ways to get input
wrong run in-process through Typer's runner, which goes through the same code.
"""

import importlib.util
import json
import os
import subprocess
import sys
from types import SimpleNamespace

import pytest
from store_support import DUEL, random_log
from typer.testing import CliRunner

from companion.cli.game import game_app
from companion.store import DB_ENV
from companion.store.database import SQLITE_HEADER


def run(*args: str, stdin: str | None = None, env: dict | None = None):
    return subprocess.run(
        [sys.executable, "-m", "companion", "game", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, **(env or {})},
    )


def invoke(*args: str, stdin: str | None = None):
    """The same command in-process: exit status, stdout and stderr as a subprocess gives them."""
    result = CliRunner().invoke(game_app, list(args), input=stdin, terminal_width=200)
    return SimpleNamespace(returncode=result.exit_code, stdout=result.stdout, stderr=result.stderr)


def ok(*args: str, **kwargs) -> str:
    result = run(*args, **kwargs)
    assert result.returncode == 0, result.stderr
    return result.stdout


def one_line_error(result, status: int = 2) -> str:
    assert result.returncode == status, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    return lines[0]


def test_a_game_from_start_to_export_and_back(tmp_path):
    db = ("--db", str(tmp_path / "games.sqlite3"))
    game_id = ok("new", "--players", "red:Ragna,blue:Bjorn", "--mode", "digital", *db).strip()
    assert len(game_id) == 12

    legal = json.loads(ok("legal", game_id, "--json", *db))
    assert legal["revision"] == 0
    first = legal["legal"][0]
    assert first["description"].startswith("Ragna summons a Wyrm onto")

    done = json.loads(ok("do", game_id, json.dumps(first["command"]), "--json", *db))
    assert (done["revision"], done["seq"], done["description"]) == (1, 1, first["description"])

    # The same tap again is Ragna's, and it is Bjorn's turn now: refused, not re-aimed at him,
    # with the reason the step passes her over, not just whose turn it is.
    again = one_line_error(invoke("do", game_id, json.dumps(first["command"]), *db))
    assert "Ragna has no Wyrms left to summon" in again
    # Left without `by`, a command typed at a terminal is the current player's.
    unsigned = {key: value for key, value in first["command"].items() if key != "by"}
    refused = one_line_error(invoke("do", game_id, json.dumps(unsigned), *db))
    assert "not vacant" in refused
    stale = one_line_error(run("do", game_id, '{"type": "pass"}', "--revision", "0", *db), 3)
    assert "the game moved on" in stale

    assert ok("undo", game_id, *db).strip() == f"undone: {first['description']}"
    assert ok("redo", game_id, *db).strip() == f"redone: {first['description']}"
    assert "nothing to redo" in one_line_error(invoke("redo", game_id, *db))

    shown = json.loads(ok("show", game_id, "--json", *db))
    assert shown["revision"] == 3
    assert shown["undo"] == first["description"]
    assert [entry["seq"] for entry in shown["log"]] == [1]
    assert shown["state"]["players"]["red"]["energy"] == 0
    text = invoke("show", game_id, *db).stdout
    assert "Bjorn to play" in text
    assert f"undo: {first['description']}" in text

    listed = json.loads(ok("list", "--unfinished", "--json", *db))
    assert [(g["id"], g["players"]) for g in listed] == [
        (game_id, {"red": "Ragna", "blue": "Bjorn"})
    ]

    nowhere = invoke("export", game_id, "--output", str(tmp_path / "no" / "game.json"), *db)
    assert "cannot write" in one_line_error(nowhere)
    exported = tmp_path / "game.json"
    ok("export", game_id, "--output", str(exported), *db)
    log = json.loads(exported.read_text())
    assert log["format"] == "summoners-isle-game"
    assert log["commands"] == [first["command"]]
    # No seat is a bot, so no seat says so: builds from before bots existed read this file.
    assert all(set(player) == {"id", "name", "colour"} for player in log["setup"]["players"])
    copy_id = ok("import", str(exported), *db).strip()
    assert json.loads(invoke("export", copy_id, *db).stdout) == log
    copy = json.loads(invoke("show", copy_id, "--json", *db).stdout)
    assert copy["state"] == shown["state"]


def test_import_a_finished_game_and_read_its_history(tmp_path):
    db = str(tmp_path / "games.sqlite3")
    log = random_log(DUEL, 3)
    game_id = invoke("import", "-", "--db", db, stdin=log.model_dump_json()).stdout.strip()
    # SUMMONERS_ISLE_DB names the database when --db is not given.
    history = json.loads(ok("history", "--json", env={DB_ENV: db}))
    assert history["games"] == 1
    assert history["summoner_wins"] + history["final_round_wins"] == 1
    finished = json.loads(invoke("list", "--finished", "--json", "--db", db).stdout)
    assert [game["id"] for game in finished] == [game_id]
    assert invoke("list", "--unfinished", "--db", db).stdout == ""
    shown = json.loads(invoke("show", game_id, "--json", "--db", db).stdout)
    assert shown["status"] == "finished"
    energy = shown["energy_by_round"]
    assert energy["red"][-1] == shown["state"]["players"]["red"]["energy"]


# "{tmp}" in an argument stands for the test's own folder, where bad_input_files writes.
DB = ("--db", "{tmp}/games.sqlite3")
# The "no driver" case needs a database whose driver is not installed: MySQL's, here.
NO_MYSQL_DRIVER = pytest.mark.skipif(
    importlib.util.find_spec("MySQLdb") is not None, reason="the MySQL driver is installed"
)
BAD_INPUTS = [
    pytest.param(args, mentions, id=name, marks=marks)
    for name, args, mentions, *marks in [
        ("unknown game", ("show", "nope", *DB), "no saved game with id 'nope'"),
        ("malformed command", ("do", "nope", "{bad", *DB), "malformed JSON in the command"),
        ("unknown command", ("do", "nope", '{"type": "fly"}', *DB), "unknown command type"),
        ("undo an unknown game", ("undo", "nope", *DB), "no saved game"),
        ("one player", ("new", "--players", "red", *DB), "players"),
        ("bad mode", ("new", "--players", "a,b", "--mode", "chess", *DB), "mode"),
        ("too many rounds", ("new", "--players", "a,b", "--rounds", "9", *DB), "6 rounds"),
        (
            "board too small",
            ("new", "--players", "a,b,c", "--board", "duel-isle", *DB),
            "is for 2 players, not 3",
        ),
        ("unknown board", ("new", "--players", "a,b", "--board", "atlantis", *DB), "atlantis"),
        (
            "board outside the shipped ones",
            ("new", "--players", "a,b", "--board", "../boards/duel-isle", *DB),
            "unknown board '../boards/duel-isle'",
        ),
        (
            "log on a board outside the shipped ones",
            ("import", "{tmp}/escaping.json", *DB),
            "unknown board '../boards/duel-isle'",
        ),
        ("no board fits", ("new", "--players", "a,b,c,d,e", *DB), "5 players"),
        ("both filters", ("list", "--finished", "--unfinished", *DB), "not both"),
        ("newer log", ("import", "{tmp}/newer.json", *DB), "newer than this app"),
        ("broken log", ("import", "{tmp}/broken.json", *DB), "malformed JSON"),
        ("missing file", ("import", "{tmp}/absent.json", *DB), "cannot read"),
        ("not a URL", ("list", "--db", "postgresql://host:port/db"), "not a database URL"),
        (
            "no driver",
            ("list", "--db", "mysql://host/db"),
            "database driver is not installed",
            NO_MYSQL_DRIVER,
        ),
        (
            "database under a file",
            ("list", "--db", "{tmp}/broken.json/games.sqlite3"),
            "broken.json for the database: a file is in the way",
        ),
        (
            "database folder under a file",
            ("list", "--db", "{tmp}/broken.json/saves/games.sqlite3"),
            "saves for the database: a file is in the way",
        ),
        ("database is a JSON file", ("list", "--db", "{tmp}/broken.json"), "not a games database"),
    ]
]


@pytest.fixture
def bad_input_files(tmp_path):
    """The files the bad inputs name; returns how to put the test's folder into arguments."""
    newer = random_log(DUEL, 4).model_dump(mode="json") | {"version": 99}
    (tmp_path / "newer.json").write_text(json.dumps(newer))
    (tmp_path / "broken.json").write_text("{not json")
    escaping = random_log(DUEL, 4).model_dump(mode="json")
    escaping["setup"]["board"] = "../boards/duel-isle"
    (tmp_path / "escaping.json").write_text(json.dumps(escaping))
    return lambda args: [arg.replace("{tmp}", str(tmp_path)) for arg in args]


@pytest.mark.parametrize(("args", "mentions"), BAD_INPUTS)
def test_bad_input_exits_2_with_one_line(bad_input_files, tmp_path, args, mentions):
    assert mentions in one_line_error(invoke(*bad_input_files(args)))
    # Nothing was saved, and no file was moved aside or written over.
    assert not list(tmp_path.glob("*.corrupt-*"))
    assert (tmp_path / "broken.json").read_text() == "{not json"
    if (tmp_path / "games.sqlite3").exists():
        assert invoke("list", "--db", str(tmp_path / "games.sqlite3")).stdout == ""


IN_A_SUBPROCESS = ("malformed command", "newer log", "no driver", "database under a file")


@pytest.mark.parametrize(
    ("args", "mentions"), [case for case in BAD_INPUTS if case.id in IN_A_SUBPROCESS]
)
def test_bad_input_in_a_subprocess(bad_input_files, args, mentions):
    assert mentions in one_line_error(run(*bad_input_files(args)))


def test_the_subprocess_cases_are_bad_inputs():
    assert set(IN_A_SUBPROCESS) <= {case.id for case in BAD_INPUTS}


def test_a_corrupt_database_is_moved_aside_with_a_warning(tmp_path):
    path = tmp_path / "games.sqlite3"
    damaged = SQLITE_HEADER + b"\x00garbage" * 1000
    path.write_bytes(damaged)
    result = invoke("list", "--db", str(path))
    assert result.returncode == 0, result.stderr
    (warning,) = result.stderr.strip().splitlines()
    assert warning.startswith("warning: the database ")
    (aside,) = [p for p in tmp_path.iterdir() if ".corrupt-" in p.name]
    assert str(aside) in warning
    assert aside.read_bytes() == damaged


def test_a_file_that_is_not_sqlite_is_refused_and_left_as_it_is(tmp_path):
    path = tmp_path / "mylog.json"
    path.write_bytes(b"\x00garbage" * 1000)
    error = one_line_error(invoke("list", "--db", str(path)))
    assert f"{path} is not a games database" in error
    assert path.read_bytes() == b"\x00garbage" * 1000
    assert [p.name for p in tmp_path.iterdir()] == ["mylog.json"]


@pytest.mark.parametrize(
    "command", ["new", "legal", "do", "undo", "redo", "show", "list", "delete"]
)
def test_every_subcommand_takes_db_and_json(command):
    result = CliRunner().invoke(game_app, [command, "--help"], terminal_width=200)
    assert result.exit_code == 0
    assert "--db" in result.output
    assert "--json" in result.output
