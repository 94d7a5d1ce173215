"""How many records a game can hold: the rules bound it, and every game is held to it.

A round gives each player a bounded number of things to do, read from the rules table: each
creature summoned once, activated once with each of its actions, a bonus per territory held
whole, Wyrm swaps as far as energy pays for them. `most_records` adds them up, generously
(every kind of record counted at its most in the same round, the table's and the digital
board's together), for a game's players and rounds. A log longer than that is no game: an
import is refused, and a game in play takes no record past it.

The rules do not bound corrections (a table fixing an energy by hand); the count allows
CORRECTIONS_PER_ROUND of them per player and round, far more than a table makes.
"""

from __future__ import annotations

from models.rules import (
    CREATURES,
    KIND_ORDER,
    MAX_TRACK_ENERGY,
    WYRM_SWAP_COST,
    CreatureKind,
)

# The two phases in which players take turns kind by kind: Summoning and Actions.
TURN_PHASES = 2
# Energy fixed by hand, per player and round: the rules set no number.
CORRECTIONS_PER_ROUND = 10


def most_by_player_and_round() -> int:
    """The most records one player can make in one round, by the rules table."""
    owned = sum(stats.owned for stats in CREATURES.values())
    actions = sum(stats.owned * stats.actions for stats in CREATURES.values())
    wyrm = CREATURES[CreatureKind.WYRM]
    bounty = max(stats.bounty for stats in CREATURES.values())
    # Each creature summoned, or at the table entered late at Energy and Reset.
    summons = 2 * owned
    turns = TURN_PHASES * len(KIND_ORDER)  # a pass ends each kind's turn in each phase
    # On the digital board each creature activated, each of its actions, its end.
    activations = sum(stats.owned * (stats.actions + 2) for stats in CREATURES.values())
    # At the table a removal is an action, recorded then or entered late at the reset.
    removals = 2 * actions
    # A swap costs energy (recorded then or entered late): at most the track's top, and what
    # the Wyrm's attacks bring.
    swaps = (MAX_TRACK_ENERGY + wyrm.actions * bounty) // WYRM_SWAP_COST
    # A bonus taken or declined per territory held whole: each holds a creature at least.
    bonuses = owned
    return summons + turns + activations + removals + swaps + bonuses + CORRECTIONS_PER_ROUND


def most_records(players: int, final_round: int) -> int:
    """The most records a game of `players` players and `final_round` rounds can hold."""
    # A skip ends everyone's turns up to a point: one per player's turn point at most.
    skips = TURN_PHASES * (len(KIND_ORDER) + 1) * players
    reset = 1  # the table's Energy and Reset record
    return final_round * (players * most_by_player_and_round() + skips + reset)
