"""The engine's speed, measured the same way every time (`python -m companion bench`)."""

from __future__ import annotations

import importlib
import os
import platform
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from companion.boards import shipped_board
from companion.bots.playout import play
from companion.bots.waits import measure_waits
from companion.engine import Game, compiled, reset_phase
from companion.engine.dice import with_rolls
from companion.engine.position_keys import search_view
from companion.engine.replay import replay
from models.commands import Attack, Command, EndActivation, Move, Pass, Swap
from models.game_log import GameLog
from models.rules import EXTENDED_ROUNDS, KIND_ORDER, MAX_TRACK_ENERGY, STANDARD_ROUNDS
from models.seeded_dice import SeededDice
from models.setup import GameSetup, Mode

BENCH_BOARD = "gathering-isle"
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
