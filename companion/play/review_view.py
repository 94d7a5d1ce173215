"""A game's review as a screen shows it, and the form that plays on from one of its moments.
Plain Python: the review screen draws these, and the tests drive them.

The review (companion/coach/review.py) gives each moment's chances, the turning points and
the records marked by what they cost their player; here they become the lines a screen
shows, each with the moment a new game may start from: the moment before a turning point
or a costly record (replay the decision differently), or the start of any round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from companion.coach import CoachError, Mark, Moment, Review
from companion.coach.review import chances_message, decisions_message, percent
from companion.engine import Game
from companion.language import Message
from companion.play.new_game import SEAT_PLAYERS
from companion.store.errors import StoreError
from companion.store.play_on import play_on
from companion.store.store import SavedGame, Store
from models.commands import Command
from models.setup import GameSetup

# Each mark in words, and the sign chess sites give it (a mark is never told by colour alone).
MARK_WORDS = {
    Mark.INACCURACY: ("coach.mark.inaccuracy", "?!"),
    Mark.MISTAKE: ("coach.mark.mistake", "?"),
    Mark.BLUNDER: ("coach.mark.blunder", "??"),
}
# The computer a seat is given in a game played on, unless someone picks another.
DEFAULT_BOT = "mcts:normal"


@dataclass(frozen=True, slots=True)
class Line:
    """A line of the review: its words, and the moment a game may be played on from (None:
    not one that can)."""

    text: Message
    upto: int | None = None


@dataclass(frozen=True, slots=True)
class MarkedLine:
    """A record marked by what it cost its player: where, what, the mark and its cost."""

    text: Message
    mark: Message
    sign: str
    cost: Message
    upto: int


@dataclass(frozen=True, slots=True)
class ReviewView:
    """Everything the review screen shows, in messages."""

    digital: bool
    rounds: tuple[Line, ...]
    turning: tuple[Line, ...]
    marks: tuple[MarkedLine, ...]
    # Said under the marks: none found, or (a table game) why records cannot be marked.
    marks_note: Message | None
    choices: tuple[Line, ...]
    # A finished game: who won and what decided it.
    result: Message | None = None
    # Each person's own decisions, how many and how many marked (a digital game's).
    decisions: tuple[Message, ...] = ()


def review_view(told: Review) -> ReviewView:
    """The screen's lines for a review."""
    labels = told.labels
    starts = {moment.index for moment in told.round_starts()}
    rounds = []
    for moment in told.by_round():
        if moment is told.moments[-1] and ended(moment):
            when = Message("coach.at_end")
        elif moment.index not in starts:
            when = Message("coach.now", round=moment.round)
        else:
            when = Message("coach.at_round", round=moment.round)
        said = chances_message(moment.chances, labels)
        rounds.append(Line(Message("coachui.review.round", when=when, chances=said)))
    turning = tuple(
        Line(point.message(labels), told.moments[point.start].index)
        for point in told.turning_points
    )
    marks = tuple(_marked(moment, labels) for moment in told.marked())
    if not told.digital:
        note: Message | None = Message("coachui.review.table_marks")
    else:
        note = None if marks else Message("coachui.review.no_marks")
    return ReviewView(
        digital=told.digital,
        rounds=tuple(rounds),
        turning=turning,
        marks=marks,
        marks_note=note,
        choices=tuple(moment_choices(told.moments)),
        result=told.result,
        decisions=tuple(decisions_message(told, player) for player in told.people)
        if told.digital
        else (),
    )


def _marked(moment: Moment, labels: Mapping[str, str]) -> MarkedLine:
    """A marked decision's line: 'Round 2, record 37: Bob summons a Troll', numbered and in
    the round as the game's log says them."""
    assert moment.mark is not None and moment.cost is not None and moment.player is not None
    assert moment.sentence is not None, "a marked moment has its record's sentence"
    word, sign = MARK_WORDS[moment.mark]
    return MarkedLine(
        text=Message(
            "coachui.review.record",
            round=moment.played_in,
            index=moment.number,
            sentence=moment.sentence,
        ),
        mark=Message(word),
        sign=sign,
        cost=Message(
            "coachui.review.cost", player=labels[moment.player], cost=percent(moment.cost)
        ),
        upto=moment.index - 1,
    )


def ended(moment: Moment) -> bool:
    """Whether the game is over at a moment (its chances are the result)."""
    return moment.chances.over


def moment_choices(moments: Sequence[Moment]) -> list[Line]:
    """The moments a new game may start from, in the game's order: the start of each round
    (a table game: its start and after each Energy and Reset), and before each marked
    decision; never the end."""
    choices: list[Line] = []
    seen: set[int] = set()
    for place, moment in enumerate(moments):
        if not ended(moment) and (place == 0 or moment.round != moments[place - 1].round):
            choices.append(Line(Message("coachui.play_on.round", round=moment.round), moment.index))
            seen.add(moment.index)
    for moment in moments:
        if moment.mark is not None and moment.index - 1 not in seen:
            said = Message("coachui.play_on.before", index=moment.number, round=moment.played_in)
            choices.append(Line(said, moment.index - 1))
            seen.add(moment.index - 1)
    return sorted(choices, key=lambda line: line.upto or 0)


def round_choices(game: Game, records: Sequence[Command]) -> list[Line]:
    """The moments of a game each round starts (no review needed): its start, and after each
    Energy and Reset, while the game goes on."""
    state = game.new_initial_state()
    choices = [Line(Message("coachui.play_on.round", round=state.round), 0)]
    for index, record in enumerate(records, 1):
        before = state.round
        state.apply(record)
        if state.round != before and not state.is_terminal:
            choices.append(Line(Message("coachui.play_on.round", round=state.round), index))
    return choices


@dataclass
class PlayOnForm:
    """Which moment a new digital game starts from, and who plays each seat (a person: None,
    else a computer by its bot name, as New game offers them)."""

    players: tuple[str, ...]
    choices: tuple[Line, ...]
    upto: int | None = None
    bots: dict[str, str | None] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.upto is None and self.choices:
            self.upto = self.choices[-1].upto
        for player in self.players:
            self.bots.setdefault(player, None)

    @classmethod
    def of(cls, setup: GameSetup, choices: tuple[Line, ...], upto: int | None) -> PlayOnForm:
        """The form for a game: each seat played as it was (a person, or the computer at its
        level; a computer the form does not offer becomes `DEFAULT_BOT`) until changed."""
        return cls(
            tuple(player.id for player in setup.players),
            choices,
            upto,
            {
                player.id: None
                if player.bot is None
                else player.bot
                if player.bot in SEAT_PLAYERS
                else DEFAULT_BOT
                for player in setup.players
            },
        )

    @staticmethod
    def seat_choices() -> dict[str | None, Message]:
        """Who may play a seat: a person, or a computer at each level."""
        return {bot: Message(said) for bot, said in SEAT_PLAYERS.items()}

    def start(self, store: Store, game_id: str) -> SavedGame | Message:
        """Start the new game in the store (the original untouched), or say why not."""
        if self.upto is None:
            return Message("coachui.play_on.no_moment")
        computers = {player: bot for player, bot in self.bots.items() if bot is not None}
        try:
            return play_on(store, game_id, self.upto, computers)
        except CoachError as error:
            return Message("coachui.play_on.refused", reason=error.message)
        except StoreError as error:
            return error.message
