"""HTTP requests about a table, answered by the worker that owns it.

``/api/tables/<id>`` and everything under it (a seat taken, a rematch, a record, a
replay, an analysis) reaches any worker; :class:`Forwarding` (an ASGI middleware)
finds the table's owner and, when it is another worker, sends it the request over the
bus and returns its answer. The owner runs the request through its own application, in
process (:func:`answer`); a request forwarded once is never forwarded again. A rematch
whose new table is played elsewhere takes the asker's seat there (:func:`rematch_at_owner`).
"""

from __future__ import annotations

import json
import re
from typing import Any, Protocol

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from paston.server.cluster.bus import Bus
from paston.server.table_error import TableError
from paston.server.tables.manager import TableManager
from paston.server.tables.table import Table
from paston.server.web.http import error_response

FORWARDED = b"x-paston-forwarded"
_TABLE_PATH = re.compile(r"^/api/tables/([^/]+)(/.*)?$")
#: Largest request body forwarded (the replay upload has its own route, not forwarded).
MAX_BODY = 1_000_000
_STATUS = {"no-table": 404}


class Placing(Protocol):
    """What forwarding needs of a worker (:class:`~paston.server.cluster.node.ClusterNode`
    has it): where a table is played, the bus to the others, its own application and
    tables."""

    @property
    def bus(self) -> Bus: ...

    @property
    def app(self) -> ASGIApp | None: ...

    @property
    def manager(self) -> TableManager: ...

    async def place(self, table_id: str) -> str | None: ...


async def _body(receive: Receive) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY:
            raise TableError("too-large", f"the request is larger than {MAX_BODY} bytes")
        chunks.append(chunk)
        if not message.get("more_body"):
            break
    return b"".join(chunks)


class Forwarding:
    """Sends requests about tables owned elsewhere to their owner."""

    def __init__(self, app: ASGIApp, node: Placing) -> None:
        self.app = app
        self.node = node

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        match = _TABLE_PATH.match(scope.get("path", "")) if scope["type"] == "http" else None
        if match is None:
            await self.app(scope, receive, send)
            return
        forwarded = any(k == FORWARDED for k, _ in scope.get("headers", []))
        try:
            owner = await self.node.place(match.group(1))
            if owner is not None and forwarded:
                raise TableError("table-moved", "the table changed hands; try again")
            if owner is None:
                await self.app(scope, receive, send)
                return
            body = await _body(receive)
            headers = [
                [k.decode("latin-1"), v.decode("latin-1")]
                for k, v in scope.get("headers", [])
                if k not in (b"accept-encoding", b"content-length")
            ]
            answer_ = await self.node.bus.call(
                owner,
                {
                    "op": "http",
                    "method": scope["method"],
                    "path": scope["path"],
                    "query": scope.get("query_string", b"").decode("latin-1"),
                    "headers": headers,
                    "body": body.decode("latin-1"),
                },
            )
        except TableError as err:
            response = error_response(_STATUS.get(err.code, 503), err.code, str(err))
            await response(scope, receive, send)
            return
        await send(
            {
                "type": "http.response.start",
                "status": int(answer_["status"]),
                "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in answer_["headers"]],
            }
        )
        await send({"type": "http.response.body", "body": str(answer_["body"]).encode("latin-1")})


async def answer(node: Placing, request: dict[str, Any]) -> None:
    """Run a forwarded request through this worker's application and reply with its answer."""
    body = str(request.get("body", "")).encode("latin-1")
    headers = [(str(k).encode("latin-1"), str(v).encode("latin-1")) for k, v in request.get("headers", [])]
    headers += [(FORWARDED, b"1"), (b"content-length", str(len(body)).encode())]
    scope: Scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": str(request["method"]),
        "scheme": "http",
        "path": str(request["path"]),
        "raw_path": str(request["path"]).encode(),
        "query_string": str(request.get("query", "")).encode("latin-1"),
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 0),
        "server": ("127.0.0.1", 0),
    }
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    status = 500
    out_headers: list[list[str]] = []
    chunks: list[bytes] = []

    async def send(message: Message) -> None:
        nonlocal status, out_headers
        if message["type"] == "http.response.start":
            status = int(message["status"])
            out_headers = [[k.decode("latin-1"), v.decode("latin-1")] for k, v in message.get("headers", [])]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    assert node.app is not None
    try:
        await node.app(scope, receive, send)
    except Exception as err:  # answered as a plain error: the caller is waiting
        status, out_headers, chunks = 500, [["content-type", "text/plain"]], [type(err).__name__.encode()]
    await node.bus.reply(
        request, {"status": status, "headers": out_headers, "body": b"".join(chunks).decode("latin-1")}
    )


async def rematch_at_owner(node: Placing, old: Table, token: str | None) -> dict[str, Any] | None:
    """The answer to a rematch of ``old`` (a finished table, played here) when its new
    table is owned by another worker: the asker's seat there (with their seat token of
    ``old``) is taken by that worker, through its own ``POST …/seats/<seat>``. ``None``:
    there is no new table yet, or it is played here (claimed now if nobody owned it)."""
    if old.rematch is None:
        return None
    new_id = old.rematch
    owner = await node.place(new_id)
    if owner is None:
        return None
    seat = node.manager.seat_of(old, token)
    new_token = None
    if seat is not None:
        name = old.seats[seat].name or f"Seat {seat}"
        request = {
            "op": "http",
            "method": "POST",
            "path": f"/api/tables/{new_id}/seats/{seat}",
            "query": "",
            "headers": [["content-type", "application/json"]],
            "body": json.dumps({"name": name}),
        }
        got = await node.bus.call(owner, request)
        status = int(got["status"])
        if status == 200:
            new_token = str(json.loads(str(got["body"]))["token"])
        elif status != 409:  # 409: the seat is someone's already, as at one worker
            raise TableError("busy", "the new table is changing hands; try again")
    return {"id": new_id, "invite": f"/t/{new_id}", "token": new_token}
