"""A limit on every HTTP request body, before any route reads it.

A body declared larger than the limit (``Content-Length``) is refused with 413 at once,
unread; a body sent without a length (chunked) is counted as it arrives and refused the
moment it passes the limit. The JSON routes take small bodies (:data:`JSON_BODY_BYTES`);
a route may have a larger limit of its own (the replay of an uploaded record).

>>> limit = BodyLimit(None, default=10, per_path={"/api/replay": 100})  # type: ignore[arg-type]
>>> limit.limit_for("/api/tables"), limit.limit_for("/api/replay")
(10, 100)
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The largest body of the JSON routes (a table's settings, a seat, a rematch): their
#: largest honest body is well under 2 KB.
JSON_BODY_BYTES = 16_384


class BodyTooLarge(HTTPException):
    """Raised inside the request when its body passes the limit: an HTTP 413, which the
    app's error handler answers in its one shape (``too-large``) if the route was reading."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request body is larger than {limit} bytes")


class BodyLimit:
    """ASGI middleware: bodies over ``default`` bytes (``per_path`` for some paths) get 413."""

    def __init__(
        self, app: ASGIApp, *, default: int = JSON_BODY_BYTES, per_path: Mapping[str, int] | None = None
    ) -> None:
        self.app = app
        self.default = default
        self.per_path = dict(per_path or {})

    def limit_for(self, path: str) -> int:
        return self.per_path.get(path, self.default)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope.get("path", ""))
        declared = _content_length(scope)
        if declared is not None and declared > limit:
            await _refuse(send, limit)
            return
        seen = 0
        started = False

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge(limit)
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except BodyTooLarge:
            if not started:
                await _refuse(send, limit)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isdigit() and len(text) < 20 else None
    return None


async def _refuse(send: Send, limit: int) -> None:
    body = json.dumps(
        {"error": {"code": "too-large", "message": f"the request body is larger than {limit} bytes"}}
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
