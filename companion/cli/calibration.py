"""How the coach's chances are calibrated, and how well: games between `mcts:normal` seats.

1. Play games of 2, 3 and 4 players, every seat `mcts:normal` (its budget measured on the
   thread's CPU clock, so other work on the machine does not weaken it), dice seeded.
2. Fit the temperature that turns the evaluation's scores at the end of a round into win
   chances, per number of rounds still to come, on every round's end (maximum likelihood).
3. Take positions from every game (each round's start, after its Energy and Reset, and
   the start of its Actions phase), estimate each player's chance there with the coach's
   budget, and fit the map (a power and a share of the even chance per number of players,
   `coach/calibration.py`) by maximum likelihood of who won.
4. Check the map on other games, played with the next seed (`check`): the table reports
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
from dataclasses import dataclass, field
from typing import Any

from companion.boards import shipped_board
from companion.bots import make_bot
from companion.bots.playout import play
from companion.coach.calibration import PARAMETERS, TEMPERATURES, Parameters, calibrate
from companion.coach.chances import DEFAULT_BUDGET, Estimator
from companion.engine import Game, GameState, Phase
from models.game_log import GameLog
from models.seeded_dice import SeededDice
from models.setup import GameSetup, Mode

PLAYER_COUNTS = (2, 3, 4)
SEATS = ("p1", "p2", "p3", "p4")
# Buckets of predicted chance, 10 points wide; the check applies where a bucket holds this many.
BUCKETS = 10
CHECKED_BUCKET = 30
# How far the observed rate may be from a checked bucket's centre.
TOLERANCE = 0.07
# The temperatures tried when fitting one (energy, 5% apart from 0.5 to about 170: early
# in a game energy leads say little about the winner).
TEMPERATURE_GRID = tuple(round(0.5 * 1.05**step, 2) for step in range(120))
# The map's powers and shares of the even chance tried, coarse then fine around the best.
POWER_GRID = tuple(round(0.2 + 0.05 * step, 2) for step in range(37))
EVEN_GRID = tuple(round(0.02 * step, 2) for step in range(26))
FINE_STEPS = tuple(step / 10 for step in range(-5, 6))


def board_for(players: int) -> str:
    """The shipped board made for this many players."""
    return "duel-isle" if players == 2 else "gathering-isle"


def play_game(players: int, number: int, seed: int) -> dict[str, Any]:
    """One game of `mcts:normal` seats as a game log's JSON; the first seat turns with `number`."""
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
        make_bot("mcts:normal", game_seed * 7 + seat, clock=time.thread_time)
        for seat in range(players)
    ]
    played = play(game, bots, SeededDice(game_seed))
    return GameLog.of(setup, played.commands).to_json()


def play_games(
    games: int, seed: int, workers: int, progress: Callable[[int, int], None] | None = None
) -> list[GameLog]:
    """`games` games of each number of players, in `workers` processes."""
    jobs = [(players, number, seed) for players in PLAYER_COUNTS for number in range(games)]
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
    # 'start': a round's start (a table game's position too); 'actions': its Actions phase's.
    moment: str
    position: str
    winner: int


def game_of(log: GameLog) -> Game:
    """The game a calibration log was played in."""
    return Game(log.setup, shipped_board(log.setup.board))


def samples(number: int, log: GameLog) -> list[Sample]:
    """The positions judged in one game: each round's start and its Actions phase's start."""
    game = game_of(log)
    state = game.new_initial_state()
    seen: list[tuple[int, str, str]] = []
    for command in log.parsed_commands():
        _note(state, seen)
        state.apply(command)
    winner = state.winner_id
    assert winner is not None, "a calibration game is played to its end"
    return [
        Sample(number, len(game.players), round_, moment, position, game.seat[winner])
        for round_, moment, position in seen
    ]


def _note(state: GameState, seen: list[tuple[int, str, str]]) -> None:
    """Keep the position if it starts a round or a round's Actions phase."""
    moment = "start" if state.phase is Phase.SUMMONING else "actions"
    if state.phase not in (Phase.SUMMONING, Phase.ACTIONS):
        return
    if any(round_ == state.round and kind == moment for round_, kind, _ in seen):
        return
    seen.append((state.round, moment, state.position()))


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
    return [
        Judged(sample, estimator.raw(GameState.from_position(game, sample.position), budget)[0])
        for sample in chosen
    ]


def fit_parameters(judged: Sequence[Judged]) -> Parameters:
    """The map's power and share of the even chance under which the winners were likeliest."""
    rows = [(one.raw, one.sample.winner) for one in judged]

    def likelihood(parameters: Parameters) -> float:
        return sum(
            math.log(max(1e-9, calibrate(raw, len(raw), parameters)[winner]))
            for raw, winner in rows
        )

    best = max(((p, e) for p in POWER_GRID for e in EVEN_GRID), key=likelihood)
    fine = [
        (round(best[0] + 0.05 * dp, 3), round(best[1] + 0.02 * de, 3))
        for dp in FINE_STEPS
        for de in FINE_STEPS
    ]
    return max((p for p in fine if p[0] > 0 and 0 <= p[1] < 1), key=likelihood)


@dataclass
class Bucket:
    """Predictions between `low` and `low + 0.1`: how many, their mean, and the share won."""

    low: float
    count: int = 0
    predicted: float = 0.0
    won: float = 0.0

    @property
    def checked(self) -> bool:
        """Whether the bucket holds enough predictions for the check."""
        return self.count >= CHECKED_BUCKET

    @property
    def within(self) -> bool:
        """Whether the share won is within the tolerance of the bucket's centre."""
        return abs(self.won - (self.low + 0.05)) <= TOLERANCE

    def to_json(self) -> dict[str, Any]:
        """The bucket as JSON data, in percent."""
        return {
            "bucket": f"{round(self.low * 100)}-{round(self.low * 100) + 10}%",
            "positions": self.count,
            "mean_predicted": round(self.predicted * 100, 1),
            "observed": round(self.won * 100, 1),
            "checked": self.checked,
            "within_7_points": self.within if self.checked else None,
        }


def buckets(points: Sequence[tuple[float, bool]]) -> list[Bucket]:
    """Predictions (chance, won) grouped in 10-point buckets."""
    table = [Bucket(i / BUCKETS) for i in range(BUCKETS)]
    for chance, won in points:
        bucket = table[min(int(chance * BUCKETS), BUCKETS - 1)]
        bucket.count += 1
        bucket.predicted += chance
        bucket.won += won
    for bucket in table:
        if bucket.count:
            bucket.predicted /= bucket.count
            bucket.won /= bucket.count
    return table


@dataclass
class CalibrationReport:
    """What a calibration run measured, and the numbers it fitted."""

    games: dict[int, int]
    positions: int
    temperatures: dict[int, float]
    parameters: dict[int, Parameters]
    # Where the table's chances come from: "check games" (other games, of another seed,
    # through the map fitted on these) or "out of fold" (each game's through the map
    # fitted on the other half of the games).
    checked_on: str
    check_games: dict[int, int]
    check_positions: int
    table: list[Bucket]
    # The same positions' raw chances, and through the map shipped in coach/calibration.py.
    raw_table: list[Bucket]
    shipped_table: list[Bucket]
    brier: dict[str, float] = field(default_factory=dict)
    # The table's Brier scores by number of players and round, beside everyone equal's.
    brier_by_part: dict[str, dict[str, float]] = field(default_factory=dict)
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The report as JSON data."""
        return {
            "games": {str(players): count for players, count in self.games.items()},
            "positions": self.positions,
            "checked_on": self.checked_on,
            "check_games": {str(players): n for players, n in self.check_games.items()},
            "check_positions": self.check_positions,
            "player_positions": sum(bucket.count for bucket in self.table),
            "temperatures": {str(after): t for after, t in self.temperatures.items()},
            "parameters": {
                str(players): {"power": power, "even": even}
                for players, (power, even) in self.parameters.items()
            },
            "table": [bucket.to_json() for bucket in self.table],
            "raw_table": [bucket.to_json() for bucket in self.raw_table],
            "shipped_table": [bucket.to_json() for bucket in self.shipped_table],
            "brier": self.brier,
            "brier_by_part": self.brier_by_part,
            "seconds": round(self.seconds),
            "passes": all(b.within for b in self.table if b.checked),
        }


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
    parameters: dict[int, Parameters] = {}
    # (chance, won) of the table, by number of players and round for the Brier scores.
    tested_points: list[tuple[float, bool]] = []
    by_part: dict[str, list[tuple[float, bool]]] = {}
    raw_points: list[tuple[float, bool]] = []
    shipped_points: list[tuple[float, bool]] = []
    for players in PLAYER_COUNTS:
        mine = [j for j in judged if j.sample.players == players]
        parameters[players] = fit_parameters(mine)
        if check:
            tested = [j for j in judged_check if j.sample.players == players]
            folds = [(parameters[players], tested)]
        else:
            tested = mine
            folds = [
                (
                    fit_parameters([j for j in mine if j.sample.game % 2 != fold]),
                    [j for j in mine if j.sample.game % 2 == fold],
                )
                for fold in (0, 1)
            ]
        for fitted, part in folds:
            for one in part:
                points = _points([one], fitted)
                tested_points.extend(points)
                by_part.setdefault(f"{players} players, round {one.sample.round}", []).extend(
                    points
                )
        raw_points.extend(_points(tested))
        shipped_points.extend(_points(tested, PARAMETERS[players]))
    table_judged = judged_check if check else judged
    return CalibrationReport(
        games=_counts(logs),
        positions=len(found),
        temperatures=temperatures,
        parameters=parameters,
        checked_on="check games" if check else "out of fold",
        check_games=_counts(check),
        check_positions=len(checked),
        table=buckets(tested_points),
        raw_table=buckets(raw_points),
        shipped_table=buckets(shipped_points),
        brier={
            "table": _brier(tested_points),
            "raw": _brier(raw_points),
            "uniform": _brier([(1 / j.sample.players, w) for j in table_judged for w in _wins(j)]),
        },
        brier_by_part={
            part: {
                "chances": _brier(points),
                "uniform": _brier([(1 / int(part[0]), won) for _, won in points]),
            }
            for part, points in sorted(by_part.items())
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


def _wins(judged: Judged) -> list[bool]:
    return [seat == judged.sample.winner for seat in range(judged.sample.players)]


def _points(
    judged: Sequence[Judged], parameters: Parameters | None = None
) -> list[tuple[float, bool]]:
    """(chance, won) for every player at every sample, through the map if given."""
    points: list[tuple[float, bool]] = []
    for one in judged:
        chances = (
            one.raw if parameters is None else calibrate(one.raw, one.sample.players, parameters)
        )
        points.extend(zip(chances, _wins(one), strict=True))
    return points


def _brier(points: Sequence[tuple[float, bool]]) -> float:
    """The mean squared error of the chances against what happened (lower is better)."""
    return round(sum((chance - won) ** 2 for chance, won in points) / max(1, len(points)), 4)
