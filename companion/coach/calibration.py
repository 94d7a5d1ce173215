"""The calibration map: raw playout chances to the share of games actually won from them.

Measured on positions of games between `mcts:normal` seats (docs/coach.md); the map is
monotone, piecewise linear through the knots below, one per number of players.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

Knots = tuple[tuple[float, float], ...]

# The softmax temperature (energy) that turns the evaluation's scores at the end of a round
# into win chances, by the number of rounds still to come after it.
TEMPERATURES: dict[int, float] = {1: 2.5, 2: 3.5, 3: 4.5, 4: 5.5, 5: 6.5, 6: 7.5}

# (raw chance, share of games won) knots, by number of players; identity until measured.
KNOTS: dict[int, Knots] = {
    2: ((0.0, 0.0), (1.0, 1.0)),
    3: ((0.0, 0.0), (1.0, 1.0)),
    4: ((0.0, 0.0), (1.0, 1.0)),
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
