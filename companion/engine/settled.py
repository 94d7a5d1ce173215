"""Who has won by the rules alone: the positions whose result no play can change.

In the final round the rules bound what anyone can still gain: a rival's energy can grow
only by bounties (an attack per action of a creature in play, each worth at most the
bounty of a creature it can beat, and no more than the bounty there is to take), the band
at Energy and Reset, its Sprites and the territories its creatures could fill; a player's
own energy falls only if they spend it, or by their band. A player who, passing
everything, is sure to finish above the most any other can reach has won, whatever the
others play. Every bound is read from the rules table (`models/rules.py`) and the board,
never written here, and each is generous, so what it proves is true.

Before the final round a rival can rebuild (every creature comes back, the band pays most
to the poorest), and such bounds prove nothing useful: the playouts judge those positions.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import product

from companion.engine import GameState, Phase
from companion.engine.dice import attack_odds
from models.rules import (
    CREATURES,
    ENERGY_BANDS,
    KIND_ORDER,
    MAX_TRACK_ENERGY,
    WINNING_ENERGY,
    CreatureKind,
)


def modifier(energy: int) -> int:
    """The band's change to an energy at Energy and Reset (ruling 2)."""
    return next(band.modifier for band in ENERGY_BANDS if band.low <= energy <= band.high)


@cache
def _highest_after_band(energy: int) -> int:
    """The most a player holding at most `energy` before the bands can hold after them."""
    return max(value + modifier(value) for value in range(min(energy, MAX_TRACK_ENERGY) + 1))


def _beatable(attacker: CreatureKind, defender: CreatureKind) -> bool:
    """Whether an attack by `attacker` can succeed against `defender` on some roll (a
    defending Sprite with no support: its weakest)."""
    return attack_odds(attacker, defender) > 0


@cache
def _most_domination(territories: tuple[tuple[int, int], ...], creatures: int) -> int:
    """The most bonus `creatures` creatures can hold: territories (size, bonus) filled whole
    (a knapsack over the territories' sizes)."""
    best = [0] * (creatures + 1)
    for size, bonus in territories:
        for room in range(creatures, size - 1, -1):
            best[room] = max(best[room], best[room - size] + bonus)
    return best[creatures]


@cache
def _summons(reserve: tuple[int, ...], energy: int) -> tuple[tuple[int, ...], ...]:
    """Every set of summons (a count per kind) the reserve holds and the energy pays for."""
    return tuple(
        counts
        for counts in product(*(range(held + 1) for held in reserve))
        if _cost(counts) <= energy
    )


@cache
def _most_bounty(reserve: tuple[int, ...], energy: int) -> tuple[int, tuple[bool, ...]]:
    """The most bounty summons from this reserve with this energy can put on the board, and
    which kinds they can put there."""
    options = _summons(reserve, energy)
    kinds = tuple(any(counts[index] for counts in options) for index in range(len(KIND_ORDER)))
    return max(_bounty(counts) for counts in options), kinds


def _territories(state: GameState) -> tuple[tuple[int, int], ...]:
    """Each territory's (number of locations, bonus)."""
    return tuple((len(t.locations), t.bonus) for t in state.game.board.territories)


def _pool(state: GameState, seat: int, passer: int, summoning: bool) -> tuple[list[bool], int]:
    """Which kinds of creature the players other than `seat` can have on the board this
    round, and the most bounty those creatures hold, `passer` summoning none: theirs on the
    board, and the summons the others' reserves hold and their energy pays for."""
    present = [False] * len(KIND_ORDER)
    bounty = 0
    for other in range(len(state.game.players)):
        if other == seat:
            continue
        for index, kind in enumerate(KIND_ORDER):
            held = state.on_board[other][index]
            present[index] |= held > 0
            bounty += held * CREATURES[kind].bounty
        if summoning and other != passer:
            most, kinds = _most_bounty(tuple(state.reserve[other]), state.energy[other])
            present = [there or can for there, can in zip(present, kinds, strict=True)]
            bounty += most
    return present, bounty


def _cost(counts: Sequence[int]) -> int:
    """What so many creatures of each kind cost to summon."""
    return sum(count * CREATURES[kind].cost for kind, count in zip(KIND_ORDER, counts, strict=True))


def _bounty(counts: Sequence[int]) -> int:
    """The bounty so many creatures of each kind are worth to whoever removes them."""
    return sum(
        count * CREATURES[kind].bounty for kind, count in zip(KIND_ORDER, counts, strict=True)
    )


def _highest(state: GameState, seat: int, passer: int) -> int:
    """The most energy a player can end the final round with while `passer` passes
    everything (WINNING_ENERGY: they might win)."""
    energy = state.energy[seat]
    territories = _territories(state)
    if state.phase is Phase.ENERGY_AND_RESET and state.reset_from is not None:
        # The bands and Sprites are counted already; domination choices remain.
        return energy + _most_domination(territories, sum(state.on_board[seat]))
    summoning = state.phase is Phase.SUMMONING
    attacking = state.phase in (Phase.SUMMONING, Phase.ACTIONS)
    present, bounty_pool = _pool(state, seat, passer, summoning)
    # The most one action of each kind can earn: the bounty of the best creature it can beat.
    per_action = [
        CREATURES[kind].actions
        * max(
            (
                CREATURES[target].bounty
                for target, there in zip(KIND_ORDER, present, strict=True)
                if there and _beatable(kind, target)
            ),
            default=0,
        )
        for kind in KIND_ORDER
    ]
    sprite = KIND_ORDER.index(CreatureKind.SPRITE)
    best = 0
    none = (0,) * len(KIND_ORDER)
    options = _summons(tuple(state.reserve[seat]), energy) if summoning else (none,)
    for summoned in options:
        spent = _cost(summoned)
        in_play = [held + more for held, more in zip(state.on_board[seat], summoned, strict=True)]
        gained = 0
        if attacking:
            gained = min(
                sum(count * each for count, each in zip(in_play, per_action, strict=True)),
                bounty_pool,
            )
        before_reset = energy - spent + gained
        if before_reset >= WINNING_ENERGY:
            return WINNING_ENERGY
        after = (
            _highest_after_band(before_reset)
            + in_play[sprite]
            + _most_domination(territories, sum(in_play))
        )
        best = max(best, after)
    return min(best, WINNING_ENERGY)


def _lowest(state: GameState, seat: int) -> int:
    """The least energy a player who passes everything ends the final round with."""
    energy = state.energy[seat]
    if state.phase is Phase.ENERGY_AND_RESET and state.reset_from is not None:
        return energy
    return energy + modifier(energy)


def decided(state: GameState) -> int | None:
    """The seat sure to win whatever the others play (a finished game's winner), or None
    while the rules alone do not say.

    Only in the final round: a player has won when, passing everything, they end above the
    most any other player can reach meanwhile (which is below the winning energy).
    """
    if state.is_terminal:
        return state.winner
    if state.round < state.game.final_round:
        return None
    seats = range(len(state.game.players))
    lowest = [_lowest(state, seat) for seat in seats]
    # Only the one sure of the most can be sure of winning: anyone else's most reaches at
    # least their own least. The likeliest to catch them are tried first.
    passer = max(seats, key=lowest.__getitem__)
    if lowest.count(lowest[passer]) > 1:
        return None
    rivals = sorted((seat for seat in seats if seat != passer), key=lambda s: -state.energy[s])
    if all(lowest[passer] > _highest(state, seat, passer) for seat in rivals):
        return passer
    return None
