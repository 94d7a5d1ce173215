"""A game's story from its review's moments: the turning points in words, and what decided it.

A turning point is a turn that moved a player's chance by `TURNING_SWING` or more and for
good: in a digital game a player's run of records holding at least one decision of theirs
(an engine's record or a record with no alternative never is one), at the table a round
(the records between two Energy and Resets, whose board is not known) or the end of the
game. A swing the next turn takes back by half or more, or that takes back the turn before
it, is no turning point: the chance was wobbling, not turning. The story tells the largest
few, in the order they happened.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from companion.coach.moments import Moment, change_message, creature_message
from companion.engine import Game, GameState
from companion.engine.names import kinds_term
from companion.engine.replay import replay
from companion.language import Message
from models.commands import Attack, Command, Removal
from models.rules import KIND_ORDER, CreatureKind

# A turning point moves some player's chance by at least this much; the story tells at most
# this many, the largest moves, in the order they happened.
TURNING_SWING = 0.10
MOST_TURNING_POINTS = 5


@dataclass(frozen=True, slots=True)
class TurningPoint:
    """A turn that moved a player's chance a lot, with what happened."""

    # The places in the review's moments of the turn's last moment and of the moment
    # before the turn (where playing on from before it starts).
    moment: int
    start: int
    # The round the turn was played in, as the log numbers rounds.
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


def turns(game: Game, moments: Sequence[Moment]) -> list[tuple[int, int]]:
    """The turns a story may turn on, as (first, last) places in the moments: a digital
    player's runs of records holding a decision of theirs, each round at the table."""
    if not game.digital:
        return [(place, place) for place in range(1, len(moments))]
    found: list[tuple[int, int]] = []
    first = 1
    for place in range(1, len(moments) + 1):
        if place == len(moments) or moments[place].player != moments[first].player:
            if any(moment.choice for moment in moments[first:place]):
                found.append((first, place - 1))
            first = place
    return found


def turning_points(
    game: Game, records: Sequence[Command], moments: Sequence[Moment]
) -> Iterable[TurningPoint]:
    """The turns that moved a player's chance most and for good, at most
    `MOST_TURNING_POINTS`, in order."""
    found = turns(game, moments)
    swings: list[tuple[float, int, str]] = []
    for number, (first, last) in enumerate(found):
        before, after = moments[first - 1].chances, moments[last].chances
        swing, player = max((abs(after.chance(p) - before.chance(p)), p) for p in game.players)
        if swing < TURNING_SWING:
            continue
        if _wobble(moments, found, number, player, swing):
            continue
        swings.append((swing, number, player))
    chosen = sorted(sorted(swings, reverse=True)[:MOST_TURNING_POINTS], key=lambda item: item[1])
    for _, number, player in chosen:
        first, last = found[number]
        yield TurningPoint(
            moment=last,
            start=first - 1,
            round=moments[first].played_in,
            player=player,
            before=moments[first - 1].chances.chance(player),
            after=moments[last].chances.chance(player),
            event=_event(game, records, moments, first, last, player),
        )


def _wobble(
    moments: Sequence[Moment],
    found: Sequence[tuple[int, int]],
    number: int,
    player: str,
    swing: float,
) -> bool:
    """Whether a turn's swing of `player`'s chance is taken back by half or more by the next
    turn, or takes back the turn before it by as much: the chance moving, not turning."""
    first, last = found[number]
    before = moments[first - 1].chances.chance(player)
    moved = 1 if moments[last].chances.chance(player) > before else -1
    if number + 1 < len(found):
        later = moments[found[number + 1][1]].chances.chance(player)
        if (later - before) * moved < swing / 2:
            return True
    if number > 0:
        earlier = moments[found[number - 1][0] - 1].chances.chance(player)
        if (moments[last].chances.chance(player) - earlier) * moved < swing / 2:
            return True
    return False


def _event(
    game: Game,
    records: Sequence[Command],
    moments: Sequence[Moment],
    first: int,
    last: int,
    player: str,
) -> Message | None:
    """What happened in a turn, for a player: the removals it made or suffered, else (a
    digital turn) the record that moved their chance most."""
    state = replay(game, records[: moments[first - 1].index])
    removals: list[tuple[str, str, CreatureKind]] = []
    told: dict[int, Message] = {}
    for index in range(moments[first - 1].index + 1, moments[last].index + 1):
        record = records[index - 1]
        remover = state.current_player
        if type(record) is Removal and remover is not None:
            removals.append((remover, record.victim, CreatureKind(record.kind)))
        elif type(record) is Attack:
            view = state.attack_view(record)
            if state.attack_outcome(record)[2]:
                removals.append((view.attacker, view.defender, view.defender_kind))
            told[index] = attack_event(state, record)
        else:
            told[index] = state.sentence(record)
        state.apply(record)
    events = round_events(game.labels, removals)
    if player in events:
        return events[player]
    if not game.digital:
        return None
    places = range(first, last + 1)
    biggest = max(
        places,
        key=lambda place: abs(
            moments[place].chances.chance(player) - moments[place - 1].chances.chance(player)
        ),
    )
    return told.get(moments[biggest].index)


def attack_event(state: GameState, attack: Attack) -> Message:
    """'Bob's Troll removes Ann's Wyrm', or 'Bob's Troll fails against Ann's Wyrm'."""
    view = state.attack_view(attack)
    labels = state.game.labels
    attacker = creature_message(labels[view.attacker], view.attacker_kind)
    defender = creature_message(labels[view.defender], view.defender_kind)
    if state.attack_outcome(attack)[2]:
        return Message("coach.removes", attacker=attacker, defender=defender)
    return Message("coach.fails", attacker=attacker, defender=defender)


def round_events(
    labels: dict[str, str], removals: Sequence[tuple[str, str, CreatureKind]]
) -> dict[str, Message]:
    """Removals, told for each player they concern (as remover or victim): 'Bob removes
    Ann's Troll and 2 of Ann's Sprites'."""
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


def result_message(game: Game, records: Sequence[Command]) -> Message | None:
    """Who won a finished game and what decided it: 'Ann reaches 36 energy in round 1 and
    wins as Summoner: Ann's Wyrm removes Bob's Troll', or 'Ann wins on most energy after
    round 6: Ann 31 · Bob 24'; None while the game goes on."""
    if not records:
        return None
    before = replay(game, records[:-1])
    last = records[-1]
    said = attack_event(before, last) if type(last) is Attack else before.sentence(last)
    played_in = before.round
    after = before.clone()
    after.apply(last)
    winner = after.winner_id
    if winner is None:
        return None
    labels = game.labels
    if after.summoner:
        return Message(
            "coach.result.summoner",
            player=labels[winner],
            energy=after.energy_of(winner),
            round=played_in,
            event=said,
        )
    parts = [
        Message("coach.energy", player=labels[p], energy=after.energy_of(p)) for p in game.players
    ]
    energies = parts[-1]
    for part in reversed(parts[:-1]):
        energies = Message("coach.dot", first=part, rest=energies)
    return Message(
        "coach.result.most_energy", player=labels[winner], round=played_in, energies=energies
    )
