"""Nothing on disk is overwritten or altered that the user did not ask for.

Another program's SQLite file named by `--db` stays byte for byte as it was; `game export
--output` writes through a symbolic link, keeps a file's permissions and refuses what is
not a regular file; `sqlite:///~/...` means the home folder; `bench` keeps to a temporary
folder of its own.
"""

from __future__ import annotations

import errno
import hashlib
import importlib
import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from companion.cli import app
from companion.store.store import open_store
from models.setup import GameSetup


def invoke(*args: str, env: dict[str, str] | None = None):
    result = CliRunner().invoke(app, list(args), env=env, terminal_width=200)
    return SimpleNamespace(returncode=result.exit_code, stdout=result.stdout, stderr=result.stderr)


def one_line_error(result) -> str:
    assert result.returncode == 2, (result.stdout, result.stderr)
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: ")
    return line


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def folder_state(folder: Path) -> dict[str, str]:
    return {path.name: digest(path) for path in sorted(folder.iterdir())}


def another_programs_database(path: Path, journal: str = "DELETE") -> None:
    with sqlite3.connect(path) as connection:
        connection.execute(f"PRAGMA journal_mode={journal}")
        connection.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
        connection.execute("INSERT INTO notes (text) VALUES ('buy milk')")
    connection.close()


COMMANDS = [
    ("game", "list"),
    ("game", "history"),
    ("game", "show", "abc"),
    ("game", "new", "--players", "red,blue"),
    ("game", "import", "-"),
]


@pytest.mark.parametrize("command", COMMANDS, ids=[" ".join(c) for c in COMMANDS])
@pytest.mark.parametrize("journal", ["DELETE", "WAL"])
def test_another_programs_sqlite_file_is_refused_and_left_byte_for_byte(tmp_path, command, journal):
    path = tmp_path / "notes.sqlite"
    another_programs_database(path, journal)
    before = folder_state(tmp_path)
    line = one_line_error(invoke(*command, "--db", str(path)))
    assert line == (
        f"error: {path} is not a games database (another program's SQLite file); "
        "it was left as it is"
    )
    assert folder_state(tmp_path) == before


def test_a_sqlite_file_with_an_alembic_table_of_another_program_is_not_ours(tmp_path):
    path = tmp_path / "other.sqlite"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE alembic_version (version_num TEXT)")
        connection.execute("CREATE TABLE games (name TEXT)")
    connection.close()
    before = digest(path)
    assert "another program's SQLite file" in one_line_error(
        invoke("game", "list", "--db", str(path))
    )
    assert digest(path) == before


def test_an_empty_sqlite_file_and_our_own_database_open(tmp_path):
    empty = tmp_path / "empty.sqlite"
    sqlite3.connect(empty).close()
    assert invoke("game", "list", "--db", str(empty)).returncode == 0
    ours = tmp_path / "games.sqlite3"
    assert invoke("game", "new", "--players", "red,blue", "--db", str(ours)).returncode == 0
    assert invoke("game", "list", "--db", str(ours)).returncode == 0


def test_a_tilde_in_a_sqlite_url_is_the_home_folder(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(tmp_path)
    result = invoke("game", "new", "--players", "red,blue", "--db", "sqlite:///~/games.db")
    assert result.returncode == 0, result.stderr
    assert (home / "games.db").is_file()
    assert not (tmp_path / "~").exists()


# --- game export --output ---------------------------------------------------------------------


@pytest.fixture
def game(tmp_path):
    """A database with one game; the export command's first arguments."""
    db = tmp_path / "games.sqlite3"
    with open_store(str(db)) as store:
        saved = store.new_game(
            GameSetup(players=[{"id": "red"}, {"id": "blue"}], board="duel-isle")
        )
    return ("game", "export", saved.id, "--db", str(db))


def test_export_writes_through_a_symbolic_link(tmp_path, game):
    target = tmp_path / "logs" / "game.json"
    target.parent.mkdir()
    target.write_text("old", encoding="utf-8")
    link = tmp_path / "latest.json"
    link.symlink_to(target)
    result = invoke(*game, "--output", str(link))
    assert result.returncode == 0, result.stderr
    assert link.is_symlink() and link.resolve() == target
    assert '"format": "summoners-isle-game"' in target.read_text(encoding="utf-8")


def test_export_through_a_dangling_link_creates_its_target(tmp_path, game):
    target = tmp_path / "game.json"
    link = tmp_path / "latest.json"
    link.symlink_to(target)
    assert invoke(*game, "--output", str(link)).returncode == 0
    assert link.is_symlink() and target.is_file()


def test_export_keeps_an_existing_files_permissions(tmp_path, game):
    path = tmp_path / "shared.json"
    path.write_text("old", encoding="utf-8")
    path.chmod(0o644)
    assert invoke(*game, "--output", str(path)).returncode == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    assert path.read_text(encoding="utf-8").startswith("{")


def test_a_new_export_gets_the_usual_permissions(tmp_path, game):
    old = os.umask(0o022)
    try:
        assert invoke(*game, "--output", str(tmp_path / "new.json")).returncode == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o644


def test_export_refuses_a_fifo_a_device_and_a_folder(tmp_path, game):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for path in (fifo, Path("/dev/null"), tmp_path):
        line = one_line_error(invoke(*game, "--output", str(path)))
        assert line == f"error: cannot write {path}: it is not a regular file"
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert stat.S_ISCHR(Path("/dev/null").stat().st_mode)


def test_export_refuses_a_read_only_file_and_leaves_it_as_it_was(tmp_path, game):
    """The export never replaces a read-only file (a rename needs only the folder's
    permission)."""
    path = tmp_path / "kept.json"
    path.write_text("keep me", encoding="utf-8")
    path.chmod(0o444)
    line = one_line_error(invoke(*game, "--output", str(path)))
    assert line == f"error: cannot write {path}: it is read-only"
    assert path.read_text(encoding="utf-8") == "keep me"
    assert stat.S_IMODE(path.stat().st_mode) == 0o444
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.sqlite3", "kept.json"]


@pytest.mark.parametrize(
    "failure",
    [OSError(errno.ENOSPC, "No space left on device"), UnicodeEncodeError("utf-8", "", 0, 1, "")],
    ids=["a full disk", "text that cannot be written"],
)
def test_an_export_that_fails_midway_is_one_line_and_leaves_nothing(
    tmp_path, game, monkeypatch, failure
):
    """A disk that fills up (reported when the file is flushed to it), or text that cannot be
    encoded (a saved lone surrogate): one line for the
    first, and never a file or a temporary file left behind."""
    out = tmp_path / "out"
    out.mkdir()

    def fails(descriptor: int) -> None:
        raise failure

    monkeypatch.setattr("companion.cli.game_files.os.fsync", fails)
    result = CliRunner().invoke(app, [*game, "--output", str(out / "game.json")])
    if isinstance(failure, OSError):
        assert result.exit_code == 2
        assert (
            result.stderr == f"error: cannot write {out / 'game.json'}: No space left on device\n"
        )
    else:
        assert result.exception is failure
    assert list(out.iterdir()) == []


# --- output to a full disk or a full standard output -----------------------------------------

TALLY = '{"board": "duel-isle", "turn_order": ["red", "blue"], "energy": {"red": 1, "blue": 2}}'
WRITERS = {
    "tally": (["tally", "-"], TALLY),
    "replay": (
        ["replay", "-"],
        '{"setup": {"players": [{"id": "a"}, {"id": "b"}], "board": "duel-isle"}}',
    ),
    "game new": (["game", "new", "--players", "red,blue"], None),
    "game list": (["game", "list"], None),
    "game list --json": (["game", "list", "--json"], None),
    "game show": (["game", "show", "{game}"], None),
    "game export": (["game", "export", "{game}"], None),
    "game legal": (["game", "legal", "{game}"], None),
    "game history": (["game", "history"], None),
    "game do": (["game", "do", "{game}", '{"type": "pass"}'], None),
    "simulate": (["simulate", "--games", "1", "--workers", "1"], None),
    "help": (["--help"], None),
}


@pytest.mark.parametrize("writer", list(WRITERS))
def test_a_full_standard_output_is_one_line_and_a_failure(tmp_path, game, writer):
    """`> /dev/full` is one line, never a traceback."""
    args, stdin = WRITERS[writer]
    game_id = game[2]
    args = [game_id if arg == "{game}" else arg for arg in args]
    database = ["--db", game[4]] if args[0] == "game" else []
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "companion", *args, *database],
            input=stdin,
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    assert result.returncode == 1
    assert result.stderr == "error: cannot write the output: No space left on device\n"


# --- bench ------------------------------------------------------------------------------------


def test_bench_that_cannot_write_its_scratch_file_says_so_in_one_line(tmp_path, monkeypatch):
    import tempfile

    # A file where the temporary folder should be: nothing can be made in it (even by root).
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("", encoding="utf-8")
    monkeypatch.setattr(tempfile, "tempdir", str(blocked))
    # The module, not the `bench` command that companion.cli's namespace also calls bench.
    bench = importlib.import_module("companion.cli.bench")
    monkeypatch.setattr(bench, "decisions_per_second", lambda seconds, clock: 1.0)
    monkeypatch.setattr(bench, "tally_microseconds", lambda clock: 1.0)
    monkeypatch.setattr(bench, "replay_milliseconds", lambda clock: 1.0)
    line = one_line_error(invoke("bench", "--seconds", "0.1"))
    assert line == "error: cannot run the store benchmark: Not a directory"
