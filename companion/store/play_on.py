"""Play on from any moment of a saved game: a new digital game in the store."""

from __future__ import annotations

from collections.abc import Mapping

from companion.coach.play_on import play_on_log
from companion.store.store import SavedGame, Store
from models.game_log import inferred_taps


def play_on(store: Store, game_id: str, upto: int, computers: Mapping[str, str]) -> SavedGame:
    """Start a new digital game from the moment after `upto` records of saved game `game_id`
    (its active line), the seats in `computers` played by those bots; the original is not
    changed. CoachError says why a moment cannot be played on from (`play_on_log`)."""
    game = store.load(game_id).game
    log = store.export(game_id)
    records = log.parsed_commands()
    taps = log.taps if log.taps is not None else inferred_taps(records)
    return store.import_log(play_on_log(game, records, upto, computers, taps))
