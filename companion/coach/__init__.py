"""The coach: each player's chance to win from any position, and a game's story told from them.

Pure, like the engine and the bots it asks: no clock and no randomness of its own; the
same position, budget and seed give the same chances (docs/coach.md).
"""

from companion.coach.chances import DEFAULT_BUDGET, Chances, Estimator, PlayerChance, win_chances
from companion.coach.playable import CoachError, board_known, playable
from companion.coach.review import Mark, Moment, Review, TurningPoint, review

__all__ = [
    "DEFAULT_BUDGET",
    "Chances",
    "CoachError",
    "Estimator",
    "Mark",
    "Moment",
    "PlayerChance",
    "Review",
    "TurningPoint",
    "board_known",
    "playable",
    "review",
    "win_chances",
]
