"""The coach: table positions carried over to the digital rules, win chances, reviews, analyse.

How well the chances are calibrated and how fast they come are measured by
`python -m companion bench calibration` and `bench coach` (docs/coach.md); these tests
check what the coach promises whatever the numbers: a pure function of position, budget
and seed, chances that add up, the table's position as the digital game has it, a story
in both languages, and one line for bad input.
"""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

from companion.boards import resolve_board, shipped_board
from companion.bots import make_bot
from companion.bots.playout import PlayedGame, play
from companion.cli import app
from companion.coach import CoachError, Estimator, board_known, playable, review, win_chances
from companion.coach.calibration import calibrate, calibrate_one, power_for
from companion.coach.review import Mark, mark_for
from companion.coach.tabled import as_table
from companion.engine import Game
from companion.engine import state as state_module
from companion.language.render import render
from models.commands import EnergyAndReset, Summon
from models.game_log import GameLog
from models.seeded_dice import SeededDice
from models.setup import GameSetup

ROOT = Path(__file__).resolve().parent.parent
NAMES = (("a", "Ann"), ("b", "Bob"), ("c", "Cy"), ("d", "Dee"))


def digital(players: int) -> Game:
    board = "duel-isle" if players == 2 else "gathering-isle"
    setup = GameSetup(
        players=[{"id": i, "name": n} for i, n in NAMES[:players]], board=board, mode="digital"
    )
    return Game(setup, shipped_board(board))


@cache
def greedy_game(players: int, seed: int = 7) -> tuple[Game, PlayedGame]:
    game = digital(players)
    bots = [make_bot("greedy", seed=seed * 10 + s) for s in range(players)]
    return game, play(game, bots, SeededDice(seed))


def round_starts(game: Game, commands) -> dict[int, str]:
    """The digital game's position at the start of each round."""
    state = game.new_initial_state()
    starts = {1: state.position()}
    for command in commands:
        before = state.round
        state.apply(command)
        if state.round != before:
            starts[state.round] = state.position()
    return starts


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_table_position_after_each_reset_is_the_digital_games_position(players):
    game, played = greedy_game(players)
    table, records = as_table(game, played.commands)
    starts = round_starts(game, played.commands)
    state = table.new_initial_state()
    carried = {1: playable(state).position()}
    for record in records:
        state.apply(record)
        if isinstance(record, EnergyAndReset) and not state.is_terminal:
            assert board_known(state)
            carried[state.round] = playable(state).position()
    assert state.is_terminal and state.winner_id == played.state.winner_id
    assert carried == {r: p for r, p in starts.items() if r in carried}
    assert len(carried) == played.state.round


def test_a_table_position_after_a_summon_is_not_known_and_chances_say_why():
    game, _ = greedy_game(2)
    table, _ = as_table(game, [])
    state = table.new_initial_state()
    state.apply(state.sign(Summon("wyrm")))
    assert not board_known(state)
    with pytest.raises(CoachError) as refused:
        win_chances(state, budget=8)
    assert "round 1" in str(refused.value)
    assert "manche 1" in render(refused.value.message, "fr")


def test_chances_are_a_pure_function_of_position_budget_and_seed():
    game, played = greedy_game(2)
    state = game.new_initial_state()
    for command in played.commands[:40]:
        state.apply(command)
    before = state.position()
    first = win_chances(state, budget=48, seed=3)
    assert state.position() == before  # judged on copies
    assert win_chances(state, budget=48, seed=3) == first
    assert Estimator(3).chances(state, 48) == first
    assert sum(line.chance for line in first.players) == pytest.approx(1.0)
    for line in first.players:
        assert 0.0 <= line.low <= line.chance <= line.high <= 1.0
    assert 1 <= first.playouts <= 48


def test_a_finished_game_has_its_result_for_chances():
    game, played = greedy_game(3)
    chances = win_chances(played.state)
    winner = played.state.winner_id
    assert chances.playouts == 0
    assert [line.chance for line in chances.players] == [
        1.0 if player == winner else 0.0 for player in game.players
    ]


def test_the_calibration_map_is_monotone_and_chances_add_up():
    for players in (2, 3, 4):
        raw = [0.2, 0.5, 0.3, 0.0][:players]
        for after in range(6):
            power = power_for(players, after)
            shares = calibrate(raw, power)
            assert sum(shares) == pytest.approx(1.0)
            assert shares[1] == max(shares)  # the order of the raw chances is kept
            values = [calibrate_one(raw, 1, step / 100, power) for step in range(101)]
            assert values == sorted(values)
            assert calibrate_one(raw, 1, raw[1], power) == pytest.approx(shares[1])


def test_the_map_is_applied_to_all_chances_at_once():
    # A power below 1 brings the chances together, above 1 pulls them apart; they add up.
    closer = calibrate([0.6, 0.3, 0.1], 0.5)
    apart = calibrate([0.6, 0.3, 0.1], 2.0)
    assert closer[0] < 0.6 < apart[0]
    assert sum(closer) == pytest.approx(1.0) and sum(apart) == pytest.approx(1.0)
    # The power is the one fitted for so many players and rounds to come, the nearest
    # fitted number of rounds beyond them.
    assert power_for(2, 0, {2: {0: 1.5, 3: 0.5}}) == 1.5
    assert power_for(2, 9, {2: {0: 1.5, 3: 0.5}}) == 0.5
    assert power_for(4, 0, {2: {0: 1.5}}) == 1.0


def test_an_estimate_stops_once_every_calibrated_interval_is_within_five_points():
    game, played = greedy_game(4)
    state = game.new_initial_state()
    for command in played.commands[:60]:
        state.apply(command)
    chances = win_chances(state, budget=2000, seed=1)
    assert chances.playouts < 2000
    for line in chances.players:
        assert line.high - line.chance <= 0.05 and line.chance - line.low <= 0.05


def test_marks_follow_the_documented_thresholds():
    assert mark_for(0.049) is None
    assert mark_for(0.05) is Mark.INACCURACY
    assert mark_for(0.10) is Mark.MISTAKE
    assert mark_for(0.15) is Mark.BLUNDER
    assert mark_for(-0.3) is None
    assert mark_for(0.12, noise=0.13) is None
    assert mark_for(0.12, noise=0.08) is Mark.MISTAKE


def test_a_table_review_has_a_moment_per_reset_and_tells_its_turning_points_in_both_languages():
    game, played = greedy_game(3)
    table, records = as_table(game, played.commands)
    told = review(table, records, budget=32)
    resets = sum(isinstance(record, EnergyAndReset) for record in records)
    # The start, after each Energy and Reset, and the end (a game won mid-round too).
    ended_mid_round = not isinstance(records[-1], EnergyAndReset)
    assert len(told.moments) == resets + 1 + ended_mid_round
    assert told.moments[-1].chances.over  # the result
    assert not told.digital and told.marked() == []
    for point in told.turning_points:
        moment = told.moments[point.moment]
        previous = told.moments[point.start]
        assert abs(point.after - point.before) >= 0.10
        assert point.before == previous.chances.chance(point.player)
        english = render(point.message(told.labels), "en")
        french = render(point.message(told.labels), "fr")
        assert english.startswith(f"Round {point.round}: ")
        assert french.startswith(f"Manche {point.round}\u202f: ")
        assert f"{round(point.after * 100)}%" in english
        assert f"{round(point.after * 100)}\u202f%" in french
        assert moment.index > 0


def test_a_digital_review_judges_every_record_and_marks_decisions_by_what_they_cost():
    game, played = greedy_game(2)
    commands = played.commands[:60]
    told = review(game, commands, budget=16)
    assert [moment.index for moment in told.moments] == list(range(len(commands) + 1))
    for moment in told.moments[1:]:
        assert moment.player is not None
        # Only a decision is judged; a mark follows the thresholds (a cost within the
        # estimates' noise earns none).
        assert (moment.cost is not None) == moment.choice
        assert moment.mark in (None, mark_for(moment.cost or 0.0))
    # The same review again: the same chances, marks and story.
    assert review(game, commands, budget=16) == told


def test_the_layers_keep_the_coach_pure():
    forbidden = {"time", "datetime", "random", "companion.app", "companion.store", "flet"}
    forbidden |= {"companion.engine.flow", "companion.engine.commands", "companion.engine.rulesets"}
    for path in sorted((ROOT / "companion" / "coach").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert not any(name == f or name.startswith(f + ".") for f in forbidden), (
                    f"{path.name} imports {name}"
                )


def analyse(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "companion", "analyse", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )


@pytest.fixture(scope="module")
def table_log(tmp_path_factory) -> Path:
    game, played = greedy_game(2)
    table, records = as_table(game, played.commands)
    path = tmp_path_factory.mktemp("logs") / "table.json"
    path.write_text(json.dumps(GameLog.of(table.setup, records).to_json()), encoding="utf-8")
    return path


def test_analyse_prints_the_chances_round_by_round_and_the_turning_points(table_log):
    shown = analyse(str(table_log), "--budget", "32")
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[0] == "Chances at the start of each round:"
    assert lines[1].startswith("  Round 1: Ann ") and " · Bob " in lines[1]
    assert "Turning points:" in lines
    french = analyse(str(table_log), "--budget", "32", "--lang", "fr")
    assert french.stdout.splitlines()[0] == "Chances au début de chaque manche\u202f:"


def test_analyse_json_has_every_moment_and_reads_standard_input(table_log):
    shown = analyse("-", "--json", "--budget", "32", stdin=table_log.read_text(encoding="utf-8"))
    assert shown.returncode == 0, shown.stderr
    data = json.loads(shown.stdout)
    assert data["mode"] == "table"
    assert data["players"] == {"a": "Ann", "b": "Bob"}
    assert data["moments"][0]["index"] == 0
    for moment in data["moments"]:
        assert sum(p["chance"] for p in moment["players"].values()) == pytest.approx(100, abs=0.2)


@pytest.mark.parametrize(
    ("args", "stdin", "said"),
    [
        (["-"], "{", "standard input"),
        (["-"], '{"format": "summoners-isle-game", "setup": {}}', "players is missing"),
        (["0123456789ab", "--db", "sqlite:///:memory:"], None, "0123456789ab"),
        (["no-such-file.json"], None, "no-such-file.json"),
    ],
)
def test_analyse_refuses_bad_input_in_one_line(args, stdin, said):
    shown = analyse(*args, stdin=stdin)
    assert shown.returncode == 2
    assert shown.stdout == ""
    assert len(shown.stderr.splitlines()) == 1 and shown.stderr.startswith("error: ")
    assert said in shown.stderr


def test_bench_openspiel_says_in_one_line_when_openspiel_is_missing(monkeypatch):
    real = importlib.import_module

    def without_openspiel(name, *args, **kwargs):
        if name == "pyspiel":
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(importlib, "import_module", without_openspiel)
    result = CliRunner().invoke(app, ["bench", "openspiel", "--seconds", "0.1"])
    assert result.exit_code == 2
    assert "OpenSpiel is not installed" in result.output


def test_bench_openspiel_races_the_engine_against_backgammon():
    pytest.importorskip("pyspiel")
    result = CliRunner().invoke(
        app, ["bench", "openspiel", "--seconds", "0.3", "--clock", "cpu", "--json"]
    )
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["clock"] == "cpu"
    # Which engine ran, compiled or pure (docs/engine.md, "Speed"): the one this process loaded.
    assert figures["engine"] == ("pure" if state_module.__file__.endswith(".py") else "compiled")
    assert figures["ratio"] == pytest.approx(
        figures["engine_decisions_per_s"] / figures["openspiel_decisions_per_s"], rel=0.01
    )
    assert figures["openspiel_actions_per_s"] > figures["openspiel_decisions_per_s"]
    # Steps count the engine's attack dice as chance events, as OpenSpiel's dice are actions.
    assert figures["engine_steps_per_s"] > figures["engine_decisions_per_s"]
    assert figures["ratio_steps_to_actions"] == pytest.approx(
        figures["engine_steps_per_s"] / figures["openspiel_actions_per_s"], rel=0.01
    )


def test_bench_calibration_measures_saved_games(tmp_path):
    games = tmp_path / "games.jsonl"
    with games.open("w", encoding="utf-8") as out:
        for players in (2, 3, 4):
            game, played = greedy_game(players, seed=3)
            out.write(json.dumps(GameLog.of(game.setup, played.commands).to_json()) + "\n")
    # Few playouts a position: what is checked is the report, not the chances' quality.
    result = CliRunner().invoke(
        app,
        [
            "bench",
            "calibration",
            "--games-in",
            str(games),
            "--workers",
            "1",
            "--budget",
            "16",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["games"] == {"2": 1, "3": 1, "4": 1}
    assert report["positions"] >= 3 * 6
    assert report["level"] == "mcts:hard"
    assert set(report["by_players"]) == {"2", "3", "4"}
    assert set(report["powers"]) == {"2", "3", "4"}
    for players, part in report["by_players"].items():
        assert len(part["table"]) == 10
        assert part["player_positions"] == sum(row["positions"] for row in part["table"])
        # Sharpness beside calibration: the Brier score, the even chance's, and the skill.
        assert part["skill"] == pytest.approx(1 - part["brier"] / part["even"], abs=0.002)
        rounds = report["by_round"][players]
        assert "1" in rounds and set(rounds) <= {str(r) for r in range(1, 8)}
        assert sum(one["player_positions"] for one in rounds.values()) == part["player_positions"]
    assert report["player_positions"] == sum(
        part["player_positions"] for part in report["by_players"].values()
    )
    assert report["checked_on"] == "out of fold"
    checked = CliRunner().invoke(
        app,
        [
            *("bench", "calibration", "--games-in", str(games), "--check-in", str(games)),
            *("--workers", "1", "--budget", "16", "--json"),
        ],
    )
    assert checked.exit_code == 0, checked.output
    on_check = json.loads(checked.stdout)
    assert on_check["checked_on"] == "check games"
    assert on_check["check_positions"] == report["positions"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "summoners-isle-game"}\n', encoding="utf-8")
    refused = CliRunner().invoke(app, ["bench", "calibration", "--games-in", str(bad)])
    assert refused.exit_code == 2
    assert "line 1" in refused.output


def test_analyse_a_digital_game_in_play_ends_on_where_it_stands_and_lists_costly_records(tmp_path):
    game, played = greedy_game(2)
    state = game.new_initial_state()
    commands = []
    for command in played.commands:
        commands.append(command)
        state.apply(command)
        if state.round == 3 and state.phase.value == "actions":
            break
    path = tmp_path / "digital.json"
    path.write_text(json.dumps(GameLog.of(game.setup, commands).to_json()), encoding="utf-8")
    shown = analyse(str(path), "--budget", "16")
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    rounds = lines[1 : lines.index("")]
    assert [line.split(":")[0] for line in rounds] == [
        "  Round 1",
        "  Round 2",
        "  Round 3",
        "  Now (round 3)",
    ]
    assert "Costly decisions:" in lines


def test_a_table_game_on_a_board_without_paths_has_no_chances_and_says_why():
    board = resolve_board(
        {
            "territories": [
                {"id": "north", "bonus": 2, "locations": ["n1", "n2"]},
                {"id": "south", "bonus": 1, "locations": ["s1", "s2"]},
            ]
        }
    )
    setup = GameSetup(players=[{"id": "a"}, {"id": "b"}], board=board)
    state = Game(setup, board).new_initial_state()
    with pytest.raises(CoachError) as refused:
        win_chances(state, budget=8)
    assert "no paths" in str(refused.value)
    assert "chemins" in render(refused.value.message, "fr")


def test_analyse_a_saved_game_by_its_id(tmp_path, table_log):
    from companion.store.store import open_store

    db = tmp_path / "games.db"
    with open_store(str(db)) as store:
        saved = store.import_log(GameLog.model_validate_json(table_log.read_text(encoding="utf-8")))
    from_store = analyse(saved.id, "--db", str(db), "--budget", "32", "--json")
    from_file = analyse(str(table_log), "--budget", "32", "--json")
    assert from_store.returncode == 0, from_store.stderr
    assert json.loads(from_store.stdout) == json.loads(from_file.stdout)


@pytest.mark.parametrize("players", [2, 4])
def test_playouts_choose_legal_commands_and_end_where_their_round_ends(players):
    game, played = greedy_game(players)
    estimator = Estimator(5)
    state = game.new_initial_state()
    for number, command in enumerate(played.commands):
        if number % 7 == 0:
            value = estimator.playout(state, number)
            assert len(value) == players and sum(value) == pytest.approx(1.0)
            # A playout is a function of where it stands: the same ends the same.
            assert estimator.playout(state, number) == value
            assert Estimator(5).playout(state, number) == value
        state.apply(command)
