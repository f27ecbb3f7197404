"""The lobby: the open tables (unfinished, not retired, not private) a page at a time, newest first,
and their changes pushed to browsers as server-sent events.

Server-sent events rather than a WebSocket: the lobby only listens, ``EventSource``
reconnects by itself, and the stream is plain HTTP that proxies pass as it is.
Every ``interval`` seconds, while someone listens, the open tables are compared with
what was last sent (name, seats: what the lobby shows) and the differences go out as
one event, so a busy server sends at most one small event a second, whatever happens
at its tables::

    event: lobby
    data: {"changes":[{"op":"added","table":{…}},{"op":"removed","id":"…"}],"total":12}

A stream begins with ``event: ready`` (``{"total": n}``; a client then fetches its page,
which also covers what it missed while reconnecting), carries a comment every
``heartbeat`` seconds, and ends after ``lifetime`` seconds or when the server stops
(the browser reconnects). More than ``MAX_CHANGES`` at once are sent as
``{"reset": true, "total": n}``: fetch the page again.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import Any

from paston.server.tables.table import Table
from paston.server.web.limits import LimitError, Limits

#: Page size of ``GET /api/tables`` by default, and at most.
PAGE, MAX_PAGE = 20, 100
#: More changes than this in one event: the client is told to fetch its page again.
MAX_CHANGES = 50
#: Events a slow stream may have waiting before it is closed (its browser reconnects).
BACKLOG = 16

Key = tuple[object, ...]


def is_open(table: Table) -> bool:
    """Whether the lobby lists the table: one can join or watch it."""
    return not table.finished and not table.retired


def is_listed(table: Table) -> bool:
    """Whether the lobby shows the table: open, and not private (a lesson's table is not)."""
    return is_open(table) and table.listed


def lobby_key(table: Table) -> Key:
    """What the lobby shows of a table: a change of it is pushed."""
    return (table.name, tuple((s.kind, s.bot, s.name, s.taken) for s in table.seats))


def sse(event: str, data: dict[str, Any]) -> str:
    """One server-sent event.

    >>> sse("ready", {"total": 3})
    'event: ready\\ndata: {"total":3}\\n\\n'
    """
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


@dataclass(eq=False)
class Stream:
    """One browser's lobby stream: events waiting to be sent."""

    client: str
    queue: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(BACKLOG))

    def put(self, text: str | None) -> bool:
        """Queue an event (``None``: end); ``False`` when the stream is too far behind."""
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            return False
        return True


class Lobby:
    """The open tables of ``tables`` (the manager's, shared) for the lobby."""

    def __init__(
        self,
        tables: dict[str, Table],
        limits: Limits,
        *,
        interval: float = 1.0,
        heartbeat: float = 20.0,
        lifetime: float = 300.0,
    ) -> None:
        self.tables = tables
        self.limits = limits
        self.interval = interval
        self.heartbeat = heartbeat
        self.lifetime = lifetime
        self.streams: set[Stream] = set()
        self.sent: dict[str, Key] | None = None  # what the streams were last told (while any listen)
        self.task: asyncio.Task[None] | None = None

    # --- the list ------------------------------------------------------------------------------
    def open_tables(self) -> Iterator[Table]:
        """The open tables, newest first."""
        return (t for t in reversed(self.tables.values()) if is_listed(t))

    def open_ids(self) -> dict[str, Table]:
        """Every open table by id, the private ones too (the creation limits count them)."""
        return {t.id: t for t in self.tables.values() if is_open(t)}

    def page(self, offset: int, limit: int) -> dict[str, Any]:
        """``limit`` open tables from ``offset``, newest first, with their total."""
        listed = list(self.open_tables())
        return {
            "tables": [t.summary() for t in listed[offset : offset + limit]],
            "total": len(listed),
            "offset": offset,
            "limit": limit,
        }

    # --- the pushed changes -------------------------------------------------------------------
    def changes(self) -> dict[str, Any] | None:
        """What changed since last time (``None``: nothing), and remember it as sent."""
        now = {t.id: lobby_key(t) for t in self.tables.values() if is_listed(t)}
        before = self.sent if self.sent is not None else now
        self.sent = now
        out: list[dict[str, Any]] = [{"op": "removed", "id": i} for i in before if i not in now]
        for table_id, key in now.items():
            if table_id not in before:
                out.append({"op": "added", "table": self.tables[table_id].summary()})
            elif before[table_id] != key:
                out.append({"op": "changed", "table": self.tables[table_id].summary()})
        if not out:
            return None
        if len(out) > MAX_CHANGES:
            return {"reset": True, "total": len(now)}
        return {"changes": out, "total": len(now)}

    def tick(self) -> None:
        """Send the changes to every stream (one too far behind is closed)."""
        if not self.streams:
            self.sent = None
            return
        news = self.changes()
        if news is None:
            return
        text = sse("lobby", news)
        for stream in list(self.streams):
            if not stream.put(text):
                self._drop(stream)

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            self.tick()

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self.run())

    def close(self) -> None:
        """End every stream and stop (the server is stopping)."""
        if self.task is not None:
            self.task.cancel()
        for stream in list(self.streams):
            self._drop(stream)

    def _drop(self, stream: Stream) -> None:
        self.streams.discard(stream)
        while not stream.queue.empty():
            stream.queue.get_nowait()
        stream.put(None)

    # --- one stream -----------------------------------------------------------------------------
    def admit(self, client: str) -> None:
        """Refuse a new stream beyond the limits (in all, and per client)."""
        if len(self.streams) >= self.limits.lobby_streams:
            raise LimitError("busy", "too many lobby streams; the lobby refreshes itself slowly", 60.0)
        if sum(1 for s in self.streams if s.client == client) >= self.limits.lobby_streams_per_client:
            raise LimitError("too-many-streams", "too many lobby streams from one address", 60.0)

    async def events(self, client: str) -> AsyncIterator[str]:
        """The text of one stream, until it is too far behind, its time is up or the server stops."""
        stream = Stream(client)
        if self.sent is None:
            self.sent = {t.id: lobby_key(t) for t in self.tables.values() if is_listed(t)}
        self.streams.add(stream)
        try:
            yield "retry: 3000\n" + sse("ready", {"total": len(self.sent)})
            deadline = time.monotonic() + self.lifetime
            while (left := deadline - time.monotonic()) > 0:
                try:
                    text = await asyncio.wait_for(stream.queue.get(), min(self.heartbeat, left))
                except TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                if text is None:
                    return
                yield text
        finally:
            self.streams.discard(stream)
