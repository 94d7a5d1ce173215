"""The saved-games store: each game is its setup plus an append-only log of commands.

State is never stored: it is `replay(Game(setup, board), active commands)`. Every
write names the revision it was based on and bumps it in the same transaction, so
two devices writing to one game at once cannot both win, and nothing is lost.

>>> from companion.language.render import render
>>> from models.setup import GameSetup
>>> store = open_store("sqlite://")
>>> saved = store.new_game(GameSetup(players=[{"id": "red"}, {"id": "blue"}], board="duel-isle"))
>>> saved = store.append(saved.id, saved.state.legal_commands()[0], saved.revision)
>>> saved.revision, render(saved.undo_label, "fr")
(1, "red invoque un Wyrm pour 5 points d'énergie (5 → 0)")
"""

from __future__ import annotations

from companion.store.database import open_database
from companion.store.drafts import Drafts, StoredDraft
from companion.store.saved import GameSummary, LogEntry, SavedGame, joined, tap_size
from companion.store.transfer import Transfer
from companion.store.writes import Writes

# The store's API: `Store` and what its calls take and give.
__all__ = [
    "GameSummary",
    "LogEntry",
    "SavedGame",
    "Store",
    "StoredDraft",
    "joined",
    "open_store",
    "tap_size",
]


def open_store(db: str | None = None) -> Store:
    """Open the store at a URL or path, else $SUMMONERS_ISLE_DB, else the default file."""
    return Store(open_database(db))


class Store(Writes, Drafts, Transfer):
    """Saved games in one database; safe to share between threads, one per process is enough.

    Its parts, each in its own module: the database and the games kept in memory (core.py),
    games started, read, listed and deleted (games.py), their revision-checked writes
    (writes.py), Energy and Reset drafts (drafts.py), export and import (transfer.py) and
    the database's keys for imported games' dice (dice_secrets.py).
    """
