"""A saved game as the store hands it out: its log's entries, the game at one revision,
and a listing's summary of it."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from companion.engine import Game, GameState
from companion.language import Message, by_semicolons
from companion.language.stored import NotAMessage, message_from_json
from companion.store.dice import DICE
from models.commands import Command
from models.records import GameStatus
from models.setup import GameSetup


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One recorded command: its number in the game, the command with its dice, its sentence,
    and the tap it belongs to."""

    seq: int
    command: Command
    # The engine's sentence for it, as it played out: a message, or the stored JSON of one
    # (an id and values, `companion.language.stored`), read when first asked (`sentence`):
    # opening a game reads no sentence it does not show.
    said: Message | str = field(compare=False)
    created: datetime
    # The Energy and Reset this command finished (`Tally.log_message`): derived when the
    # log is replayed, never stored, so the log's format stays as it was.
    reset: Message | None = None
    # The tap that recorded it: the seq of that tap's first record. Undo and redo
    # take back and bring back a whole tap; export and import keep where taps begin.
    tap: int = 0

    @property
    def sentence(self) -> Message:
        """The record's sentence, to render in any language."""
        said = self.said
        if isinstance(said, str):
            said = _stored(said) or Message("log.recorded", text=said)
            # Read once: the entry is immutable to its users, this only keeps the reading.
            object.__setattr__(self, "said", said)
        return said


@dataclass(frozen=True, slots=True)
class SavedGame:
    """A game as stored at one revision, with the state its active commands replay to."""

    id: str
    revision: int
    created: datetime
    updated: datetime
    setup: GameSetup
    game: Game
    # The caller's own copy: changing it changes nothing stored.
    state: GameState
    # The active line, oldest first: replaying it gives `state`.
    log: tuple[LogEntry, ...]
    # Undone commands that redo can bring back, the next one to redo first.
    undone: tuple[LogEntry, ...]
    # The highest seq recorded for this game, abandoned rows included.
    last_seq: int
    # Where its dice come from (companion/store/dice.py): kept in the store, never shown or
    # exported; and how they are drawn from it.
    secret: str = field(default="", repr=False, compare=False)
    dice: int = field(default=DICE, repr=False, compare=False)

    @property
    def status(self) -> GameStatus:
        """Finished once the game is over."""
        return GameStatus.FINISHED if self.state.is_terminal else GameStatus.ACTIVE

    @property
    def undo_label(self) -> Message | None:
        """What undo would take back: its records' sentences as one."""
        return joined(
            [entry.sentence for entry in self.log[len(self.log) - tap_size(self.log[::-1]) :]]
        )

    @property
    def redo_label(self) -> Message | None:
        """What redo would bring back: its records' sentences as one."""
        return joined([entry.sentence for entry in self.undone[: tap_size(self.undone)]])


def joined(sentences: Sequence[Message]) -> Message | None:
    """The sentences of one tap as one ('a; b'), or None for none."""
    if not sentences:
        return None
    said = by_semicolons(sentences)
    assert isinstance(said, Message), "sentences joined are a message"
    return said


def apply_noting_reset(state: GameState, command: Command) -> Message | None:
    """Apply a command; the Energy and Reset it finished as a log line, or None if it did not."""
    before = state.last_tally
    state.apply(command)
    tally = state.last_tally
    return None if tally is None or tally is before else tally.log_message(state.game.labels)


def tap_size(entries: Sequence[LogEntry]) -> int:
    """How many of `entries` one undo takes back (newest first) or one redo brings back
    (oldest undone first): the records of the first one's tap.

    One tap at the table can record a skip to a later player and that player's command
    ("Bob: Troll" while it is Alice's turn); undoing the tap takes back both. Each record
    names its tap in the log: no clock decides it.
    """
    if not entries:
        return 0
    tap = entries[0].tap
    size = 1
    while size < len(entries) and entries[size].tap == tap:
        size += 1
    return size


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A saved game as a listing shows it, read without replaying anything."""

    id: str
    created: datetime
    updated: datetime
    board: str
    players: tuple[str, ...]
    labels: tuple[str, ...]
    first_turn_order: tuple[str, ...]
    mode: str
    status: GameStatus
    round: int
    final_round: int
    winner: str | None
    summoner: bool
    revision: int


# How a stored message's JSON begins (`command_row`); a row's English words never do.
STORED_PREFIX = '{"m":'


def _stored(description: str) -> Message | None:
    """A record's stored sentence; None for a log written before sentences were data (it
    kept English words, told again from its command instead)."""
    try:
        return message_from_json(json.loads(description))
    except (ValueError, NotAMessage):
        return None
