"""The coach measured: its speed on table games, and how well its chances are calibrated
(`python -m companion bench coach|calibration`)."""

from __future__ import annotations

import json
import statistics
import sys
import time
from typing import Any

from companion.boards import shipped_board
from companion.bots import make_bot
from companion.bots.playout import play
from companion.cli.bench import BENCH_BOARD, BENCH_PLAYERS, machine
from companion.engine import Game
from models.game_log import GameLog
from models.seeded_dice import SeededDice
from models.setup import GameSetup, Mode
from models.strict_json import JSONInputError, read_bounded

# A file of calibration games holds hundreds of game logs, each read as strictly as one.
GAMES_FILE_BYTES = 512 * 1024 * 1024


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
