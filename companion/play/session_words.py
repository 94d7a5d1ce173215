"""A game session's log in words: each record's sentence, the story told again, and what undo
and redo would take back or bring back, in any language."""

from __future__ import annotations

from companion.engine.replay import Narration
from companion.language import Message
from companion.language.render import Language
from companion.play.told import Told
from companion.store.store import SavedGame
from models.commands import Attack

# How many of the others' attacks a player is told of when their turn comes round again.
SINCE_LAST_MOST = 6


class LogWords:
    """The log-reading half of `GameSession` (companion/play/session.py)."""

    saved: SavedGame
    # The log told again, for one revision: whose decision each record was.
    _told: tuple[int, tuple[Narration, ...]] | None
    # Tells only the records new since the last telling (play/told.py).
    _telling: Told

    def sentences(self) -> tuple[Message, ...]:
        """Each active log entry's sentence, oldest first (the store keeps them as messages)."""
        return tuple(entry.sentence for entry in self.saved.log)

    def since_last(self, player: str, most: int = SINCE_LAST_MOST) -> tuple[Message, ...]:
        """The attacks others made since `player` last decided, oldest first (the newest
        `most`): what a player who looked away needs to see before deciding again."""
        found: list[Message] = []
        entries = zip(reversed(self._narrations()), reversed(self.saved.log), strict=True)
        for told, entry in entries:
            if told.player == player:
                break
            if isinstance(entry.command, Attack):
                found.append(entry.sentence)
        return tuple(reversed(found[:most]))

    def narrations(self) -> tuple[Narration, ...]:
        """The active log told again from the start (each entry's sentence, the Energy and
        Reset it finished, whose decision it was), oldest first; once per revision."""
        return self._narrations()

    def _narrations(self) -> tuple[Narration, ...]:
        """The active log told again from the start, once per revision."""
        revision = self.saved.revision
        if self._told is None or self._told[0] != revision:
            commands = [entry.command for entry in self.saved.log]
            self._told = (revision, self._telling.tell(self.saved.game, commands))
        return self._told[1]

    def entry_text(self, words: Language, index: int) -> str:
        """One log entry's sentence (by its index in the active log) in `words`' language."""
        return words.render(self.saved.log[index].sentence)

    def undo_text(self, words: Language) -> str | None:
        """Undo's label in `words`' language: what one tap recorded last."""
        said = self.saved.undo_label
        return None if said is None else words.render(said)

    def redo_text(self, words: Language) -> str | None:
        """Redo's label in `words`' language."""
        said = self.saved.redo_label
        return None if said is None else words.render(said)
