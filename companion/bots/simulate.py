"""Whole games between bots, summarised: who wins, how games end, whether anything went wrong.

Games are independent, so they run in parallel processes. Game `n` is seeded from the
run's seed and `n` alone, and its seating from `n` too: over every `players**2` games each
bot plays every seat and every start position equally often.
"""

from __future__ import annotations

import heapq
import math
import multiprocessing
import os
import signal
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field
from functools import partial
from itertools import islice
from multiprocessing.synchronize import Event as EventType
from typing import Any

from companion.boards import shipped_board
from companion.bots import make_bot
from companion.bots.base import Bot
from companion.bots.playout import play
from companion.bots.trail import wasted_activations
from companion.engine import Game, GameState
from companion.engine.game import seats_refusal
from models.commands import Command
from models.rules import EXTENDED_ROUNDS_MIN_PLAYERS, MAX_PLAYERS, MIN_PLAYERS, WINNING_ENERGY
from models.seeded_dice import SeededDice
from models.setup import GameSetup, Mode

SEAT_IDS = ("p1", "p2", "p3", "p4")
# How long a broken pool waits for the Ctrl-C that broke it (see _run).
BROKEN_POOL_GRACE_S = 0.5
# A decision longer than this many times its bot's budget is late (the bots' measure allows
# 20% over).
LATE = 1.2
# Bounds on what one run may ask for: a million games is days of play already, more
# processes than this only wait on each other, and a minute is the longest decision anyone
# would wait for.
MAX_GAMES = 1_000_000
MAX_WORKERS = 32
MAX_BUDGET_MS = 60_000
# Games handed to each worker ahead of time, and how many errors the report quotes.
IN_FLIGHT_PER_WORKER = 4
ERROR_SAMPLES = 5


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if trials == 0:
        return 0.0, 1.0
    share = successes / trials
    centre = share + z * z / (2 * trials)
    spread = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials))
    scale = 1 + z * z / trials
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def default_board_id(players: int) -> str:
    """The shipped layout made for this many players."""
    return "duel-isle" if players < EXTENDED_ROUNDS_MIN_PLAYERS else "gathering-isle"


def default_workers() -> int:
    """One worker per core this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


@dataclass
class SimulationReport:
    """Counts over all simulated games."""

    games: int
    players: int
    board: str
    bots: list[str]
    seed: int
    budget_ms: int | None = None
    workers: int = 1
    # What the bots' budgets are read on: "wall" (as on the digital board) or "cpu".
    clock: str = "wall"
    wins_by_seat: dict[str, int] = field(default_factory=dict)
    wins_by_start_position: dict[str, int] = field(default_factory=dict)
    wins_by_bot: dict[str, int] = field(default_factory=dict)
    # How many seats each bot filled over all games: the denominator of its win rate.
    seats_by_bot: dict[str, int] = field(default_factory=dict)
    wins_by_bot_and_start_position: dict[str, dict[str, int]] = field(default_factory=dict)
    summoner_wins: int = 0
    final_round_wins: int = 0
    # Activations that ended where they began having moved, with nothing done between.
    wasted_activations: int = 0
    rounds_played: dict[str, int] = field(default_factory=dict)
    decisions: int = 0
    seconds: float = 0.0
    decisions_by_bot: dict[str, int] = field(default_factory=dict)
    longest_decision_ms_by_bot: dict[str, float] = field(default_factory=dict)
    # For bots with a budget: the longest decision over the budget (1.0 = exactly on budget)
    # by the wall clock, the same by the bot's own CPU time (which a busy machine does not
    # stretch), and how many decisions took over LATE times the budget.
    max_overrun_by_bot: dict[str, float] = field(default_factory=dict)
    max_cpu_overrun_by_bot: dict[str, float] = field(default_factory=dict)
    late_decisions_by_bot: dict[str, int] = field(default_factory=dict)
    errors: int = 0
    error_samples: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The report as JSON-ready data."""
        data = asdict(self)
        data["win_rate_by_bot"] = {
            name: {"rate": round(rate, 4), "low_95": round(low, 4), "high_95": round(high, 4)}
            for name, (rate, low, high) in self.win_rates().items()
        }
        return data

    def win_rates(self) -> dict[str, tuple[float, float, float]]:
        """Each bot's share of the games it played that it won, per seat filled, with the
        95% Wilson interval around it."""
        rates = {}
        for name, wins in self.wins_by_bot.items():
            seats = self.seats_by_bot.get(name, 0)
            rates[name] = (wins / seats if seats else 0.0, *wilson(wins, seats))
        return rates

    def lines(self) -> list[str]:
        """The report as readable lines."""

        def row(counts: dict[str, Any]) -> str:
            return "  ".join(f"{key}: {value}" for key, value in counts.items())

        rate = self.decisions / self.seconds if self.seconds else 0.0
        budget = f", mcts budget {self.budget_ms} ms" if self.budget_ms else ""
        if self.clock == "cpu":
            budget += ", budgets on CPU time"
        lines = [
            f"{self.games} games, {self.players} players on {self.board}, "
            f"bots {', '.join(self.bots)}{budget}, seed {self.seed}, {self.workers} worker(s)",
            f"wins by bot:             {row(self.wins_by_bot)}  (seats {row(self.seats_by_bot)})",
            "win rate by bot (95% interval): "
            + "  ".join(
                f"{name}: {rate * 100:.1f}% ({low * 100:.1f}-{high * 100:.1f}%)"
                for name, (rate, low, high) in self.win_rates().items()
            ),
        ]
        lines.extend(
            f"  {name} by start position: {row(wins)}"
            for name, wins in self.wins_by_bot_and_start_position.items()
        )
        lines += [
            f"wins by seat:            {row(self.wins_by_seat)}",
            f"wins by start position:  {row(self.wins_by_start_position)}",
            f"Summoner ({WINNING_ENERGY}) wins:      {self.summoner_wins}",
            f"final-round wins:        {self.final_round_wins}",
            f"activations for nothing: {self.wasted_activations}",
            f"rounds played:           {row(self.rounds_played)}",
            f"decisions:               {self.decisions} in {self.seconds:.1f} s ({rate:,.0f}/s)",
            f"decisions by bot:        {row(self.decisions_by_bot)}",
            f"longest decision (ms):   {row(self.longest_decision_ms_by_bot)}",
            f"max overrun (x budget):  {row(self.max_overrun_by_bot) or '-'}"
            f"  (CPU time: {row(self.max_cpu_overrun_by_bot) or '-'})",
            f"over {LATE}x budget:        {row(self.late_decisions_by_bot) or '-'}",
            f"errors:                  {self.errors}",
        ]
        lines.extend(f"  {sample}" for sample in self.error_samples)
        return lines


@dataclass(frozen=True)
class _Table:
    """Everything a worker needs to play one game."""

    number: int
    seed: int
    board: str
    turn_order: tuple[str, ...]
    bots: tuple[str, ...]
    budget_ms: int | None
    # Budgets read on each bot's own CPU time instead of the wall clock.
    cpu_clock: bool = False


@dataclass
class _Outcome:
    """What one game came to."""

    number: int
    winner_seat: int = -1
    summoner: bool = False
    wasted_activations: int = 0
    rounds: int = 0
    decisions: int = 0
    # Per seat: the bot's budget if it has one, and its timed decisions.
    budgets: list[float | None] = field(default_factory=list)
    longest: list[float] = field(default_factory=list)
    longest_cpu: list[float] = field(default_factory=list)
    decisions_by_seat: list[int] = field(default_factory=list)
    late: list[int] = field(default_factory=list)
    error: str = ""


class _Timed:
    """A bot wrapped to time its decisions: by the wall clock, and by its own CPU time."""

    def __init__(self, bot: Bot, cpu_clock: bool = False) -> None:
        self.bot = bot
        self.cpu_clock = cpu_clock
        self.name = bot.name
        self.budget_ms = bot.budget_ms
        self.longest = 0.0
        self.longest_cpu = 0.0
        self.decisions = 0
        self.late = 0

    def choose(self, state: GameState) -> Command:
        """The wrapped bot's choice, timed."""
        started = time.perf_counter()
        started_cpu = time.thread_time()
        command = self.bot.choose(state)
        seconds = time.perf_counter() - started
        cpu = time.thread_time() - started_cpu
        self.longest = max(self.longest, seconds)
        self.longest_cpu = max(self.longest_cpu, cpu)
        self.decisions += 1
        # On the CPU clock the bot keeps to its budget in its own time, not the wall's.
        spent = cpu if self.cpu_clock else seconds
        if self.budget_ms and spent * 1000 > self.budget_ms * LATE:
            self.late += 1
        return command


def _play_table(table: _Table) -> _Outcome:
    """Play one game; any failure is reported in the outcome rather than raised."""
    outcome = _Outcome(table.number)
    try:
        board = shipped_board(table.board)
        players = len(table.bots)
        setup = GameSetup(
            players=[{"id": p} for p in SEAT_IDS[:players]],
            board=table.board,
            turn_order=table.turn_order,
            mode=Mode.DIGITAL,
        )
        clock = time.thread_time if table.cpu_clock else time.perf_counter
        bots = [
            _Timed(make_bot(name, table.seed * 7 + seat, table.budget_ms, clock), table.cpu_clock)
            for seat, name in enumerate(table.bots)
        ]
        played = play(Game(setup, board), bots, SeededDice(table.seed))
    # A simulation must report every failure and go on with the other games.
    except Exception as error:
        where = traceback.extract_tb(error.__traceback__)[-1]
        outcome.error = (
            f"game {table.number}: {type(error).__name__}: {error} "
            f"({os.path.basename(where.filename)}:{where.lineno})"
        )
        return outcome
    state = played.state
    winner = state.winner_id
    assert winner is not None, "a game played to the end has a winner"
    outcome.winner_seat = state.game.seat[winner]
    outcome.summoner = state.summoner
    outcome.wasted_activations = wasted_activations(state.game.new_initial_state(), played.commands)
    outcome.rounds = state.round
    outcome.decisions = len(played.commands)
    outcome.budgets = [bot.budget_ms for bot in bots]
    outcome.longest = [bot.longest for bot in bots]
    outcome.longest_cpu = [bot.longest_cpu for bot in bots]
    outcome.decisions_by_seat = [bot.decisions for bot in bots]
    outcome.late = [bot.late for bot in bots]
    return outcome


def simulate(
    players: int,
    games: int,
    seed: int,
    bots: Sequence[str],
    board_id: str | None = None,
    budget_ms: int | None = None,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
    cpu_clock: bool = False,
) -> SimulationReport:
    """Play `games` games, `bots` cycled over the seats, rotated so each gets every seat."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"--players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {players}")
    if not 1 <= games <= MAX_GAMES:
        raise ValueError(f"--games must be 1 to {MAX_GAMES:,}, not {games}")
    if not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"--workers must be 1 to {MAX_WORKERS}, not {workers}")
    if budget_ms is not None and not 1 <= budget_ms <= MAX_BUDGET_MS:
        raise ValueError(f"--budget-ms must be 1 to {MAX_BUDGET_MS}, not {budget_ms}")
    if not bots:
        raise ValueError("name at least one bot")
    board_id = board_id or default_board_id(players)
    # Fail fast on an unknown board or one not made for this many players: otherwise every
    # game would be played only to fail the same way.
    board = shipped_board(board_id)
    refused = seats_refusal(board, players)
    if refused is not None:
        raise ValueError(str(refused))
    seat_ids = SEAT_IDS[:players]
    seat_bots = [bots[i % len(bots)] for i in range(players)]
    for name in set(seat_bots):
        make_bot(name, budget_ms=budget_ms)  # fail fast on an unknown name

    def tables() -> Iterator[_Table]:
        # Made one at a time as games are handed out: a million games are not planned ahead.
        for number in range(games):
            # Bots turn round the seats every game, the start position every `players` games.
            turn = number % players
            shift = (number // players) % players
            yield _Table(
                number=number,
                seed=seed * 1_000_003 + number,
                board=board_id,
                turn_order=tuple(seat_ids[(i + shift) % players] for i in range(players)),
                bots=tuple(seat_bots[(i + turn) % players] for i in range(players)),
                budget_ms=budget_ms,
                cpu_clock=cpu_clock,
            )

    workers = min(workers, games)
    report = SimulationReport(
        games=games,
        players=players,
        board=board_id,
        bots=seat_bots,
        seed=seed,
        budget_ms=budget_ms,
        workers=workers,
        clock="cpu" if cpu_clock else "wall",
    )
    summary = _Summary(report)
    started = time.perf_counter()
    for done, (table, outcome) in enumerate(_run(tables(), workers), start=1):
        summary.add(table, outcome)
        if progress:
            progress(done, games)
    report.seconds = time.perf_counter() - started
    summary.finish()
    return report


def _quit_quietly(stopped: EventType, signum: int, frame: object) -> None:
    """A worker's Ctrl-C: say so, then stop at once, without a traceback; the parent reports
    it once."""
    stopped.set()
    os._exit(130)


def _in_worker(stopped: EventType) -> None:
    """A worker's start: a Ctrl-C stops it quietly and marks `stopped` for the parent."""
    signal.signal(signal.SIGINT, partial(_quit_quietly, stopped))


def _run(tables: Iterator[_Table], workers: int) -> Iterator[tuple[_Table, _Outcome]]:
    """Play every table, in this process or spread over worker processes, as they finish."""
    if workers == 1:
        for table in tables:
            yield table, _play_table(table)
        return
    # While the workers start, a Ctrl-C is held, not acted on: one that interrupted the pool
    # halfway would end in a traceback. Workers forked meanwhile hold it too until their
    # initializer runs. A Ctrl-C held is acted on once they have started (never lost).
    held: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, _frame: held.append(signum))
    # A worker's exit status cannot tell a Ctrl-C reliably: the pool's own thread may reap
    # it first. The worker marks this event before it goes.
    stopped = multiprocessing.Event()
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_in_worker, initargs=(stopped,))
    finished_all = False
    try:
        pending: dict[Future[_Outcome], _Table] = {}
        # A few games queued per worker keeps every worker busy without holding them all.
        for table in islice(tables, workers * IN_FLIGHT_PER_WORKER):
            pending[pool.submit(_play_table, table)] = table
        signal.signal(signal.SIGINT, previous)
        if held:
            raise KeyboardInterrupt
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                table = pending.pop(future)
                following = next(tables, None)
                if following is not None:
                    pending[pool.submit(_play_table, following)] = following
                yield table, future.result()
        finished_all = True
    except BrokenProcessPool:
        # Workers a Ctrl-C stopped break the pool (a result or a new game refused) a moment
        # before the same Ctrl-C reaches this process, or while it is held: it is given that
        # moment to arrive, and then it is the Ctrl-C that is reported.
        time.sleep(BROKEN_POOL_GRACE_S)
        if held or stopped.is_set():
            raise KeyboardInterrupt from None
        raise
    finally:
        signal.signal(signal.SIGINT, previous)
        if not finished_all:
            # A worker that had not started when Ctrl-C came is still playing: stop it too.
            for worker in multiprocessing.active_children():
                worker.terminate()
        pool.shutdown(wait=finished_all, cancel_futures=True)


class _Summary:
    """The report's counts, gathered one game at a time."""

    def __init__(self, report: SimulationReport) -> None:
        self.report = report
        self.names = sorted(set(report.bots))
        self.seat_ids = SEAT_IDS[: report.players]
        self.by_seat: Counter[str] = Counter()
        self.by_position: Counter[str] = Counter()
        self.by_bot: Counter[str] = Counter()
        self.seats: Counter[str] = Counter()
        self.by_bot_position: dict[str, Counter[str]] = {name: Counter() for name in self.names}
        self.rounds: Counter[str] = Counter()
        self.longest: dict[str, float] = dict.fromkeys(self.names, 0.0)
        self.decisions: Counter[str] = Counter()
        self.overrun: dict[str, float] = {}
        self.cpu_overrun: dict[str, float] = {}
        self.late: Counter[str] = Counter()
        # The errors of the lowest-numbered games, whatever order games finish in.
        self.errors: list[tuple[int, str]] = []

    def add(self, table: _Table, outcome: _Outcome) -> None:
        """Count one game."""
        report = self.report
        self.seats.update(table.bots)
        if outcome.error:
            report.errors += 1
            self.errors = heapq.nsmallest(
                ERROR_SAMPLES, [*self.errors, (outcome.number, outcome.error)]
            )
            return
        winner = self.seat_ids[outcome.winner_seat]
        position = str(table.turn_order.index(winner) + 1)
        bot = table.bots[outcome.winner_seat]
        self.by_seat[winner] += 1
        self.by_position[position] += 1
        self.by_bot[bot] += 1
        self.by_bot_position[bot][position] += 1
        self.rounds[str(outcome.rounds)] += 1
        report.decisions += outcome.decisions
        report.wasted_activations += outcome.wasted_activations
        if outcome.summoner:
            report.summoner_wins += 1
        else:
            report.final_round_wins += 1
        for seat, name in enumerate(table.bots):
            seconds = outcome.longest[seat]
            self.longest[name] = max(self.longest[name], seconds)
            self.decisions[name] += outcome.decisions_by_seat[seat]
            budget = outcome.budgets[seat]
            if budget:
                self.overrun[name] = max(self.overrun.get(name, 0.0), seconds * 1000 / budget)
                cpu = outcome.longest_cpu[seat] * 1000 / budget
                self.cpu_overrun[name] = max(self.cpu_overrun.get(name, 0.0), cpu)
                self.late[name] += outcome.late[seat]

    def finish(self) -> None:
        """Fill the report from the counts."""
        report, names = self.report, self.names
        positions = [str(i + 1) for i in range(report.players)]
        report.wins_by_seat = {seat: self.by_seat[seat] for seat in self.seat_ids}
        report.wins_by_start_position = {p: self.by_position[p] for p in positions}
        report.wins_by_bot = {name: self.by_bot[name] for name in names}
        report.seats_by_bot = {name: self.seats[name] for name in names}
        report.wins_by_bot_and_start_position = {
            name: {p: self.by_bot_position[name][p] for p in positions} for name in names
        }
        report.rounds_played = dict(sorted(self.rounds.items()))
        report.longest_decision_ms_by_bot = {
            name: round(s * 1000, 1) for name, s in self.longest.items()
        }
        report.decisions_by_bot = {name: self.decisions[name] for name in names}
        report.max_overrun_by_bot = {
            name: round(ratio, 3) for name, ratio in sorted(self.overrun.items())
        }
        report.max_cpu_overrun_by_bot = {
            name: round(ratio, 3) for name, ratio in sorted(self.cpu_overrun.items())
        }
        report.late_decisions_by_bot = {name: self.late[name] for name in sorted(self.overrun)}
        report.error_samples = [text for _, text in self.errors]
