"""The game log shown a page at a time: newest first, undone records above the rest.

A game holds up to 5,327 records (models/game_size.py); drawn whole, its log screen cost a
second of the server's time and megabytes on the wire for each drawing. A page holds at most
PAGE_RECORDS records, so a log screen costs what a page costs, however long the game.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.language import Message
from companion.store.store import LogEntry, SavedGame

# The most records one page of the log shows.
PAGE_RECORDS = 50


@dataclass(frozen=True, slots=True)
class LogLine:
    """One line of the log: a record (its number and sentence, `undone` if Redo can bring it
    back), or the Energy and Reset a record finished (`reset`, shown above it)."""

    seq: int
    sentence: Message
    undone: bool = False
    reset: bool = False


@dataclass(frozen=True, slots=True)
class LogPage:
    """Page `number` (0: the newest) of `pages` of a game's log, and its lines."""

    number: int
    pages: int
    lines: tuple[LogLine, ...]
    # How many records the log holds, undone ones included.
    records: int

    @property
    def newer(self) -> int | None:
        """The page before this one, if any."""
        return self.number - 1 if self.number > 0 else None

    @property
    def older(self) -> int | None:
        """The page after this one, if any."""
        return self.number + 1 if self.number + 1 < self.pages else None

    @property
    def heading(self) -> Message | None:
        """'Page 2 of 54', when there is more than one."""
        if self.pages <= 1:
            return None
        return Message("app.log.page", page=self.number + 1, pages=self.pages)


def log_page(saved: SavedGame, number: int = 0, size: int = PAGE_RECORDS) -> LogPage:
    """Page `number` of the game's log (held to the pages there are), newest first."""
    shown: list[tuple[LogEntry, bool]] = [(entry, True) for entry in reversed(saved.undone)]
    shown += [(entry, False) for entry in reversed(saved.log)]
    pages = max(1, -(-len(shown) // size))
    number = min(max(number, 0), pages - 1)
    lines: list[LogLine] = []
    for entry, undone in shown[number * size : (number + 1) * size]:
        # Newest first: the Energy and Reset a command finished comes above it.
        if entry.reset is not None and not undone:
            lines.append(LogLine(entry.seq, entry.reset, reset=True))
        lines.append(LogLine(entry.seq, entry.sentence, undone=undone))
    return LogPage(number, pages, tuple(lines), len(shown))
