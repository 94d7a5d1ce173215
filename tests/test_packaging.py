"""A non-editable install works on its own: the wheel carries the boards and migrations.

The wheel is built offline (no build isolation, no dependencies fetched) from a copy of
the sources, installed without its dependencies into a fresh virtualenv that borrows them
from the test's own environment, and run from a folder that holds no source. Where a C
compiler and Python's headers are at hand its engine is compiled (`setup.py`): it plays
the very games the pure engine plays, an edited installed source runs as Python, and a
machine without a compiler, or an editable install, gets the pure engine.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import sysconfig
import textwrap
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = "Scripts" if sys.platform == "win32" else "bin"
# What a build reads; the rest of the checkout (tests, docs, .venv) stays out of the copy.
SOURCES = ("pyproject.toml", "setup.py", "README.md", "companion", "models")

TALLY = {
    "board": "duel-isle",
    "turn_order": ["red", "blue"],
    "energy": {"red": 12, "blue": 20},
    "placements": {"nc1": {"player": "red", "creature": "sprite"}},
}


def run(
    *args: str | Path, cwd: Path, stdin: str | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    environment["PIP_NO_INDEX"] = "1"  # nothing is downloaded
    environment["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    environment.update(env or {})
    return subprocess.run(
        [str(arg) for arg in args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        env=environment,
        timeout=600,
        check=False,
    )


def can_compile() -> bool:
    """Whether this machine has what `setup.py` compiles the engine with."""
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    headers = Path(sysconfig.get_paths()["include"], "Python.h")
    return shutil.which(compiler.split()[0]) is not None and headers.is_file()


def copy_sources(to: Path) -> Path:
    """A copy of what a build reads, in `to`; returns it."""
    to.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, to / name, ignore=ignore)
        else:
            shutil.copy2(ROOT / name, to / name)
    return to


def fresh_venv(venv: Path, cwd: Path) -> Path:
    """A virtualenv borrowing this environment's packages (see below); its python."""
    made = run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=cwd)
    assert made.returncode == 0, made.stderr
    python = venv / BIN / "python"
    # The dependencies come from this environment's site-packages, appended after the
    # new virtualenv's own (a .pth line adds a folder without running its .pth files, so
    # an editable install of the project there is not picked up).
    purelib = run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))", cwd=cwd)
    borrowed = {
        sysconfig.get_path("purelib"),
        sysconfig.get_path("platlib"),
        *site.getsitepackages(),
    }
    Path(purelib.stdout.strip(), "borrowed-deps.pth").write_text("\n".join(sorted(borrowed)) + "\n")
    return python


def install_wheel(work: Path, source: Path, **env: str) -> Path:
    """Build `source`'s wheel into work/dist (with `env` set) and install it in work/venv."""
    built = run(
        sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
        "--wheel-dir", work / "dist", source,
        cwd=work, env=env,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr
    (wheel,) = (work / "dist").glob("*.whl")
    python = fresh_venv(work / "venv", work)
    pip = (sys.executable, "-m", "pip", "--python", python)
    done = run(*pip, "install", "--no-deps", "--no-index", wheel, cwd=work)
    assert done.returncode == 0, done.stderr
    return work / "venv"


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A virtualenv with the project installed from its wheel; its folder."""
    work = tmp_path_factory.mktemp("packaging")
    return install_wheel(work, copy_sources(work / "source"))


def test_the_wheel_carries_the_shipped_boards_and_the_migrations(installed):
    (wheel,) = (installed.parent / "dist").glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {
        "companion/data/boards/duel-isle.json",
        "companion/data/boards/gathering-isle.json",
    } <= names
    assert "companion/store/migrations/env.py" in names
    assert "companion/store/migrations/versions/0001_first_schema.py" in names
    assert not any(name.startswith(("tests/", "assets/", "docs/")) for name in names)


def test_python_m_companion_tallies_a_shipped_board_from_anywhere(installed, tmp_path):
    python = installed / BIN / "python"
    where = run(python, "-c", "import companion; print(companion.__file__)", cwd=tmp_path)
    assert Path(where.stdout.strip()).is_relative_to(installed), "not the installed copy"
    result = run(python, "-m", "companion", "tally", "-", cwd=tmp_path, stdin=json.dumps(TALLY))
    assert result.returncode == 0, result.stderr
    red = json.loads(result.stdout)["players"]["red"]
    assert (red["before"], red["modifier"], red["sprites"], red["after"]) == (12, 3, 1, 16)


def test_the_summoners_isle_command_is_installed(installed, tmp_path):
    result = run(installed / BIN / "summoners-isle", "--help", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    for command in ("tally", "replay", "game", "app"):
        assert command in result.stdout


def test_the_installed_store_migrates_a_new_database(installed, tmp_path):
    db = ("--db", tmp_path / "games.sqlite3")
    command = installed / BIN / "summoners-isle"
    made = run(
        command, "game", "new", "--players", "red,blue", "--board", "duel-isle", *db, cwd=tmp_path
    )
    assert made.returncode == 0, made.stderr
    listed = run(command, "game", "list", *db, cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.startswith(made.stdout.strip()) and "red, blue" in listed.stdout


def test_the_installed_copy_explains_in_french(installed, tmp_path):
    """The catalogs are package data: an install anywhere speaks both languages."""
    (wheel,) = (installed.parent / "dist").glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"companion/language/catalogs/en.po", "companion/language/catalogs/fr.po"} <= names
    python = installed / BIN / "python"
    result = run(
        python, "-m", "companion", "tally", "--explain", "--lang", "fr", "-",
        cwd=tmp_path, stdin=json.dumps(TALLY),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["explanation"]["players"]["red"].startswith(
        "red commence à 12"
    )


# Games both engines play: random digital games of 2, 3 and 4 players (each command's
# sentence and the position after it), their replays, the same games recorded the table's
# way and replayed, and a game between greedy bots.
GAMES = textwrap.dedent(
    """
    import json, random
    from companion.boards import shipped_board
    from companion.bots import make_bot
    from companion.bots.playout import play
    from companion.coach.tabled import as_table
    from companion.engine.compiled import engine
    from companion.engine import Game
    from companion.engine.dice import with_rolls
    from companion.engine.replay import replay
    from companion.language.render import render
    from models.commands import command_to_json
    from models.seeded_dice import SeededDice
    from models.setup import GameSetup

    def game(board, players):
        ids = ("red", "blue", "green", "yellow")[:players]
        setup = GameSetup(players=[{"id": p} for p in ids], board=board, mode="digital")
        return Game(setup, shipped_board(board))

    lines = []
    tables = [("duel-isle", 2), ("gathering-isle", 3), ("gathering-isle", 4)] * 2
    for seed, (board, players) in enumerate(tables):
        played = game(board, players)
        state = played.new_initial_state()
        choose, roll, commands = random.Random(seed), SeededDice(seed), []
        while not state.is_terminal:
            command = with_rolls(state, choose.choice(state.legal_commands()), roll)
            lines.append(render(state.sentence(command), "fr"))
            state.apply(command)
            commands.append(command)
            lines.append(state.position())
        lines.append(replay(played, commands).position())
        table, records = as_table(played, commands)
        lines.extend(json.dumps(command_to_json(record)) for record in records)
        lines.append(replay(table, records).position())
    bots = [make_bot("greedy", seed=seat) for seat in range(4)]
    lines.extend(map(repr, play(game("gathering-isle", 4), bots, SeededDice(9)).commands))
    print(json.dumps({"engine": engine(), "lines": lines}))
    """
)


def played(python: Path | str, cwd: Path) -> dict:
    result = run(python, "-c", GAMES, cwd=cwd)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_the_wheel_is_compiled_where_a_compiler_is(installed, tmp_path):
    (wheel,) = (installed.parent / "dist").glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    # The Python sources ship either way: they are the fallback.
    assert {"companion/engine/state.py", "companion/engine/commands/move.py"} <= names
    python = installed / BIN / "python"
    ask = "from companion.engine.compiled import engine; print(engine())"
    ran = run(python, "-c", ask, cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    if not can_compile():
        assert ran.stdout.strip() == "pure"
        pytest.skip("no C compiler or Python headers here: the wheel holds the pure engine")
    assert ran.stdout.strip() == "compiled"
    assert "companion/engine/compiled.json" in names
    assert any(
        name.startswith("companion/engine/state.") and name.endswith(".so") for name in names
    )


def test_the_compiled_engine_plays_the_same_games_as_the_pure_one(installed, tmp_path):
    compiled = played(installed / BIN / "python", tmp_path)
    # Run from the checkout, this test's interpreter loads its sources: never compiled.
    pure = played(sys.executable, ROOT)
    assert pure["engine"] == "pure"
    assert compiled["engine"] == ("compiled" if can_compile() else "pure")
    assert len(pure["lines"]) > 2000
    assert compiled["lines"] == pure["lines"]


def test_an_edited_installed_source_runs_as_python(installed, tmp_path):
    if not can_compile():
        pytest.skip("no C compiler or Python headers here: nothing is compiled")
    python = installed / BIN / "python"
    ask = "import companion.engine.compiled as c; print(c.engine(), c.edited)"
    purelib = run(
        python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))", cwd=tmp_path
    )
    rules = Path(purelib.stdout.strip(), "models", "rules.py")
    kept = rules.read_bytes()
    try:
        # A change in a module the engine only imports counts too: compiled code may have
        # built in what it read there.
        rules.write_bytes(kept + b"\n# edited after the build\n")
        edited = run(python, "-c", ask, cwd=tmp_path)
        assert edited.returncode == 0, edited.stderr
        assert edited.stdout.strip() == "pure ['models/rules.py']"
        assert played(python, tmp_path)["lines"] == played(sys.executable, ROOT)["lines"]
    finally:
        rules.write_bytes(kept)
    again = run(python, "-c", ask, cwd=tmp_path)
    assert again.stdout.strip() == "compiled []"


def test_a_machine_without_a_compiler_installs_the_pure_engine(tmp_path):
    venv = install_wheel(tmp_path, copy_sources(tmp_path / "source"), CC="no-such-compiler")
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert not [name for name in names if name.endswith(".so") or name.endswith("compiled.json")]
    python = venv / BIN / "python"
    result = run(python, "-m", "companion", "tally", "-", cwd=tmp_path, stdin=json.dumps(TALLY))
    assert result.returncode == 0, result.stderr
    assert played(python, tmp_path)["engine"] == "pure"


def test_an_editable_install_runs_the_sources_as_they_are(tmp_path):
    """`make` installs the checkout editable: nothing compiled lands beside the sources."""
    source = copy_sources(tmp_path / "source")
    python = fresh_venv(tmp_path / "venv", tmp_path)
    pip = (sys.executable, "-m", "pip", "--python", python)
    done = run(*pip, "install", "--no-deps", "--no-build-isolation", "-e", source, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert not [path for path in source.rglob("*") if path.suffix in (".so", ".pyd")]
    ask = "import companion.engine as e; print(e.compiled.engine(), e.__file__)"
    result = run(python, "-c", ask, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["pure", str(source / "companion" / "engine" / "__init__.py")]
