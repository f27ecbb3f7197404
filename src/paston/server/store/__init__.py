"""Storage: the database and what is written to it, below every other room of the server.

- :mod:`.db` — the SQLAlchemy models, the engine and sessions, fencing, running the migrations;
- :mod:`.actionlog` — the action log: each accepted action committed before it is applied;
- ``migrations/`` — the Alembic migrations of the schema, run when the server starts.
"""
