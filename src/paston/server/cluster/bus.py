"""The workers' messages over Redis pub/sub.

Each worker listens on its own channel ``paston:w:<worker>``: tunnels opened to it,
the frames of clients connected at other workers, requests forwarded to it and the
replies to its own requests. A table's owner publishes what its tunnelled connections
are sent on the table's channel ``paston:t:<table>``, once per change: one message
holding each distinct text once and which connection gets which; every worker with a
gateway connection at that table listens there and delivers to its own connections.

Pub/sub, not streams: nothing here is the truth (the database is), and nothing needs
to be read again — a client that misses a message because a worker or Redis went away
reconnects and gets the whole state from the table's owner. Pub/sub costs one message
per subscriber and keeps nothing, where streams would keep and trim a log per table.
Messages one worker publishes reach a subscriber in the order they were published:
one publisher task sends a worker's table messages in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Callable
from typing import Any

from paston.server.cluster.leases import PREFIX
from paston.server.table_error import TableError

log = logging.getLogger("paston.server")

#: Seconds a forwarded request waits for its answer.
CALL_TIMEOUT = 10.0


def worker_channel(worker: str) -> str:
    return f"{PREFIX}w:{worker}"


def table_channel(table_id: str) -> str:
    return f"{PREFIX}t:{table_id}"


def encode(payload: dict[str, Any]) -> str:
    return json.dumps(payload, separators=(",", ":"))


class Bus:
    """A worker's pub/sub: ``on_worker(message)`` hears what comes on its own channel
    (except replies, which answer :meth:`call`), ``on_table(table_id, message)`` what
    comes on the table channels it listens to, ``on_lost()`` that the subscription
    broke (Redis went away: the messages meanwhile are lost)."""

    def __init__(
        self,
        url: str,
        redis: Any,
        me: str,
        on_worker: Callable[[dict[str, Any]], None],
        on_table: Callable[[str, dict[str, Any]], None],
        on_lost: Callable[[], None],
    ) -> None:
        self.url = url
        self.redis = redis
        self.me = me
        self._on_worker = on_worker
        self._on_table = on_table
        self._on_lost = on_lost
        self._tables: dict[str, int] = {}  # table channels listened to: how many gateway connections
        self._confirmed: dict[str, asyncio.Event] = {}
        self._pubsub: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._calls: dict[str, asyncio.Future[Any]] = {}
        self._outgoing: dict[
            str, list[tuple[str, str | int]]
        ] = {}  # table -> (connection, text | close code)
        self._flush_due = False
        self._queue: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._publisher: asyncio.Task[None] | None = None
        self.connected = asyncio.Event()
        self.published = 0  # table messages published (one per change)

    # --- listening -------------------------------------------------------------------------
    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._reader = loop.create_task(self._read())
        self._publisher = loop.create_task(self._publish())

    async def stop(self) -> None:
        for task in (self._reader, self._publisher):
            if task is not None:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()

    async def _subscribe(self, channel: str) -> None:
        event = self._confirmed.setdefault(channel, asyncio.Event())
        await self._pubsub.subscribe(channel)
        await asyncio.wait_for(event.wait(), 5.0)

    async def listen_table(self, table_id: str) -> None:
        """Listen to a table's channel; returns once the subscription is confirmed (every
        later message reaches this worker). Pair with :meth:`leave_table`."""
        if not self.connected.is_set():
            raise TableError("cluster-unavailable", "the cluster's Redis cannot be reached; try again soon")
        channel = table_channel(table_id)
        self._tables[table_id] = self._tables.get(table_id, 0) + 1
        try:
            if self._tables[table_id] == 1:
                await self._subscribe(channel)
            else:
                await asyncio.wait_for(self._confirmed.setdefault(channel, asyncio.Event()).wait(), 5.0)
        except Exception:
            await self.leave_table(table_id)
            raise TableError(
                "cluster-unavailable", "the cluster's Redis cannot be reached; try again soon"
            ) from None

    async def leave_table(self, table_id: str) -> None:
        count = self._tables.get(table_id, 0) - 1
        if count > 0:
            self._tables[table_id] = count
            return
        self._tables.pop(table_id, None)
        self._confirmed.pop(table_channel(table_id), None)
        if self._pubsub is not None and self.connected.is_set():
            with contextlib.suppress(Exception):
                await self._pubsub.unsubscribe(table_channel(table_id))

    async def _read(self) -> None:
        from redis.asyncio import Redis

        while True:
            try:
                client = Redis.from_url(self.url, decode_responses=True, socket_connect_timeout=1.0)
                self._pubsub = client.pubsub()
                self._confirmed.clear()
                mine = worker_channel(self.me)
                self._confirmed[mine] = asyncio.Event()
                await self._pubsub.subscribe(mine)  # first: the listener needs a connection
                listen = asyncio.get_running_loop().create_task(self._listen())
                try:
                    await asyncio.wait_for(self._confirmed[mine].wait(), 5.0)
                    for table_id in list(self._tables):
                        await self._subscribe(table_channel(table_id))
                    self.connected.set()
                    await listen
                finally:
                    listen.cancel()
            except asyncio.CancelledError:
                raise
            except Exception as err:
                if self.connected.is_set():
                    log.warning("worker %s: Redis subscription lost (%s)", self.me, type(err).__name__)
                self.connected.clear()
                self._on_lost()
                with contextlib.suppress(Exception):
                    await self._pubsub.aclose()
                await asyncio.sleep(0.5)

    async def _listen(self) -> None:
        while True:
            message = await self._pubsub.get_message(ignore_subscribe_messages=False, timeout=1.0)
            if message is None:
                continue
            channel = str(message["channel"])
            if message["type"] == "subscribe":
                self._confirmed.setdefault(channel, asyncio.Event()).set()
                continue
            if message["type"] != "message":
                continue
            try:
                data = json.loads(message["data"])
                if channel == worker_channel(self.me):
                    if data.get("op") == "reply":
                        future = self._calls.pop(str(data.get("id")), None)
                        if future is not None and not future.done():
                            future.set_result(data.get("result"))
                    else:
                        self._on_worker(data)
                elif channel.startswith(f"{PREFIX}t:"):
                    self._on_table(channel[len(f"{PREFIX}t:") :], data)
            except Exception as err:  # one bad message never stops the worker
                log.warning("worker %s: a cluster message failed (%s: %s)", self.me, type(err).__name__, err)

    # --- sending -------------------------------------------------------------------------
    async def to_worker(self, worker: str, payload: dict[str, Any]) -> int:
        """Publish to a worker's channel; returns how many listened (0: it is gone)."""
        return int(await self.redis.publish(worker_channel(worker), encode(payload)))

    async def call(self, worker: str, payload: dict[str, Any], timeout: float = CALL_TIMEOUT) -> Any:
        """Send a request to a worker and wait for its reply (see :meth:`reply`)."""
        call_id = secrets.token_hex(8)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._calls[call_id] = future
        try:
            if not await self.to_worker(worker, {**payload, "id": call_id, "from": self.me}):
                raise TableError("owner-gone", "the table's server is gone; try again in a few seconds")
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise TableError("owner-gone", "the table's server did not answer; try again") from None
        finally:
            self._calls.pop(call_id, None)

    async def reply(self, request: dict[str, Any], result: Any) -> None:
        await self.to_worker(str(request["from"]), {"op": "reply", "id": request["id"], "result": result})

    def to_connection(self, table_id: str, conn_id: str, item: str | int) -> None:
        """Queue a text (or a close code) for a tunnelled connection at a table; the
        queued items of each table go out together, in order, as one message."""
        self._outgoing.setdefault(table_id, []).append((conn_id, item))
        if not self._flush_due:
            self._flush_due = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_due = False
        outgoing, self._outgoing = self._outgoing, {}
        for table_id, items in outgoing.items():
            texts: dict[str, int] = {}
            to: list[list[Any]] = []
            for conn_id, item in items:
                if isinstance(item, int):
                    to.append([conn_id, -item])  # a close code
                else:
                    to.append([conn_id, texts.setdefault(item, len(texts))])
            self._queue.put_nowait((table_channel(table_id), encode({"texts": list(texts), "to": to})))

    async def _publish(self) -> None:
        while True:
            channel, data = await self._queue.get()
            try:
                await self.redis.publish(channel, data)
                self.published += 1
            except Exception as err:  # Redis away: the clients reconnect and resync
                log.warning("worker %s: publishing failed (%s)", self.me, type(err).__name__)
