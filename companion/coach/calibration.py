"""The calibration: raw playout chances to the share of games actually won from them.

Measured on positions of games between `mcts:normal` seats (docs/coach.md). The map works
on all the players' chances at once, so they add up to 1 by themselves: each raw chance is
raised to a power (below 1 the chances come closer together, above 1 further apart), the
powers are scaled to add up to 1, and a share of each player's even chance is mixed in.
One power and one share per number of players, fitted by maximum likelihood of who won.
An earlier map, fitted per player and then scaled to add up to 1, was still too sure above
60%: the scaling undid the map where it mattered most.
"""

from __future__ import annotations

from collections.abc import Sequence

# The softmax temperature (energy) that turns the evaluation's scores at the end of a round
# into win chances, by the number of rounds still to come after it: the maximum-likelihood
# fit of the same run (early energy leads say little about who wins).
TEMPERATURES: dict[int, float] = {1: 6.32, 2: 15.21, 3: 23.6, 4: 33.21, 5: 166.15}

# (power, share of the even chance mixed in), by number of players: the fit of
# `python -m companion bench --calibration 120 --seed 2 --check 100` (docs/coach.md).
PARAMETERS: dict[int, tuple[float, float]] = {2: (0.67, 0.082), 3: (0.805, 0.5), 4: (0.645, 0.092)}

Parameters = tuple[float, float]


def temperature_for(rounds_after: int) -> float:
    """The temperature for a round's end with this many rounds still to come."""
    return TEMPERATURES[min(max(rounds_after, min(TEMPERATURES)), max(TEMPERATURES))]


def calibrate(
    raw: Sequence[float], players: int, parameters: Parameters | None = None
) -> list[float]:
    """Every player's raw chance through the map (this many players', or `parameters`);
    the results add up to 1."""
    power, even = PARAMETERS[players] if parameters is None else parameters
    powers = [max(0.0, value) ** power for value in raw]
    total = sum(powers)
    count = len(raw)
    if total <= 0:
        return [1 / count] * count
    return [(1 - even) * value / total + even / count for value in powers]


def calibrate_one(
    raw: Sequence[float], seat: int, value: float, parameters: Parameters | None = None
) -> float:
    """One seat's calibrated chance had its raw chance been `value`, the others' raw chances
    sharing the rest in the same proportions (monotone in `value`: an interval's ends go
    through it)."""
    total = sum(raw)
    value = min(total, max(0.0, value))
    others = sum(raw) - raw[seat]
    count = len(raw)
    moved = [
        value
        if i == seat
        else (share / others if others > 0 else 1 / (count - 1)) * (total - value)
        for i, share in enumerate(raw)
    ]
    return calibrate(moved, count, parameters)[seat]
