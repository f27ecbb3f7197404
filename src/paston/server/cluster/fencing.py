"""Fencing tokens in the database: the guarantee behind the leases.

Taking a table over bumps ``tables.fence`` (one ``UPDATE … RETURNING``) before the
table is rebuilt from its action log; every action is then committed with that token
and only while the row still holds it (:class:`paston.server.store.actionlog.ActionLog` with
``fenced``). A former owner — killed, paused, cut off from Redis, its lease taken —
holds an older token, so its next commit is refused by the database itself, whatever
Redis said: no move is ever accepted by two owners. The bump and the commit's check
lock the same row, so either the old owner's commit is in the log before the new owner
reads it, or it is refused.
"""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.engine import Engine

from paston.server.store.db import TableRow


def bump_fence(engine: Engine, table_id: str) -> int | None:
    """Give the table a new fencing token and return it (``None``: no such table)."""
    with engine.begin() as connection:
        row = connection.execute(
            update(TableRow)
            .where(TableRow.id == table_id)
            .values(fence=TableRow.fence + 1)
            .returning(TableRow.fence)
        ).first()
    return None if row is None else int(row[0])


def current_fence(engine: Engine, table_id: str) -> int | None:
    """The table's current fencing token (``None``: no such table)."""
    with engine.connect() as connection:
        value = connection.execute(select(TableRow.fence).where(TableRow.id == table_id)).scalar()
    return None if value is None else int(value)


def open_table_ids(engine: Engine) -> list[str]:
    """The unfinished tables that are not retired: those a cluster keeps owned."""
    with engine.connect() as connection:
        rows = connection.execute(select(TableRow.id, TableRow.settings).where(TableRow.finished.is_(None)))
        return [table_id for table_id, settings in rows if not (settings or {}).get("retired")]
