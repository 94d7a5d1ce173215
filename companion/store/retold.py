"""A saved game's log told in another language: the store keeps the English it recorded.

Shared by `game show --lang fr` and the app's log screen (each device in its own language).
"""

from __future__ import annotations

from dataclasses import replace

from companion.engine import IllegalCommand
from companion.engine.replay import Narration, narrate
from companion.language.render import DEFAULT_LANGUAGE, language
from companion.store.store import LogEntry, SavedGame


def in_language(saved: SavedGame, lang: str) -> SavedGame:
    """The saved game with its log's sentences in `lang` (English: as recorded).

    The log stores English; another language tells the commands again by replaying them
    from the setup, as they were played. Should one no longer replay (a log from an older
    engine), the recorded English stays.
    """
    if lang == DEFAULT_LANGUAGE:
        return saved
    words = language(lang)
    state = saved.game.new_initial_state()
    try:
        told = narrate(state, [entry.command for entry in saved.log])
        # Undone commands, as redo would bring them back: from where the log ends.
        again = narrate(state, [entry.command for entry in saved.undone])
    except IllegalCommand:
        return saved

    def retold(entry: LogEntry, narration: Narration) -> LogEntry:
        reset = None if narration.reset is None else words.render(narration.reset)
        return replace(entry, description=words.render(narration.sentence), reset=reset)

    return replace(
        saved,
        log=tuple(map(retold, saved.log, told)),
        undone=tuple(map(retold, saved.undone, again)),
    )
