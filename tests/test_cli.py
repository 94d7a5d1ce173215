"""The command line as a user meets it: `python -m companion ...` in a real subprocess."""

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.bots.playout import play
from companion.bots.random_bot import RandomBot
from models.commands import command_to_json
from models.rules import (
    EXTENDED_ROUNDS,
    EXTENDED_ROUNDS_MIN_PLAYERS,
    MAX_PLAYERS,
    STANDARD_ROUNDS,
    WINNING_ENERGY,
)
from models.seeded_dice import SeededDice

ROOT = Path(__file__).resolve().parent.parent

INLINE_BOARD = {
    "territories": [
        {"id": "north", "bonus": 2, "locations": ["n1", "n2"]},
        {"id": "south", "bonus": 1, "locations": ["s1"]},
    ],
    "paths": [["n1", "n2"], ["n2", "s1"]],
}


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def tally(request: dict) -> subprocess.CompletedProcess:
    return run("tally", "-", stdin=json.dumps(request))


def request(**changes) -> dict:
    base = {
        "board": INLINE_BOARD,
        "round": 3,
        "final_round": 6,
        "turn_order": ["red", "blue"],
        "energy": {"red": 12, "blue": 20},
        "placements": {"n1": {"player": "red", "creature": "sprite"}},
        "decline_domination": {"red": ["north"]},
    }
    base.update(changes)
    return base


def test_tally_contract_example(tmp_path):
    """The design's example: red 12 -> +3 band, +1 uncontested Sprite = 16; blue stays on 20."""
    path = tmp_path / "round.json"
    path.write_text(json.dumps(request()))
    result = run("tally", str(path))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "players": {
            "red": {"before": 12, "modifier": 3, "sprites": 1, "domination": 0, "after": 16},
            "blue": {"before": 20, "modifier": 0, "sprites": 0, "domination": 0, "after": 20},
        },
        "turn_order": ["red", "blue"],
        "winner": None,
        "summoner": False,
        "game_over": False,
    }


def test_tally_optional_fields_and_shipped_board():
    """round, final_round, placements, paths and decline_domination may be omitted."""
    result = tally({"board": "duel-isle", "turn_order": ["a", "b"], "energy": {"a": 9, "b": 9}})
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["players"]["a"]["after"] == 14
    # Ruling 12: tied on 14, b was later this round, so b goes first.
    assert out["turn_order"] == ["b", "a"]


def test_tally_domination_taken_and_final_round_winner():
    """Rulings 10, 13: red holds north (+2) and a lone Sprite (+1); the final round ends it."""
    placements = {
        "n1": {"player": "red", "creature": "troll"},
        "n2": {"player": "red", "creature": "sprite"},
        "s1": {"player": "blue", "creature": "sprite"},
    }
    out = json.loads(tally(request(round=6, placements=placements, decline_domination={})).stdout)
    assert out["players"]["red"] == {
        "before": 12,
        "modifier": 3,
        "sprites": 1,
        "domination": 2,
        "after": 18,
    }
    assert out["players"]["blue"]["after"] == 20 + 1 + 1
    assert out["winner"] == "blue"
    assert out["game_over"] is True
    assert out["summoner"] is False


def test_tally_win_at_36_in_the_domination_pass():
    """Ruling 11: reaching 36 wins at once, with Summoner status."""
    placements = {
        "n1": {"player": "blue", "creature": "troll"},
        "n2": {"player": "blue", "creature": "troll"},
        "s1": {"player": "blue", "creature": "troll"},
    }
    out = json.loads(tally(request(energy={"red": 12, "blue": 23}, placements=placements)).stdout)
    # Blue: 23 is in the 19-23 band (0); no Sprites; north +2 and south +1 = 26. Not a win yet.
    assert out["players"]["blue"]["after"] == 26
    out = json.loads(
        tally(
            request(
                energy={"red": 12, "blue": 23},
                placements=placements,
                board={
                    "territories": [
                        {"id": "north", "bonus": 3, "locations": ["n1", "n2"]},
                        {"id": "south", "bonus": 3, "locations": ["s1"]},
                        {"id": "east", "bonus": 3, "locations": ["e1"]},
                        {"id": "west", "bonus": 3, "locations": ["w1"]},
                        {"id": "hub", "bonus": 2, "locations": ["h1"]},
                    ]
                },
                decline_domination={},
            )
            | {
                "placements": placements
                | {
                    "e1": {"player": "blue", "creature": "wyrm"},
                    "w1": {"player": "blue", "creature": "sprite"},
                    "h1": {"player": "blue", "creature": "sprite"},
                }
            }
        ).stdout
    )
    # Sprites +2 (w1, h1) -> 25; dominations 3+3+3+3+2 = 14 -> 39.
    assert out["players"]["blue"]["after"] == 39
    assert out["winner"] == "blue"
    assert out["summoner"] is True
    assert out["game_over"] is True


def test_tally_explain_adds_sentences():
    out = json.loads(run("tally", "--explain", "-", stdin=json.dumps(request())).stdout)
    assert "band 10-18 gives +3" in out["explanation"]["players"]["red"]


BAD_INPUTS = [
    ("unknown location", request(placements={"x9": {"player": "red", "creature": "sprite"}}), "x9"),
    (
        "unknown creature",
        request(placements={"n1": {"player": "red", "creature": "dragon"}}),
        "creature",
    ),
    (
        "player not in order",
        request(placements={"n1": {"player": "pink", "creature": "troll"}}),
        "pink",
    ),
    (
        "too many creatures",
        request(
            board={"territories": [{"id": "t", "bonus": 1, "locations": ["a", "b"]}]},
            placements={
                "a": {"player": "red", "creature": "wyrm"},
                "b": {"player": "red", "creature": "wyrm"},
            },
        ),
        "owns only 1",
    ),
    ("energy too high", request(energy={"red": 36, "blue": 3}), "outside 0-35"),
    ("energy negative", request(energy={"red": -1, "blue": 3}), "outside 0-35"),
    ("energy of a stranger", request(energy={"red": 1, "blue": 3, "pink": 2}), "pink"),
    ("missing energy", request(energy={"red": 1}), "blue"),
    (
        "location in two territories",
        request(
            board={
                "territories": [
                    {"id": "a", "bonus": 1, "locations": ["x"]},
                    {"id": "b", "bonus": 1, "locations": ["x"]},
                ]
            },
            placements={},
        ),
        "two territories",
    ),
    ("one player", request(turn_order=["red"], energy={"red": 3}), "2 to 4"),
    (
        "five players",
        request(
            turn_order=list("abcde"),
            energy=dict.fromkeys("abcde", 1),
            placements={},
            decline_domination={},
        ),
        "2 to 4",
    ),
    ("unknown board", request(board="atlantis"), "atlantis"),
    ("unknown territory declined", request(decline_domination={"red": ["mars"]}), "mars"),
    ("seventh round for two", request(final_round=7), "7"),
]


@pytest.mark.parametrize(("name", "bad", "mentions"), BAD_INPUTS, ids=[b[0] for b in BAD_INPUTS])
def test_tally_bad_input_exits_2_with_one_line(name, bad, mentions):
    result = tally(bad)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert mentions in lines[0]


@pytest.mark.parametrize("text", ["{not json", "", "[1, 2]", '"board"'])
def test_tally_malformed_json(text):
    result = run("tally", "-", stdin=text)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_tally_missing_file():
    result = run("tally", "/nonexistent/round.json")
    assert result.returncode == 2
    assert "cannot read" in result.stderr


def played_log(seed: int = 5) -> tuple[dict, object]:
    from companion.boards import shipped_board
    from companion.engine import Game
    from models.setup import GameSetup

    setup = GameSetup(players=[{"id": "red"}, {"id": "blue"}], board="duel-isle", mode="digital")
    game = Game(setup, shipped_board("duel-isle"))
    played = play(game, [RandomBot(seed), RandomBot(seed + 1)], SeededDice(seed))
    log = {
        "format": "summoners-isle-game",
        "version": 1,
        "setup": setup.model_dump(mode="json"),
        "commands": [command_to_json(c) for c in played.commands],
    }
    return log, played.state


def test_replay_prints_the_final_state():
    log, state = played_log()
    result = run("replay", "-", stdin=json.dumps(log))
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["game_over"] is True
    assert out["winner"] == state.winner_id
    assert out["players"]["red"]["energy"] == state.energy_of("red")


def test_replay_prints_the_final_position_for_a_bug_report():
    log, state = played_log()
    result = run("replay", "-", "--position", stdin=json.dumps(log))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == state.position()


def test_replay_names_the_illegal_command():
    log, _ = played_log()
    log["commands"].insert(3, {"type": "move", "to": "nc1"})
    result = run("replay", "-", stdin=json.dumps(log))
    assert result.returncode == 2
    assert result.stderr.startswith("error: command 3: ")
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("change", "mentions"),
    [
        ({"version": 99}, "newer than this app reads"),
        ({"commands": [{"type": "teleport"}]}, "command 0: unknown command type"),
        ({"commands": [{"type": "summon", "kind": "dragon"}]}, "command 0"),
    ],
)
def test_replay_bad_logs(change, mentions):
    log, _ = played_log()
    log.update(change)
    result = run("replay", "-", stdin=json.dumps(log))
    assert result.returncode == 2
    assert mentions in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_simulate_reports_no_errors():
    result = run("simulate", "--players", "3", "--games", "6", "--seed", "2", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["errors"] == 0
    assert sum(report["wins_by_seat"].values()) == 6
    assert report["summoner_wins"] + report["final_round_wins"] == 6


def test_simulate_rejects_five_players():
    result = run("simulate", "--players", "5", "--games", "1")
    assert result.returncode == 2
    assert "--players" in result.stderr


def test_simulate_refuses_a_board_not_made_for_the_players():
    result = run("simulate", "--players", "4", "--board", "duel-isle", "--games", "2")
    assert result.returncode == 2, result.stdout
    assert result.stdout == ""
    (line,) = result.stderr.strip().splitlines()
    assert line == "error: board 'duel-isle' is for 2 players, not 4"


def test_simulate_refuses_a_board_outside_the_shipped_ones():
    result = run("simulate", "--board", "../boards/duel-isle", "--games", "1")
    assert result.returncode == 2, result.stdout
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("error: unknown board '../boards/duel-isle'")


@pytest.mark.parametrize("seconds", ["nan", "inf", "0", "-1", "601"])
def test_bench_needs_a_finite_positive_number_of_seconds(seconds):
    # Without the check, nan reports 0 decisions/s and inf never ends (the timeout fails it).
    result = run("bench", "--seconds", seconds)
    assert result.returncode == 2, result.stdout
    assert result.stdout == ""
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("error: --seconds must be a positive number")


def test_the_rounds_option_is_described_from_the_rules_table():
    result = run("game", "new", "--help")
    assert result.returncode == 0, result.stderr
    help_text = " ".join(result.stdout.replace("│", " ").split())
    assert (
        f"{STANDARD_ROUNDS}, or {EXTENDED_ROUNDS} for "
        f"{EXTENDED_ROUNDS_MIN_PLAYERS}-{MAX_PLAYERS} players who agree." in help_text
    )


# Modules that print or default to rule numbers; simulate.py also uses 7 as a seed multiplier.
RULE_NUMBERS = {
    "companion/cli/game.py": {WINNING_ENERGY, STANDARD_ROUNDS, EXTENDED_ROUNDS},
    "companion/cli/game_show.py": {WINNING_ENERGY, STANDARD_ROUNDS, EXTENDED_ROUNDS},
    "companion/cli/bench.py": {WINNING_ENERGY, STANDARD_ROUNDS, EXTENDED_ROUNDS},
    "companion/bots/simulate.py": {WINNING_ENERGY},
}


@pytest.mark.parametrize("module", sorted(RULE_NUMBERS))
def test_rule_numbers_come_from_the_rules_table(module):
    """A rule number written out in these modules would go stale if models/rules.py changed."""
    numbers = RULE_NUMBERS[module]
    written = []
    for node in ast.walk(ast.parse((ROOT / module).read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Constant):
            continue
        if type(node.value) is int and node.value in numbers:
            written.append((node.lineno, node.value))
        if isinstance(node.value, str):
            written += [
                (node.lineno, int(found))
                for found in re.findall(r"\b\d+\b", node.value)
                if int(found) in numbers
            ]
    assert written == []


def test_bench_reports_every_figure(tmp_path):
    """Only the keys are checked here; the figures themselves are read from `bench`, not tests."""
    (tmp_path / "tmp").mkdir()
    result = subprocess.run(
        [sys.executable, "-m", "companion", "bench", "--seconds", "0.2", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        # The store benchmark writes a scratch database in a temporary folder of its own,
        # never in the user's data folder nor in the database --db or the environment name.
        env={
            **os.environ,
            "XDG_DATA_HOME": str(tmp_path / "data"),
            "TMPDIR": str(tmp_path / "tmp"),
            "SUMMONERS_ISLE_DB": str(tmp_path / "games.sqlite3"),
        },
    )
    assert result.returncode == 0, result.stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == ["tmp"]
    assert list((tmp_path / "tmp").iterdir()) == []
    assert set(json.loads(result.stdout)) == {
        "engine",
        "clock",
        "decisions_per_s",
        "tally_us",
        "replay_1000_ms",
        "append_p50_ms",
        "append_p99_ms",
        "reopen_rebuild_ms",
        "machine",
    }
