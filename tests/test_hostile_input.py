"""Hostile and careless input to every command that reads some: refused in one line, quickly.

Each case of the corpus goes to every reader (`tally`, `replay`, `game import`, `game do`,
from a file and from standard input) and must give exit status 2, one line on stderr, no
traceback, nothing changed in the database, within a bounded time. Hypothesis adds JSON and
bytes of its own. The heaviest inputs (an endless file, a flood on stdin) run in a real
process with its memory capped.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from itertools import pairwise
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from companion.cli import app
from companion.store.store import open_store
from models.board import MAX_LOCATIONS
from models.game_log import MAX_LOG_COMMANDS
from models.setup import GameSetup
from models.text import json_printable, printable

SECONDS = 3.0
TALLY = {
    "board": "duel-isle",
    "turn_order": ["red", "blue"],
    "energy": {"red": 12, "blue": 20},
}
SETUP = {"players": [{"id": "red"}, {"id": "blue"}], "board": "duel-isle", "mode": "table"}


def tally_with(**changes) -> str:
    return json.dumps({**TALLY, **changes})


def log_with(**changes) -> str:
    return json.dumps({"format": "summoners-isle-game", "version": 1, "setup": SETUP, **changes})


def located_board(spaces: int) -> dict:
    names = [f"s{i}" for i in range(spaces)]
    return {
        "territories": [{"id": "all", "bonus": 1, "locations": names}],
        "locations": [{"id": name, "x": 50.0, "y": 50.0} for name in names],
        "paths": [list(pair) for pair in pairwise(names)],
    }


CORPUS: dict[str, str | bytes] = {
    "nested 1,000 arrays": "[" * 1000 + "]" * 1000,
    "nested 100,000 objects": '{"a":' * 100_000 + "1" + "}" * 100_000,
    "nested in a tally": tally_with(placements={"x": json.loads("[" * 40 + "]" * 40)}),
    "integer of 5,000 digits": tally_with(energy={"red": 0, "blue": 1}).replace(
        '"red": 0', '"red": ' + "9" * 5000
    ),
    "version of 5,000 digits": log_with().replace('"version": 1', '"version": ' + "1" * 5000),
    "1e400": '{"board": "duel-isle", "round": 1e400}',
    "NaN energy": '{"board": "duel-isle", "energy": {"red": NaN}}',
    "duplicate keys": '{"type": "summon", "type": "pass"}',
    "duplicate keys in a tally": tally_with()[:-1] + ', "energy": {"red": 0, "blue": 0}}',
    "true as energy": tally_with(energy={"red": True, "blue": 20}),
    "a string as energy": tally_with(energy={"red": "12", "blue": 20}),
    "true as round": tally_with(round=True),
    "a string as the log's version": log_with(version="1"),
    "true as the log's version": log_with(version=True),
    "true as a correction's delta": '{"type": "correction", "player": "red", '
    '"delta": true, "reason": "miscount"}',
    "a string as a correction's delta": '{"type": "correction", "player": "red", '
    '"delta": "3", "reason": "miscount"}',
    "an invisible reason": '{"type": "correction", "player": "red", "delta": 1, '
    '"reason": "\\u200b\\u200b"}',
    "an escape sequence in a reason": '{"type": "correction", "player": "red", "delta": 1, '
    '"reason": "\\u001b[2J"}',
    "a string as a die roll": '{"type": "attack", "target": "x", "attack_roll": "6"}',
    "an empty player id": tally_with(turn_order=["", "blue"], energy={"": 1, "blue": 1}),
    "a 10,000-character player id": tally_with(
        turn_order=["r" * 10_000, "blue"], energy={"r" * 10_000: 1, "blue": 1}
    ),
    "a newline in a player id": tally_with(
        turn_order=["red\nfake line", "blue"], energy={"red\nfake line": 1, "blue": 1}
    ),
    "20,000 located spaces": tally_with(board=located_board(20_000)),
    "a log of 20,000 commands": log_with(commands=[{"type": "pass"}] * 20_000),
    "a territory name with a control character": tally_with(
        board={"territories": [{"id": "t", "name": "\x1b]0;x\x07", "bonus": 1, "locations": ["a"]}]}
    ),
    "not UTF-8": b'{"board": "\xff\xfe"}',
    "empty": "",
    "only spaces": "   \n\t ",
    "a bare string": '"hello"',
    "a bare number": "12",
    "an array": "[1, 2, 3]",
    "null": "null",
    "truncated": '{"board": "duel-isle", "turn_order": ["red"',
    "a NUL byte": '{"board": "duel\x00isle"}',
    "5 MiB of spaces": " " * (5 * 1024 * 1024),
}


@pytest.fixture
def db(tmp_path: Path) -> SimpleNamespace:
    """A database with one table game; its contents before any command runs."""
    path = tmp_path / "games.sqlite3"
    with open_store(str(path)) as store:
        saved = store.new_game(GameSetup.model_validate(SETUP))
    return SimpleNamespace(path=path, game=saved.id, before=contents(path))


def contents(path: Path) -> list:
    """Every saved game with its revision and log: what a command could have changed."""
    with open_store(str(path)) as store:
        return [
            (game.id, game.revision, [e.command for e in store.load(game.id).log])
            for game in store.games()
        ]


def readers(tmp_path: Path, db: SimpleNamespace) -> dict[str, tuple[list[str], bool]]:
    """Every command that reads input: its arguments, and whether the input comes on stdin."""
    source = str(tmp_path / "input.json")
    database = ["--db", str(db.path)]
    return {
        "tally FILE": (["tally", source], False),
        "tally -": (["tally", "-"], True),
        "replay FILE": (["replay", source], False),
        "replay -": (["replay", "-"], True),
        "game import FILE": (["game", "import", source, *database], False),
        "game import -": (["game", "import", "-", *database], True),
        "game do -": (["game", "do", db.game, "-", *database], True),
    }


READERS = [
    "tally FILE",
    "tally -",
    "replay FILE",
    "replay -",
    "game import FILE",
    "game import -",
    "game do -",
]


def run(args: list[str], stdin: bytes | None = None) -> SimpleNamespace:
    started = time.perf_counter()
    result = CliRunner().invoke(app, args, input=stdin, terminal_width=200)
    return SimpleNamespace(
        returncode=result.exit_code,
        stdout=result.stdout,
        stderr=result.stderr,
        exception=result.exception,
        seconds=time.perf_counter() - started,
    )


def refused_in_one_line(result: SimpleNamespace) -> str:
    """The one line of a refusal, after checking it is nothing more."""
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), repr(result.exception)
    assert result.returncode == 2, (result.stdout[:200], result.stderr[:500])
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr[:500]
    assert lines[0].startswith("error: ")
    # Nothing the input carried reaches the terminal raw, and the line stays readable.
    assert "\x1b" not in lines[0] and "\x00" not in lines[0]
    assert len(lines[0]) < 400, lines[0][:400]
    assert result.seconds < SECONDS
    return lines[0]


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("case", list(CORPUS))
def test_hostile_input_is_refused_in_one_line_and_changes_nothing(tmp_path, db, reader, case):
    document = CORPUS[case]
    data = document if isinstance(document, bytes) else document.encode("utf-8")
    args, on_stdin = readers(tmp_path, db)[reader]
    if not on_stdin:
        (tmp_path / "input.json").write_bytes(data)
    refused_in_one_line(run(args, data if on_stdin else None))
    assert contents(db.path) == db.before


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("nested 1,000 arrays", "nested 1000 levels deep; at most 32 are read"),
        ("integer of 5,000 digits", "a number of 5000 characters"),
        ("duplicate keys in a tally", "the key 'energy' appears twice in one object"),
        ("true as energy", "energy.red must be a whole number, not true"),
        ("a string as energy", "energy.red must be a whole number, not '"),
        ("an empty player id", "turn_order entry 1 is empty"),
        ("a 10,000-character player id", "turn_order entry 1 is longer than 24 characters"),
        ("a newline in a player id", "a player id may not contain the control character U+000A"),
        ("20,000 located spaces", "at most 512"),
        ("5 MiB of spaces", "larger than 4 MiB"),
    ],
)
def test_tally_names_the_problem(case, message):
    refused = refused_in_one_line(run(["tally", "-"], CORPUS[case].encode("utf-8")))
    assert message in refused


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("duplicate keys", "the key 'type' appears twice in one object"),
        (
            "true as a correction's delta",
            "correction command: delta must be a whole number, not true",
        ),
        (
            "a string as a correction's delta",
            "correction command: delta must be a whole number, not '",
        ),
        ("an invisible reason", "the reason has no visible character"),
        ("an escape sequence in a reason", "the reason may not contain the control character"),
        ("a string as a die roll", "attack command: attack_roll must be a whole number, not '"),
    ],
)
def test_game_do_names_the_problem(db, case, message):
    args = ["game", "do", db.game, "-", "--db", str(db.path)]
    assert message in refused_in_one_line(run(args, CORPUS[case].encode("utf-8")))
    assert contents(db.path) == db.before


@pytest.mark.parametrize(
    ("case", "message"),
    [
        (
            "a log of 20,000 commands",
            f"commands has 20000 entries; at most {MAX_LOG_COMMANDS} are allowed",
        ),
        ("a string as the log's version", "version must be a whole number, not '"),
        ("true as the log's version", "version must be a whole number, not true"),
    ],
)
def test_game_import_names_the_problem(db, case, message):
    args = ["game", "import", "-", "--db", str(db.path)]
    assert message in refused_in_one_line(run(args, CORPUS[case].encode("utf-8")))


def test_the_largest_board_allowed_is_checked_quickly(db):
    board = located_board(MAX_LOCATIONS)
    placements = {"s0": {"player": "red", "creature": "sprite"}}
    tallied = run(["tally", "-"], tally_with(board=board, placements=placements).encode())
    assert tallied.returncode == 0, tallied.stderr
    assert json.loads(tallied.stdout)["players"]["red"]["sprites"] == 1
    assert tallied.seconds < 1.0

    setup = {**SETUP, "board": {"id": "big", **board}}
    log = {"format": "summoners-isle-game", "version": 1, "setup": setup}
    imported = run(["game", "import", "-", "--db", str(db.path)], json.dumps(log).encode())
    assert imported.returncode == 0, imported.stderr
    shown = run(["game", "show", imported.stdout.strip(), "--db", str(db.path)])
    assert shown.returncode == 0, shown.stderr
    assert imported.seconds < 1.0 and shown.seconds < 1.0


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5)
    ),
    max_leaves=30,
)
tally_like = st.fixed_dictionaries(
    {},
    optional={
        "board": st.sampled_from(["duel-isle", "gathering-isle", "nowhere"]) | json_values,
        "round": json_values,
        "turn_order": st.lists(st.text(max_size=30), max_size=6) | json_values,
        "energy": st.dictionaries(st.text(max_size=30), json_values, max_size=5),
        "placements": json_values,
        "decline_domination": json_values,
    },
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tally_like)
def test_generated_tallies_are_answered_or_refused_in_one_line(document):
    result = run(["tally", "-"], json.dumps(document).encode())
    if result.returncode != 0:
        refused_in_one_line(result)


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=200) | json_values.map(lambda v: json.dumps(v).encode()))
def test_generated_garbage_is_refused_by_every_json_reader(data):
    for args in (["tally", "-"], ["replay", "-"]):
        refused_in_one_line(run(args, data))


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(json_values)
def test_generated_commands_are_refused_or_recorded_never_a_traceback(db, document):
    result = run(["game", "do", db.game, "-", "--db", str(db.path)], json.dumps(document).encode())
    assert result.returncode in (0, 2), result.stderr
    if result.returncode == 2:
        refused_in_one_line(result)


# --- options -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["game", "undo", "abc", "--revision", "-1"], "'--revision' must be at least 0, not -1"),
        (["game", "new", "--players", ""], "--players: player 1 has no id"),
        (["game", "new", "--players", "red"], "--players: 1 player; the game is for 2 to 4"),
        (["game", "new", "--players", "a,b,c,d,e"], "--players: 5 players"),
        (["game", "new", "--players", "red,,blue"], "--players: player 2 has no id"),
        (["simulate", "--games", "x"], "'--games' must be a whole number, not 'x'"),
        (["simulate", "--games", "2000000"], "--games must be 1 to 1,000,000"),
        (["simulate", "--workers", "1000"], "--workers must be 1 to 32"),
        (
            ["simulate", "--bots", "mcts", "--budget-ms", "1e400"],
            "'--budget-ms' must be a whole number, not '1e400'",
        ),
        (["simulate", "--bots", "mcts", "--budget-ms", "99999999999"], "--budget-ms must be 1 to"),
        (["bench", "--seconds", "1e400"], "--seconds must be a positive number"),
        (["tally"], "Missing argument 'FILE'"),
        (["no-such-command"], "No such command 'no-such-command'"),
        (["game", "list", "--no-such-option"], "No such option: --no-such-option"),
    ],
)
def test_bad_options_are_one_line(tmp_path, args, message):
    if args[0] == "game":
        args = [*args, "--db", str(tmp_path / "games.sqlite3")]
    line = refused_in_one_line(run(args))
    assert message in line


def test_a_bad_option_is_one_line_in_a_real_process_too():
    result = subprocess.run(
        [sys.executable, "-m", "companion", "simulate", "--games", "many"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr.splitlines() == ["error: '--games' must be a whole number, not 'many'"]


# --- names and reasons on the terminal --------------------------------------------------------


def test_control_characters_stored_in_names_are_replaced_on_output(tmp_path):
    path = tmp_path / "games.sqlite3"
    with open_store(str(path)) as store:
        game_id = store.new_game(GameSetup.model_validate(SETUP)).id
    # As an older database may hold them (names are checked when typed now; read back, they
    # are shown safely): a name with an escape sequence and a newline.
    players = [{"id": "red", "name": "Ra\x1b[31mgna"}, {"id": "blue", "name": "B\nfake"}]
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as connection:
        connection.execute(
            text("UPDATE games SET setup = :setup WHERE id = :id"),
            {"setup": json.dumps({**SETUP, "players": players}), "id": game_id},
        )
    engine.dispose()
    listed = run(["game", "list", "--db", str(path)])
    assert listed.returncode == 0, listed.stderr
    (line,) = listed.stdout.splitlines()
    assert "Ra\ufffd[31mgna, B\ufffdfake" in line
    shown = run(["game", "show", game_id, "--db", str(path)])
    assert shown.returncode == 0, shown.stderr
    assert "\x1b" not in shown.stdout
    assert "energy: Ra\ufffd[31mgna 5, B\ufffdfake 5" in shown.stdout.splitlines()
    as_json = run(["game", "show", game_id, "--json", "--db", str(path)])
    assert json.loads(as_json.stdout)["setup"]["players"][0]["name"] == "Ra\ufffd[31mgna"
    assert "\x1b" not in as_json.stdout


def test_what_reaches_the_terminal_raw_is_escaped():
    # Sentences stored by older versions hold names as they were typed.
    assert printable("Ra\x1b[31mgna B\nfake \u202e") == "Ra\\x1b[31mgna B\\x0afake \\u202e"
    assert json_printable('"\u202e\ud800"') == '"\\u202e\\ud800"'


# --- endless input, in a real process with its memory capped ---------------------------------

MEMORY_CAP = 1024 * 1024 * 1024


def capped(args: list[str], **kwargs) -> subprocess.CompletedProcess:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))

    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        capture_output=True,
        timeout=20,
        check=False,
        preexec_fn=limit,
        **kwargs,
    )


def test_an_endless_file_is_read_only_up_to_the_limit():
    result = capped(["tally", "/dev/zero"])
    assert result.returncode == 2
    assert result.stderr.decode() == "error: /dev/zero is larger than 4 MiB\n"


def test_a_flood_on_standard_input_is_read_only_up_to_the_limit():
    flood = b'{"commands": [' + b'{"type": "pass"},' * 3_200_000 + b"]}"
    result = capped(["replay", "-"], input=flood)
    assert result.returncode == 2
    assert result.stderr.decode() == "error: standard input is larger than 4 MiB\n"


def group_members(group: int) -> list[int]:
    """The processes in a process group, read from /proc."""
    members = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == group:
                members.append(int(entry.name))
    return members


def test_ctrl_c_while_simulate_starts_its_workers_is_one_line(tmp_path):
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "simulate", "--games", "100000", "--workers", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    # Once the command runs (its first worker has started), Ctrl-C reaches the whole group:
    # waited for, not slept for, as starting Python can take seconds on a loaded machine.
    deadline = time.monotonic() + 60
    while len(group_members(process.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    assert (process.returncode, stderr.decode()) == (130, "interrupted\n")


@pytest.mark.parametrize("by_ctrl_c", [True, False])
def test_a_pool_broken_by_a_ctrl_c_is_told_from_one_broken_otherwise(by_ctrl_c):
    """A worker stopped by Ctrl-C marks the pool's event before it goes: a pool it broke is
    reported as interrupted even when the Ctrl-C reaches simulate's own process late (a busy
    machine), and even when the pool's own thread reaped the worker first, which hides its
    exit status (seen in a whole suite's run)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    from companion.bots.simulate import _in_worker

    for _ in range(10):
        stopped = multiprocessing.Event()
        with ProcessPoolExecutor(
            max_workers=1, initializer=_in_worker, initargs=(stopped,)
        ) as pool:
            future = pool.submit(_interrupted if by_ctrl_c else os._exit, 1)
            with pytest.raises(BrokenProcessPool):
                future.result(timeout=30)
            assert stopped.is_set() is by_ctrl_c


def _interrupted(_: int) -> None:
    """A worker's task interrupted by Ctrl-C."""
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(30)
