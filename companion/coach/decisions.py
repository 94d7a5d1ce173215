"""A digital game's records as decisions: which were choices, and what each one cost.

A record is its player's decision when they had another legal command and something to
weigh: never a record the engine made, nor one with no alternative, nor a free bonus (a
territory's bonus taken in the final round, where no band comes after it). A decision is
judged against the best choice the search finds there (the greedy bot's one-decision
search on the bots' evaluation): the chance that choice would have kept its player, less
the chance the record kept them, an attack's dice counted at their odds both ways (the
outcome that did not happen is judged too, so luck is no mistake).
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.bots.greedy import GreedyBot
from companion.coach.chances import Chances, Estimator
from companion.coach.moments import Moment, mark_for
from companion.engine import Game, GameState
from models.commands import Attack, Command, Dominate

# A digital review judges hundreds of positions; neighbours share their playouts' ends.
DIGITAL_BUDGET = 64


def is_choice(state: GameState, record: Command) -> bool:
    """Whether `record`, about to be applied to `state`, is its player's decision."""
    if state.current_player is None:
        return False
    if type(record) is Dominate and record.take and state.round >= state.game.final_round:
        return False
    return len(state.legal_commands()) > 1


def bare(command: Command) -> Command:
    """The command as the engine lists it: an attack without its dice, and no one named as
    having made it (a device records who did)."""
    if type(command) is Attack:
        command = command._replace(attack_roll=None, defence_roll=None)
    if getattr(command, "by", None) is not None:
        command = command._replace(by=None)  # type: ignore[attr-defined]
    return command


def digital_moments(
    game: Game,
    records: Sequence[Command],
    estimator: Estimator,
    budget: int,
    numbers: Sequence[int],
) -> list[Moment]:
    """A moment after every record; each decision with what it cost its player."""
    search = GreedyBot(estimator.seed, estimator.evaluator.weights)
    search.evaluator = estimator.evaluator
    state = game.new_initial_state()
    moments = [Moment(0, state.round, estimator.chances(state, budget))]
    for index, record in enumerate(records, start=1):
        player = state.current_player
        sentence = state.sentence(record)
        played_in = state.round
        choice = player is not None and is_choice(state, record)
        cost = mark = None
        if choice:
            assert player is not None
            kept, noise = _kept(estimator, state, record, player, budget)
            best = search.best(state, state.legal_commands())
            if bare(record) in best:
                cost = 0.0
            else:
                could, other_noise = _kept(estimator, state, best[0], player, budget)
                cost = max(0.0, could - kept)
                noise = max(noise, other_noise)
            mark = mark_for(cost, noise)
        state.apply(record)
        chances = estimator.chances(state, budget)
        moments.append(
            Moment(
                index,
                state.round,
                chances,
                record,
                sentence,
                player,
                cost,
                mark,
                number=numbers[index - 1],
                played_in=played_in,
                choice=choice,
            )
        )
    return moments


def _kept(
    estimator: Estimator, state: GameState, command: Command, player: str, budget: int
) -> tuple[float, float]:
    """The chance `command` keeps `player`, its dice at their odds, and how far off that
    may be (the widest half interval among its outcomes)."""
    kept = noise = 0.0
    for probability, outcome in state.chance_outcomes(bare(command)):
        trial = state.clone()
        trial.apply(outcome)
        chances = estimator.chances(trial, budget)
        kept += probability * chances.chance(player)
        noise = max(noise, _half_width(chances, player))
    return kept, noise


def _half_width(chances: Chances, player: str) -> float:
    """Half the width of a player's 95% interval."""
    line = chances.of(player)
    return (line.high - line.low) / 2
