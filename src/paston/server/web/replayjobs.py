"""Replays built away from the event loop: a record read, checked by replaying every
action, and told as :func:`~paston.server.work.replay_story.replay_story` in a worker process, so a
large record never holds up the live tables. A few wait at most (more are refused with
``replays-busy``, HTTP 429), and the replays of finished games are kept (they never change).

>>> ok, body = story_of_record('{"format": "paston/1"}', None)
>>> ok, json.loads(body)["code"]
(False, 'keys')
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from starlette.requests import Request

from paston.errors import RecordError
from paston.record import loads as record_loads
from paston.server.table_error import TableError
from paston.server.web.limits import LimitError
from paston.server.work.lifeline import bind_to_parent, worker_context
from paston.server.work.replay_story import replay_story

#: Replays waiting or being built at once; more are refused until one is done.
MAX_WAITING = 8
#: Replays of finished tables kept (encoded) for the next viewer.
KEEP = 32


def story_of_record(text: str, players: Sequence[dict[str, Any]] | None) -> tuple[bool, bytes]:
    """In a worker: ``(True, the replay as JSON)``, or ``(False, {"code", "message"})``
    when the record is broken (the message names the deal, the action and the rule)."""
    try:
        match = record_loads(text)
    except RecordError as err:
        return False, json.dumps({"code": err.code, "message": str(err)}).encode()
    story = replay_story(match, players)
    return True, json.dumps(story, ensure_ascii=False, separators=(",", ":")).encode()


async def read_limited(request: Request, limit: int) -> str | None:
    """A request's body as text, or ``None`` once it is longer than ``limit`` bytes (read
    no further than that: a declared length over it is refused before reading)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        return None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            return None
    return body.decode("utf-8", errors="replace")


class RecordRefused(TableError):
    """A record that cannot be replayed (HTTP 400, with the record's own error code)."""


class ReplayBuilder:
    """Builds replays in one worker process (threads of the server when ``workers`` is 0)."""

    def __init__(self, workers: int = 1, *, waiting: int = MAX_WAITING, keep: int = KEEP) -> None:
        self.workers = workers
        self.waiting = waiting
        self.keep = keep
        self._pool: ProcessPoolExecutor | None = None
        self._busy = 0
        self._kept: OrderedDict[str, bytes] = OrderedDict()

    def _executor(self) -> ProcessPoolExecutor | None:
        if self.workers <= 0:
            return None
        if self._pool is None:
            context = worker_context(["paston.server.work.replay_story"])
            self._pool = ProcessPoolExecutor(self.workers, mp_context=context, initializer=bind_to_parent)
        return self._pool

    async def build(
        self, text: str, players: Sequence[dict[str, Any]] | None = None, key: str | None = None
    ) -> bytes:
        """The replay of record ``text`` as JSON; kept under ``key`` when one is given
        (a finished table's id). Raises :class:`RecordRefused` for a broken record and
        :class:`~paston.server.web.limits.LimitError` when too many are being built."""
        if key is not None and key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        if self._busy >= self.waiting:
            raise LimitError(
                "replays-busy", "too many replays are being prepared: try again in a moment", 2.0
            )
        self._busy += 1
        try:
            loop = asyncio.get_running_loop()
            args = (text, None if players is None else [dict(p) for p in players])
            try:
                ok, body = await loop.run_in_executor(self._executor(), story_of_record, *args)
            except BrokenProcessPool:  # the worker died (killed, out of memory): a new one next time
                self._pool = None
                raise LimitError("replays-busy", "the replay could not be prepared: try again", 2.0) from None
        finally:
            self._busy -= 1
        if not ok:
            error = json.loads(body)
            raise RecordRefused(str(error["code"]), str(error["message"]))
        if key is not None:
            self._kept[key] = body
            while len(self._kept) > self.keep:
                self._kept.popitem(last=False)
        return body

    def close(self) -> None:
        """Stop the worker (a replay being built is abandoned)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
