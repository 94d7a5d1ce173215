"""Each player's chance to win from a position, with its uncertainty: playouts by the bots.

A playout plays the position on to the end of its round, every seat played by the greedy
bot (the bots' one-decision search), and takes the evaluation's win chances there
(`bots/evaluation.py`, judged at the end of that round), or the result if the game ended.
The chances are the mean over playouts, mapped through the calibration measured on games
between seats of the strongest level (`coach/calibration.py`), and the interval is the
mean's 95% interval mapped the same way. Where the rules alone say who wins
(`engine/settled.py`), the chances say so exactly: 1 for them, 0 for the others.

Pure: no clock and no randomness of its own. The dice of playout `i` at a position come
from a hash of the seed, `i` and the position, and the greedy choice at a position is the
first best one in the engine's order, so a playout is a function of where it is: the same
position, budget and seed give the same chances on any machine, and the playouts from
positions met along one game (a review) share their ends (`Estimator` remembers them).
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass

from companion.bots.evaluation import Evaluator
from companion.bots.greedy import GreedyBot
from companion.coach.calibration import calibrate, calibrate_one, power_for, temperature_for
from companion.coach.playable import digital_game, playable
from companion.engine import Game, GameState, Phase
from companion.engine.constants import BOUNTY, COSTS
from companion.engine.dice import chances as attack_chances
from companion.engine.dice import rolls_defence
from companion.engine.position_keys import dice_text, full_key, search_view
from companion.engine.settled import decided
from models.commands import Activate, Attack, Command, Dominate, EndActivation, Move, Pass

# The most playouts one estimate may play (the budget), and the fewest before it may stop.
DEFAULT_BUDGET = 400
MIN_PLAYOUTS = 32
# An estimate stops early once every player's calibrated 95% interval is at most this far
# each side of the chance (the measure asks for 5 points).
TARGET_HALF_WIDTH = 0.05
# A 95% interval is the mean plus or minus this many standard errors.
Z95 = 1.96
_UNIT = float(2**64)


@dataclass(frozen=True, slots=True)
class PlayerChance:
    """One player's chance to win, and the 95% interval around it (all from 0 to 1)."""

    player: str
    chance: float
    low: float
    high: float


@dataclass(frozen=True, slots=True)
class Chances:
    """Every player's chance to win from one position, in setup order."""

    players: tuple[PlayerChance, ...]
    # How many playouts the estimate took (0 where the rules say who wins).
    playouts: int
    # Whether the game is over (the chances are its result).
    over: bool = False
    # Whether the rules alone say who wins (`engine/settled.py`): the chances are 0 and 1.
    exact: bool = False

    def of(self, player: str) -> PlayerChance:
        """One player's chance."""
        return next(line for line in self.players if line.player == player)

    def chance(self, player: str) -> float:
        """One player's chance, from 0 to 1."""
        return self.of(player).chance

    def to_json(self) -> dict[str, object]:
        """As JSON data, in percent with one decimal."""
        return {
            "players": {
                line.player: {
                    "chance": _percent(line.chance),
                    "low": _percent(line.low),
                    "high": _percent(line.high),
                }
                for line in self.players
            },
            "playouts": self.playouts,
            "exact": self.exact,
        }


def _percent(share: float) -> float:
    return round(share * 100, 1)


class Estimator:
    """Win chances by playouts, remembering every playout's end for the next position."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.evaluator = Evaluator()
        self._greedy = GreedyBot(seed, self.evaluator.weights)
        self._greedy.evaluator = self.evaluator
        # Position -> the greedy bot's choice there; (playout, position) -> where it ends.
        self._choices: dict[Key, Command] = {}
        self._games: dict[Game, Game] = {}
        self._ends: dict[tuple[int, Key], tuple[float, ...]] = {}

    def chances(self, state: GameState, budget: int = DEFAULT_BUDGET) -> Chances:
        """Every player's chance to win from `state` (a table one right after its reset too)."""
        players = state.game.players
        sure = decided(state)
        if sure is not None:
            return Chances(
                tuple(
                    PlayerChance(p, float(s == sure), float(s == sure), float(s == sure))
                    for s, p in enumerate(players)
                ),
                0,
                over=state.is_terminal,
                exact=True,
            )
        power = power_for(len(players), state.game.final_round - state.round)
        means, widths, played = self.raw(state, budget)
        chances = calibrate(means, power)
        lows, highs = _ends(means, widths, power)
        return Chances(
            tuple(
                PlayerChance(player, chance, min(low, chance), max(high, chance))
                for player, chance, low, high in zip(players, chances, lows, highs, strict=True)
            ),
            played,
        )

    def raw(self, state: GameState, budget: int) -> tuple[list[float], list[float], int]:
        """The playouts' mean chance per seat, its 95% half width, and how many were played:
        at least `MIN_PLAYOUTS`, then until every calibrated interval is within
        `TARGET_HALF_WIDTH` each side of its chance, or the budget is spent."""
        start = playable(state, self._digital(state.game))
        seats = len(state.game.players)
        power = power_for(seats, state.game.final_round - state.round)
        sums = [0.0] * seats
        squares = [0.0] * seats
        played = 0
        while played < max(1, budget):
            value = self.playout(start, played)
            played += 1
            for seat, share in enumerate(value):
                sums[seat] += share
                squares[seat] += share * share
            if played >= MIN_PLAYOUTS and _narrow(sums, squares, played, power):
                break
        means = [total / played for total in sums]
        widths = [_half_width(t, s, played) for t, s in zip(sums, squares, strict=True)]
        return means, widths, played

    def _digital(self, game: Game) -> Game:
        """The digital game a table game's positions are played on in (made once per game)."""
        known = self._games.get(game)
        if known is None:
            known = self._games[game] = digital_game(game)
        return known

    def playout(self, state: GameState, number: int) -> tuple[float, ...]:
        """Playout `number` from `state` to the end of its round: each seat's win chance there."""
        horizon = state.round
        walked: list[Key] = []
        current = state.clone()
        while True:
            if current.is_terminal or current.round != horizon:
                value = self.judge(current, horizon)
                break
            key = _key(current)
            known = self._ends.get((number, key))
            if known is not None:
                value = known
                break
            walked.append(key)
            current.apply(self._outcome(current, self._choice(current, key), number, key))
        for key in walked:
            self._ends[number, key] = value
        return value

    def judge(self, state: GameState, horizon: int) -> tuple[float, ...]:
        """Each seat's win chance from the evaluation of a position, judged at the end of
        round `horizon`: the result once the game is over, else a softmax of the scores at
        the temperature measured for the rounds still to come (`coach/calibration.py`)."""
        seats = len(state.game.players)
        # The game's end, or (going into the final round) a result the rules already say.
        sure = decided(state)
        if sure is not None:
            return tuple(float(seat == sure) for seat in range(seats))
        scores = self.evaluator.scores(state, horizon)
        temperature = temperature_for(state.game.final_round - horizon)
        top = max(scores)
        weights = [math.exp((score - top) / temperature) for score in scores]
        total = sum(weights)
        return tuple(weight / total for weight in weights)

    def _choice(self, state: GameState, key: Key) -> Command:
        """The playouts' command here: the greedy bot's first best one, or in the Actions
        phase the quick one (`_quick`), which needs no evaluation."""
        if state.phase is Phase.ACTIONS:
            return _quick(state)
        if state.phase is Phase.ENERGY_AND_RESET and state.round >= state.game.final_round:
            # The final round's bonuses are free: no band comes after them.
            return next(
                (c for c in state.legal_commands() if type(c) is Dominate and c.take),
                state.legal_commands()[0],
            )
        known = self._choices.get(key)
        if known is None:
            commands = state.legal_commands()
            known = commands[0] if len(commands) == 1 else self._greedy.best(state, commands)[0]
            self._choices[key] = known
        return known

    def _outcome(self, state: GameState, command: Command, number: int, key: Key) -> Command:
        """The command with the dice of this playout at this position (an attack's outcome)."""
        outcomes = state.chance_outcomes(command)
        if len(outcomes) == 1:
            return outcomes[0][1]
        draw = self._draw("dice", number, _dice_text(state))
        for probability, outcome in outcomes:
            draw -= probability
            if draw < 0:
                return outcome
        return outcomes[-1][1]

    def _draw(self, what: str, number: int, where: bytes) -> float:
        """A number in [0, 1) that only the seed, the playout and the position decide."""
        text = f"{self.seed}:{what}:{number}:".encode() + where
        digest = hashlib.blake2b(text, digest_size=8).digest()
        return int.from_bytes(digest, "big") / _UNIT


# A position as a key for the playouts' tables: everything its position text holds.
Key = tuple[object, ...]


def _key(state: GameState) -> Key:
    """The position as a hashable key (cheaper than its text, and as complete)."""
    return full_key(state)


def _dice_text(state: GameState) -> bytes:
    """What an attack's dice are drawn from: the board, the energies and where in the round
    (a function of the position, cheap to make: attacks are drawn thousands of times)."""
    return dice_text(state)


def _half_width(total: float, square: float, count: int) -> float:
    """The 95% interval's half width of a mean, from the sums of values and of their squares."""
    if count < 2:
        return 1.0
    mean = total / count
    variance = max(0.0, (square - count * mean * mean) / (count - 1))
    return Z95 * math.sqrt(variance / count)


def _ends(means: list[float], widths: list[float], power: float) -> tuple[list[float], list[float]]:
    """The calibrated ends of every seat's 95% interval (`calibrate_one`)."""
    lows = [
        calibrate_one(means, seat, mean - width, power)
        for seat, (mean, width) in enumerate(zip(means, widths, strict=True))
    ]
    highs = [
        calibrate_one(means, seat, mean + width, power)
        for seat, (mean, width) in enumerate(zip(means, widths, strict=True))
    ]
    return lows, highs


def _narrow(sums: list[float], squares: list[float], count: int, power: float) -> bool:
    """Whether every seat's calibrated 95% interval is within the target each side."""
    means = [total / count for total in sums]
    widths = [_half_width(t, s, count) for t, s in zip(sums, squares, strict=True)]
    if max(widths) > 2 * TARGET_HALF_WIDTH:
        return False
    chances = calibrate(means, power)
    lows, highs = _ends(means, widths, power)
    return all(
        high - chance <= TARGET_HALF_WIDTH and chance - low <= TARGET_HALF_WIDTH
        for chance, low, high in zip(chances, lows, highs, strict=True)
    )


def win_chances(state: GameState, budget: int = DEFAULT_BUDGET, seed: int = 0) -> Chances:
    """Every player's chance to win from a position, with its 95% interval (see the module)."""
    return Estimator(seed).chances(state, budget)


def _quick(state: GameState) -> Command:
    """An Actions phase command by rule of thumb, cheap enough for hundreds of playouts.

    The creature being activated attacks the rival worth most at its odds (a failed attack
    costs nothing but the action), else moves next to a rival if it can, else stops. A
    creature is activated if it has a rival next to it; when none has, the player is done.
    """
    commands = state.legal_commands()
    if len(commands) == 1:
        return commands[0]
    view = search_view(state)
    occupant = view.occupant
    neighbours = state.game.isle.neighbours
    index = state.game.isle.index
    seat = state.current_seat
    best: Command | None = None
    best_value = 0.0
    for command in commands:
        if type(command) is Attack:
            place = index[command.target]
            target = occupant[place]
            attacker = occupant[view.active] if view.active is not None else None
            assert target is not None and attacker is not None, "an attack has two sides"
            support = state.sprite_support(place) if rolls_defence(target[1]) else 0
            success = attack_chances(attacker[1], target[1], support).probability
            value = success * (BOUNTY[target[1]] + COSTS[target[1]])
            if value > best_value:
                best, best_value = command, value
    if best is not None:
        return best
    for command in commands:
        if type(command) is Activate:
            place = index[command.location]
        elif type(command) is Move:
            place = index[command.to]
        else:
            continue
        if any(_rival(occupant[n], seat) for n in neighbours[place]):
            return command
    return next(
        (command for command in commands if type(command) in (EndActivation, Pass)), commands[0]
    )


def _rival(token: tuple[int, int] | None, seat: int | None) -> bool:
    """Whether a location holds another player's creature."""
    return token is not None and token[0] != seat
