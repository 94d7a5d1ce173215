"""How the coach's chances are calibrated, and how well: games at the strongest level.

1. Play games of 2, 3 and 4 players, every seat at the strongest level the app ships
   (`LEVEL`, its search bounded by iterations, read on the thread's CPU clock, so other
   work on the machine does not weaken it), dice seeded.
2. Fit the temperature that turns the evaluation's scores at the end of a round into win
   chances, per number of rounds still to come, on every round's end (maximum likelihood).
3. Take positions from every game (the start of each step of each round's Summoning and
   Actions phases; the first is the round's start, after its Energy and Reset), estimate
   each player's raw chance there with the coach's budget, and fit the map (a power per
   number of players and rounds still to come, `coach/calibration.py`) by maximum
   likelihood of who won.
4. Check the map on other games, played with the next seed (`check`): the tables report
   chances on games the map was not fitted on. Without them, out of fold: fitted on half
   of the games, checked on the other half, and the other way round.

Everything is seeded; the bots' choices also depend on how much they searched in their
time, so a second run plays other games, not other figures.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from companion.boards import shipped_board
from companion.bots import LEVEL_ITERATIONS, make_bot
from companion.bots.playout import play
from companion.cli.calibration_report import PLAYER_COUNTS, CalibrationReport, Point, Powers
from companion.coach.calibration import POWERS, TEMPERATURES, calibrate, power_for
from companion.coach.chances import DEFAULT_BUDGET, Estimator
from companion.engine import Game, GameState, Phase
from companion.engine.settled import decided
from models.game_log import GameLog
from models.seeded_dice import SeededDice
from models.setup import GameSetup, Mode

# The games are played at the strongest level the app ships: the chances are measured
# against the best play the app offers.
LEVEL = "mcts:" + max(LEVEL_ITERATIONS, key=LEVEL_ITERATIONS.__getitem__)
SEATS = ("p1", "p2", "p3", "p4")
# The temperatures tried when fitting one (energy, 5% apart from 0.5 to about 170: early
# in a game energy leads say little about the winner).
TEMPERATURE_GRID = tuple(round(0.5 * 1.05**step, 2) for step in range(120))
# The map's powers tried: 0.2 to 4, 0.05 apart; and how strongly a fit is drawn towards 1
# (a penalty of PRIOR times the squared log of the power, against the log-likelihood).
POWER_GRID = tuple(round(0.2 + 0.05 * step, 2) for step in range(77))
PRIOR = 20.0


def board_for(players: int) -> str:
    """The shipped board made for this many players."""
    return "duel-isle" if players == 2 else "gathering-isle"


def play_game(players: int, number: int, seed: int) -> dict[str, Any]:
    """One game of `LEVEL` seats as a game log's JSON; the first seat turns with `number`."""
    board_id = board_for(players)
    ids = SEATS[:players]
    start = number % players
    setup = GameSetup(
        players=[{"id": p} for p in ids],
        board=board_id,
        mode=Mode.DIGITAL,
        turn_order=ids[start:] + ids[:start],
    )
    game = Game(setup, shipped_board(board_id))
    game_seed = seed * 1_000_003 + players * 10_007 + number
    bots = [
        make_bot(LEVEL, game_seed * 7 + seat, clock=time.thread_time) for seat in range(players)
    ]
    played = play(game, bots, SeededDice(game_seed))
    return GameLog.of(setup, played.commands).to_json()


def play_games(
    games: int, seed: int, workers: int, progress: Callable[[int, int], None] | None = None
) -> list[GameLog]:
    """`games` games of each number of players, in `workers` processes."""
    jobs = [(players, number, seed) for number in range(games) for players in PLAYER_COUNTS]
    logs: list[GameLog] = []
    for done, data in enumerate(_map(_play_job, jobs, workers), start=1):
        logs.append(GameLog.model_validate(data))
        if progress:
            progress(done, len(jobs))
    return logs


def _play_job(job: tuple[int, int, int]) -> dict[str, Any]:
    return play_game(*job)


def _map(function: Callable[[Any], Any], jobs: Sequence[Any], workers: int) -> Iterator[Any]:
    """function(job) for every job, in order, in this process or in `workers` processes."""
    if workers <= 1:
        yield from map(function, jobs)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(function, jobs)


@dataclass(frozen=True, slots=True)
class Sample:
    """A position of a finished game, and who won that game."""

    game: int
    players: int
    round: int
    # Rounds still to come after this one.
    after: int
    # The phase and step it starts ('summoning:wyrm': the round's start, as a table game's
    # position after an Energy and Reset is).
    moment: str
    position: str
    winner: int


def game_of(log: GameLog) -> Game:
    """The game a calibration log was played in."""
    return Game(log.setup, shipped_board(log.setup.board))


def samples(number: int, log: GameLog) -> list[Sample]:
    """The positions judged in one game: the start of each step of each round's Summoning
    and Actions phases."""
    game = game_of(log)
    state = game.new_initial_state()
    seen: dict[tuple[int, str], str] = {}
    for command in log.parsed_commands():
        _note(state, seen)
        state.apply(command)
    winner = state.winner_id
    assert winner is not None, "a calibration game is played to its end"
    return [
        Sample(
            number,
            len(game.players),
            round_,
            game.final_round - round_,
            moment,
            position,
            game.seat[winner],
        )
        for (round_, moment), position in seen.items()
    ]


def _note(state: GameState, seen: dict[tuple[int, str], str]) -> None:
    """Keep the position if it starts a step of a round's Summoning or Actions phase (the
    first: the round's start)."""
    if state.phase not in (Phase.SUMMONING, Phase.ACTIONS) or state.step_kind is None:
        return
    seen.setdefault((state.round, f"{state.phase.value}:{state.step_kind.value}"), state.position())


def round_ends(log: GameLog) -> list[tuple[list[float], int, int]]:
    """(scores, rounds still to come, winner's seat) at the end of each round but the last.

    The scores are the evaluation's at the start of the next round, judged at the end of
    the round just played (as a playout's end is).
    """
    game = game_of(log)
    state = game.new_initial_state()
    estimator = Estimator()
    found: list[tuple[list[float], int]] = []
    for command in log.parsed_commands():
        before = state.round
        state.apply(command)
        if state.round != before and not state.is_terminal:
            scores = estimator.evaluator.scores(state, before)
            found.append((scores, game.final_round - before))
    winner = state.winner_id
    assert winner is not None, "a calibration game is played to its end"
    return [(scores, after, game.seat[winner]) for scores, after in found]


def fit_temperatures(ends: Sequence[tuple[list[float], int, int]]) -> dict[int, float]:
    """Per rounds still to come, the temperature under which the winners were likeliest."""
    fitted: dict[int, float] = {}
    for after in sorted({after for _, after, _ in ends}):
        chosen = [(scores, winner) for scores, rounds, winner in ends if rounds == after]
        fitted[after] = max(TEMPERATURE_GRID, key=lambda t: _likelihood(chosen, t))
    return fitted


def _likelihood(chosen: Sequence[tuple[list[float], int]], temperature: float) -> float:
    """The log-likelihood of the winners under a softmax of the scores at this temperature."""
    total = 0.0
    for scores, winner in chosen:
        top = max(scores)
        logs = [(score - top) / temperature for score in scores]
        total += logs[winner] - math.log(sum(math.exp(value) for value in logs))
    return total


@dataclass
class Judged:
    """Each player's raw chance at a sample (the playouts' mean, before the map)."""

    sample: Sample
    raw: list[float]
    # The seat the rules alone say wins from there (`engine/settled.py`), if any.
    decided: int | None = None


def judge(
    logs: Sequence[GameLog],
    found: Sequence[Sample],
    budget: int,
    seed: int,
    workers: int,
    progress: Callable[[int, int], None] | None = None,
) -> list[Judged]:
    """The raw chances at every sample, each game's in one process."""
    by_game: dict[int, list[Sample]] = {}
    for sample in found:
        by_game.setdefault(sample.game, []).append(sample)
    jobs = [
        (logs[number].to_json(), chosen, budget, seed, dict(TEMPERATURES))
        for number, chosen in by_game.items()
    ]
    judged: list[Judged] = []
    for done, part in enumerate(_map(_judge_job, jobs, workers), start=1):
        judged.extend(part)
        if progress:
            progress(done, len(jobs))
    return judged


def _judge_job(
    job: tuple[dict[str, Any], list[Sample], int, int, dict[int, float]],
) -> list[Judged]:
    data, chosen, budget, seed, temperatures = job
    # A worker process takes the temperatures being measured, not only the shipped ones.
    TEMPERATURES.update(temperatures)
    game = game_of(GameLog.model_validate(data))
    estimator = Estimator(seed)
    judged = []
    for sample in chosen:
        state = GameState.from_position(game, sample.position)
        judged.append(Judged(sample, estimator.raw(state, budget)[0], decided(state)))
    return judged


def fit_powers(judged: Sequence[Judged]) -> Powers:
    """Per number of players and rounds still to come, the map's power under which the
    winners were likeliest, drawn towards 1 (the raw chances) as if `PRIOR` positions had
    found them right: a few games' positions, all of them linked, do not pull it far."""
    fitted: Powers = {}
    for players, after in sorted({(j.sample.players, j.sample.after) for j in judged}):
        rows = [
            (j.raw, j.sample.winner)
            for j in judged
            if (j.sample.players, j.sample.after) == (players, after)
        ]

        def likelihood(power: float, rows: list[tuple[list[float], int]] = rows) -> float:
            said = sum(math.log(max(1e-9, calibrate(raw, power)[winner])) for raw, winner in rows)
            return said - PRIOR * math.log(power) ** 2

        fitted.setdefault(players, {})[after] = max(POWER_GRID, key=likelihood)
    return fitted


def _folds(judged: Sequence[Judged]) -> list[tuple[Powers, list[Judged]]]:
    """Out of fold: each game's positions through the map fitted on the other half of the
    games of its number of players (every other game, in the order they were played)."""
    ranks: dict[int, int] = {}
    for players in PLAYER_COUNTS:
        games = sorted({j.sample.game for j in judged if j.sample.players == players})
        ranks.update({game: rank for rank, game in enumerate(games)})
    return [
        (
            fit_powers([j for j in judged if ranks[j.sample.game] % 2 != fold]),
            [j for j in judged if ranks[j.sample.game] % 2 == fold],
        )
        for fold in (0, 1)
    ]


def calibration(
    logs: Sequence[GameLog],
    budget: int = DEFAULT_BUDGET,
    seed: int = 1,
    workers: int = 1,
    progress: Callable[[str, int, int], None] | None = None,
    check: Sequence[GameLog] = (),
) -> CalibrationReport:
    """Fit the temperatures and the map on finished games, and measure the calibration on
    the `check` games (or, without them, out of fold on the games themselves)."""
    started = time.perf_counter()
    ends = [end for log in logs for end in round_ends(log)]
    temperatures = fit_temperatures(ends)
    shipped = dict(TEMPERATURES)
    TEMPERATURES.update(temperatures)
    try:
        found = [sample for number, log in enumerate(logs) for sample in samples(number, log)]
        judged = judge(logs, found, budget, seed, workers, _step(progress, "positions"))
        checked = [sample for number, log in enumerate(check) for sample in samples(number, log)]
        judged_check = judge(
            check, checked, budget, seed + 1, workers, _step(progress, "check positions")
        )
    finally:
        TEMPERATURES.clear()
        TEMPERATURES.update(shipped)
    powers = fit_powers(judged)
    folds = [(powers, judged_check)] if check else _folds(judged)
    tested = [
        (
            one.sample.players,
            one.sample.round,
            _points(one, power_for(one.sample.players, one.sample.after, fitted)),
            _points(one, None),
            _points(one, power_for(one.sample.players, one.sample.after, POWERS)),
        )
        for fitted, part in folds
        for one in part
    ]
    return CalibrationReport(
        level=LEVEL,
        games=_counts(logs),
        positions=len(found),
        temperatures=temperatures,
        powers=powers,
        checked_on="check games" if check else "out of fold",
        check_games=_counts(check),
        check_positions=len(checked),
        tested=tested,
        settled={
            players: (
                sum(1 for j in part if j.decided is not None),
                sum(1 for j in part if j.decided is not None and j.decided == j.sample.winner),
            )
            for players in PLAYER_COUNTS
            for part in [[j for _, js in folds for j in js if j.sample.players == players]]
        },
        seconds=time.perf_counter() - started,
    )


def _counts(logs: Sequence[GameLog]) -> dict[int, int]:
    """How many of the games have each number of players."""
    return {p: sum(1 for log in logs if len(log.setup.players) == p) for p in PLAYER_COUNTS}


def _step(
    progress: Callable[[str, int, int], None] | None, what: str
) -> Callable[[int, int], None] | None:
    """A progress callback for one step of the run."""
    if progress is None:
        return None
    return lambda done, total: progress(what, done, total)


def _points(judged: Judged, power: float | None) -> list[Point]:
    """(chance, won) for every player at a sample, through the map at `power` if given."""
    chances = judged.raw if power is None else calibrate(judged.raw, power)
    wins = [seat == judged.sample.winner for seat in range(judged.sample.players)]
    return list(zip(chances, wins, strict=True))
