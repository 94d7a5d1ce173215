"""The calibration map: raw playout chances to the share of games actually won from them.

Measured on positions of games between `mcts:normal` seats (docs/coach.md); the map is
monotone, piecewise linear through the knots below, one per number of players.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

Knots = tuple[tuple[float, float], ...]

# The softmax temperature (energy) that turns the evaluation's scores at the end of a round
# into win chances, by the number of rounds still to come after it: the maximum-likelihood
# fit of the same run (early energy leads say little about who wins).
TEMPERATURES: dict[int, float] = {1: 6.32, 2: 15.21, 3: 23.6, 4: 33.21, 5: 166.15}

# (raw chance, share of games won) knots, by number of players: the isotonic fit of
# `python -m companion bench --calibration 120 --seed 2` on all its games (docs/coach.md).
KNOTS: dict[int, Knots] = {
    2: (
        (0.0, 0.0),
        (0.0, 0.0),
        (0.0578, 0.1583),
        (0.2221, 0.3191),
        (0.2705, 0.339),
        (0.3178, 0.3704),
        (0.4667, 0.4144),
        (0.5333, 0.5856),
        (0.6822, 0.6296),
        (0.7295, 0.661),
        (0.7779, 0.6809),
        (0.9422, 0.8417),
        (1.0, 1.0),
        (1.0, 1.0),
    ),
    3: (
        (0.0, 0.0),
        (0.0, 0.0),
        (0.0554, 0.212),
        (0.1358, 0.2269),
        (0.2867, 0.2507),
        (0.3806, 0.439),
        (0.5612, 0.487),
        (0.6757, 0.5),
        (0.8803, 0.5645),
        (1.0, 1.0),
        (1.0, 1.0),
    ),
    4: (
        (0.0, 0.0),
        (0.0, 0.0),
        (0.0062, 0.075),
        (0.0693, 0.0769),
        (0.0727, 0.125),
        (0.1204, 0.155),
        (0.2872, 0.3599),
        (0.4476, 0.4061),
        (0.532, 0.4474),
        (0.5686, 0.4821),
        (0.6877, 0.4872),
        (0.9579, 0.7333),
        (1.0, 1.0),
        (1.0, 1.0),
    ),
}


def temperature_for(rounds_after: int) -> float:
    """The temperature for a round's end with this many rounds still to come."""
    return TEMPERATURES[min(max(rounds_after, min(TEMPERATURES)), max(TEMPERATURES))]


def mapped(raw: float, knots: Knots) -> float:
    """One raw chance through a map's knots."""
    at = bisect_right([x for x, _ in knots], raw)
    if at <= 0:
        return knots[0][1]
    if at >= len(knots):
        return knots[-1][1]
    (x0, y0), (x1, y1) = knots[at - 1], knots[at]
    return y0 if x1 == x0 else y0 + (y1 - y0) * (raw - x0) / (x1 - x0)


def calibrate(
    raw: Sequence[float], players: int, normalise: bool = True, knots: Knots | None = None
) -> list[float]:
    """Every player's raw chance through the map (this many players', or `knots`);
    `normalise` makes them add up to 1."""
    chosen = KNOTS[players] if knots is None else knots
    shares = [mapped(value, chosen) for value in raw]
    total = sum(shares)
    if not normalise or total <= 0:
        return shares
    return [share / total for share in shares]
