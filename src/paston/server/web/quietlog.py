"""Error logging a stranger cannot flood: one line per error, a few a minute per kind.

The libraries under the server (uvicorn, websockets, asyncio) log a traceback for what a
client did wrong (an invalid UTF-8 text frame: six lines each; a refused ``accept`` when
file handles ran out: megabytes a second). :class:`OneLineErrors`, installed on their
loggers by ``paston serve``, turns each such record into one line naming the exception,
lets through at most ``per_minute`` records of one kind (the logger and the message
template) a minute, and says on the next line it lets through how many it held back.

>>> import logging
>>> times = iter([0.0, 1.0, 2.0, 61.0])
>>> quiet = OneLineErrors(per_minute=2, clock=lambda: next(times))
>>> def record(): return logging.LogRecord("uvicorn.error", 40, "x", 1, "bad frame", None, None)
>>> [quiet.filter(record()) for _ in range(3)]
[True, True, False]
>>> last = record(); quiet.filter(last), last.getMessage()
(True, 'bad frame (1 more like this in the last minute not logged)')

A record of several lines (asyncio's ``socket.accept() out of system resource`` names
the socket on a second line) becomes one:

>>> many = logging.LogRecord("asyncio", 40, "x", 1, "accept failed\\nsocket: <s>", None, None)
>>> OneLineErrors(clock=lambda: 0.0).filter(many), many.getMessage()
(True, 'accept failed | socket: <s>')
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable

#: Records of one kind let through a minute.
PER_MINUTE = 10
#: Kinds remembered at once (the templates are few; strangers cannot make new ones, but
#: the table is bounded all the same).
MAX_KINDS = 1000
#: The loggers whose handlers ``paston serve`` quiets (with Python's last-resort handler,
#: which prints what reaches no handler: asyncio's and websockets' records).
LOGGERS = ("", "uvicorn", "uvicorn.error", "uvicorn.access")


class OneLineErrors(logging.Filter):
    """A logging filter: no tracebacks, at most ``per_minute`` records of a kind a minute."""

    def __init__(self, per_minute: int = PER_MINUTE, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.per_minute = per_minute
        self.clock = clock
        self._kinds: dict[tuple[str, str], tuple[float, int, int]] = {}  # start, let through, held

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "quieted", False):  # seen by another handler already
            return True
        record.quieted = True
        # a kind is the first line of the template: asyncio's records name their task below it
        key = (record.name, str(record.msg).partition("\n")[0][:200])
        now = self.clock()
        start, passed, held = self._kinds.get(key, (now, 0, 0))
        if now - start >= 60.0:
            start, passed = now, 0
        if passed >= self.per_minute:
            self._remember(key, (start, passed, held + 1))
            return False
        self._remember(key, (start, passed + 1, 0))
        message = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            err = record.exc_info[1]
            message = f"{message} ({type(err).__name__}: {str(err)[:200]})"
        if held:
            message = f"{message} ({held} more like this in the last minute not logged)"
        message = message.replace("\r", " ").replace("\n", " | ")  # asyncio's span lines
        record.msg, record.args = message, None
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True

    def _remember(self, key: tuple[str, str], value: tuple[float, int, int]) -> None:
        if key not in self._kinds and len(self._kinds) >= MAX_KINDS:
            self._kinds.clear()
        self._kinds[key] = value


def install(loggers: Iterable[str] = LOGGERS, per_minute: int = PER_MINUTE) -> OneLineErrors:
    """Put one :class:`OneLineErrors` on every handler of ``loggers`` and on Python's
    last-resort handler (on handlers, not loggers: a logger's filter sees only what is
    logged to that logger itself, not what its children pass up)."""
    quiet = OneLineErrors(per_minute)
    handlers = [h for name in loggers for h in logging.getLogger(name).handlers]
    if logging.lastResort is not None:
        handlers.append(logging.lastResort)
    for handler in handlers:
        if quiet not in handler.filters:
            handler.addFilter(quiet)
    return quiet
