"""A game's story: each player's chance after every record, the turning points, the costly records.

A digital game is judged after every record, a table game after every Energy and Reset
(the only moments its board is known, `coach/playable.py`). A digital player's record is
marked by the chance it cost its player, as chess sites mark inaccuracies, mistakes and
blunders: the player's chance before it, less their chance after it, averaged over the
dice where the record is an attack (luck is not a mistake). The turning points are the
moments that moved a player's chance most, told in words.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from companion.coach.chances import DEFAULT_BUDGET, Chances, Estimator
from companion.engine import Game, GameState
from companion.engine.names import kind_term, kinds_term
from companion.language import Message
from models.commands import Attack, Command, EnergyAndReset, Removal
from models.rules import KIND_ORDER, CreatureKind

# A digital review judges hundreds of positions; neighbours share their playouts' ends.
DIGITAL_BUDGET = 64
# A record costing its player at least this much chance (0 to 1) is marked, worst first.
MARK_THRESHOLDS = (("blunder", 0.15), ("mistake", 0.10), ("inaccuracy", 0.05))
# A turning point moves some player's chance by at least this much; the story tells at most
# this many, the largest moves, in the order they happened.
TURNING_SWING = 0.10
MOST_TURNING_POINTS = 5


class Mark(StrEnum):
    """How much chance a record cost its player, as chess sites say it."""

    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


def mark_for(cost: float, noise: float = 0.0) -> Mark | None:
    """The mark a record costing this much chance (0 to 1) earns, if any.

    `noise` is how far the estimates around the record may be off (their 95% intervals'
    half widths): a cost within it could be the playouts' luck, and earns no mark.
    """
    if cost <= noise:
        return None
    for name, threshold in MARK_THRESHOLDS:
        if cost >= threshold:
            return Mark(name)
    return None


@dataclass(frozen=True, slots=True)
class Moment:
    """The game after some of its records, and each player's chance there."""

    # Records applied so far (0: the game's start).
    index: int
    round: int
    chances: Chances
    # The record that led here, as the log says it, and whose decision it was (digital).
    record: Command | None = None
    sentence: Message | None = None
    player: str | None = None
    # The chance the record cost its player (digital decisions; negative: it gained).
    cost: float | None = None
    mark: Mark | None = None


@dataclass(frozen=True, slots=True)
class TurningPoint:
    """A moment that moved a player's chance a lot, with what happened."""

    # The moment's place in the review's moments.
    moment: int
    round: int
    player: str
    before: float
    after: float
    # What happened, in words ("Bob's Troll removes Ann's Wyrm"); None if nothing to name.
    event: Message | None

    def message(self, labels: dict[str, str]) -> Message:
        """'Round 3: Bob's Troll removes Ann's Wyrm: Ann 48% → 21%'."""
        change = change_message(labels[self.player], self.before, self.after)
        if self.event is None:
            return Message("coach.turning_point_quiet", round=self.round, change=change)
        return Message("coach.turning_point", round=self.round, event=self.event, change=change)


@dataclass(frozen=True, slots=True)
class Review:
    """A game's chances record by record (digital) or round by round (table), and its story."""

    players: tuple[str, ...]
    labels: dict[str, str]
    digital: bool
    moments: tuple[Moment, ...]
    turning_points: tuple[TurningPoint, ...]

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
        """The records marked as an inaccuracy, a mistake or a blunder, in order."""
        return [moment for moment in self.moments if moment.mark is not None]


def percent(share: float) -> Message:
    """A chance as a whole percentage: '48%' ('48 %' in French)."""
    return Message("coach.percent", count=round(share * 100))


def chances_message(chances: Chances, labels: Mapping[str, str]) -> Message:
    """'Ann 41% · Bob 33% · Cy 26%', in setup order."""
    parts = [
        Message("coach.chance", player=labels[line.player], percent=percent(line.chance))
        for line in chances.players
    ]
    joined = parts[-1]
    for part in reversed(parts[:-1]):
        joined = Message("coach.dot", first=part, rest=joined)
    return Message("coach.chances", chances=joined)


def change_message(label: str, before: float, after: float) -> Message:
    """'Ann 48% → 21%'."""
    return Message("coach.change", player=label, before=percent(before), after=percent(after))


def creature_message(label: str, kind: CreatureKind) -> Message:
    """'Bob's Troll'."""
    return Message("creatures.one", player=label, kind=kind_term(kind))


def review(
    game: Game, records: Sequence[Command], budget: int | None = None, seed: int = 0
) -> Review:
    """The review of a game from its records (all of them: a finished game or one in play).

    `budget` is the most playouts per position (default: `DEFAULT_BUDGET` for a table
    game's rounds, `DIGITAL_BUDGET` for a digital game's records). IllegalCommand if a
    record is refused, CoachError if the board has no paths.
    """
    estimator = Estimator(seed)
    if game.digital:
        moments = _digital_moments(game, records, estimator, budget or DIGITAL_BUDGET)
    else:
        moments = _table_moments(game, records, estimator, budget or DEFAULT_BUDGET)
    labels = dict(game.labels)
    return Review(
        players=game.players,
        labels=labels,
        digital=game.digital,
        moments=tuple(moments),
        turning_points=tuple(_turning_points(game, records, moments)),
    )


def _digital_moments(
    game: Game, records: Sequence[Command], estimator: Estimator, budget: int
) -> list[Moment]:
    """A moment after every record, each player's decision marked by what it cost them."""
    state = game.new_initial_state()
    previous = estimator.chances(state, budget)
    moments = [Moment(0, state.round, previous)]
    for index, record in enumerate(records, start=1):
        player = state.current_player
        sentence = state.sentence(record)
        luck = _other_outcomes(state, record)
        state.apply(record)
        chances = estimator.chances(state, budget)
        cost = mark = None
        if player is not None:
            # The other outcomes of an attack's dice count at their odds: luck is no mistake.
            played = 1.0 - sum(probability for probability, _ in luck)
            expected = played * chances.chance(player) + sum(
                probability * estimator.chances(other, budget).chance(player)
                for probability, other in luck
            )
            cost = previous.chance(player) - expected
            mark = mark_for(cost, max(_half_width(previous, player), _half_width(chances, player)))
        moments.append(Moment(index, state.round, chances, record, sentence, player, cost, mark))
        previous = chances
    return moments


def _half_width(chances: Chances, player: str) -> float:
    """Half the width of a player's 95% interval."""
    line = chances.of(player)
    return (line.high - line.low) / 2


def _other_outcomes(state: GameState, record: Command) -> list[tuple[float, GameState]]:
    """An attack's outcomes other than the one its dice gave, as positions with their odds."""
    if type(record) is not Attack:
        return []
    happened = state.attack_outcome(record)[2]
    others = []
    for probability, outcome in state.chance_outcomes(
        record._replace(attack_roll=None, defence_roll=None)
    ):
        assert type(outcome) is Attack, "an attack's outcomes are attacks"
        if state.attack_outcome(outcome)[2] != happened:
            trial = state.clone()
            trial.apply(outcome)
            others.append((probability, trial))
    return others


def _table_moments(
    game: Game, records: Sequence[Command], estimator: Estimator, budget: int
) -> list[Moment]:
    """A moment at the start and after every Energy and Reset."""
    state = game.new_initial_state()
    moments = [Moment(0, state.round, estimator.chances(state, budget))]
    for index, record in enumerate(records, start=1):
        sentence = state.sentence(record)
        state.apply(record)
        if isinstance(record, EnergyAndReset):
            chances = estimator.chances(state, budget)
            moments.append(Moment(index, state.round, chances, record, sentence))
    return moments


def _turning_points(
    game: Game, records: Sequence[Command], moments: Sequence[Moment]
) -> Iterable[TurningPoint]:
    """The moments that moved a player's chance most, at most `MOST_TURNING_POINTS`, in order."""
    swings: list[tuple[float, int, str]] = []
    for place in range(1, len(moments)):
        before, after = moments[place - 1].chances, moments[place].chances
        swing, player = max((abs(after.chance(p) - before.chance(p)), p) for p in game.players)
        if swing >= TURNING_SWING:
            swings.append((swing, place, player))
    chosen = sorted(sorted(swings, reverse=True)[:MOST_TURNING_POINTS], key=lambda item: item[1])
    events = _events(game, records, moments)
    for _, place, player in chosen:
        moment = moments[place]
        yield TurningPoint(
            moment=place,
            round=_round_of(moments, place),
            player=player,
            before=moments[place - 1].chances.chance(player),
            after=moment.chances.chance(player),
            event=events.get(place, {}).get("" if game.digital else player),
        )


def _round_of(moments: Sequence[Moment], place: int) -> int:
    """The round a moment's record was played in (a table reset: the round it closed)."""
    return moments[place - 1].round


def _events(
    game: Game, records: Sequence[Command], moments: Sequence[Moment]
) -> dict[int, dict[str, Message]]:
    """What happened at each moment, in words: per moment, per player concerned."""
    found: dict[int, dict[str, Message]] = {}
    state = game.new_initial_state()
    place = 0
    round_removals: list[tuple[str, str, CreatureKind]] = []
    indices = {moment.index: number for number, moment in enumerate(moments)}
    labels = game.labels
    for index, record in enumerate(records, start=1):
        if game.digital:
            said = _attack_event(state, record) if type(record) is Attack else None
            found[indices[index]] = {"": said or state.sentence(record)}
        elif type(record) is Removal:
            remover = state.current_player
            if remover is not None:
                round_removals.append((remover, record.victim, CreatureKind(record.kind)))
        state.apply(record)
        if not game.digital and index in indices:
            place = indices[index]
            found[place] = _round_events(labels, round_removals)
            round_removals = []
    return found


def _attack_event(state: GameState, attack: Attack) -> Message:
    """'Bob's Troll removes Ann's Wyrm', or 'Bob's Troll fails against Ann's Wyrm'."""
    view = state.attack_view(attack)
    labels = state.game.labels
    attacker = creature_message(labels[view.attacker], view.attacker_kind)
    defender = creature_message(labels[view.defender], view.defender_kind)
    success = state.attack_outcome(attack)[2]
    if success:
        return Message("coach.removes", attacker=attacker, defender=defender)
    return Message("coach.fails", attacker=attacker, defender=defender)


def _round_events(
    labels: dict[str, str], removals: Sequence[tuple[str, str, CreatureKind]]
) -> dict[str, Message]:
    """A table round's removals, told for each player they concern (as remover or victim):
    'Bob removes Ann's Troll and 2 of Ann's Sprites'."""
    counted: dict[tuple[str, str], dict[CreatureKind, int]] = {}
    for remover, victim, kind in removals:
        kinds = counted.setdefault((remover, victim), {})
        kinds[kind] = kinds.get(kind, 0) + 1
    told: dict[str, list[Message]] = {}
    for (remover, victim), kinds in counted.items():
        victims = tuple(
            creature_message(labels[victim], kind)
            if count == 1
            else Message(
                "creatures.some", count=count, player=labels[victim], kinds=kinds_term(kind)
            )
            for kind, count in sorted(kinds.items(), key=lambda item: KIND_ORDER.index(item[0]))
        )
        said = Message("coach.removes_at_table", player=labels[remover], victims=victims)
        for player in (remover, victim):
            told.setdefault(player, []).append(said)
    return {player: Message("coach.events", events=tuple(said)) for player, said in told.items()}
