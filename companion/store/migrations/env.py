"""Alembic's entry point: migrations run only from code, on the connection the store hands in."""

from alembic import context

from models.records import GameRecord

context.configure(
    connection=context.config.attributes["connection"],
    # The models' schema (SQLModel's metadata, which holds every table of models/records.py):
    # what autogenerate and `check` compare the migrated database against.
    target_metadata=GameRecord.metadata,
    # SQLite alters tables by copying them; batch mode does that for later revisions.
    render_as_batch=True,
)
with context.begin_transaction():
    context.run_migrations()
