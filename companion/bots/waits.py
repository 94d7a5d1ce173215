"""How long a person waits for the computer seats, measured on whole games.

A person sits at one seat of a digital game and the other seats are computers. Between two
of the person's decisions they wait for every computer decision made in between: the
search itself (measured by the wall clock, on this machine) and the time the app shows each
computer command before playing it (`show(command, seconds shown of its turn so far)`, the
app's pacing). A person's own decisions
take no time here: their thinking is not waiting. The person's seat turns round with each
game, so every seat and start position is measured.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from companion.boards import shipped_board
from companion.bots import make_bot
from companion.engine import Game
from companion.engine.dice import with_rolls
from companion.engine.position_keys import turn_key
from models.commands import Command
from models.seeded_dice import SeededDice
from models.setup import GameSetup, Mode

SEAT_IDS = ("red", "blue", "green", "yellow")
# Stands in for the person: it answers at once and plays sensibly, so games look like real
# ones (a random person would lose every creature early and leave the computers alone).
PERSON = "greedy"


@dataclass
class WaitReport:
    """Every wait a person had between two of their own decisions, in seconds."""

    games: int
    computers: tuple[str, ...]
    waits: list[float] = field(default_factory=list)
    longest_turn: float = 0.0

    @property
    def median(self) -> float:
        """The median wait."""
        return statistics.median(self.waits) if self.waits else 0.0

    @property
    def longest(self) -> float:
        """The longest wait."""
        return max(self.waits, default=0.0)

    @property
    def median_for_computers(self) -> float:
        """The median of the waits in which some computer played (a turn's own steps left out)."""
        played = [wait for wait in self.waits if wait > 0]
        return statistics.median(played) if played else 0.0

    def summary(self) -> dict[str, object]:
        """The figures as JSON-ready data."""
        return {
            "games": self.games,
            "computers": list(self.computers),
            "waits": len(self.waits),
            "median_wait_s": round(self.median, 2),
            "median_wait_for_computers_s": round(self.median_for_computers, 2),
            "longest_wait_s": round(self.longest, 2),
            "waits_over_5_s": sum(1 for wait in self.waits if wait > 5),
            "waits_over_8_s": sum(1 for wait in self.waits if wait > 8),
            "longest_computer_turn_s": round(self.longest_turn, 2),
        }


def measure_waits(
    show: Callable[[Command, float], float],
    computers: Sequence[str] = ("mcts:normal",) * 3,
    games: int = 4,
    seed: int = 1,
) -> WaitReport:
    """Play `games` games, a person against `computers`, and time every wait of the person."""
    players = len(computers) + 1
    board_id = "duel-isle" if players == 2 else "gathering-isle"
    report = WaitReport(games, tuple(computers))
    for number in range(games):
        person = number % players
        names = list(computers)
        names.insert(person, PERSON)
        setup = GameSetup(
            players=[{"id": seat} for seat in SEAT_IDS[:players]], board=board_id, mode=Mode.DIGITAL
        )
        game = Game(setup, shipped_board(board_id))
        bots = [
            make_bot(name, seed=seed * 1000 + number * 10 + seat) for seat, name in enumerate(names)
        ]
        roll = SeededDice(seed * 1000 + number)
        state = game.new_initial_state()
        waited: float | None = None
        turn: tuple[object, ...] | None = None
        turn_seconds = turn_shown = 0.0
        while not state.is_terminal:
            seat = state.current_seat
            assert seat is not None, "until a digital game ends, someone decides"
            started = time.perf_counter()
            command = with_rolls(state, bots[seat].choose(state), roll)
            seconds = time.perf_counter() - started
            if seat == person:
                if waited is not None:
                    report.waits.append(waited)
                waited = 0.0
            else:
                if turn_key(state) != turn:
                    turn, turn_seconds, turn_shown = turn_key(state), 0.0, 0.0
                shown = show(command, turn_shown)
                turn_shown += shown
                turn_seconds += seconds + shown
                report.longest_turn = max(report.longest_turn, turn_seconds)
                if waited is not None:
                    waited += seconds + shown
            state.apply(command)
    return report
