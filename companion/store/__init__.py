"""Saved games: an event-log store in SQL (SQLite by default), with undo, resume and history.

The API is in `companion.store.store` (`open_store`, `Store`); this package itself stays
light, so the command line can offer `game ...` without loading SQL until it is used.
"""

# The environment variable naming the database, like `--db`.
DB_ENV = "SUMMONERS_ISLE_DB"
