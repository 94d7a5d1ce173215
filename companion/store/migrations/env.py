"""Alembic's entry point: migrations run only from code, on the connection the store hands in."""

from alembic import context

context.configure(
    connection=context.config.attributes["connection"],
    # SQLite alters tables by copying them; batch mode does that for later revisions.
    render_as_batch=True,
)
with context.begin_transaction():
    context.run_migrations()
