"""The lobby of a cluster: every worker lists every open table, wherever it is played.

Each worker writes the summaries of the open tables it owns into the Redis hash
``paston:lobby`` (a field per table, rewritten only when the summary changed, removed
when the table finishes, retires or leaves the worker) and reads the whole hash back,
every second; entries of workers that stopped announcing themselves are skipped (their
tables are listed again by whoever takes them over). The lobby
(:class:`~paston.server.web.lobby.Lobby`) then works on :attr:`Listing.tables` — stand-ins
with what it shows of a table — instead of the worker's own tables.
"""

from __future__ import annotations

import json
from typing import Any

from paston.server.cluster.leases import PREFIX, Leases
from paston.server.tables.seating import Seat
from paston.server.tables.table import Table
from paston.server.web.lobby import is_listed

LOBBY_KEY = f"{PREFIX}lobby"


class Listed:
    """A table as any worker's lobby lists it (from its owner's summary).

    >>> ana = {"kind": "human", "bot": None, "name": "Ana", "taken": True}
    >>> t = Listed({"id": "x", "name": "Red", "seats": [ana]})
    >>> t.id, t.name, t.seats[0].taken, t.finished
    ('x', 'Red', True, False)
    """

    finished = False
    retired = False
    listed = True  # only listed tables are written to the cluster's lobby

    def __init__(self, summary: dict[str, Any]) -> None:
        self.update(summary)

    def update(self, summary: dict[str, Any]) -> None:
        self._summary = summary
        self.id = str(summary["id"])
        self.name = str(summary["name"])
        self.seats = [
            Seat(
                s["kind"],
                s.get("bot"),
                s.get("name"),
                "taken" if s.get("taken") and s["kind"] == "human" else None,
            )
            for s in summary["seats"]
        ]

    def summary(self) -> dict[str, Any]:
        return dict(self._summary)


class Listing:
    """Writes this worker's open tables to the cluster's lobby and reads everyone's."""

    def __init__(self, leases: Leases, tables: dict[str, Table], owned: dict[str, int]) -> None:
        self.leases = leases
        self.redis = leases.redis
        self.mine = tables
        self.owned = owned
        self.tables: dict[str, Listed] = {}  # the lobby's: every worker's open tables, oldest first
        self._written: dict[str, str] = {}  # what this worker wrote, by table

    async def sync(self) -> None:
        """Write what changed of this worker's open tables, then read the whole lobby."""
        now: dict[str, str] = {}
        for table_id in self.owned:
            table = self.mine.get(table_id)
            if table is not None and is_listed(table):  # a private table: in no lobby
                now[table_id] = json.dumps({"worker": self.leases.me, "summary": table.summary()})
        gone = [t for t in self._written if t not in now]
        changed = {t: text for t, text in now.items() if self._written.get(t) != text}
        if gone:
            await self.redis.hdel(LOBBY_KEY, *gone)
        if changed:
            await self.redis.hset(LOBBY_KEY, mapping=changed)
        self._written = now
        live = set(await self.leases.live_workers())
        entries = await self.redis.hgetall(LOBBY_KEY)
        seen: dict[str, dict[str, Any]] = {}
        for table_id, text in entries.items():
            entry = json.loads(text)
            if entry.get("worker") in live:
                seen[str(table_id)] = entry["summary"]
        for table_id in [t for t in self.tables if t not in seen]:
            del self.tables[table_id]
        for table_id, summary in sorted(seen.items()):
            listed = self.tables.get(table_id)
            if listed is None:
                self.tables[table_id] = Listed(summary)
            else:
                listed.update(summary)

    async def forget(self) -> None:
        """This worker stops: its entries go (the tables are listed again by their next owner)."""
        if self._written:
            await self.redis.hdel(LOBBY_KEY, *self._written)
            self._written = {}
