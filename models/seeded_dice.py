"""A seeded source of die faces, for bots, simulations and digital dice."""

from __future__ import annotations

import random

from models.rules import DIE_SIDES


class SeededDice:
    """Rolls a d6 from a seeded generator, so the same seed gives the same game."""

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed)

    def __call__(self) -> int:
        """One roll of a six-sided die."""
        return self._random.randint(1, DIE_SIDES)
