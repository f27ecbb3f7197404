"""What every HTTP answer of the server has in common: one error shape
(``{"error": {"code", "message", …}}``, for validation errors, unknown addresses, wrong
methods, limits and crashes alike), the security headers, compression, and the client's
files under a versioned address that browsers may cache for a year.

>>> error_body("no-table", "there is no table 'x'")
{'error': {'code': 'no-table', 'message': "there is no table 'x'"}}
>>> field_of(("body", "seats", 0, "kind"))
'seats.0.kind'
"""

from __future__ import annotations

import hashlib
import logging
import os
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from paston.server.table_error import TableError
from paston.server.web.limits import LimitError

#: Responses at least this large are compressed (for clients that accept gzip).
COMPRESS_FROM = 1024
#: Cache-Control of the versioned client files, and of everything else.
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "worker-src 'self'",
        "manifest-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
SECURITY_HEADERS = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "same-origin",
    "cross-origin-opener-policy": "same-origin",
}
STATUS = {
    "no-table": 404,
    "seat-taken": 409,
    "seat-reserved": 409,
    "game-not-over": 409,
    "not-a-player": 403,
    "private-table": 403,
    "no-lesson": 404,
    "not-owner": 503,
}
HTTP_CODES = {400: "bad-request", 404: "not-found", 405: "method-not-allowed", 413: "too-large"}
_WHERE = {"body", "query", "path", "header", "cookie"}
log = logging.getLogger("paston.server")


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    """The one shape of every HTTP error."""
    return {"error": {"code": code, "message": message, **extra}}


def error_response(
    status: int, code: str, message: str, headers: dict[str, str] | None = None, **extra: Any
) -> JSONResponse:
    return JSONResponse(error_body(code, message, **extra), status_code=status, headers=headers)


def field_of(loc: Sequence[object]) -> str:
    """A validation error's field, dotted, without where it was (``body``, ``query``…)."""
    parts = [str(p) for p in loc]
    if parts and parts[0] in _WHERE:
        parts = parts[1:]
    return ".".join(parts)


def table_error_response(err: TableError) -> JSONResponse:
    """A refused request: 404 for a missing table, 409 for a conflict, 429 for a limit
    (with ``Retry-After`` when waiting helps), else 400."""
    if isinstance(err, LimitError):
        headers = {"retry-after": str(err.retry_after)} if err.retry_after is not None else None
        return error_response(429, err.code, str(err), headers)
    return error_response(STATUS.get(err.code, 400), err.code, str(err))


def install_error_handlers(app: FastAPI) -> None:
    """Every error the app answers has the one shape, validation errors naming the field."""

    @app.exception_handler(TableError)
    async def table_error(request: Request, err: TableError) -> JSONResponse:
        return table_error_response(err)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, err: RequestValidationError) -> JSONResponse:
        errors = list(err.errors())
        first = errors[0] if errors else {}
        if first.get("type") == "json_invalid":
            return error_response(422, "malformed", "the body is not valid JSON", field="")
        where = field_of(first.get("loc", ()))
        message = str(first.get("msg", "invalid"))
        return error_response(422, "malformed", f"{where or 'body'}: {message}", field=where)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, err: HTTPException) -> JSONResponse:
        code = HTTP_CODES.get(err.status_code, f"http-{err.status_code}")
        if err.status_code == 404:
            message = f"there is nothing at {request.url.path}"
        elif err.status_code == 405:
            message = f"{request.method} is not allowed at {request.url.path}"
        else:
            message = str(err.detail)
        return error_response(err.status_code, code, message, dict(err.headers or {}))

    @app.exception_handler(Exception)
    async def crashed(request: Request, err: Exception) -> JSONResponse:
        # one line, with an id the client gets too (to quote to the operator)
        incident = secrets.token_hex(4)
        where = request.url.path[:200]
        kind, text = type(err).__name__, str(err)[:300]
        log.error(
            "error %s: %s %s failed: %s: %s",
            incident,
            request.method,
            where,
            kind,
            text,
            extra={"error_id": incident},  # a field of its own in JSON logs (web/jsonlog.py)
        )
        message = f"the server failed to answer (error {incident}); try again"
        return error_response(500, "internal", message, id=incident)


class SecurityHeaders:
    """ASGI middleware: the security headers on every HTTP response, and
    ``Cache-Control: no-cache`` on those that say nothing of caching."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers.setdefault(name, value)
                headers.setdefault("cache-control", REVALIDATE)
            await send(message)

        await self.app(scope, receive, send_with_headers)


class ImmutableFiles(StaticFiles):
    """Static files under a versioned address: cached by browsers for a year."""

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["cache-control"] = IMMUTABLE
        return response


def static_version(folder: Path) -> str:
    """A digest of every file of the client: it changes whenever one does.

    >>> len(static_version(Path(__file__).parents[1] / "static"))
    12
    """
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def versioned_page(path: Path, version: str) -> str:
    """A page of the client (``index.html``, ``offline.html``) pointing at the files of
    ``version``: each ``"/static/…`` address becomes ``"/static/<version>/…``."""
    return path.read_text(encoding="utf-8").replace('"/static/', f'"/static/{version}/')


def page_response(page: str) -> HTMLResponse:
    """The client's page (a fresh response each time: middleware edits its headers)."""
    return HTMLResponse(page, headers={"cache-control": REVALIDATE})


def install_http(app: FastAPI, static: Path) -> str:
    """Error handlers, security headers and compression for ``app``; the client files
    of ``static`` at ``/static/<version>/`` (cached for a year) and at ``/static/``
    (revalidated). Returns the page: ``index.html`` pointing at the versioned files."""
    install_error_handlers(app)
    app.add_middleware(GZipMiddleware, minimum_size=COMPRESS_FROM)
    app.add_middleware(SecurityHeaders)
    version = static_version(static)
    app.state.static_version = version
    app.mount(f"/static/{version}", ImmutableFiles(directory=static), name="static-versioned")
    app.mount("/static", StaticFiles(directory=static), name="static")
    return versioned_page(static / "index.html", version)
