"""Alembic migrations of the saved-games schema, run by the store when it opens a database."""
