"""Hints at practice tables: ``{"type": "hint"}`` from the seated person whose turn it is
gets the ``pimc`` player's options for that decision, valued from that seat's own view
(:func:`paston.bots.explain.explain`), computed in the bot worker pool, never on the
event loop. Each option has its expected score, its ``chance`` (the fraction of the
``worlds`` sampled from the seat's view in which it makes the contract, or beats it: the
hint's ``goal``) and its ``group`` (options in one group are equally good).

A table says whether it gives hints (``hints``, off by default, chosen when it is made).
One hint is computed per table state and seat: asking again, or from a second tab,
waits for the same one, and the last few are kept, so a person pressing the key again
and again costs the pool nothing more. A table has at most one hint being computed: one
asked for a later state drops the one still waiting for an earlier state (its turn has
passed), and the pool lets only a few hints wait at all, behind every computer player's
decision (:class:`~paston.server.work.botpool.ProcessBotPool`), so hints never stall a table.

>>> hint = {"seat": 1, "goal": "make", "options": [], "chosen": "pass", "level": 3, "worlds": 12}
>>> HintService.reply(5, hint)  # doctest: +NORMALIZE_WHITESPACE
{'type': 'hint', 'version': 5, 'seat': 1, 'goal': 'make', 'options': [], 'chosen': 'pass',
 'level': 3, 'worlds': 12}
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from typing import Any

from paston.bots.pimc import DEFAULT_LEVEL
from paston.server.table_error import TableError
from paston.server.tables.table import Table
from paston.server.work.botjobs import HintJob, decision_seed
from paston.server.work.botpool import BotFailure, BotPool, PoolBusy

log = logging.getLogger("paston.server.tables.hints")

#: Seconds a hint may sample (it then values the options on the worlds it has): with
#: the worker's start and the message it stays within 2 s.
HINT_BUDGET = 1.5

#: Hints kept per server (most recent), keyed by table, version and seat.
KEEP = 256

#: The seed of a table's hints: fixed, so a table state always gets the same hint (the
#: hint reads only the seat's own view, so knowing the seed tells nothing hidden).
HINT_SEED = 0x48494E54

Key = tuple[str, int, int, str]


class HintService:
    """Answers hint requests through the bot worker ``pool``."""

    def __init__(
        self, pool: BotPool, *, level: int = DEFAULT_LEVEL, budget: float | None = HINT_BUDGET
    ) -> None:
        self.pool = pool
        self.level = level
        self.budget = budget
        self._done: OrderedDict[Key, dict[str, Any]] = OrderedDict()
        self._running: dict[Key, asyncio.Future[dict[str, Any]]] = {}

    @staticmethod
    def check(table: Table, seat: int | None) -> int:
        """The seat asking, if it may have a hint now; else a :class:`TableError`."""
        if not table.hints:
            raise TableError("hints-off", "this table gives no hints (a practice table does)")
        if seat is None:
            raise TableError("spectator", "spectators cannot ask for hints")
        if table.finished or table.match.to_move != seat:
            raise TableError("not-your-turn", "a hint is for your own decision: it is not your turn")
        if table.reshuffling:
            raise TableError("shuffling", "the first deal is being shuffled again; ask once it is dealt")
        return seat

    @staticmethod
    def reply(version: int, hint: dict[str, Any]) -> dict[str, Any]:
        """The ``hint`` message for the table's ``version``."""
        return {
            "type": "hint",
            "version": version,
            "seat": hint["seat"],
            "goal": hint["goal"],
            "options": hint["options"],
            "chosen": hint["chosen"],
            "level": hint["level"],
            "worlds": hint["worlds"],
        }

    async def hint(self, table: Table, seat: int | None) -> dict[str, Any]:
        """The ``hint`` message for ``seat`` at ``table`` now (see :meth:`check`)."""
        seat = self.check(table, seat)
        version = table.version
        # the deal's commitment too: a provisional first deal shuffled again keeps version 0
        key = (table.id, version, seat, table.seeds[-1][1] if table.seeds else "")
        done = self._done.get(key)
        if done is not None:
            self._done.move_to_end(key)
            return self.reply(version, done)
        running = self._running.get(key)
        if running is None:
            self._drop_passed(table.id, key)
            # at a lesson table with no time limit: the same hint on any machine, the one
            # the course was rehearsed with (paston.server.lessons.rehearse)
            budget = None if table.lesson is not None else self.budget
            job = HintJob(self.level, decision_seed(HINT_SEED, version), budget, table.match.view(seat))
            running = asyncio.ensure_future(self.pool.hint(job))
            self._running[key] = running
            running.add_done_callback(lambda f: self._finished(key, f))
        try:
            hint = await asyncio.shield(running)
        except PoolBusy:
            busy = "the computer players are busy just now; ask again in a moment"
            raise TableError("hint-busy", busy) from None
        except asyncio.CancelledError:
            if running.cancelled() and not _current_task_cancelling():
                raise TableError("hint-passed", "that hint was for a decision that has passed") from None
            raise
        except BotFailure as err:
            log.warning("no hint at table %s seat %s: %s", table.id, seat, err)
            raise TableError("hint-failed", "no hint could be computed just now; try again") from None
        return self.reply(version, hint)

    def _drop_passed(self, table_id: str, key: Key) -> None:
        """Cancel the table's hints still being computed for other states than ``key``'s."""
        for other, future in list(self._running.items()):
            if other[0] == table_id and other != key:
                future.cancel()
                self._running.pop(other, None)

    def running(self) -> int:
        """Hints being computed (or waiting for a worker) now."""
        return len(self._running)

    def _finished(self, key: Key, future: asyncio.Future[dict[str, Any]]) -> None:
        self._running.pop(key, None)
        if future.cancelled() or future.exception() is not None:
            return
        self._done[key] = future.result()
        while len(self._done) > KEEP:
            self._done.popitem(last=False)


def _current_task_cancelling() -> bool:
    """Whether the task running now is itself being cancelled (not only what it waits for)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0
