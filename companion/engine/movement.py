"""Where an active creature can move, and at what cost (ruling 6).

A Move command takes the creature to any empty location it could reach with the
actions it has left, passing through its owner's creatures and through empty
locations (the same as a chain of single moves), never through a rival's creature.
It costs the length of the shortest such way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.engine.state import GameState


def reachable(state: GameState, start: int, budget: int) -> dict[int, int]:
    """Empty locations the creature at `start` can reach within `budget` actions, with costs."""
    mover = state.occupant[start]
    assert mover is not None, "only a creature moves"
    seat = mover[0]
    occupant = state.occupant
    neighbours = state.game.isle.neighbours
    if budget == 1:
        # One step ends where it enters: no way through a friend can help (a common case:
        # every Sprite, and every creature's last action).
        return {there: 1 for there in neighbours[start] if occupant[there] is None}
    costs: dict[int, int] = {}
    seen = {start}
    frontier = [start]
    for cost in range(1, budget + 1):
        nxt = []
        for here in frontier:
            for there in neighbours[here]:
                if there in seen:
                    continue
                token = occupant[there]
                if token is None:
                    costs[there] = cost
                elif token[0] != seat:
                    continue
                seen.add(there)
                nxt.append(there)
        if not nxt:
            break
        frontier = nxt
    return costs
