"""The games kept in memory: each one's latest state, so an append or another device's
notice needs no replay; bounded in number and in bytes, used longest ago forgotten first."""

from __future__ import annotations

import threading
from collections import OrderedDict

from companion.store.cache_weight import Weights, game_bytes
from companion.store.saved import SavedGame

# Games whose latest state is kept in memory, so an append or another device's notice
# needs no replay: a hosted server shows a game per table, 100 tables and more; and the most
# they may weigh together (companion/store/cache_weight.py), as one game may hold 5,327 records.
CACHED_GAMES = 512
CACHED_BYTES = 96 * 1024 * 1024


class GameCache:
    """The latest state of the games used most recently; safe to share between threads."""

    def __init__(self) -> None:
        # Oldest used first; read and changed under the lock.
        self.games: OrderedDict[str, SavedGame] = OrderedDict()
        # The hosted table each cached game belongs to (None: none), as stored; a game
        # never changes table, so a table's view may trust the cache with it.
        self._tables_of: dict[str, str | None] = {}
        # What each game kept weighs, and all of them together.
        self.weights = Weights()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> SavedGame | None:
        """The game kept in memory, at whatever revision; None if none is."""
        with self._lock:
            return self.games.get(game_id)

    def trusted(self, game_id: str, revision: int, table_id: str | None) -> SavedGame | None:
        """The game kept in memory if it is at `revision` and `table_id`'s (None: any table's;
        revisions only grow, so the game at one revision is the same game everywhere); else
        None."""
        with self._lock:
            cached = self.games.get(game_id)
            mine = table_id is None or self._tables_of.get(game_id) == table_id
        return cached if cached is not None and cached.revision == revision and mine else None

    def remember(self, saved: SavedGame, table_id: str | None) -> None:
        """Keep `saved` (just written by a view of `table_id`) as the game's latest, unless a
        newer one is."""
        with self._lock:
            current = self.games.get(saved.id)
            if current is None or current.revision <= saved.revision:
                self._keep(saved)
                self._tables_of.setdefault(saved.id, table_id)
                self._trim()

    def read(self, saved: SavedGame, table_id: str | None) -> None:
        """Keep `saved`, just read from the database with the table it belongs to."""
        with self._lock:
            self._keep(saved)
            self._tables_of[saved.id] = table_id
            self._trim()

    def forget(self, game_id: str) -> None:
        """Drop a game from memory."""
        with self._lock:
            self._forget(game_id)

    def _keep(self, saved: SavedGame) -> None:
        """Keep `saved` as the latest of its game, weighed (the lock held)."""
        self.weights.set(saved.id, game_bytes(saved.setup.board, (*saved.log, *saved.undone)))
        self.games[saved.id] = saved
        self.games.move_to_end(saved.id)

    def _forget(self, game_id: str) -> None:
        """Drop a game from memory (the lock held)."""
        self.games.pop(game_id, None)
        self._tables_of.pop(game_id, None)
        self.weights.drop(game_id)

    def _trim(self) -> None:
        """Forget the games used longest ago past CACHED_GAMES or CACHED_BYTES; the latest
        stays, whatever it weighs (the lock held)."""
        while len(self.games) > 1 and (
            len(self.games) > CACHED_GAMES or self.weights.total > CACHED_BYTES
        ):
            self._forget(next(iter(self.games)))
