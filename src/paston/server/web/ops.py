"""Probes for whoever runs the server: ``GET /healthz`` (the process answers) and
``GET /readyz`` (it can serve: the database answers, and in a cluster Redis too).

``/healthz`` touches nothing: ``200 {"ok": true}`` as long as the event loop runs.
``/readyz`` runs each dependency's check, each bounded by ``timeout`` seconds (a hung
database cannot hang the probe), and keeps the answer ``cache`` seconds, so a flood of
probes costs at most one check a second. A database check still running from before
(its connection hung) is not queued again: it fails at once until it returns.

>>> import asyncio
>>> async def fine() -> None: ...
>>> async def broken() -> None: raise ConnectionRefusedError(111, "refused")
>>> ready = Readiness({"database": fine, "redis": broken})
>>> asyncio.run(ready.check())
{'database': 'ok', 'redis': 'failed: ConnectionRefusedError'}
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from sqlalchemy import text
from sqlalchemy.engine import Engine

#: Seconds one dependency may take to answer a readiness check.
CHECK_TIMEOUT = 2.0
#: Seconds a readiness answer is kept (probes in between get the same answer).
CHECK_CACHE = 1.0
#: The trivial query: it reads the schema's version row (SQLite's ``SELECT 1`` alone
#: would not touch the file).
PROBE_QUERY = "SELECT 1 FROM alembic_version LIMIT 1"

Check = Callable[[], Awaitable[object]]


class Readiness:
    """The named ``checks`` (each an async callable raising when its dependency fails),
    run together, each within ``timeout`` seconds, the answer kept ``cache`` seconds."""

    def __init__(
        self,
        checks: dict[str, Check],
        *,
        timeout: float = CHECK_TIMEOUT,
        cache: float = CHECK_CACHE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.checks = checks
        self.timeout = timeout
        self.cache = cache
        self.clock = clock
        self._answer: dict[str, str] | None = None
        self._at = 0.0
        self._running: asyncio.Task[dict[str, str]] | None = None

    async def check(self) -> dict[str, str]:
        """Each dependency's state: ``"ok"`` or ``"failed: <why>"``."""
        if self._answer is not None and self.clock() - self._at < self.cache:
            return self._answer
        if self._running is None or self._running.done():  # one check at a time, shared
            self._running = asyncio.ensure_future(self._run())
        return await asyncio.shield(self._running)

    async def _run(self) -> dict[str, str]:
        names = list(self.checks)
        results = await asyncio.gather(*(self._one(self.checks[n]) for n in names))
        self._answer, self._at = dict(zip(names, results, strict=True)), self.clock()
        return self._answer

    async def _one(self, check: Check) -> str:
        try:
            await asyncio.wait_for(check(), self.timeout)
        except TimeoutError:
            return f"failed: no answer within {self.timeout:g} s"
        except Exception as err:
            return f"failed: {type(err).__name__}"
        return "ok"


class DatabaseCheck:
    """Runs :data:`PROBE_QUERY` on ``engine`` in a thread of its own (a hung connection
    holds that thread, never the event loop or a thread other work needs)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="paston-readyz")
        self._pending: Future[None] | None = None

    async def __call__(self) -> None:
        if self._pending is not None and not self._pending.done():
            raise TimeoutError("the last check has not returned")
        self._pending = self._executor.submit(self._query)
        await asyncio.wrap_future(self._pending)

    def _query(self) -> None:
        with self.engine.connect() as connection:
            connection.execute(text(PROBE_QUERY)).all()

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


def add_ops_routes(app: FastAPI, readiness: Readiness) -> None:
    """``GET /healthz`` and ``GET /readyz`` (see the module's text); never cached by
    anyone between."""
    headers = {"cache-control": "no-store"}

    @app.get("/healthz")
    async def healthz() -> JSONResponse:
        return JSONResponse({"ok": True}, headers=headers)

    @app.get("/readyz")
    async def readyz() -> JSONResponse:
        checks = await readiness.check()
        failed = {name: state for name, state in checks.items() if state != "ok"}
        body: dict[str, Any] = {"ok": not failed, "checks": checks}
        if failed:
            why = "; ".join(f"{name} {state}" for name, state in failed.items())
            body["error"] = {"code": "not-ready", "message": f"not ready: {why}"}
        return JSONResponse(body, status_code=503 if failed else 200, headers=headers)
