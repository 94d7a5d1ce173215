"""How a position looks for every seat, in energy: what greedy plays by and mcts searches with.

A seat's score is the energy it can expect, judged at a horizon (the end of the round
the bot is deciding in):

- energy after that round's Energy and Reset, from the engine's own `reset_phase` on the
  board as it stands (bands, uncontested Sprites, domination);
- creatures on the board, worth their summoning cost while rounds remain to use them;
- the income they bring (Sprites and domination), for each round still to come;
- attacks in reach, by the engine's odds: the bounty for the attacker, the creature for
  its owner.

Scores become win chances with a softmax whose temperature shrinks as the game nears
its end, where a lead in energy is worth more.
"""

from __future__ import annotations

import math
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from companion.engine import GameState, Phase
from companion.engine.constants import ACTIONS, BOUNTY, COSTS, OWNED, SPRITE
from companion.engine.dice import attack_odds
from companion.engine.isle import Isle
from companion.engine.position_keys import SearchView, position_key, reset_key, search_view
from models.rules import KIND_ORDER

# Added to the winner's energy once the game is over: no position outscores a won game.
_DECIDED = 1000.0
# Win chances order wins by strength: a Summoner's (1) above a win on most energy, and any
# won game above an unfinished position, however sure the evaluation is of it. Without
# them a search given two ways to win took either (ties of 1.0).
_PLAIN_WIN = 1.0 - 1e-7
_UNFINISHED = 1.0 - 1e-6
_KINDS = range(len(KIND_ORDER))


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation's knobs, all in energy."""

    # A creature on the board is worth its cost times this, once `full_worth_rounds` remain.
    material: float = 1.0
    full_worth_rounds: float = 2.0
    # Each energy of income (Sprites, domination) on the board now, per round still to come.
    income: float = 0.5
    # How likely an attack in reach is to be made: by the creature being activated, by a
    # face-up creature, by a spent one (it acts again next round).
    reach_active: float = 1.0
    reach_ready: float = 0.5
    reach_spent: float = 0.25
    # Win chances: softmax temperature in the final round, and added per round to come.
    temperature_final: float = 1.5
    temperature_per_round: float = 1.0
    # Energy added to the score of a player the board would make win at the horizon's reset.
    win_bonus: float = 10.0


class Evaluator:
    """Scores positions for every seat; keeps the engine's reset previews of boards it has seen."""

    def __init__(self, weights: Weights | None = None) -> None:
        self.weights = weights or Weights()
        # Board and energy -> (energy after the reset, income) per seat, and a Summoner if any.
        self._previews: dict[tuple, tuple[tuple[tuple[int, int], ...], int | None]] = {}
        # Every position scored since the last `forget`: searches meet the same one many times.
        self._scores: dict[tuple, list[float]] = {}
        # Locations within reach of each other on the last isle seen (an evaluator serves one game).
        self._isle: Isle | None = None
        self._within: list[list[frozenset[int]]] = []
        # A defending Sprite is supported by at most every other Sprite its owner has.
        supports = range(OWNED[SPRITE])
        # _odds[attacker][defender][Sprite support]: the engine's odds, as floats.
        self._odds = [
            [
                [float(attack_odds(attacker, defender, n)) for n in supports]
                for defender in KIND_ORDER
            ]
            for attacker in KIND_ORDER
        ]

    def scores(self, state: GameState, horizon: int) -> list[float]:
        """Each seat's expected energy, judged at the end of round `horizon`."""
        if state.is_terminal:
            view = search_view(state)
            return [
                energy + (_DECIDED if seat == view.winner else 0.0)
                for seat, energy in enumerate(view.energy)
            ]
        key = (position_key(state), horizon)
        known = self._scores.get(key)
        if known is None:
            known = self._scores[key] = self._score(state, horizon)
        return known[:]

    def _score(self, state: GameState, horizon: int) -> list[float]:
        """The scores of a position in play, worked out."""
        game = state.game
        weights = self.weights
        after, summoner = self._preview(state)
        rounds_after = game.final_round - horizon
        worth_factor = weights.material * min(1.0, rounds_after / weights.full_worth_rounds)
        worth = [cost * worth_factor for cost in COSTS]
        # A Sprite counts 1 more, on the board and when lost: what it can earn at a reset.
        worth[SPRITE] += 1.0
        scores = [0.0] * len(game.players)
        before_horizon = state.round <= horizon
        view = search_view(state)
        for seat, (energy, income) in enumerate(after):
            banked = energy if before_horizon else view.energy[seat]
            scores[seat] = banked + income * weights.income * rounds_after
        if before_horizon and summoner is not None:
            scores[summoner] += weights.win_bonus
        for seat, counts in enumerate(view.on_board):
            scores[seat] += sum(count * value for count, value in zip(counts, worth, strict=True))
        self._add_reach(state, view, worth, scores)
        return scores

    def values(self, state: GameState, horizon: int) -> list[float]:
        """Each seat's chance of winning, from the scores (exact once the game is over)."""
        seats = len(state.game.players)
        if state.is_terminal:
            winner = search_view(state).winner
            won = 1.0 if state.summoner else _PLAIN_WIN
            return [won if seat == winner else 0.0 for seat in range(seats)]
        scores = self.scores(state, horizon)
        rounds_after = max(0, state.game.final_round - horizon)
        temperature = (
            self.weights.temperature_final + self.weights.temperature_per_round * rounds_after
        )
        top = max(scores)
        weights = [math.exp((score - top) / temperature) for score in scores]
        total = sum(weights)
        return [min(weight / total, _UNFINISHED) for weight in weights]

    def forget(self) -> None:
        """Drop what earlier decisions cached (kept small, so collecting garbage stays quick)."""
        self._previews.clear()
        self._scores.clear()

    def _preview(self, state: GameState) -> tuple[tuple[tuple[int, int], ...], int | None]:
        """The engine's Energy and Reset on the board as it stands, cached by board and energy."""
        key = reset_key(state)
        preview = self._previews.get(key)
        if preview is None:
            tally = state.reset_preview()
            seat = state.game.seat
            after = [(0, 0)] * len(seat)
            for line in tally.players:
                after[seat[line.player]] = (line.after, line.sprites + line.domination)
            summoner = seat[tally.winner] if tally.summoner and tally.winner is not None else None
            preview = self._previews[key] = (tuple(after), summoner)
        return preview

    def _add_reach(
        self, state: GameState, view: SearchView, worth: list[float], scores: list[float]
    ) -> None:
        """Expected bounties and losses from every attack some creature could make."""
        weights = self.weights
        odds = self._odds
        occupant = view.occupant
        isle = state.game.isle
        if isle is not self._isle:
            self._isle, self._within = isle, _within(isle.neighbours, max(ACTIONS))
        in_reach = self._within
        face_down = view.face_down
        active = view.active if state.phase is Phase.ACTIONS else None
        rivals: list[set[int]] = [set() for _ in view.energy]
        for here, token in enumerate(occupant):
            if token is not None:
                for seat, locations in enumerate(rivals):
                    if seat != token[0]:
                        locations.add(here)
        # Per target location: the chance it survives every attack, the attacks' summed
        # chances, and the (attacking seat, chance) of each attack made and succeeding.
        spared: dict[int, float] = {}
        made: dict[int, float] = {}
        attacks: list[tuple[int, int, float]] = []
        odds_against: dict[int, list[float]] = {}
        for here, token in enumerate(occupant):
            if token is None:
                continue
            seat, kind = token
            if here == active:
                # The creature being activated: exactly where its actions left can take it.
                likelihood = weights.reach_active
                actions = view.actions_left
                if actions < 1:
                    continue
                near = set(isle.neighbours[here])
                for spot in state.reachable(here, actions - 1):
                    near.update(isle.neighbours[spot])
                targets: AbstractSet[int] = near & rivals[seat]
            else:
                # Others, roughly: by distance on the isle, ignoring who stands in the way.
                likelihood = weights.reach_spent if face_down[here] else weights.reach_ready
                targets = in_reach[ACTIONS[kind]][here] & rivals[seat]
            for there in targets:
                row = odds_against.get(there)
                if row is None:
                    rival = occupant[there]
                    assert rival is not None, "a target holds a rival's creature"
                    defender = rival[1]
                    backing = state.sprite_support(there) if defender == SPRITE else 0
                    row = odds_against[there] = [odds[k][defender][backing] for k in _KINDS]
                chance = likelihood * row[kind]
                if chance > 0:
                    spared[there] = spared.get(there, 1.0) * (1.0 - chance)
                    made[there] = made.get(there, 0.0) + chance
                    attacks.append((there, seat, chance))
        for there, survives in spared.items():
            target = occupant[there]
            assert target is not None, "a target holds a rival's creature"
            victim, kind = target
            scores[victim] -= (1.0 - survives) * worth[kind]
        for there, seat, chance in attacks:
            # The bounty's expected value, shared among the attackers by their chances.
            target = occupant[there]
            assert target is not None, "a target holds a rival's creature"
            scores[seat] += chance * (1.0 - spared[there]) / made[there] * BOUNTY[target[1]]


def _within(neighbours: tuple[tuple[int, ...], ...], most: int) -> list[list[frozenset[int]]]:
    """within[d][i]: the locations at most d paths away from location i, i itself excluded."""
    within: list[list[frozenset[int]]] = [[frozenset() for _ in neighbours]]
    for _ in range(most):
        previous = within[-1]
        within.append(
            [
                frozenset(
                    {n for n in neighbours[i]}.union(*(previous[n] for n in neighbours[i])) - {i}
                )
                for i in range(len(neighbours))
            ]
        )
    return within
