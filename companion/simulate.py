"""Whole games between bots, summarised: how games end and whether anything went wrong."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from companion.boards import shipped_board
from companion.bots import make_bot
from companion.bots.playout import play
from companion.dice import SeededDice
from companion.engine import Game
from companion.engine.errors import IllegalCommand
from models.rules import EXTENDED_ROUNDS_MIN_PLAYERS, MAX_PLAYERS, MIN_PLAYERS
from models.setup import GameSetup, Mode

SEAT_IDS = ("p1", "p2", "p3", "p4")


def default_board_id(players: int) -> str:
    """The shipped layout made for this many players."""
    return "duel-isle" if players < EXTENDED_ROUNDS_MIN_PLAYERS else "gathering-isle"


@dataclass
class SimulationReport:
    """Counts over all simulated games."""

    games: int
    players: int
    board: str
    bots: list[str]
    seed: int
    wins_by_seat: dict[str, int] = field(default_factory=dict)
    wins_by_start_position: dict[str, int] = field(default_factory=dict)
    wins_by_bot: dict[str, int] = field(default_factory=dict)
    summoner_wins: int = 0
    final_round_wins: int = 0
    rounds_played: dict[str, int] = field(default_factory=dict)
    decisions: int = 0
    seconds: float = 0.0
    errors: int = 0
    error_samples: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The report as JSON-ready data."""
        return asdict(self)

    def lines(self) -> list[str]:
        """The report as readable lines."""

        def row(counts: dict[str, int]) -> str:
            return "  ".join(f"{key}: {value}" for key, value in counts.items())

        rate = self.decisions / self.seconds if self.seconds else 0.0
        lines = [
            f"{self.games} games, {self.players} players on {self.board}, "
            f"bots {', '.join(self.bots)}, seed {self.seed}",
            f"wins by seat:            {row(self.wins_by_seat)}",
            f"wins by start position:  {row(self.wins_by_start_position)}",
            f"wins by bot:             {row(self.wins_by_bot)}",
            f"Summoner (36) wins:      {self.summoner_wins}",
            f"final-round wins:        {self.final_round_wins}",
            f"rounds played:           {row(self.rounds_played)}",
            f"decisions:               {self.decisions} in {self.seconds:.1f} s ({rate:,.0f}/s)",
            f"errors:                  {self.errors}",
        ]
        lines.extend(f"  {sample}" for sample in self.error_samples)
        return lines


def simulate(
    players: int, games: int, seed: int, bots: Sequence[str], board_id: str | None = None
) -> SimulationReport:
    """Play `games` games; seats and starting positions rotate so each bot gets every seat."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"--players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {players}")
    if games < 1:
        raise ValueError("--games must be at least 1")
    if not bots:
        raise ValueError("name at least one bot")
    board_id = board_id or default_board_id(players)
    board = shipped_board(board_id)
    seat_ids = SEAT_IDS[:players]
    seat_bots = [bots[i % len(bots)] for i in range(players)]
    for name in set(seat_bots):
        make_bot(name)  # fail fast on an unknown name
    report = SimulationReport(
        games=games, players=players, board=board_id, bots=seat_bots, seed=seed
    )
    by_seat: Counter[str] = Counter()
    by_position: Counter[str] = Counter()
    by_bot: Counter[str] = Counter()
    rounds: Counter[str] = Counter()
    started = time.perf_counter()
    for number in range(games):
        shift = number % players
        order = tuple(seat_ids[(i + shift) % players] for i in range(players))
        # Bots rotate round the seats too, so no bot keeps a seat's advantage.
        names = [seat_bots[(i + number) % players] for i in range(players)]
        setup = GameSetup(
            players=[{"id": p} for p in seat_ids],
            board=board_id,
            turn_order=order,
            mode=Mode.DIGITAL,
        )
        game_seed = seed * 1_000_003 + number
        try:
            played = play(
                Game(setup, board),
                [make_bot(name, game_seed * 7 + seat) for seat, name in enumerate(names)],
                SeededDice(game_seed),
            )
        except (IllegalCommand, ValueError, KeyError, IndexError, TypeError) as error:
            report.errors += 1
            if len(report.error_samples) < 5:
                report.error_samples.append(f"game {number}: {type(error).__name__}: {error}")
            continue
        state = played.state
        report.decisions += len(played.commands)
        winner = state.winner_id
        by_seat[winner] += 1
        by_position[str(order.index(winner) + 1)] += 1
        by_bot[names[state.winner]] += 1
        rounds[str(state.round)] += 1
        if state.summoner:
            report.summoner_wins += 1
        else:
            report.final_round_wins += 1
    report.seconds = time.perf_counter() - started
    report.wins_by_seat = {seat: by_seat[seat] for seat in seat_ids}
    report.wins_by_start_position = {str(i + 1): by_position[str(i + 1)] for i in range(players)}
    report.wins_by_bot = {name: by_bot[name] for name in sorted(set(seat_bots))}
    report.rounds_played = dict(sorted(rounds.items()))
    return report
