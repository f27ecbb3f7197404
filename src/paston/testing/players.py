"""Scripted people for whole-system tests: each plays one seat of a table over the
WebSocket protocol through any worker of a cluster, as a browser behind a load
balancer would: random legal moves (reproducible by table and version), a command id
per move, the move sent again after a reconnection until it is acknowledged, a ping
when the socket has been quiet (a frozen worker is left for the next one), and, when
told, its socket cut just before or just after a move's acknowledgement.

What it keeps is what the history checker (:mod:`paston.testing.history`) needs: every
acknowledgement, in order.

>>> seat = ScriptedSeat("t1", 0, "token", ["ws://127.0.0.1:1"], at=0)
>>> seat.choose(["pass", "bid 6S"], 3) in ("pass", "bid 6S")
True
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

#: Seconds without any message after which the seat pings; as long again without an
#: answer and it leaves the socket for the next worker.
QUIET_SECONDS = 2.0
#: Seconds a move waits for its acknowledgement before it is sent again on the same
#: socket (same command id: applied once whatever happens; a frame can be lost when a
#: tunnel's Redis restarts while the sockets at both ends stay open).
RESEND_SECONDS = 4.0
#: Error codes after which a move is sent again (nothing was written: the table is
#: changing hands, or the database is away); after any other, the move is dropped and
#: the seat resynchronises (``stale``: the table moved on).
RETRY_CODES = frozenset({"not-owner", "storage", "table-moved", "busy", "cluster-unavailable", "shuffling"})


@dataclass
class Ack:
    """One move acknowledged to a seat: the version it produced, its id and text."""

    version: int
    command_id: str
    action: str
    duplicate: bool


@dataclass
class ScriptedSeat:
    """A person playing one seat through the workers at ``urls`` (starting with
    ``urls[at]``, then the next one at each reconnection)."""

    table: str
    seat: int
    token: str
    urls: list[str]
    at: int
    think: float = 0.0  # seconds to wait before each move
    acked: list[Ack] = field(default_factory=list)
    reconnects: int = 0
    cuts: int = 0
    finished: bool = False
    last_version: int = -1
    errors: dict[str, int] = field(default_factory=dict)
    cut_next: str | None = None  # "before-ack" or "after-ack": cut the socket at the next move
    deadline: float = float("inf")  # time.monotonic(): stop playing then (may be moved sooner)
    resends: int = 0  # moves sent again on the same socket after RESEND_SECONDS
    _view: dict[str, Any] = field(default_factory=dict)
    _pending: dict[str, Any] | None = None
    _sent_at: float = 0.0

    def describe(self) -> str:
        """Where the seat stands (for a violation's report)."""
        pending = None if self._pending is None else self._pending["id"]
        return (
            f"seat {self.seat}: version {self.last_version}, to move {self._view.get('to_move')}, "
            f"waiting for {pending}, reconnects {self.reconnects}, resends {self.resends}, "
            f"errors {self.errors}"
        )

    @staticmethod
    def choose(legal: list[str], version: int, salt: str = "") -> str:
        return random.Random(f"{salt}/{version}").choice(sorted(legal))

    async def _move(self, ws: ClientConnection) -> bool:
        """Act if the last state says it is this seat's turn; returns whether the socket
        was cut on purpose (before the acknowledgement)."""
        view = self._view
        if self._pending is not None or not view or view.get("to_move") != self.seat or not view.get("legal"):
            return False
        if self.think:
            await asyncio.sleep(self.think)
        version = self.last_version
        action = self.choose(list(view["legal"]), version, self.table)
        self._pending = {
            "type": "act",
            "action": action,
            "version": version,
            "id": f"s{self.seat}-v{version}",
        }
        await ws.send(json.dumps(self._pending))
        self._sent_at = time.monotonic()
        if self.cut_next == "before-ack":
            self.cut_next = None
            self.cuts += 1
            return True
        return False

    async def play(self, deadline: float | None = None) -> None:
        """Play until the game is over (and the last move acknowledged) or the seat's
        ``deadline`` (``time.monotonic()``; given here, or set meanwhile)."""
        if deadline is not None:
            self.deadline = deadline
        while (not self.finished or self._pending is not None) and time.monotonic() < self.deadline:
            url = f"{self.urls[self.at % len(self.urls)]}/ws/tables/{self.table}"
            try:
                async with connect(url, open_timeout=3, close_timeout=0.5, ping_interval=None) as ws:
                    if await self._session(ws):
                        return
            except (ConnectionClosed, OSError, InvalidStatus, InvalidHandshake, TimeoutError):
                pass
            self.reconnects += 1
            self.at += 1
            await asyncio.sleep(0.1)

    async def _session(self, ws: ClientConnection) -> bool:
        """One socket's life; ``True`` when the seat is done."""
        await ws.send(json.dumps({"type": "hello", "token": self.token}))
        if self._pending is not None:  # not acknowledged before the socket went: send it again
            await ws.send(json.dumps(self._pending))
            self._sent_at = time.monotonic()
        quiet = 0
        while time.monotonic() < self.deadline:
            if self._pending is not None and time.monotonic() - self._sent_at > RESEND_SECONDS:
                self.resends += 1
                await ws.send(json.dumps(self._pending))
                self._sent_at = time.monotonic()
            try:
                raw = await asyncio.wait_for(ws.recv(), QUIET_SECONDS)
            except TimeoutError:
                quiet += 1
                if quiet >= 2:
                    return False  # a frozen worker: go to the next
                await ws.send(json.dumps({"type": "ping"}))
                continue
            quiet = 0
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "state":
                self.last_version = int(message["version"])
                self._view = message["view"]
                if message["table"]["finished"]:
                    self.finished = True
                    if self._pending is None:
                        return True
                    continue  # its last move's acknowledgement is on its way
                if await self._move(ws):
                    return False
            elif kind == "ack":
                pending = self._pending
                if pending is not None and message.get("id") == pending["id"]:
                    self.acked.append(
                        Ack(
                            int(message["version"]),
                            pending["id"],
                            pending["action"],
                            bool(message.get("duplicate")),
                        )
                    )
                    self._pending = None
                    if self.finished:
                        return True
                    if self.cut_next == "after-ack":
                        self.cut_next = None
                        self.cuts += 1
                        return False
                    if await self._move(ws):  # the state came first: it may be this seat's turn
                        return False
            elif kind == "error":
                code = str(message.get("code"))
                self.errors[code] = self.errors.get(code, 0) + 1
                pending = self._pending
                if pending is not None and message.get("id") == pending["id"]:
                    if code in RETRY_CODES:
                        await asyncio.sleep(0.2)
                        await ws.send(json.dumps(pending))
                        self._sent_at = time.monotonic()
                    else:
                        self._pending = None
                        await ws.send(json.dumps({"type": "sync"}))
                elif code == "stale":
                    await ws.send(json.dumps({"type": "sync"}))
        return False
