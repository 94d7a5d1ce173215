"""The numbers the player aid shows, read from the rules table (models/rules.py).

The aid takes them as one value, so a test can hand it a copy of the table with a number
changed and see the aid follow.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from models import rules
from models.rules import CreatureKind, CreatureStats, EnergyBand


@dataclass(frozen=True, slots=True)
class RuleNumbers:
    """Every number of the rules table the aid names."""

    creatures: Mapping[CreatureKind, CreatureStats]
    kind_order: tuple[CreatureKind, ...]
    starting_energy: int
    winning_energy: int
    swap_cost: int
    die_sides: int
    bands: tuple[EnergyBand, ...]
    min_players: int
    max_players: int
    standard_rounds: int
    extended_rounds: int
    extended_min_players: int
    domination_bonus: tuple[int, int]

    def stats(self, kind: CreatureKind) -> CreatureStats:
        """One creature kind's row of the table."""
        return self.creatures[kind]


def rule_numbers() -> RuleNumbers:
    """The numbers of the rules table the engine plays by."""
    return RuleNumbers(
        creatures=dict(rules.CREATURES),
        kind_order=rules.KIND_ORDER,
        starting_energy=rules.STARTING_ENERGY,
        winning_energy=rules.WINNING_ENERGY,
        swap_cost=rules.WYRM_SWAP_COST,
        die_sides=rules.DIE_SIDES,
        bands=rules.ENERGY_BANDS,
        min_players=rules.MIN_PLAYERS,
        max_players=rules.MAX_PLAYERS,
        standard_rounds=rules.STANDARD_ROUNDS,
        extended_rounds=rules.EXTENDED_ROUNDS,
        extended_min_players=rules.EXTENDED_ROUNDS_MIN_PLAYERS,
        domination_bonus=rules.DOMINATION_BONUS_RANGE,
    )
