"""A WebSocket client of a table and its outbox: messages go out in order, by one
sender task, so a slow client never holds up a table; a client too far behind (its
outbox too long or too large) is dropped."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

Send = Callable[[str], Awaitable[None]]

#: Messages a connection may have waiting to be sent before it is dropped as too slow.
MAX_OUTBOX = 500
#: Bytes a connection may have waiting to be sent before it is dropped as too slow.
MAX_OUTBOX_BYTES = 1_000_000


@dataclass(eq=False)
class Connection:
    """A WebSocket connected to a table: a seat, or a spectator (``seat is None``).

    Everything sent to it goes through its outbox, in order, by one sender task, so a
    slow client never holds up a table. ``updates`` clients get one full ``state`` and
    then ``update`` messages with what changed; the ``held_*`` fields say what the
    client already holds.
    """

    send: Send
    seat: int | None
    updates: bool = False
    held_version: int = -1  # -1: nothing yet (the next message is a full state)
    held_deal: int = -1
    held_table: dict[str, Any] = field(default_factory=dict)
    held_game: tuple[object, ...] = ()
    held_deals_final: int = 0  # how many deals' entries it holds that never change again
    outbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    task: asyncio.Task[None] | None = None
    closed: bool = False
    hangup: Callable[[], Awaitable[None]] | None = None  # ends the socket of a client too far behind
    moved: bool = False  # the table left this worker (a cluster): the socket is closed 1012, not 1013
    hangup_task: asyncio.Future[None] | None = None
    queued_bytes: int = 0  # the size of what waits in the outbox

    def start(self) -> None:
        """Start the sender task (in the running event loop)."""
        self.task = asyncio.get_running_loop().create_task(self._drain())

    def push(self, text: str) -> None:
        """Queue a message (never waits); a client too far behind is dropped."""
        if self.closed:
            return
        if self.outbox.qsize() >= MAX_OUTBOX or self.queued_bytes + len(text) > MAX_OUTBOX_BYTES:
            self.close()
            if self.hangup is not None:
                self.hangup_task = asyncio.ensure_future(self._hang_up(self.hangup))
            return
        self.queued_bytes += len(text)
        self.outbox.put_nowait(text)

    @staticmethod
    async def _hang_up(hangup: Callable[[], Awaitable[None]]) -> None:
        """End the socket; one its client has left already raises, and that is the end
        too (unawaited, the error was logged for every slow reader dropped)."""
        try:
            await hangup()
        except Exception:  # the socket is gone: nothing is left to end
            return

    def close(self) -> None:
        """Stop sending: what is queued is dropped."""
        self.closed = True
        while not self.outbox.empty():
            self.outbox.get_nowait()
        self.queued_bytes = 0
        self.outbox.put_nowait(None)

    async def finish(self, timeout: float = 5.0) -> None:
        """Send what is queued (for at most ``timeout`` seconds), then stop."""
        if not self.closed:
            self.closed = True
            self.outbox.put_nowait(None)
        if self.task is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self.task), timeout)
            except TimeoutError:
                self.task.cancel()

    async def _drain(self) -> None:
        while (text := await self.outbox.get()) is not None:
            self.queued_bytes -= len(text)  # JSON text is ASCII: characters are bytes
            try:
                await self.send(text)
            except Exception:
                self.closed = True
                return
