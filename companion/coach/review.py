"""A game's story: each player's chance after every record, the turning points, the costly
decisions, and what decided it.

A digital game is judged after every record, a table game after every Energy and Reset
(the only moments its board is known, `coach/playable.py`) and at its end. Only a
decision is judged as one: a record its player chose among others (`decisions.py`),
marked by the chance it cost its player against the best choice the search finds, as
chess sites mark inaccuracies, mistakes and blunders. The turning points are the turns
that moved a player's chance most and for good (`story.py`). Records are numbered as the
game's log numbers them, and rounds as it does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.coach.chances import DEFAULT_BUDGET, Estimator
from companion.coach.decisions import DIGITAL_BUDGET, digital_moments
from companion.coach.moments import (
    MARK_THRESHOLDS,
    Mark,
    Moment,
    chances_message,
    change_message,
    creature_message,
    mark_for,
    percent,
)
from companion.coach.story import TurningPoint, result_message, turning_points
from companion.engine import Game
from companion.language import Message
from models.commands import Command, EnergyAndReset

__all__ = [
    "DIGITAL_BUDGET",
    "MARK_THRESHOLDS",
    "Mark",
    "Moment",
    "Review",
    "TurningPoint",
    "chances_message",
    "change_message",
    "creature_message",
    "decisions_message",
    "mark_for",
    "percent",
    "review",
]


@dataclass(frozen=True, slots=True)
class Review:
    """A game's chances record by record (digital) or round by round (table), and its story."""

    players: tuple[str, ...]
    labels: dict[str, str]
    digital: bool
    moments: tuple[Moment, ...]
    turning_points: tuple[TurningPoint, ...]
    # The seats people play (the others are computers').
    people: tuple[str, ...] = ()
    # A finished game: who won and what decided it, in words.
    result: Message | None = None

    def round_starts(self) -> list[Moment]:
        """The moment each round starts: the game's start, and after each Energy and Reset."""
        chosen: list[Moment] = []
        for moment in self.moments:
            if not chosen or moment.round != chosen[-1].round:
                chosen.append(moment)
        return chosen

    def by_round(self) -> list[Moment]:
        """The moment each round starts, and the last (the result, or where the game is)."""
        chosen = self.round_starts()
        if chosen[-1] is not self.moments[-1]:
            chosen.append(self.moments[-1])
        return chosen

    def marked(self) -> list[Moment]:
        """The decisions marked as an inaccuracy, a mistake or a blunder, in order."""
        return [moment for moment in self.moments if moment.mark is not None]

    def decisions(self, player: str) -> list[Moment]:
        """A player's decisions (a digital game's), in order."""
        return [moment for moment in self.moments if moment.choice and moment.player == player]


def review(
    game: Game,
    records: Sequence[Command],
    budget: int | None = None,
    seed: int = 0,
    numbers: Sequence[int] | None = None,
) -> Review:
    """The review of a game from its records (all of them: a finished game or one in play).

    `budget` is the most playouts per position (default: `DEFAULT_BUDGET` for a table
    game's rounds, `DIGITAL_BUDGET` for a digital game's records). `numbers` are the
    records' numbers as the game's log shows them (default 1, 2, ...; a saved game's
    leave gaps where records were undone). IllegalCommand if a record is refused,
    CoachError if the board has no paths.
    """
    estimator = Estimator(seed)
    numbered = list(numbers) if numbers is not None else list(range(1, len(records) + 1))
    if game.digital:
        moments = digital_moments(game, records, estimator, budget or DIGITAL_BUDGET, numbered)
    else:
        moments = _table_moments(game, records, estimator, budget or DEFAULT_BUDGET, numbered)
    over = moments[-1].chances.over
    return Review(
        players=game.players,
        labels=dict(game.labels),
        digital=game.digital,
        moments=tuple(moments),
        turning_points=tuple(turning_points(game, records, moments)),
        people=tuple(player.id for player in game.setup.players if player.bot is None),
        result=result_message(game, records) if over else None,
    )


def decisions_message(told: Review, player: str) -> Message:
    """'Ann: 41 decisions, 2 marked': how a person's own decisions were judged."""
    decided = told.decisions(player)
    return Message(
        "coach.decisions",
        player=told.labels[player],
        count=len(decided),
        marked=sum(1 for moment in decided if moment.mark is not None),
    )


def _table_moments(
    game: Game,
    records: Sequence[Command],
    estimator: Estimator,
    budget: int,
    numbers: Sequence[int],
) -> list[Moment]:
    """A moment at the start, after every Energy and Reset, and at the end."""
    state = game.new_initial_state()
    moments = [Moment(0, state.round, estimator.chances(state, budget))]
    for index, record in enumerate(records, start=1):
        sentence = state.sentence(record)
        played_in = state.round
        state.apply(record)
        if isinstance(record, EnergyAndReset) or state.is_terminal:
            moments.append(
                Moment(
                    index,
                    state.round,
                    estimator.chances(state, budget),
                    record,
                    sentence,
                    number=numbers[index - 1],
                    played_in=played_in,
                )
            )
    return moments
