"""What happened since a person last decided, for the turn card and its Replay: plain Python.

Computers play fast (fifteen commands with seven attacks in under five seconds).
When a person's turn comes, the turn card tells everything the log holds since that person's
last decision, in the order it happened (runs by player, each Energy and Reset a divider
between rounds): summons, moves, attacks with their dice, swaps, bounties,
passes, each in the log's own sentence; an activation that did nothing is one line, not two
("Bjorn's Sprite at Rune Hollow 2 does nothing"); a player the engine passed over is said
with the engine's reason (`passed_over.passed_over_by`), their own last decision's included:
a step closed for want of anyone able to act is never skipped unseen. Replay plays the same
records again on the isle (`Replay`), one at a time, at the device's pace.

Every line knows the log entries it tells (`Line.seqs`), so a test checks the story against
the log: every record since the person's last decision, each once, in order.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass
from enum import StrEnum

from companion.engine import GameState
from companion.engine.names import kind_term
from companion.engine.passed_over import passed_over_by
from companion.engine.replay import Narration, replay
from companion.language import Message, Value
from companion.play.game_words import place_terms
from companion.play.session import GameSession
from companion.store.store import LogEntry
from models.commands import (
    Activate,
    Attack,
    Command,
    Dominate,
    EndActivation,
    Move,
    Pass,
    Summon,
    Swap,
)

# How many lines the turn card shows before "and N more", which opens the whole story.
CARD_LINES = 6


class Told(StrEnum):
    """What a line of the story tells."""

    SUMMON = "summon"
    ACTIVATE = "activate"
    MOVE = "move"
    ATTACK = "attack"
    SWAP = "swap"
    IDLE = "idle"
    DONE = "done"
    DOMINATE = "dominate"
    RESET = "reset"
    PASSED = "passed"


# Which lines the turn card keeps when it cannot show them all: what changed the isle or
# the energy before what left them as they were (sorting is stable: ties keep their order).
WEIGHT: dict[Told, int] = {
    Told.ATTACK: 3,
    Told.RESET: 2,
    Told.SUMMON: 2,
    Told.MOVE: 2,
    Told.SWAP: 2,
    Told.DOMINATE: 2,
    Told.PASSED: 1,
}

KINDS: dict[type, Told] = {
    Summon: Told.SUMMON,
    Activate: Told.ACTIVATE,
    Move: Told.MOVE,
    Attack: Told.ATTACK,
    Swap: Told.SWAP,
    EndActivation: Told.DONE,
    Pass: Told.DONE,
    Dominate: Told.DOMINATE,
}


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the story: its sentence, what it tells, and the log entries (seqs) it
    tells; a pass-over tells none of its own (it follows from the record before it)."""

    said: Message
    told: Told
    seqs: tuple[int, ...] = ()
    # What an attack's removal paid, for its group's counts.
    bounty: int = 0


@dataclass(frozen=True, slots=True)
class Group:
    """A run of one player's lines in a row (None: the table's Energy and Reset, a divider
    between rounds) and their counts in a line ('2 summons · 1 attack (1 removed) · +2
    energy in bounties'), if any."""

    player: str | None
    lines: tuple[Line, ...]
    counts: Value | None = None


@dataclass(frozen=True, slots=True)
class Step:
    """One record to replay on the isle: the position it was played from, and its line."""

    before: GameState
    command: Command
    said: Message
    seq: int


@dataclass(frozen=True, slots=True)
class Story:
    """Everything since `player` last decided, in the order it happened: runs of lines by
    player, and the records to replay."""

    player: str
    groups: tuple[Group, ...]
    steps: tuple[Step, ...]

    @property
    def lines(self) -> tuple[Line, ...]:
        """Every line, group after group."""
        return tuple(line for group in self.groups for line in group.lines)

    @property
    def seqs(self) -> tuple[int, ...]:
        """The log entries told, oldest first."""
        return tuple(step.seq for step in self.steps)

    def shown(self, most: int = CARD_LINES) -> tuple[tuple[Group, tuple[Line, ...]], ...]:
        """The groups with the lines the turn card shows: `most` in all, those that change the
        isle or the energy first (an attack before an activation or a pass), each group's in
        the order they happened."""
        ranked = sorted(
            ((WEIGHT.get(line.told, 0), number) for number, line in enumerate(self.lines)),
            key=lambda weighed: -weighed[0],
        )
        chosen = {number for _, number in ranked[:most]}
        kept: list[tuple[Group, tuple[Line, ...]]] = []
        number = 0
        for group in self.groups:
            lines = []
            for line in group.lines:
                if number in chosen:
                    lines.append(line)
                number += 1
            if lines:
                kept.append((group, tuple(lines)))
        return tuple(kept)

    def hidden(self, most: int = CARD_LINES) -> int:
        """How many lines the turn card leaves to "and N more"."""
        return max(0, len(self.lines) - most)


def story_since(session: GameSession, player: str) -> Story:
    """Everything recorded since `player` last decided (from the game's start if they never
    have), with the players their last decision passed over."""
    log = session.saved.log
    told = session.narrations()
    mine = [index for index, narration in enumerate(told) if narration.player == player]
    first = mine[-1] if mine else 0
    start = mine[-1] + 1 if mine else 0
    state = replay(session.saved.game, [entry.command for entry in log[:first]])
    lines: list[tuple[str | None, Line]] = []
    steps: list[Step] = []
    index = first
    while index < len(log):
        entry, narration = log[index], told[index]
        before = state.clone()
        passes = passed_over_by(before, entry.command)
        state.apply(entry.command)
        if index >= start:
            idle = _idle_pair(log, told, index, before)
            if idle is not None:
                # The pair leaves the isle as it was: one line, two records.
                second = log[index + 1]
                passes += passed_over_by(state, second.command)
                steps.append(Step(before, entry.command, narration.sentence, entry.seq))
                steps.append(
                    Step(state.clone(), second.command, told[index + 1].sentence, second.seq)
                )
                state.apply(second.command)
                lines.append((narration.player, Line(idle, Told.IDLE, (entry.seq, second.seq))))
                index += 1
                narration = told[index]
            else:
                steps.append(Step(before, entry.command, narration.sentence, entry.seq))
                told_as = KINDS.get(type(entry.command), Told.DONE)
                bounty = _bounty(before, entry.command)
                line = Line(narration.sentence, told_as, (entry.seq,), bounty)
                lines.append((narration.player, line))
            if narration.reset is not None:
                lines.append((None, Line(narration.reset, Told.RESET)))
        for passed, reason in passes:
            lines.append((passed, Line(Message("game.summary.passed", reason=reason), Told.PASSED)))
        index += 1
    return Story(player, _grouped(lines), tuple(steps))


def story_to_reset(session: GameSession, computers: Collection[str]) -> Story | None:
    """What was played since the last person's decision up to the Energy and Reset that ends
    the log, for that Energy and Reset's card when the computers ended the round: seen
    before play goes on, not after. None when nothing was (or no person plays)."""
    told = session.narrations()
    person = next(
        (n.player for n in reversed(told) if n.player is not None and n.player not in computers),
        None,
    )
    if person is None:
        return None
    story = story_since(session, person)
    if not story.steps:
        return None  # the person's own record ended the round
    # The tally is the card's own; the players passed over after it belong to the next round.
    dividers = [i for i, group in enumerate(story.groups) if group.player is None]
    groups = story.groups[: dividers[-1]] if dividers else story.groups
    return Story(person, groups, story.steps)


def _bounty(before: GameState, command: Command) -> int:
    """The energy an attack's removal paid (the engine's outcome of its logged dice), else 0."""
    if not isinstance(command, Attack):
        return 0
    _, _, removed = before.attack_outcome(command)
    return before.attack_view(command).bounty if removed else 0


def _idle_pair(
    log: Sequence[LogEntry], told: Sequence[Narration], index: int, before: GameState
) -> Message | None:
    """'Bjorn's Sprite at Rune Hollow 2 does nothing' when the record at `index` activates a
    creature and the next ends that activation at once; None otherwise."""
    command = log[index].command
    if not isinstance(command, Activate) or index + 1 >= len(log):
        return None
    if not isinstance(log[index + 1].command, EndActivation):
        return None
    player = told[index].player
    creature = before.creatures().get(command.location)
    if player is None or told[index + 1].player != player or creature is None:
        return None
    return Message(
        "game.summary.idle",
        player=before.game.labels[player],
        kind=kind_term(creature.kind),
        place=place_terms(before.game.isle)[command.location],
    )


class Counts:
    """One player's tally of what they did, for their group's line of counts."""

    def __init__(self) -> None:
        self.summons = self.moves = self.attacks = self.removed = self.swaps = self.bounty = 0

    def add(self, told: Told, bounty: int) -> None:
        """Count a record of theirs; an attack's `bounty` is what its removal paid, if any."""
        if told is Told.SUMMON:
            self.summons += 1
        elif told is Told.MOVE:
            self.moves += 1
        elif told is Told.SWAP:
            self.swaps += 1
        elif told is Told.ATTACK:
            self.attacks += 1
            if bounty:
                self.removed += 1
                self.bounty += bounty

    def said(self) -> Value | None:
        """'2 summons · 1 attack (1 removed) · +2 energy in bounties', or None if nothing."""
        parts: list[Value] = []
        if self.summons:
            parts.append(Message("game.summary.summons", count=self.summons))
        if self.moves:
            parts.append(Message("game.summary.moves", count=self.moves))
        if self.attacks:
            removed = Message("game.summary.removed", count=self.removed)
            parts.append(Message("game.summary.attacks", count=self.attacks, removed=removed))
        if self.swaps:
            parts.append(Message("game.summary.swaps", count=self.swaps))
        if self.bounty:
            parts.append(Message("game.summary.bounty", count=self.bounty))
        if not parts:
            return None
        said = parts[-1]
        for part in reversed(parts[:-1]):
            said = Message("game.summary.dot", first=part, rest=said)
        return said


def _grouped(lines: list[tuple[str | None, Line]]) -> tuple[Group, ...]:
    """Lines in the order they happened, in runs by player: a player's next run starts a
    new group after anyone else's lines or an Energy and Reset."""
    runs: list[tuple[str | None, list[Line]]] = []
    for player, line in lines:
        if not runs or runs[-1][0] != player:
            runs.append((player, []))
        runs[-1][1].append(line)
    groups = []
    for player, run in runs:
        counts = None
        if player is not None:
            tally = Counts()
            for line in run:
                tally.add(line.told, line.bounty)
            counts = tally.said()
        groups.append(Group(player, tuple(run), counts))
    return tuple(groups)


def latest(session: GameSession) -> tuple[Message, tuple[Message, ...]] | None:
    """The newest record's line for the turn card's "Last:" (an activation that did nothing
    told as one line), and the players it passed over, each with the engine's reason."""
    log = session.saved.log
    if not log:
        return None
    told = session.narrations()
    back = 2 if len(log) >= 2 else 1
    state = replay(session.saved.game, [entry.command for entry in log[:-back]])
    line: Message = told[-1].sentence
    if back == 2:
        before = state.clone()
        state.apply(log[-2].command)
        idle = _idle_pair(log, told, len(log) - 2, before)
        if idle is not None:
            line = idle
    passes = passed_over_by(state, log[-1].command)
    return line, tuple(Message("game.summary.passed", reason=reason) for _, reason in passes)


class Replay:
    """The story's records played again on the isle, one at a time, until done or skipped."""

    def __init__(self, steps: Sequence[Step]) -> None:
        self.steps = tuple(steps)
        # The step on the isle now, or None once the replay is over.
        self.index: int | None = 0 if self.steps else None
        self.skipped = False

    @property
    def running(self) -> bool:
        """Whether a step is still being shown."""
        return self.index is not None

    def skip(self) -> None:
        """Stop at once: the isle shows the game as it is."""
        self.skipped = True
        self.index = None

    async def run(
        self,
        show: Callable[[int, Step], Awaitable[object]],
        seconds: float,
        sleep: Callable[[float], Awaitable[object]],
    ) -> None:
        """Show each step in order (`show` draws it and may take time of its own), each for
        `seconds` in all, unless skipped meanwhile."""
        for index, step in enumerate(self.steps):
            if self.skipped:
                return
            self.index = index
            await show(index, step)
            if self.skipped:
                return
            await sleep(seconds)
        self.index = None
