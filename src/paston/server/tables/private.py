"""Private tables (a lesson's, or any made with ``"private": true``): the lobby does not
list them (:func:`paston.server.web.lobby.is_listed`), strangers get no seat and may not
watch, and they are closed and forgotten — out of memory and out of the database — when
their player leaves (:func:`leave_private`) or after a short idle time
(:class:`~paston.server.tables.retire.Retirer`).
"""

from __future__ import annotations

import asyncio

from paston.server.table_error import TableError
from paston.server.tables.manager import TableManager
from paston.server.tables.table import Table


def forget(manager: TableManager, table: Table) -> None:
    """Close a private table for good: its clocks and computer players stop, its
    connections are closed, and it leaves memory and the database."""
    table.gone = True
    manager.pauses.stop([table])
    manager.rounds.stop([table])
    if table.bot_task is not None:
        table.bot_task.cancel()
    for conn in list(table.connections):
        conn.close()
        if conn.hangup is not None:
            conn.hangup_task = asyncio.ensure_future(conn.hangup())
    table.connections.clear()
    if manager.tables.get(table.id) is table:
        del manager.tables[table.id]
    manager.store.forget(table.id)


def leave_private(manager: TableManager, table_id: str, token: str | None) -> None:
    """The player of a private table leaves it (their seat token): it is forgotten."""
    table = manager.get(table_id)
    if table.listed:
        raise TableError("not-private", "only a private table is closed when its player leaves")
    if manager.seat_of(table, token) is None:
        raise TableError("not-a-player", "only the player of this table can close it")
    forget(manager, table)
