"""A review's moments, the marks a decision earns, and the chances in words."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from companion.coach.chances import Chances
from companion.engine.names import kind_term
from companion.language import Message
from models.commands import Command
from models.rules import CreatureKind

# A decision costing its player at least this much chance (0 to 1) is marked, worst first.
MARK_THRESHOLDS = (("blunder", 0.15), ("mistake", 0.10), ("inaccuracy", 0.05))


class Mark(StrEnum):
    """How much chance a decision cost its player, as chess sites say it."""

    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


def mark_for(cost: float, noise: float = 0.0) -> Mark | None:
    """The mark a decision costing this much chance (0 to 1) earns, if any.

    `noise` is how far the estimates around the decision may be off (their 95% intervals'
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
    # The round of the position here (after a round's Energy and Reset: the next one).
    round: int
    chances: Chances
    # The record that led here, as the log says it, and whose decision it was (digital).
    record: Command | None = None
    sentence: Message | None = None
    player: str | None = None
    # What the decision cost its player against the best choice found (0 where it was that
    # choice); None for a record that was no decision.
    cost: float | None = None
    mark: Mark | None = None
    # The record's number as the game's log shows it, and the round it was made in.
    number: int = 0
    played_in: int = 0
    # Whether the record was its player's decision: a choice among others (`decisions.py`).
    choice: bool = False


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
