"""Retiring idle tables: an open table nobody has been connected to for ``after``
seconds leaves memory and the lobby. It stays stored, marked retired (a restart does not
load it); its address or a seat token loads it again on demand, like a finished game,
and once someone connects to it, it is open again (in the lobby, loaded at a restart).

Connections are looked at every ``interval`` seconds (a quarter of ``after``, at most a
minute), so a table is retired between ``after`` and ``after + 2 * interval`` seconds
after its last connection closed, never sooner. A private table (a lesson's) is not
retired but forgotten (:func:`paston.server.tables.private.forget`: it leaves memory and the database)
once nobody has been connected to it for ``private_after`` seconds.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from paston.server.tables.manager import TableManager
from paston.server.tables.private import forget
from paston.server.tables.table import Table

log = logging.getLogger("paston.server")

#: Seconds a private table (a lesson's) stays after its last connection closed: then it
#: is closed and forgotten (a reload or a short loss of the network keeps it).
PRIVATE_AFTER = 60.0


class Retirer:
    """Retires the manager's idle open tables (see the module's text)."""

    def __init__(
        self,
        manager: TableManager,
        after: float,
        *,
        on_sweep: Callable[[float], None] | None = None,
        private_after: float = PRIVATE_AFTER,
    ) -> None:
        self.manager = manager
        self.after = after
        self.private_after = private_after
        self.interval = max(0.05, min(60.0, after / 4, private_after / 4))
        self.on_sweep = on_sweep
        self.task: asyncio.Task[None] | None = None

    def sweep(self, now: float) -> list[str]:
        """Note who is connected, retire the tables idle long enough; their ids."""
        idle: list[Table] = []
        revived: list[Table] = []
        forgotten: list[Table] = []
        for table in self.manager.tables.values():
            if table.finished:
                continue
            if table.connections or table.joining:
                table.last_seen = now
                if table.retired:
                    revived.append(table)
            elif not table.listed and now - table.last_seen >= self.private_after and not table.lock.locked():
                forgotten.append(table)  # a private table left: closed and forgotten
            elif now - table.last_seen >= self.after + self.interval and not table.lock.locked():
                idle.append(table)
        for table in forgotten:
            forget(self.manager, table)
        store = self.manager.store  # in a cluster, only the tables this worker still owns change
        if revived:
            refused = store.mark_retired(revived, retired=False)
            for table in revived:
                table.retired = table.id in refused
        retired: list[str] = []
        if idle:
            refused = store.mark_retired(idle, retired=True)
            for table in idle:
                if table.id in refused or self.manager.tables.get(table.id) is not table:
                    continue  # fenced off: another worker plays it (and it left memory)
                del self.manager.tables[table.id]
                retired.append(table.id)
                table.retired = True
                if table.bot_task is not None:
                    table.bot_task.cancel()
        if self.on_sweep is not None:
            self.on_sweep(now)
        return retired + [t.id for t in forgotten]

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                self.sweep(time.monotonic())
            except Exception as err:  # the database failed: try again next time
                log.warning("retiring idle tables failed: %s: %s", type(err).__name__, err)

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self.run())

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
