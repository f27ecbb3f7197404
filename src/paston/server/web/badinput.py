"""Bad input from clients in the server's log: one short line each, no traceback, and
at most a few lines a minute of each kind, so a flood of bad frames cannot fill the log.

>>> import logging
>>> clock = iter([0.0, 1.0, 2.0, 61.0]).__next__
>>> lines = []
>>> log = BadInputLog(logging.getLogger("doctest"), per_minute=2, clock=clock)
>>> log.write = lines.append
>>> for _ in range(4):
...     log.note("binary-frame", "from 10.0.0.1")
>>> for line in lines:
...     print(line)
bad input (binary-frame): from 10.0.0.1
bad input (binary-frame): from 10.0.0.1
bad input (binary-frame): from 10.0.0.1 (1 more held back)
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

#: Lines of one kind of bad input logged per minute (the rest are counted).
LINES_PER_MINUTE = 10
#: The longest detail a line carries.
MAX_DETAIL = 120

logger = logging.getLogger("paston.server")


class BadInputLog:
    """Logs bad input one short line at a time: at most ``per_minute`` lines of each
    kind in a minute; the lines held back are counted, and the next line of that kind
    (in a later minute) says how many."""

    def __init__(
        self,
        log: logging.Logger = logger,
        *,
        per_minute: int = LINES_PER_MINUTE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.write: Callable[[str], None] = log.warning
        self._per_minute = per_minute
        self._clock = clock
        self._window: dict[str, tuple[float, int]] = {}  # kind -> (start of its minute, lines in it)
        self._held: dict[str, int] = {}  # kind -> lines held back

    def note(self, kind: str, detail: str) -> None:
        """One piece of bad input of ``kind`` (a stable error code), ``detail`` saying
        from whom and where."""
        now = self._clock()
        start, lines = self._window.get(kind, (now, 0))
        if now - start >= 60.0:
            start, lines = now, 0
        if lines >= self._per_minute:
            self._window[kind] = (start, lines)
            self._held[kind] = self._held.get(kind, 0) + 1
            return
        self._window[kind] = (start, lines + 1)
        line = f"bad input ({kind}): {detail[:MAX_DETAIL]}"
        held = self._held.pop(kind, 0)
        if held:
            line += f" ({held} more held back)"
        self.write(line)
