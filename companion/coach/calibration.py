"""The calibration: raw playout chances to the share of games actually won from them.

Measured on positions of games between seats of the strongest level the app ships
(docs/coach.md). The map is temperature scaling on all the players' chances at once: each
raw chance is raised to a power and the powers are scaled to add up to 1 (a power below 1
brings the chances closer together, above 1 pulls them apart). One power per number of
players and per number of rounds still to come, fitted by maximum likelihood of who won.
It has no floor and no ceiling: a raw chance of 0 or 1 stays where it is, so a position
the playouts all agree on reads as sure as they are (a fixed share of the even chance,
mixed in before, kept every chance of 3 players between 17% and 67%).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

# The softmax temperature (energy) that turns the evaluation's scores at the end of a round
# into win chances, by the number of rounds still to come after it: the maximum-likelihood
# fit of the same run (early energy leads say little about who wins).
TEMPERATURES: dict[int, float] = {1: 4.28, 2: 12.52, 3: 33.21, 4: 166.15, 5: 166.15}

# The map's power by number of players, then by rounds still to come after the position's
# round (0: the final round): the fit of `python -m companion bench calibration` on 22
# games between `mcts:hard` seats (docs/coach.md), drawn towards 1 as few games ask.
POWERS: dict[int, dict[int, float]] = {
    2: {0: 1.0, 1: 0.85, 2: 0.85, 3: 0.95, 4: 1.0, 5: 0.95},
    3: {0: 0.85, 1: 1.2, 2: 1.0, 3: 1.1, 4: 1.0, 5: 1.0},
    4: {0: 0.85, 1: 0.85, 2: 1.0, 3: 0.95, 4: 1.0, 5: 1.0},
}


def temperature_for(rounds_after: int) -> float:
    """The temperature for a round's end with this many rounds still to come."""
    return TEMPERATURES[min(max(rounds_after, min(TEMPERATURES)), max(TEMPERATURES))]


def power_for(
    players: int, rounds_after: int, powers: Mapping[int, Mapping[int, float]] | None = None
) -> float:
    """The map's power for a position of this many players with this many rounds to come
    after its own (the nearest fitted number of rounds where none was fitted; 1, the raw
    chances, where nothing was fitted for this many players)."""
    fitted = (POWERS if powers is None else powers).get(players)
    if not fitted:
        return 1.0
    return fitted[min(max(rounds_after, min(fitted)), max(fitted))]


def calibrate(raw: Sequence[float], power: float) -> list[float]:
    """Every player's raw chance through the map at this power; the results add up to 1."""
    powers = [max(0.0, value) ** power for value in raw]
    total = sum(powers)
    if total <= 0:
        return [1 / len(raw)] * len(raw)
    return [value / total for value in powers]


def calibrate_one(raw: Sequence[float], seat: int, value: float, power: float) -> float:
    """One seat's calibrated chance had its raw chance been `value`, the others' raw chances
    sharing the rest in the same proportions (monotone in `value`: an interval's ends go
    through it)."""
    total = sum(raw)
    value = min(total, max(0.0, value))
    others = total - raw[seat]
    count = len(raw)
    moved = [
        value
        if i == seat
        else (share / others if others > 0 else 1 / (count - 1)) * (total - value)
        for i, share in enumerate(raw)
    ]
    return calibrate(moved, power)[seat]
