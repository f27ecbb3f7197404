"""The pause after a deal: the table shows the finished deal's summary
(:mod:`paston.summary`) until each person presses Next, or the table's
``next_deal_seconds`` pass; only then does the next deal's seed round begin.

Who holds a pause up is fixed when it begins: the people seated and connected with a
client that shows the end of a deal (its hello said ``"next": true``). Computer
players, stand-ins, people offline and older clients never hold it up; a person stood
in for during the pause stops holding it. No pause follows a redeal (nothing was
scored), the last deal of a game, or a table whose ``next_deal_seconds`` is 0.

A table rebuilt from the database during its pause (a restart, or another worker taking
it over) goes on with it for the time it had left, counted from when the deal's last
action was stored (:func:`pause_left`, :meth:`Pauses.resume`). Nobody is connected at
that moment, so everyone seated holds it for ``RESUME_GRACE`` seconds; then only those
back with a client that shows the end of a deal (and those who pressed Next) still do.

>>> p = Pause(deal=3, seconds=30.0, expected=frozenset({0, 2}))
>>> p.pressed.add(2)
>>> sorted(p.expected - p.pressed), 29.0 < p.ends_in() <= 30.0
([0], True)
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from paston.server.store.db import FencedOut
from paston.server.table_error import TableError
from paston.server.tables.table import NEXT_DEAL_SECONDS, Pause, Table

__all__ = [
    "MAX_NEXT_DEAL_SECONDS",
    "NEXT_DEAL_SECONDS",
    "RESUME_GRACE",
    "Pause",
    "Pauses",
    "pause_json",
    "pause_left",
    "pause_stamp",
    "people",
    "waiting",
]

#: The largest ``next_deal_seconds`` a table may have.
MAX_NEXT_DEAL_SECONDS = 3600.0
#: How often a pause looks whether a stand-in took over a seat it waits for.
_LOOK_EVERY = 1.0
#: Seconds a resumed pause waits for everyone seated to come back before it holds only
#: those who did.
RESUME_GRACE = 10.0

_log = logging.getLogger(__name__)


def waiting(table: Table) -> tuple[int, ...]:
    """The seats the table's pause still waits for (none without a pause)."""
    p = table.pause
    if p is None:
        return ()
    return tuple(s for s in sorted(p.expected) if s not in p.pressed and not table.standing_in(s))


def people(table: Table) -> frozenset[int]:
    """The seats people have taken."""
    return frozenset(s for s, seat in enumerate(table.seats) if seat.kind == "human" and seat.taken)


def pause_left(table: Table, ended_at: datetime | None, at: datetime | None = None) -> float | None:
    """The seconds the pause after a rebuilt table's last deal still has at ``at`` (now),
    that deal's last action stored at ``ended_at``; ``None`` when there is none: the
    game needs no deal, the last deal scored nothing, the table does not pause, nobody
    is seated, or the time is up."""
    match = table.match
    if ended_at is None or table.round is not None or table.next_deal_seconds <= 0:
        return None
    if not match.needs_deck or not match.deals or match.deals[-1].result is None or not people(table):
        return None
    if ended_at.tzinfo is None:  # SQLite keeps no zone: stored in UTC
        ended_at = ended_at.replace(tzinfo=UTC)
    left = table.next_deal_seconds - ((at or datetime.now(UTC)) - ended_at).total_seconds()
    return min(left, table.next_deal_seconds) if left > 0 else None  # another worker's clock may run ahead


def pause_json(table: Table) -> dict[str, Any] | None:
    """What the state messages say of the pause: the deal on show, the seats still to
    press Next and those who did, the table's seconds and how many are left."""
    p = table.pause
    if p is None:
        return None
    return {
        "deal": p.deal,
        "waiting": list(waiting(table)),
        "pressed": sorted(p.pressed),
        "seconds": p.seconds,
        "ends_in": round(p.ends_in(), 1),
    }


def pause_stamp(table: Table) -> tuple[int, tuple[int, ...]] | None:
    """Changes whenever what :func:`pause_json` says changes (but the clock)."""
    p = table.pause
    return None if p is None else (p.deal, waiting(table))


class Pauses:
    """Starts and ends the pauses of tables. ``end(table)`` deals on once a pause is
    over (the caller of :meth:`press` and the timer hold the table's lock);
    ``after(table)`` then sends the news and lets bots play (outside the lock)."""

    def __init__(self, end: Callable[[Table], None], after: Callable[[Table], None]) -> None:
        self._end = end
        self._after = after

    def begin(self, table: Table) -> bool:
        """After a deal ended (the caller holds the lock): pause if the deal was scored,
        the game goes on, the table pauses at all and someone will look. Returns whether
        it did (then nothing is dealt until it ends)."""
        match = table.match
        if table.next_deal_seconds <= 0 or not match.needs_deck or not match.deals:
            return False
        if match.deals[-1].result is None:  # a redeal: nothing to show
            return False
        expected = table.next_seats()
        if not expected:
            return False
        self._start(table, Pause(len(match.deals) - 1, table.next_deal_seconds, expected))
        return True

    def resume(self, table: Table) -> bool:
        """A table rebuilt during its pause (``table.left_on_show``, the caller holds the
        lock or the table is not shared yet): go on with it, held up by everyone seated.
        Returns whether it did (else the next deal is to be dealt now)."""
        left, table.left_on_show = table.left_on_show, None
        expected = people(table)
        if left is None or not expected:
            return False
        seconds, started = table.next_deal_seconds, time.monotonic()
        p = Pause(len(table.match.deals) - 1, seconds, expected, started=started - (seconds - left))
        p.grace_until = started + RESUME_GRACE
        self._start(table, p)
        return True

    def press(self, table: Table, seat: int | None, deal: int | None) -> bool:
        """A person pressed Next (the caller holds the lock). Returns whether the pause
        ended (then the next deal is on its way)."""
        if seat is None:
            raise TableError("spectator", "spectators do not press Next")
        p = table.pause
        if p is None or (deal is not None and deal != p.deal):
            raise TableError("not-paused", "no finished deal waits for Next now")
        p.pressed.add(seat)
        if waiting(table):
            return False
        self._finish(table, p)
        return True

    def stop(self, tables: list[Table]) -> None:
        """The server stops: stop the pauses' clocks (a server that starts in the pause's
        time goes on with it, else deals on)."""
        for table in tables:
            if table.pause is not None and table.pause.timer is not None:
                table.pause.timer.cancel()

    def _start(self, table: Table, p: Pause, delay: float = 0.0) -> None:
        """Put ``p`` on the table and start its clock (after ``delay`` seconds)."""
        table.pause = p
        p.timer = asyncio.get_running_loop().create_task(self._watch(table, p, delay))

    def _finish(self, table: Table, p: Pause) -> None:
        if p.timer is not None and p.timer is not asyncio.current_task():
            p.timer.cancel()
        table.pause = None
        try:
            self._end(table)
        except FencedOut:  # another worker owns the table now (it left this one's memory)
            return
        except Exception as err:  # the database failed: nothing was dealt; try again soon
            _log.warning("table %s: the next deal could not be dealt (%s); retrying", table.id, err)
            self._start(table, Pause(p.deal, 0.0, frozenset(), pressed=p.pressed), delay=2.0)

    async def _watch(self, table: Table, p: Pause, delay: float = 0.0) -> None:
        """End the pause when its time is up, or when the seats it waits for are stood in for."""
        await asyncio.sleep(delay)
        while True:
            await asyncio.sleep(min(_LOOK_EVERY, p.ends_in()))
            narrowed = ended = False
            async with table.lock:
                if table.pause is not p:
                    return
                if p.grace_until is not None and time.monotonic() >= p.grace_until:
                    p.grace_until = None  # resumed: hold it only for those who came back
                    held = p.expected & (table.next_seats() | p.pressed)
                    narrowed, p.expected = held != p.expected, frozenset(held)
                if p.ends_in() <= 0 or not waiting(table):
                    self._finish(table, p)
                    ended = True
            if ended or narrowed:  # dealt on, or who is waited for changed: tell the table
                self._after(table)
            if ended:
                return
