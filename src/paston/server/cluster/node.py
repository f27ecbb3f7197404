"""A worker of a cluster: which tables it owns, and where each request goes.

- **Owning**: :meth:`ClusterNode.claim` takes a table's lease in Redis, bumps its
  fencing token in the database, rebuilds the table from its action log and keeps it
  in memory; the lease is renewed every ``ttl / 3`` seconds. A lease lost, a commit
  refused by the fence, or Redis out of reach for most of a lease: the table leaves
  memory at once and its clients are told to reconnect (close 1012).
- **Placing**: :meth:`place` says whether a table is played here (``None``) or at
  which worker; a table nobody owns is claimed by the worker asked about it.
- **Taking over**: every second each worker looks for open tables nobody owns (their
  owner died: its leases ran out) and claims its share of them, so a worker killed
  with ``kill -9`` has its tables played on elsewhere within ``ttl`` plus a second.
- **Gateway**: a client's socket at a table owned elsewhere is tunnelled there
  (:mod:`.tunnel`); when that table's owner changes, the client is told to reconnect.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import random
import secrets
import socket
import time
from collections.abc import Coroutine
from typing import Any

from fastapi import FastAPI, WebSocket
from sqlalchemy.engine import Engine

from paston.server.cluster.bus import Bus
from paston.server.cluster.fencing import bump_fence, open_table_ids
from paston.server.cluster.leases import Leases
from paston.server.cluster.listing import Listing
from paston.server.cluster.tunnel import CLOSE_MOVED, Gate, TunnelSocket, deliver
from paston.server.table_error import TableError
from paston.server.tables.connection import Connection
from paston.server.tables.manager import TableManager
from paston.server.tables.protocol import error
from paston.server.tables.table import Table
from paston.server.web.badinput import BadInputLog
from paston.server.web.socketguard import SocketGuard
from paston.server.web.websocket import CLOSE_POLICY, CLOSE_TRY_LATER, TableSocket

log = logging.getLogger("paston.server")

#: Seconds a lease lives without renewal: a dead worker's tables move after this.
LEASE_SECONDS = 3.0
#: Seconds between two looks for tables nobody owns.
SCAN_SECONDS = 1.0


def worker_id() -> str:
    """A name for this worker, unique in the cluster (host, process, a random tail)."""
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


class ClusterNode:
    """One worker of a cluster, over ``manager``'s tables (see the module's text)."""

    def __init__(
        self,
        url: str,
        manager: TableManager,
        engine: Engine,
        *,
        ttl: float = LEASE_SECONDS,
        me: str | None = None,
    ) -> None:
        from redis.asyncio import Redis

        self.me = me or worker_id()
        self.manager = manager
        self.engine = engine
        self.ttl = ttl
        self.redis = Redis.from_url(
            url, decode_responses=True, socket_timeout=1.0, socket_connect_timeout=1.0
        )
        self.leases = Leases(self.redis, self.me, ttl)
        self.bus = Bus(url, self.redis, self.me, self._on_worker, self._on_table, self._on_lost)
        # every change of a table commits only with its owner's token (moves, seats, deals,
        # rematches, retiring, the end of a game); one refused: the table leaves memory
        manager.log.fenced = manager.store.fenced = True
        manager.log.on_fenced = manager.store.on_fenced = self.fenced_off
        self.owned: dict[str, int] = {}  # table -> fencing token
        self._claims: dict[str, asyncio.Future[bool]] = {}
        self.tunnels: dict[str, TunnelSocket] = {}  # as the owner: connections through other workers
        self.gates: dict[str, Gate] = {}  # as the gateway: this worker's clients at tables owned elsewhere
        self.valid_until = 0.0  # monotonic: the leases are surely held until then
        self.app: FastAPI | None = None
        self.bad_input = BadInputLog()
        self.sockets = SocketGuard()  # each address's sockets of the tables this worker owns
        self._tasks: list[asyncio.Task[None]] = []
        self._running: set[asyncio.Task[None]] = set()
        self.takeovers = 0
        self.fenced = 0  # changes refused by the fence
        self.listing = Listing(
            self.leases, manager.tables, self.owned
        )  # tables claimed because nobody owned them

    # --- running ----------------------------------------------------------------------------
    async def start(self) -> None:
        self.bus.start()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.bus.connected.wait(), 5.0)
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._every(self.ttl / 3, self.renew)),
            loop.create_task(self._every(SCAN_SECONDS, self.scan)),
        ]

    async def stop(self) -> None:
        """Leave the cluster: the tables go (their leases given up: others take them at
        once), then the tasks and the connections to Redis."""
        for task in self._tasks:
            task.cancel()
        for table_id in list(self.owned):
            self.drop(table_id, "the worker stops")
            with contextlib.suppress(Exception):
                await self.leases.release(table_id)
        for gate in list(self.gates.values()):
            gate.end(CLOSE_MOVED)
        with contextlib.suppress(Exception):
            await self.listing.forget()
        await self.bus.stop()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def _every(self, seconds: float, job: Any) -> None:
        while True:
            try:
                await job()
            except asyncio.CancelledError:
                raise
            except Exception as err:
                log.warning("worker %s: %s failed (%s: %s)", self.me, job.__name__, type(err).__name__, err)
            await asyncio.sleep(seconds)

    # --- owning -----------------------------------------------------------------------------
    async def renew(self) -> None:
        """Renew the leases; give up tables whose lease is lost, or all of them when Redis
        has been out of reach too long to be sure of any."""
        started = time.monotonic()
        try:
            await self.leases.heartbeat()
            for table_id in [t for t in self.owned if t not in self.manager.tables and t not in self._claims]:
                self.owned.pop(table_id, None)  # left memory (finished, retired): let it go
                await self.leases.release(table_id)
            for table_id in [t for t in self.manager.tables if t not in self.owned and t not in self._claims]:
                await self.claim(table_id)  # a game loaded here on demand: own it, or forget it
            held = [t for t in self.owned if t not in self._claims]
            lost = await self.leases.renew(held)
        except Exception:
            if time.monotonic() >= self.valid_until - self.ttl / 3:
                for table_id in list(self.owned):
                    self.drop(table_id, "Redis is out of reach")
            raise
        self.valid_until = started + self.ttl
        for table_id in lost:
            self.drop(table_id, "its lease was lost")
        await self.listing.sync()

    async def scan(self) -> None:
        """Claim this worker's share of the open tables nobody owns; tell the clients of
        tables whose owner changed to reconnect."""
        if time.monotonic() < self.valid_until:
            ids = await asyncio.to_thread(open_table_ids, self.engine)
            owners = await self.leases.owners(ids)
            orphans = [t for t, o in zip(ids, owners, strict=True) if o is None and t not in self.owned]
            if orphans:
                workers = max(1, len(await self.leases.live_workers()))
                random.shuffle(orphans)
                for table_id in orphans[: math.ceil(len(orphans) / workers)]:
                    with contextlib.suppress(TableError):
                        if await self.claim(table_id):
                            self.takeovers += 1
        gated = sorted({g.table_id for g in self.gates.values()})
        if gated:
            owners_now = dict(zip(gated, await self.leases.owners(gated), strict=True))
            for gate in list(self.gates.values()):
                if owners_now.get(gate.table_id) != gate.owner:
                    gate.end(CLOSE_MOVED)

    async def claim(self, table_id: str) -> bool:
        """Own the table if nobody does: its lease, a new fencing token, the table rebuilt
        from the action log. Returns whether this worker owns it now."""
        pending = self._claims.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._claims[table_id] = future
        try:
            owned = await self._claim(table_id)
            future.set_result(owned)
            return owned
        except BaseException as err:
            future.set_exception(err)
            future.exception()  # retrieved: waiters get it, nobody else must
            raise
        finally:
            self._claims.pop(table_id, None)

    async def _claim(self, table_id: str) -> bool:
        if not await self.leases.acquire(table_id):
            old = self.manager.tables.get(table_id)
            if old is not None and table_id not in self.owned:
                self.drop(table_id, "another worker owns it")
            return False
        deadline = time.monotonic() + self.ttl
        try:
            fence = await asyncio.to_thread(bump_fence, self.engine, table_id)
            table = (
                None if fence is None else await asyncio.to_thread(self.manager.store.load, table_id, fence)
            )
        except Exception as err:
            await self.leases.release(table_id)
            raise TableError("storage", f"the table could not be loaded ({type(err).__name__})") from err
        if fence is None or table is None:
            await self.leases.release(table_id)
            raise TableError("no-table", f"there is no table {table_id!r}")
        if time.monotonic() >= deadline:  # too slow to be sure of the lease: let it go
            await self.leases.release(table_id)
            return False
        if table_id in self.manager.tables:
            self._unload(self.manager.tables.pop(table_id))
        self.owned[table_id] = fence
        self.manager._resident(table)
        self.manager.schedule_bots(table)
        log.info("worker %s owns table %s (fence %d)", self.me, table_id, fence)
        return True

    async def adopt(self, table: Table) -> None:
        """A table made here (new, or a rematch): own it at once."""
        if table.id in self.owned:
            return
        self.owned[table.id] = 0  # being adopted: not claimed by the renewal meanwhile
        try:
            fence = (
                await asyncio.to_thread(bump_fence, self.engine, table.id)
                if await self.leases.acquire(table.id)
                else None
            )
        except Exception:
            fence = None
        if fence is None:
            self.drop(table.id, "it could not be claimed")
            raise TableError("owner-gone", "the new table could not be claimed; try again")
        table.fence = fence
        self.owned[table.id] = fence

    def fenced_off(self, table_id: str, fence: int | None = None) -> None:
        """A change of the table made with token ``fence`` was refused: another worker owns
        it. Only the copy that holds that token leaves memory: a late change of a copy
        given up before (token −1, or an older one) must not drop the copy claimed since
        (that was a livelock: drop, claim again, drop...)."""
        self.fenced += 1
        if fence is not None and self.owned.get(table_id) != fence:
            return
        self.drop(table_id, "a change of it was fenced off")

    def drop(self, table_id: str, why: str) -> None:
        """This worker no longer owns the table: out of memory, clients told to reconnect."""
        self.owned.pop(table_id, None)
        table = self.manager.tables.pop(table_id, None)
        self.manager.finished_games.forget(table_id)
        if table is not None:
            log.warning("worker %s gives table %s up: %s", self.me, table_id, why)
            self._unload(table)

    def _unload(self, table: Table) -> None:
        table.gone = True  # whatever still runs for this copy stops, and commits nothing
        table.fence = -1  # a token no table holds
        if table.bot_task is not None:
            table.bot_task.cancel()
        if table.presence_call is not None:
            table.presence_call.cancel()
        self.manager.pauses.stop([table])
        self.manager.rounds.stop([table])
        for conn in list(table.connections):
            conn.moved = True  # closed 1012: reconnect, the table is played elsewhere now
            conn.close()
            if conn.hangup is not None:
                conn.hangup_task = asyncio.ensure_future(conn.hangup())

    def state(self) -> dict[str, Any]:
        """This worker in the cluster (``GET /api/cluster``): its name, the tables it owns
        with their fencing tokens, its gateway and tunnelled connections, the tables it
        took over and the table messages it published."""
        return {
            "worker": self.me,
            "owned": {t: f for t, f in sorted(self.owned.items()) if t in self.manager.tables},
            "gateways": len(self.gates),
            "tunnels": len(self.tunnels),
            "takeovers": self.takeovers,
            "published": self.bus.published,
            "redis": self.bus.connected.is_set(),
        }

    # --- placing ----------------------------------------------------------------------------
    async def place(self, table_id: str) -> str | None:
        """Where the table is played: ``None`` here (claimed now if nobody owned it), or
        the worker that owns it."""
        try:
            for _ in range(10):
                if (
                    table_id in self.owned
                    and table_id in self.manager.tables
                    and table_id not in self._claims
                ):
                    return None
                pending = self._claims.get(table_id)
                if pending is not None:
                    await asyncio.shield(pending)
                    continue
                owner = await self.leases.owner(table_id)
                if owner == self.me:  # held, but the table left memory: give it up and claim it again
                    self.owned.pop(table_id, None)
                    await self.leases.release(table_id)
                    continue
                if owner is not None:
                    return owner
                if await self.claim(table_id):
                    return None
                await asyncio.sleep(0.05)
        except TableError:
            raise
        except Exception as err:
            raise TableError(
                "cluster-unavailable", f"the cluster cannot be reached ({type(err).__name__})"
            ) from err
        raise TableError("busy", "the table is changing hands; try again")

    # --- sockets ----------------------------------------------------------------------------
    def install(self, app: FastAPI) -> None:
        """Serve ``/ws/tables/{id}`` through the cluster (instead of only locally)."""
        self.app = app

        @app.get("/api/cluster")
        async def cluster_state() -> dict[str, Any]:
            return self.state()

        @app.websocket("/ws/tables/{table_id}")
        async def table_socket(websocket: WebSocket, table_id: str) -> None:
            await self.websocket(websocket, table_id)

    async def websocket(self, websocket: WebSocket, table_id: str) -> None:
        try:
            owner = await self.place(table_id)
        except TableError as err:
            await websocket.accept()
            with contextlib.suppress(Exception):
                await websocket.send_json(error(err.code, str(err)))
                await websocket.close(code=CLOSE_POLICY if err.code == "no-table" else CLOSE_TRY_LATER)
            return
        if owner is None:
            await TableSocket(websocket, self.manager, self.bad_input, self.sockets).run(table_id)
        else:
            await self.gateway(websocket, table_id, owner)

    async def gateway(self, websocket: WebSocket, table_id: str, owner: str) -> None:
        """Tunnel a client's socket to the table's owner (see :mod:`.tunnel`)."""
        origin = websocket.headers.get("origin")
        host = websocket.headers.get("host") or ""
        if origin and origin.split("://", 1)[-1] != host:
            await websocket.close(code=CLOSE_POLICY)
            return
        await websocket.accept()
        conn_id = secrets.token_hex(8)
        sink = Connection(send=websocket.send_text, seat=None)
        gate = Gate(websocket, table_id, owner, sink)
        sink.hangup = lambda: websocket.close(code=CLOSE_TRY_LATER)
        try:
            await self.bus.listen_table(table_id)
        except TableError as err:
            with contextlib.suppress(Exception):
                await websocket.send_json(error(err.code, str(err)))
                await websocket.close(code=CLOSE_TRY_LATER)
            return
        sink.start()
        self.gates[conn_id] = gate
        client = websocket.client.host if websocket.client is not None else "?"
        headers = {"host": host, **({"origin": origin} if origin else {})}
        opened = {"op": "open", "conn": conn_id, "table": table_id, "headers": headers, "client": client}
        try:
            if not await self.bus.to_worker(owner, opened):
                gate.end(CLOSE_MOVED)
            while gate.ending is None:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                frame = (
                    {"op": "frame", "conn": conn_id, "text": text}
                    if text is not None
                    else {"op": "binary", "conn": conn_id}
                )
                if not await self.bus.to_worker(owner, frame):
                    gate.end(CLOSE_MOVED)  # the owner is gone: reconnect, the table moves
        except Exception:  # the client went, or Redis did
            gate.end(CLOSE_MOVED)
        finally:
            self.gates.pop(conn_id, None)
            with contextlib.suppress(Exception):
                await self.bus.to_worker(owner, {"op": "close", "conn": conn_id})
            await self.bus.leave_table(table_id)
            if gate.ending is not None:
                with contextlib.suppress(Exception):
                    await gate.ending
            sink.close()

    def _open_tunnel(self, message: dict[str, Any]) -> None:
        table_id, conn_id = str(message["table"]), str(message["conn"])
        headers = {str(k): str(v) for k, v in dict(message.get("headers", {})).items()}
        tunnel = TunnelSocket(self.bus, table_id, conn_id, headers, str(message.get("client", "?")))
        if table_id not in self.owned or table_id not in self.manager.tables:
            self.bus.to_connection(table_id, conn_id, CLOSE_MOVED)  # not here (any more): reconnect
            return
        self.tunnels[conn_id] = tunnel

        async def run() -> None:
            try:
                socket = TableSocket(tunnel, self.manager, self.bad_input, self.sockets)  # type: ignore[arg-type]
                await socket.run(table_id)
            finally:
                self.tunnels.pop(conn_id, None)
                if not tunnel.closed:
                    await tunnel.close(CLOSE_MOVED)

        self._spawn(run())

    def _spawn(self, job: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(job)
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    # --- the bus's messages -----------------------------------------------------------------
    def _on_worker(self, message: dict[str, Any]) -> None:
        op = message.get("op")
        if op == "open":
            self._open_tunnel(message)
        elif op in ("frame", "binary", "close"):
            tunnel = self.tunnels.get(str(message.get("conn")))
            if tunnel is not None:
                tunnel.feed(message)
        elif op == "http" and self.app is not None:
            from paston.server.cluster.forward import answer

            self._spawn(answer(self, message))

    def _on_table(self, table_id: str, message: dict[str, Any]) -> None:
        deliver(self.gates, message)

    def _on_lost(self) -> None:
        """The subscription broke: whatever was tunnelled may be lost; reconnect."""
        for gate in list(self.gates.values()):
            gate.end(CLOSE_MOVED)
        for tunnel in list(self.tunnels.values()):
            tunnel.gone()
