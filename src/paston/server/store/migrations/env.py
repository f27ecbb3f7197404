"""Alembic environment: runs on the connection the server passes in."""

from alembic import context

from paston.server.store.db import Base

connection = context.config.attributes.get("connection")
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
