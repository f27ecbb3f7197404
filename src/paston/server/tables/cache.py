"""Which finished games stay in memory: at most ``keep`` of them, the least recently
used without a connection dropped first (the database keeps every game)."""

from __future__ import annotations

from collections import OrderedDict

from paston.server.tables.table import Table

#: Finished games kept in memory (least recently used go first; the database keeps all).
KEEP_FINISHED = 64


class FinishedGames:
    """The finished games among ``tables`` (the server's tables in memory, shared with
    its manager), least recently used first. :meth:`trim` drops the oldest beyond
    ``keep`` from ``tables`` too, but never one still in use."""

    def __init__(self, tables: dict[str, Table], keep: int = KEEP_FINISHED) -> None:
        self.tables = tables
        self.keep = keep
        self._order: OrderedDict[str, None] = OrderedDict()

    def __len__(self) -> int:
        return len(self._order)

    def __contains__(self, table_id: object) -> bool:
        return table_id in self._order

    def add(self, table: Table) -> None:
        """A finished game in memory: most recently used now; drop the oldest beyond the
        limit."""
        self._order[table.id] = None
        self._order.move_to_end(table.id)
        self.trim()

    def touch(self, table_id: str) -> None:
        """The game was just used."""
        if table_id in self._order:
            self._order.move_to_end(table_id)

    def forget(self, table_id: str) -> None:
        """Stop tracking a game (without dropping it from ``tables``)."""
        self._order.pop(table_id, None)

    def trim(self) -> None:
        """Drop the least recently used finished games beyond the limit, except those in use."""
        for table_id in [t for t in self._order if t not in self.tables]:
            del self._order[table_id]  # left memory another way (a cluster gave it up)
        excess = len(self._order) - self.keep
        for table_id in list(self._order):
            if excess <= 0:
                break
            if self.tables[table_id].in_use():
                continue  # still watched: stays until its last connection closes
            del self._order[table_id]
            del self.tables[table_id]
            excess -= 1
