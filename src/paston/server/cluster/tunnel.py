"""WebSockets tunnelled between workers: a client connected at one worker (the gateway)
plays at a table owned by another (the owner).

The gateway accepts the client's socket, listens to the table's channel, and sends the
owner ``open``, then every frame the client sends (``frame``, ``binary``) and finally
``close``, on the owner's channel. The owner runs the very same
:class:`~paston.server.web.websocket.TableSocket` over a :class:`TunnelSocket`, which
looks like a WebSocket to it: what it sends goes out on the table's channel
(:meth:`Bus.to_connection`) and the gateway hands it to its client
(:class:`Gate`). So the whole protocol — hello, seat tokens, rate limits, acks, seeds,
hints — lives in one place, the owner, whichever worker the client reached.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from fastapi import WebSocket

from paston.server.cluster.bus import Bus
from paston.server.tables.connection import Connection
from paston.server.web.websocket import CLOSE_MOVED

__all__ = ["CLOSE_MOVED", "Address", "Gate", "TunnelSocket", "deliver"]


class Address(NamedTuple):
    host: str
    port: int


class TunnelSocket:
    """The owner's end of a tunnelled WebSocket (what :class:`TableSocket` uses of one)."""

    def __init__(self, bus: Bus, table_id: str, conn_id: str, headers: dict[str, str], client: str) -> None:
        self.bus = bus
        self.table_id = table_id
        self.conn_id = conn_id
        self.headers = headers
        self.client = Address(client, 0)
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.closed = False

    async def accept(self) -> None:
        """The gateway accepted the socket already."""

    async def receive(self) -> dict[str, Any]:
        return await self.inbox.get()

    def feed(self, message: dict[str, Any]) -> None:
        """A frame from the gateway (``op`` ``frame``, ``binary`` or ``close``)."""
        op = message.get("op")
        if op == "frame":
            self.inbox.put_nowait({"type": "websocket.receive", "text": str(message.get("text", ""))})
        elif op == "binary":
            self.inbox.put_nowait({"type": "websocket.receive", "bytes": b""})
        else:
            self.gone()

    def gone(self) -> None:
        """The client (or the way to it) is gone."""
        self.closed = True
        self.inbox.put_nowait({"type": "websocket.disconnect", "code": 1001})

    async def send_text(self, text: str) -> None:
        if self.closed:
            raise ConnectionError("the tunnelled client is gone")
        self.bus.to_connection(self.table_id, self.conn_id, text)

    async def send_json(self, data: Any) -> None:
        await self.send_text(json.dumps(data, separators=(",", ":")))

    async def close(self, code: int = 1000) -> None:
        if not self.closed:
            self.bus.to_connection(self.table_id, self.conn_id, code)
        self.gone()


@dataclass(eq=False)
class Gate:
    """The gateway's end: the client's socket, its outbox, and the owner it tunnels to."""

    websocket: WebSocket
    table_id: str
    owner: str
    sink: Connection
    ending: asyncio.Future[None] | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)

    def deliver(self, item: str | int) -> None:
        """A text from the owner, or a close code (after what was sent before it)."""
        if isinstance(item, str):
            self.sink.push(item)
        else:
            self.end(item)

    def end(self, code: int) -> None:
        """Close the client's socket with ``code`` once its outbox is sent."""
        if self.ending is None:
            self.ending = asyncio.ensure_future(self._end(code))

    async def _end(self, code: int) -> None:
        await self.sink.finish(timeout=2.0)
        with contextlib.suppress(Exception):
            await self.websocket.close(code=code)
        self.done.set()


def deliver(gates: dict[str, Gate], message: dict[str, Any]) -> None:
    """Hand a table channel's message to this worker's own connections.

    >>> class G:
    ...     got: list[object] = []
    ...     def deliver(self, item): self.got.append(item)
    >>> message = {"texts": ["x"], "to": [["a", 0], ["b", 0], ["a", -1012]]}
    >>> deliver({"a": G()}, message)  # type: ignore[dict-item]
    >>> G.got
    ['x', 1012]
    """
    texts = message.get("texts", [])
    for conn_id, index in message.get("to", []):
        gate = gates.get(conn_id)
        if gate is not None:
            gate.deliver(texts[index] if index >= 0 else -index)
