"""Indices and phases shared by the engine's modules, derived from the rules table."""

from __future__ import annotations

from enum import StrEnum

from models.rules import CREATURES, KIND_ORDER, CreatureKind

# Keyed by str: a CreatureKind is one, and a kind's plain name finds the same index.
KIND_INDEX: dict[str, int] = {kind: i for i, kind in enumerate(KIND_ORDER)}
COSTS = tuple(CREATURES[kind].cost for kind in KIND_ORDER)
OWNED = tuple(CREATURES[kind].owned for kind in KIND_ORDER)
ACTIONS = tuple(CREATURES[kind].actions for kind in KIND_ORDER)
ATTACK_BONUS = tuple(CREATURES[kind].attack_bonus for kind in KIND_ORDER)
DEFENCE = tuple(CREATURES[kind].defence for kind in KIND_ORDER)
BOUNTY = tuple(CREATURES[kind].bounty for kind in KIND_ORDER)
WYRM = KIND_INDEX[CreatureKind.WYRM]
SPRITE = KIND_INDEX[CreatureKind.SPRITE]
KINDS = len(KIND_ORDER)
# A table round's stages (engine/ahead.py): Summoning's steps 0-2, then the Actions phase's;
# past Summoning at SUMMONING_DONE, past the whole round at ROUND_DONE.
SUMMONING_DONE = KINDS
ROUND_DONE = 2 * KINDS

# A creature on the board is (seat, kind index); compare tokens by value, never by identity:
# the compiled engine (docs/engine.md, "Speed") makes a new tuple for each one it stores.
Token = tuple[int, int]


class Phase(StrEnum):
    """The phases of a round, and the end of the game."""

    SUMMONING = "summoning"
    ACTIONS = "actions"
    ENERGY_AND_RESET = "energy_and_reset"
    GAME_OVER = "game_over"
