"""The greedy bot: the command whose resulting position evaluates best, one decision ahead."""

from __future__ import annotations

import random

from companion.bots.evaluation import Evaluator, Weights
from companion.bots.trail import Trail, purposeful
from companion.engine import GameState
from models.commands import Command

# Commands whose values differ by less than this are ties, broken by the seeded generator.
_TIE = 1e-9


class GreedyBot:
    """Plays the command with the best expected score margin over the strongest rival."""

    name = "greedy"
    budget_ms = None

    def __init__(self, seed: int | None = None, weights: Weights | None = None) -> None:
        self._random = random.Random(seed)
        self.evaluator = Evaluator(weights)
        # Where the creature being activated has stood: the bot does not move it back there.
        self._trail = Trail()

    def choose(self, state: GameState) -> Command:
        """The best command by one-ply evaluation; an attack's dice are left to the caller."""
        commands = purposeful(state.legal_commands(), self._trail.stood(state))
        if len(commands) == 1:
            chosen = commands[0]
        else:
            self.evaluator.forget()
            best = self.best(state, commands)
            chosen = best[0] if len(best) == 1 else self._random.choice(best)
        self._trail.played(chosen)
        return chosen

    def best(self, state: GameState, commands: list[Command]) -> list[Command]:
        """The commands of best margin, in the engine's order (several on a tie)."""
        best: list[Command] = []
        best_value = -float("inf")
        for command in commands:
            value = self.margin(state, command)
            if value > best_value + _TIE:
                best, best_value = [command], value
            elif value > best_value - _TIE:
                best.append(command)
        return best

    def margin(self, state: GameState, command: Command) -> float:
        """The mover's expected score lead after the command, dice weighted by their odds."""
        seat = state.current_seat
        assert seat is not None, "a bot moves only where someone decides"
        expected = 0.0
        for probability, outcome in state.chance_outcomes(command):
            child = state.clone()
            child.apply(outcome)
            scores = self.evaluator.scores(child, state.round)
            rivals = max(score for other, score in enumerate(scores) if other != seat)
            expected += probability * (scores[seat] - rivals)
        return expected
