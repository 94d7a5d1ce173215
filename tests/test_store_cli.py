"""`python -m companion game ...` as a script or a support person meets it.

Every subcommand runs at least once in a real subprocess; the many ways to get input
wrong run in-process through Typer's runner, which goes through the same code.
"""

import json
import os
import subprocess
import sys
from types import SimpleNamespace

import pytest
from store_support import DUEL, random_log
from typer.testing import CliRunner

from companion.store import DB_ENV
from companion.store.cli import game_app


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

    refused = one_line_error(invoke("do", game_id, json.dumps(first["command"]), *db))
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


def bad_inputs(tmp_path):
    db = ("--db", str(tmp_path / "games.sqlite3"))
    newer = random_log(DUEL, 4).model_dump(mode="json") | {"version": 99}
    (tmp_path / "newer.json").write_text(json.dumps(newer))
    (tmp_path / "broken.json").write_text("{not json")
    return [
        ("unknown game", ("show", "nope", *db), "no saved game with id 'nope'"),
        ("malformed command", ("do", "nope", "{bad", *db), "malformed JSON in the command"),
        ("unknown command", ("do", "nope", '{"type": "fly"}', *db), "unknown command type"),
        ("undo an unknown game", ("undo", "nope", *db), "no saved game"),
        ("one player", ("new", "--players", "red", *db), "players"),
        ("bad mode", ("new", "--players", "a,b", "--mode", "chess", *db), "mode"),
        ("too many rounds", ("new", "--players", "a,b", "--rounds", "9", *db), "6 rounds"),
        ("board too small", ("new", "--players", "a,b,c", "--board", "duel-isle", *db), "2-2"),
        ("unknown board", ("new", "--players", "a,b", "--board", "atlantis", *db), "atlantis"),
        ("no board fits", ("new", "--players", "a,b,c,d,e", *db), "5 players"),
        ("both filters", ("list", "--finished", "--unfinished", *db), "not both"),
        ("newer log", ("import", str(tmp_path / "newer.json"), *db), "newer than this app"),
        ("broken log", ("import", str(tmp_path / "broken.json"), *db), "malformed JSON"),
        ("missing file", ("import", str(tmp_path / "absent.json"), *db), "cannot read"),
        ("not a URL", ("list", "--db", "postgresql://host:port/db"), "not a database URL"),
    ]


@pytest.mark.parametrize("index", range(15))
def test_bad_input_exits_2_with_one_line(tmp_path, index):
    name, args, mentions = bad_inputs(tmp_path)[index]
    assert mentions in one_line_error(invoke(*args)), name


@pytest.mark.parametrize("index", [1, 11])
def test_bad_input_in_a_subprocess(tmp_path, index):
    name, args, mentions = bad_inputs(tmp_path)[index]
    assert mentions in one_line_error(run(*args)), name


def test_a_corrupt_database_is_moved_aside_with_a_warning(tmp_path):
    path = tmp_path / "games.sqlite3"
    path.write_bytes(b"\x00garbage" * 1000)
    result = invoke("list", "--db", str(path))
    assert result.returncode == 0, result.stderr
    (warning,) = result.stderr.strip().splitlines()
    assert warning.startswith("warning: the database ")
    (aside,) = [p for p in tmp_path.iterdir() if ".corrupt-" in p.name]
    assert str(aside) in warning
    assert aside.read_bytes() == b"\x00garbage" * 1000


@pytest.mark.parametrize("command", ["new", "legal", "do", "undo", "redo", "show", "list"])
def test_every_subcommand_takes_db_and_json(command):
    result = CliRunner().invoke(game_app, [command, "--help"], terminal_width=200)
    assert result.exit_code == 0
    assert "--db" in result.output
    assert "--json" in result.output
