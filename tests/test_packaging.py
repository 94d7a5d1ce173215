"""A non-editable install works on its own: the wheel carries the boards and migrations.

The wheel is built offline (no build isolation, no dependencies fetched) from a copy of
the sources, installed without its dependencies into a fresh virtualenv that borrows them
from the test's own environment, and run from a folder that holds no source.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = "Scripts" if sys.platform == "win32" else "bin"
# What a build reads; the rest of the checkout (tests, docs, .venv) stays out of the copy.
SOURCES = ("pyproject.toml", "README.md", "companion", "models")

TALLY = {
    "board": "duel-isle",
    "turn_order": ["red", "blue"],
    "energy": {"red": 12, "blue": 20},
    "placements": {"nc1": {"player": "red", "creature": "sprite"}},
}


def run(*args: str | Path, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PIP_NO_INDEX"] = "1"  # nothing is downloaded
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return subprocess.run(
        [str(arg) for arg in args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A virtualenv with the project installed from its wheel; its folder."""
    work = tmp_path_factory.mktemp("packaging")
    source = work / "source"
    source.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=ignore)
        else:
            shutil.copy2(ROOT / name, source / name)
    built = run(
        sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
        "--wheel-dir", work / "dist", source,
        cwd=work,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr
    (wheel,) = (work / "dist").glob("*.whl")

    venv = work / "venv"
    made = run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=work)
    assert made.returncode == 0, made.stderr
    python = venv / BIN / "python"
    # The dependencies come from this environment's site-packages, appended after the
    # new virtualenv's own (a .pth line adds a folder without running its .pth files, so
    # an editable install of the project there is not picked up).
    purelib = run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))", cwd=work)
    borrowed = {
        sysconfig.get_path("purelib"),
        sysconfig.get_path("platlib"),
        *site.getsitepackages(),
    }
    Path(purelib.stdout.strip(), "borrowed-deps.pth").write_text("\n".join(sorted(borrowed)) + "\n")
    pip = (sys.executable, "-m", "pip", "--python", python)
    done = run(*pip, "install", "--no-deps", "--no-index", wheel, cwd=work)
    assert done.returncode == 0, done.stderr
    return venv


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
