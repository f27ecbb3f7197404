"""The live table WebSocket (``/ws/tables/{id}``): JSON text messages of at most 4 KB.

- client → server: ``{"type": "hello", "token": "…" | null}`` first (``null`` to watch),
  then ``{"type": "act", "action": "bid clubs", "version": 12, "id": "c-17"}``,
  ``{"type": "sync"}``, ``{"type": "ping"}``, ``{"type": "hint"}`` (practice tables,
  the seat to move: see :mod:`paston.server.tables.hints`); ``{"type": "next", "deal": 4}``
  (done looking at the finished deal on show; a hello with ``"next": true`` says the
  client shows it, see :mod:`paston.server.tables.pause`);
- server → client: ``{"type": "state", …}`` (the audience's own view, after every
  change), ``{"type": "ack", "id": …, "version": …}`` (with ``"duplicate": true`` when
  the seat had sent that command id before: it was applied once, and ``version`` is
  the version it produced), ``{"type": "error", "code": …, "message": …, "rule": …}``,
  ``{"type": "pong"}``, ``{"type": "hint", "version": …, "seat": …, "options": […],
  "chosen": …, "level": …}``.

An illegal, stale, out-of-turn or malformed message gets an error naming the problem
(and the rule) and changes nothing. A binary frame gets the error ``binary-frame`` and
the socket is closed (1003); a table with as many watchers as it takes refuses one
more with ``too-many-watchers`` (closed 1013: try again later). One client address holds
at most a few dozen sockets over all tables (``too-many-sockets``, closed 1013) and asks
for full states at a bounded rate over all of them (``rate-limited``): see
:mod:`paston.server.web.socketguard`. Bad input is logged in one short line, a few a
minute at most (:class:`~paston.server.web.badinput.BadInputLog`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlparse

from fastapi import FastAPI, WebSocket, WebSocketDisconnect

from paston.server.table_error import TableError
from paston.server.tables.connection import Connection
from paston.server.tables.manager import TableManager
from paston.server.tables.messages import sealed
from paston.server.tables.protocol import (
    MAX_MESSAGE_BYTES,
    Hello,
    HintRequest,
    Next,
    Ping,
    Seed,
    Sync,
    error,
    parse,
)
from paston.server.tables.table import Table
from paston.server.web.badinput import BadInputLog
from paston.server.web.socketguard import SocketGuard

MAX_MESSAGES_PER_SECOND = 50  # sustained; bursts of twice that are allowed
HELLO_TIMEOUT = 30.0

#: WebSocket close codes: a policy broken (bad hello, token, origin), data that cannot
#: be accepted (a binary frame), try again later (the table is full, the client too slow).
CLOSE_POLICY, CLOSE_UNSUPPORTED, CLOSE_TRY_LATER = 1008, 1003, 1013
#: Close code a client gets when its table moved to another worker (a cluster): reconnect.
CLOSE_MOVED = 1012

#: Error codes that are bad input, logged (one line, rate-limited).
LOGGED = frozenset(
    {
        "bad-hello",
        "hello-first",
        "bad-token",
        "binary-frame",
        "malformed",
        "too-large",
        "rate-limited",
        "too-many-watchers",
        "too-many-connections",
        "too-many-sockets",
    }
)


class BinaryFrame(Exception):
    """A client sent a binary frame (the protocol is JSON text)."""


BINARY = TableError("binary-frame", "messages are JSON text; binary frames are not accepted")


async def receive_text(websocket: WebSocket) -> str:
    """The next text frame; raises :class:`WebSocketDisconnect` when the client is gone
    and :class:`BinaryFrame` for a binary frame."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    if text is None:
        raise BinaryFrame
    return str(text)


async def _close(websocket: WebSocket, code: int) -> None:
    # the client may be gone already: there is nothing left to tell it
    with contextlib.suppress(Exception):
        await websocket.close(code=code)


class TableSocket:
    """One client's socket on a table: its hello, then its messages until it leaves."""

    def __init__(
        self,
        websocket: WebSocket,
        manager: TableManager,
        log: BadInputLog,
        guard: SocketGuard | None = None,
        client: str | None = None,
    ) -> None:
        """``guard`` counts the sockets and full states of each address (a fresh one,
        counting this socket alone, if none); ``client`` is the address it counts this
        socket under (default: the peer's)."""
        self.websocket = websocket
        self.manager = manager
        self.log = log
        self.guard = guard if guard is not None else SocketGuard()
        peer = websocket.client
        self.client = client if client is not None else (peer.host if peer is not None else "?")
        self.tasks: set[asyncio.Task[None]] = set()  # hints being computed for this client

    def note(self, code: str, table_id: str) -> None:
        if code in LOGGED:
            self.log.note(code, f"from {self.client} on table {table_id[:32]!r}")

    async def refuse(self, err: TableError, table_id: str, close_code: int) -> None:
        """Answer with the error (straight away: the client has no outbox yet) and close."""
        self.note(err.code, table_id)
        with contextlib.suppress(Exception):
            await self.websocket.send_json(error(err.code, str(err), err.rule))
        await _close(self.websocket, close_code)

    async def run(self, table_id: str) -> None:
        websocket = self.websocket
        origin = websocket.headers.get("origin")
        if origin and urlparse(origin).netloc != websocket.headers.get("host"):
            await websocket.close(code=CLOSE_POLICY)
            return
        if not self.guard.open(self.client):
            await websocket.accept()
            held = self.guard.max_sockets
            err = TableError("too-many-sockets", f"your address has {held} sockets open already; close some")
            await self.refuse(err, table_id, CLOSE_TRY_LATER)
            return
        try:
            await self.run_counted(table_id)
        finally:
            self.guard.close(self.client)

    async def run_counted(self, table_id: str) -> None:
        """:meth:`run` once the socket is counted for its address."""
        websocket = self.websocket
        await websocket.accept()
        try:
            self.manager.get(table_id)
            raw = await asyncio.wait_for(receive_text(websocket), HELLO_TIMEOUT)
            hello = parse(raw[:MAX_MESSAGE_BYTES], "bad-hello")
            if not isinstance(hello, Hello):
                raise TableError("hello-first", "the first message must be hello")
            # again: a finished game may have left memory while the hello was awaited
            table = self.manager.get(table_id)
            seat = self.manager.seat_of(table, hello.token)
            if seat is None and not table.listed:
                raise TableError("private-table", "this table is private: only its player may open it")
        except WebSocketDisconnect:
            return
        except TimeoutError:
            await self.refuse(TableError("bad-hello", "no hello came in time"), table_id, CLOSE_POLICY)
            return
        except BinaryFrame:
            await self.refuse(BINARY, table_id, CLOSE_UNSUPPORTED)
            return
        except TableError as err:
            await self.refuse(err, table_id, CLOSE_POLICY)
            return
        conn = Connection(send=websocket.send_text, seat=seat, updates=hello.updates)
        conn.hangup = lambda: websocket.close(code=CLOSE_MOVED if conn.moved else CLOSE_TRY_LATER)
        try:
            await self.manager.join(table, conn, sends_seeds=hello.seeds, shows_next=hello.next)
        except TableError as err:  # the table is full
            await self.refuse(err, table_id, CLOSE_TRY_LATER)
            return
        conn.start()
        try:
            await self.serve(table, conn)
        except WebSocketDisconnect:
            pass
        finally:
            for task in self.tasks:
                task.cancel()
            self.manager.leave(table, conn)

    async def serve(self, table: Table, conn: Connection) -> None:
        """Answer the client's messages until it leaves (or sends a binary frame)."""

        def reply(message: dict[str, Any]) -> None:
            conn.push(json.dumps(message, separators=(",", ":")))

        def refused(err: TableError, **extra: Any) -> None:
            self.note(err.code, table_id)
            reply(error(err.code, str(err), err.rule, **extra))

        table_id = table.id
        self.manager.schedule_bots(table)
        allowance, last = 2.0 * MAX_MESSAGES_PER_SECOND, time.monotonic()
        while True:
            try:
                raw = await receive_text(self.websocket)
            except BinaryFrame:
                refused(BINARY)
                await conn.finish()
                await _close(self.websocket, CLOSE_UNSUPPORTED)
                return
            now = time.monotonic()  # token bucket: refills at the sustained rate
            allowance = min(2.0 * MAX_MESSAGES_PER_SECOND, allowance + (now - last) * MAX_MESSAGES_PER_SECOND)
            last = now
            if allowance < 1.0:
                refused(TableError("rate-limited", "too many messages; slow down"))
                continue
            allowance -= 1.0
            if len(raw) > MAX_MESSAGE_BYTES or len(raw.encode()) > MAX_MESSAGE_BYTES:
                refused(TableError("too-large", f"messages are limited to {MAX_MESSAGE_BYTES} bytes"))
                continue
            try:
                message = parse(raw)
            except TableError as err:
                refused(err)
                continue
            if isinstance(message, Ping):
                reply({"type": "pong"})
            elif isinstance(message, Sync):
                if self.guard.take_sync(self.client, now):
                    self.manager.resync(table, conn)
                else:
                    refused(TableError("rate-limited", "too many full states from your address; slow down"))
            elif isinstance(message, Hello):
                refused(TableError("already-joined", "hello was already received"))
            elif isinstance(message, Seed):
                try:
                    await self.manager.rounds.receive(table, conn.seat, message)
                except TableError as err:
                    refused(err)
            elif isinstance(message, HintRequest):
                self.hint(table, conn, reply, refused)
            elif isinstance(message, Next):
                try:
                    await self.manager.press_next(table, conn.seat, message.deal)
                except TableError as err:
                    refused(err)
            elif conn.seat is None:
                refused(TableError("spectator", "spectators cannot act"), id=message.id)
            elif not table.reshuffling and sealed(table, conn):  # no move on a deal it has not seeded (F6)
                refused(
                    TableError(
                        "sealed",
                        "this deal is shuffled again once everyone seated has sent a seed: wait for them",
                    ),
                    id=message.id,
                )
            else:
                try:
                    accepted = await self.manager.act(
                        table.id, conn.seat, message.action, message.version, message.id
                    )
                except TableError as err:
                    refused(err, id=message.id)
                    continue
                ack: dict[str, Any] = {"type": "ack", "id": message.id, "version": accepted.version}
                if accepted.duplicate:
                    ack["duplicate"] = True
                reply(ack)

    def hint(
        self,
        table: Table,
        conn: Connection,
        reply: Callable[[dict[str, Any]], None],
        refused: Callable[[TableError], None],
    ) -> None:
        """Answer a hint request when the pool has computed it; the client's other
        messages are read meanwhile."""

        async def answer() -> None:
            try:
                reply(await self.manager.hints.hint(table, conn.seat))
            except TableError as err:
                refused(err)

        task = asyncio.create_task(answer())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)


def add_table_socket(
    app: FastAPI,
    manager: TableManager,
    log: BadInputLog | None = None,
    *,
    guard: SocketGuard | None = None,
    client_of: Callable[[WebSocket], str] | None = None,
) -> None:
    """Serve the live tables of ``manager`` at ``/ws/tables/{id}``; ``guard`` counts each
    address's sockets (``client_of`` names the address of a socket)."""
    bad_input = log or BadInputLog()
    counts = guard if guard is not None else SocketGuard()

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        client = client_of(websocket) if client_of is not None else None
        await TableSocket(websocket, manager, bad_input, counts, client).run(table_id)
