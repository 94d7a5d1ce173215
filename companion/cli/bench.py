"""The engine's speed, measured the same way every time (`python -m companion bench`)."""

from __future__ import annotations

import importlib
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from companion.boards import shipped_board
from companion.bots import make_bot
from companion.bots.playout import play
from companion.bots.waits import measure_waits
from companion.engine import Game, compiled, reset_phase
from companion.engine.dice import with_rolls
from companion.engine.queries import search_view
from companion.engine.replay import replay
from models.commands import Attack, Command, EndActivation, Move, Pass, Swap
from models.game_log import GameLog
from models.rules import EXTENDED_ROUNDS, KIND_ORDER, MAX_TRACK_ENERGY, STANDARD_ROUNDS
from models.seeded_dice import SeededDice
from models.setup import GameSetup, Mode
from models.strict_json import JSONInputError, read_bounded

BENCH_BOARD = "gathering-isle"
# A file of calibration games holds hundreds of game logs, each read as strictly as one.
GAMES_FILE_BYTES = 512 * 1024 * 1024
BENCH_PLAYERS = ("red", "blue", "green", "yellow")
# What the engine's figures are timed on: the wall clock, or this thread's CPU time, which
# other work on a shared machine does not eat into.
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.thread_time}


def _game(final_round: int = STANDARD_ROUNDS) -> Game:
    setup = GameSetup(
        players=[{"id": p} for p in BENCH_PLAYERS],
        board=BENCH_BOARD,
        mode=Mode.DIGITAL,
        final_round=final_round,
    )
    return Game(setup, shipped_board(BENCH_BOARD))


def decisions_per_second(seconds: float = 3.0, seed: int = 1, clock: str = "wall") -> float:
    """Random legal-command playouts of 4-player games: legal list, choice, dice, apply."""
    return playout_rates(seconds, seed, clock)["decisions_per_s"]


def playout_rates(seconds: float = 3.0, seed: int = 1, clock: str = "wall") -> dict[str, float]:
    """Random legal-command playouts of 4-player games, per second of `clock`: decisions, and
    steps (decisions and chance events: an attack's dice, rolled inside its decision, are one)."""
    now = CLOCKS[clock]
    game = _game()
    rng = random.Random(seed)
    roll = SeededDice(seed)
    decisions = rolls = 0
    started = now()
    deadline = started + seconds
    while now() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal:
            command = rng.choice(state.legal_commands())
            if type(command) is Attack:
                command = with_rolls(state, command, roll)
                rolls += 1
            state.apply(command)
            decisions += 1
    elapsed = now() - started
    return {"decisions_per_s": decisions / elapsed, "steps_per_s": (decisions + rolls) / elapsed}


def tally_microseconds(repeats: int = 2000, seed: int = 1, clock: str = "wall") -> float:
    """One Energy and Reset on a board with every location taken."""
    game = _game()
    rng = random.Random(seed)
    occupants = [
        (rng.choice(BENCH_PLAYERS), rng.choice(KIND_ORDER)) for _ in game.isle.location_ids
    ]
    # Whole territories for two players, so the domination pass has work to do.
    for t, members in enumerate(game.isle.territory_members[:2]):
        for i in members:
            occupants[i] = (BENCH_PLAYERS[t], KIND_ORDER[2])
    energy = {player: rng.randint(0, MAX_TRACK_ENERGY - 10) for player in BENCH_PLAYERS}
    now = CLOCKS[clock]
    started = now()
    for _ in range(repeats):
        reset_phase(game.isle, BENCH_PLAYERS, energy, occupants, {}, labels=game.labels)
    return (now() - started) / repeats * 1e6


class _BusyBot:
    """Acts as much as it can: the longest logs a real game makes."""

    name = "busy"
    budget_ms = None

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def choose(self, state: Any) -> Command:
        index = state.game.isle.index
        active = search_view(state).active
        near = () if active is None else state.game.isle.neighbours[active]
        options = [
            c
            for c in state.legal_commands()
            if type(c) not in (Pass, EndActivation, Swap)
            and not (type(c) is Move and index[c.to] not in near)
        ]
        return self._random.choice(options or state.legal_commands())


def replay_milliseconds(
    commands: int = 1000, repeats: int = 5, seed: int = 1, clock: str = "wall"
) -> float:
    """Rebuild state from `commands` logged commands (JSON parsed and every rule checked).

    One game is about 490 commands long, so the log is whole games with the optional extra
    round, replayed back to back until `commands` have been applied; the median of `repeats` runs.
    """
    game = _game(final_round=EXTENDED_ROUNDS)
    logs: list[GameLog] = []
    total = 0
    number = 0
    while total < commands:
        bots = [_BusyBot(seed * 100 + number * 4 + seat) for seat in range(4)]
        played = play(game, bots, SeededDice(seed + number))
        take = played.commands[: commands - total]
        logs.append(GameLog.of(game.setup, take))
        total += len(take)
        number += 1
    timings = []
    for _ in range(repeats):
        started = CLOCKS[clock]()
        for log in logs:
            replay(game, log.parsed_commands())
        timings.append(CLOCKS[clock]() - started)
    return statistics.median(timings) * 1e3


def machine() -> dict[str, Any]:
    """What the numbers were measured on."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "system": f"{platform.system()} {platform.release()}",
    }


def run_bench(seconds: float = 3.0, clock: str = "wall") -> dict[str, Any]:
    """Every benchmark: the engine on one core, then the store on a durable SQLite file."""
    from companion.store.bench import store_bench

    return {
        "engine": compiled.engine(),
        "clock": clock,
        "decisions_per_s": round(decisions_per_second(seconds, clock=clock)),
        "tally_us": round(tally_microseconds(clock=clock), 1),
        "replay_1000_ms": round(replay_milliseconds(clock=clock), 1),
        **store_bench(),
        "machine": machine(),
    }


def run_app_waits(games: int) -> dict[str, Any]:
    """A person's waits in the app itself, in Chromium, against three computers at "normal"."""
    from companion.cli.app_waits import measure_app_waits

    summary = measure_app_waits(games).summary()
    # The log gives commands' times, not where each computer's turn began.
    del summary["longest_computer_turn_s"]
    return summary


def run_waits(games: int, seed: int = 1) -> dict[str, Any]:
    """A person's waits against three computers at "normal", with the app's pacing."""
    from companion.play.turns import pause_for

    return measure_waits(pause_for, ("mcts:normal",) * 3, games, seed).summary()


def openspiel_decisions_per_second(
    seconds: float = 3.0, seed: int = 1, clock: str = "wall"
) -> dict[str, float]:
    """Random playouts of OpenSpiel's backgammon (C++) through its Python API.

    As the engine's: at a decision, list the legal actions and pick one uniformly; at a
    chance node, draw the dice by their odds. Decisions and dice are counted apart: the
    engine rolls an attack's dice inside its decision.
    """
    now = CLOCKS[clock]
    spiel: Any = importlib.import_module("pyspiel")
    game = spiel.load_game("backgammon")
    rng = random.Random(seed)
    decisions = rolls = 0
    started = now()
    deadline = started + seconds
    while now() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, odds = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, odds)[0])
                rolls += 1
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
    elapsed = now() - started
    return {"decisions_per_s": decisions / elapsed, "actions_per_s": (decisions + rolls) / elapsed}


def run_openspiel(seconds: float = 3.0, rounds: int = 3, clock: str = "wall") -> dict[str, Any]:
    """The engine's random playouts against OpenSpiel's backgammon, in turns, in one run.

    Each side runs `rounds` times for `seconds / rounds`, alternately, so a change in the
    machine's load meets both. Two ratios: decisions over decisions, and steps over
    actions, counting every chance event on both sides (OpenSpiel's dice are actions of
    the chance player; the engine's attack dice, rolled inside the attack, are counted as
    one step more): the fair one, as neither game's share of chance counts for it
    (docs/coach.md). On the `cpu` clock both sides count only the CPU time they get.
    """
    try:
        importlib.import_module("pyspiel")
    except ImportError:
        raise OpenSpielMissing(
            "OpenSpiel is not installed: pip install 'summoners-isle-companion[openspiel]'"
        ) from None
    slice_ = seconds / rounds
    engine: list[dict[str, float]] = []
    spiel: list[dict[str, float]] = []
    for number in range(rounds):
        engine.append(playout_rates(slice_, number + 1, clock))
        spiel.append(openspiel_decisions_per_second(slice_, number + 1, clock))
    ours = statistics.mean(one["decisions_per_s"] for one in engine)
    steps = statistics.mean(one["steps_per_s"] for one in engine)
    theirs = statistics.mean(one["decisions_per_s"] for one in spiel)
    actions = statistics.mean(one["actions_per_s"] for one in spiel)
    return {
        # The compiled engine or the pure one (docs/engine.md, "Speed"), and the clock.
        "engine": compiled.engine(),
        "clock": clock,
        "engine_decisions_per_s": round(ours),
        "engine_steps_per_s": round(steps),
        "openspiel_decisions_per_s": round(theirs),
        "openspiel_actions_per_s": round(actions),
        "ratio": round(ours / theirs, 2),
        "ratio_steps_to_actions": round(steps / actions, 2),
        "ratio_to_actions": round(ours / actions, 2),
        "machine": machine(),
    }


class OpenSpielMissing(RuntimeError):
    """OpenSpiel (the optional extra) is not installed."""


def run_coach(games: int, seed: int = 1) -> dict[str, Any]:
    """The coach on table games: each position's chances, and each whole game's review.

    Table games are digital games between greedy bots recorded the table's way
    (`coach/tabled.py`), `games` of 2, 3 and 4 players on the default boards. Times are
    the process's CPU time (one core). A position's estimate starts afresh, as the app's
    would after an Energy and Reset; a review shares its playouts' ends across positions.
    """
    from companion.coach import Estimator, review
    from companion.coach.chances import DEFAULT_BUDGET
    from companion.coach.tabled import as_table

    position_seconds: list[float] = []
    review_seconds: list[float] = []
    widths: list[float] = []
    spreads: list[float] = []
    at_budget = 0
    for players in (2, 3, 4):
        board_id = BENCH_BOARD if players > 2 else "duel-isle"
        for number in range(games):
            setup = GameSetup(
                players=[{"id": p} for p in BENCH_PLAYERS[:players]],
                board=board_id,
                mode=Mode.DIGITAL,
            )
            game = Game(setup, shipped_board(board_id))
            bots = [make_bot("greedy", seed=seed * 100 + number * 4 + s) for s in range(players)]
            played = play(game, bots, SeededDice(seed * 1000 + players * 100 + number))
            table, records = as_table(game, played.commands)
            started = time.process_time()
            told = review(table, records, seed=seed)
            review_seconds.append(time.process_time() - started)
            state = table.new_initial_state()
            positions = [state.clone()]
            for record in records:
                state.apply(record)
                if type(record).__name__ == "EnergyAndReset" and not state.is_terminal:
                    positions.append(state.clone())
            for position in positions:
                started = time.process_time()
                chances = Estimator(seed).chances(position)
                position_seconds.append(time.process_time() - started)
                # The interval's longer side: the chance is within it of either end.
                widths.append(
                    max(max(p.high - p.chance, p.chance - p.low) for p in chances.players)
                )
                at_budget += chances.playouts >= DEFAULT_BUDGET
                others = [Estimator(seed + k).chances(position) for k in range(1, 5)]
                for line in chances.players:
                    values = [line.chance] + [other.chance(line.player) for other in others]
                    mean = statistics.mean(values)
                    spreads.extend(abs(value - mean) for value in values)
            assert told.moments, "a review has a moment at the start"
    return {
        "table_positions": len(position_seconds),
        "position_s_median": round(statistics.median(position_seconds), 3),
        "position_s_max": round(max(position_seconds), 3),
        "half_width_max_points": round(max(widths) * 100, 1),
        "half_width_within_5_points": f"{sum(w <= 0.05 for w in widths)}/{len(widths)}",
        "positions_at_budget": at_budget,
        "seeds_within_5_points": f"{sum(s <= 0.05 for s in spreads)}/{len(spreads)}",
        "table_reviews": len(review_seconds),
        "review_s_median": round(statistics.median(review_seconds), 2),
        "review_s_max": round(max(review_seconds), 2),
        "machine": machine(),
    }


def run_calibration(
    games: int,
    seed: int = 1,
    workers: int | None = None,
    games_in: str | None = None,
    games_out: str | None = None,
    as_json: bool = False,
    checks_of: tuple[int, str | None, str | None] = (0, None, None),
    budget: int | None = None,
) -> dict[str, Any]:
    """How well the coach's chances are calibrated, on games at the strongest level.

    Plays `games` games of 2, 3 and 4 players with `seed` (or reads `games_in`, JSON lines
    of game logs) and fits the map on them; `checks_of` is (check, check_in, check_out):
    plays `check` games of each with the next seed (or reads `check_in`) and measures the
    map there (`cli/calibration.py`). Either set is saved to `games_out` / `check_out` if
    given. Each position is judged with `budget` playouts (the coach's own by default).
    """
    check, check_in, check_out = checks_of
    from companion.bots.simulate import default_workers
    from companion.cli import calibration as measure
    from companion.cli.calibration_report import readable

    workers = workers or default_workers()
    if games_in:
        logs = read_games(games_in)
    else:
        logs = measure.play_games(games, seed, workers, _progress("games"))
    _write_games(logs, games_out)
    checks: list[GameLog] = []
    if check_in:
        checks = read_games(check_in)
    elif check:
        checks = measure.play_games(check, seed + 1, workers, _progress("check games"))
    _write_games(checks, check_out)
    report = measure.calibration(
        logs,
        budget=budget or measure.DEFAULT_BUDGET,
        seed=seed,
        workers=workers,
        progress=lambda what, d, t: _progress(what)(d, t),
        check=checks,
    )
    data = report.to_json()
    return data if as_json else readable(data)


def _write_games(logs: list[GameLog], path: str | None) -> None:
    """Save game logs as JSON lines, if a path is given."""
    from companion.cli.io import UserError

    if not path:
        return
    try:
        with open(path, "w", encoding="utf-8") as out:
            for log in logs:
                out.write(json.dumps(log.to_json()) + "\n")
    except OSError as error:
        raise UserError(f"cannot write {path}: {error.strerror or error}") from None


def _progress(what: str) -> Any:
    """A progress callback writing 'what done/total' on stderr."""

    def report(done: int, total: int) -> None:
        sys.stderr.write(f"\r{what} {done}/{total}")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return report


def read_games(path: str) -> list[GameLog]:
    """Game logs from a file of JSON lines, each read strictly; UserError names a bad line."""
    from companion.cli.io import UserError, parse_json

    try:
        with open(path, "rb") as stream:
            text = read_bounded(stream, path, GAMES_FILE_BYTES)
    except JSONInputError as error:
        raise UserError(str(error)) from None
    except OSError as error:
        raise UserError(f"cannot read {path}: {error.strerror or error}") from None
    logs = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        data = parse_json(line, f"{path}, line {number}")
        try:
            logs.append(GameLog.model_validate(data))
        except ValueError as error:
            raise UserError(f"{path}, line {number}: not a game log ({error})") from None
    if not logs:
        raise UserError(f"{path} holds no game")
    return logs
