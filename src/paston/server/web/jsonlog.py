"""The server's log as JSON lines (``paston serve --log-format json``): each record one
JSON object with its ``time`` (UTC, ISO 8601), ``level``, ``logger`` and ``message``,
and the ``error_id`` of a request that failed (the id its client was given) where
there is one. Nothing spans lines: :mod:`.quietlog` has already made each error one
line, and what is left of an exception is its type and text (``exception``).

>>> import logging
>>> record = logging.LogRecord("paston.server", 40, "x", 1, "error %s: it broke", ("3f9a0c1e",), None)
>>> record.created, record.error_id = 0.0, "3f9a0c1e"
>>> data = json.loads(JsonLines().format(record))
>>> data["time"], data["level"], data["logger"], data["error_id"]
('1970-01-01T00:00:00.000Z', 'ERROR', 'paston.server', '3f9a0c1e')
>>> data["message"]
'error 3f9a0c1e: it broke'
"""

from __future__ import annotations

import json
import logging
import sys
import time
from collections.abc import Iterable
from typing import Any, TextIO

#: The loggers whose handlers get the JSON format (uvicorn's, set up by its Config).
LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access")


class JsonLines(logging.Formatter):
    """Formats a record as one JSON object on one line."""

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage().replace("\r", " ").replace("\n", " | ")
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        data: dict[str, Any] = {
            "time": f"{stamp}.{int(record.created % 1 * 1000):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": message,
        }
        error_id = getattr(record, "error_id", None)  # given by the failed request's log call
        if error_id is not None:
            data["error_id"] = str(error_id)
        if record.exc_info and record.exc_info[1] is not None:
            err = record.exc_info[1]
            data["exception"] = f"{type(err).__name__}: {str(err)[:300]}"
        return json.dumps(data, ensure_ascii=False)


def use_json(loggers: Iterable[str] = LOGGERS, stream: TextIO | None = None) -> JsonLines:
    """Log as JSON lines: uvicorn's handlers get :class:`JsonLines`, and the root logger a
    handler of its own on ``stream`` (standard error), so what would have reached
    Python's last-resort handler (asyncio's, websockets', the server's records) is JSON
    too. Call it before :func:`paston.server.web.quietlog.install`, which quiets every
    one of these handlers."""
    formatter = JsonLines()
    root = logging.getLogger()
    if not any(isinstance(h.formatter, JsonLines) for h in root.handlers):
        ours = logging.StreamHandler(stream if stream is not None else sys.stderr)
        ours.setFormatter(formatter)
        root.addHandler(ours)
    for name in loggers:
        for handler in logging.getLogger(name).handlers:
            handler.setFormatter(formatter)
    return formatter


def line(message: str, *, logger: str = "paston.serve", level: int = logging.INFO) -> str:
    """One JSON line saying ``message``, as a record of ``logger`` would be (for what
    ``paston serve`` prints itself: the address it listens on, where its data is).

    >>> json.loads(line("Paston is running"))["message"]
    'Paston is running'
    """
    return JsonLines().format(logging.LogRecord(logger, level, __file__, 0, message, None, None))
