"""The baseline bot: a uniformly random legal command."""

from __future__ import annotations

import random

from companion.engine import GameState
from models.commands import Command


class RandomBot:
    """Picks any legal command with equal chance, from a seeded generator."""

    name = "random"
    budget_ms = None

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed)

    def choose(self, state: GameState) -> Command:
        """A uniformly random legal command."""
        return self._random.choice(state.legal_commands())
