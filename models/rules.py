"""The rules table: every number of Summoner's Isle, written once.

Nothing else in the project may repeat these numbers; the engine, the app and the
docs read them from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class CreatureKind(StrEnum):
    """The three kinds of creature, in the order they summon and act."""

    WYRM = "wyrm"
    TROLL = "troll"
    SPRITE = "sprite"

    # A property where str has a method: a kind's display name, never str.title's result.
    @property
    def title(self) -> str:  # type: ignore[override]
        """The kind's display name, singular."""
        return self.value.capitalize()

    @property
    def plural(self) -> str:
        """The kind's display name, plural."""
        return self.title + "s"


@dataclass(frozen=True, slots=True)
class CreatureStats:
    """One row of the creature table."""

    kind: CreatureKind
    cost: int
    actions: int
    attack_bonus: int
    # None for Sprites: their defence is rolled (d6 + the owner's other Sprites in the territory).
    defence: int | None
    bounty: int
    owned: int


@dataclass(frozen=True, slots=True)
class EnergyBand:
    """A stretch of the energy track and the change it applies at Energy and Reset."""

    low: int
    high: int
    modifier: int

    def contains(self, energy: int) -> bool:
        """Whether this band covers the given energy."""
        return self.low <= energy <= self.high

    @property
    def label(self) -> str:
        """The band as text, e.g. '10-18'."""
        return f"{self.low}-{self.high}"


# Order matters: it is the order of the Summoning steps and of the Action steps.
KIND_ORDER: tuple[CreatureKind, ...] = (CreatureKind.WYRM, CreatureKind.TROLL, CreatureKind.SPRITE)

CREATURES: dict[CreatureKind, CreatureStats] = {
    CreatureKind.WYRM: CreatureStats(
        CreatureKind.WYRM, cost=5, actions=2, attack_bonus=4, defence=8, bounty=3, owned=1
    ),
    CreatureKind.TROLL: CreatureStats(
        CreatureKind.TROLL, cost=3, actions=3, attack_bonus=2, defence=7, bounty=2, owned=3
    ),
    CreatureKind.SPRITE: CreatureStats(
        CreatureKind.SPRITE, cost=1, actions=1, attack_bonus=1, defence=None, bounty=1, owned=9
    ),
}

STARTING_ENERGY = 5
WINNING_ENERGY = 36
# The highest energy a game in progress can show: reaching WINNING_ENERGY ends it.
MAX_TRACK_ENERGY = WINNING_ENERGY - 1
WYRM_SWAP_COST = 1
DIE_SIDES = 6

ENERGY_BANDS: tuple[EnergyBand, ...] = (
    EnergyBand(0, 9, +5),
    EnergyBand(10, 18, +3),
    EnergyBand(19, 23, 0),
    EnergyBand(24, 29, -3),
    EnergyBand(30, MAX_TRACK_ENERGY, -5),
)

MIN_PLAYERS = 2
MAX_PLAYERS = 4
STANDARD_ROUNDS = 6
EXTENDED_ROUNDS = 7
# The optional seventh round is open only to games of at least this many players.
EXTENDED_ROUNDS_MIN_PLAYERS = 3
DOMINATION_BONUS_RANGE = (1, 3)


def rounds_for(players: int) -> tuple[int, ...]:
    """The game lengths the rules allow `players` players (the 7th round from 3 players)."""
    if players >= EXTENDED_ROUNDS_MIN_PLAYERS:
        return (STANDARD_ROUNDS, EXTENDED_ROUNDS)
    return (STANDARD_ROUNDS,)


def band_for(energy: int) -> EnergyBand:
    """The energy band that covers an energy total on the track (0-35)."""
    for band in ENERGY_BANDS:
        if band.contains(energy):
            return band
    raise ValueError(f"energy {energy} is off the track (0-{MAX_TRACK_ENERGY})")
