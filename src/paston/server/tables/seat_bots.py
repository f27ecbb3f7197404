"""Computer players at the tables: a bot's seat, or a person's seat taken over after the
table's delay (a stand-in). When one is to move it acts after a short delay; it thinks in
a worker process of the pool (:mod:`paston.server.work.botpool`), given only the seat's view,
and its action goes through the same commit as a person's.

Computer players wait for the people before the first move of a table (its first deal
is provisional until then, see :mod:`paston.server.tables.seeds`), and move only while the
table is watched: someone is connected to it, or was within the last
``unwatched_grace`` seconds (a new table counts as just watched). A table nobody looks
at, such as an abandoned table of bots, stops costing anything and goes on where it was
when someone opens it again.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Awaitable, Callable

from paston.actions import Action
from paston.server.lessons.course import lesson_by_id
from paston.server.lessons.rehearse import bot_seed
from paston.server.store.db import FencedOut
from paston.server.table_error import TableError
from paston.server.tables.table import Table
from paston.server.work.botjobs import FALLBACK, BotSeat, Job, decision_seed
from paston.server.work.botpool import (
    DEFAULT_BUDGET,
    BotPool,
    ProcessBotPool,
    ThreadBotPool,
    default_workers,
    hard_timeout_for,
)

#: The name of a task that only waits (a stand-in's time): a new look at the table replaces it.
WAIT_TASK = "paston-stand-in-wait"
#: The player that stands in for a person who is away.
STANDIN = FALLBACK

#: Seconds computer players go on at a table after the last person or spectator left.
UNWATCHED_GRACE = 30.0

Commit = Callable[[Table, int, Action], Awaitable[None]]


def seat_bots(table: Table, *, new: bool = False) -> None:
    """Give each bot seat of a table its computer player (a name and a secret seed); a
    ``new`` table counts as just watched (its creator is about to open it)."""
    lesson = None if table.lesson is None else lesson_by_id(table.lesson)
    for i, s in enumerate(table.seats):
        if s.kind == "bot" and s.bot:
            # a lesson's computer players are seeded by the lesson: its deal plays as rehearsed
            seed = secrets.randbits(64) if lesson is None else bot_seed(lesson.bots, i)
            table.bots[i] = BotSeat(s.bot, seed)
    if new:
        table.watched_at = time.monotonic()


def actor(table: Table, seat: int) -> BotSeat | None:
    """The computer player that acts for ``seat`` now, if any."""
    if seat in table.bots:
        return table.bots[seat]
    if table.standing_in(seat):
        if seat not in table.standins:
            table.standins[seat] = BotSeat(STANDIN, secrets.randbits(64))
        return table.standins[seat]
    return None


def job_for(table: Table, seat: int, bot: BotSeat, budget: float | None) -> Job:
    """The job of one decision: the seat's view only, and a seed from the seat's seed and
    the table's version."""
    return Job(bot.name, decision_seed(bot.seed, table.version), budget, table.match.view(seat))


def make_pool(workers: int, budget: float | None) -> BotPool:
    """``workers`` processes (0: threads of the server process, as before the pool)."""
    if workers < 0:
        raise ValueError(f"bot workers must be 0 or more, not {workers!r}")
    if workers == 0:
        return ThreadBotPool(hard_timeout_for(budget))
    return ProcessBotPool(workers, hard_timeout=hard_timeout_for(budget))


class BotRunner:
    """Lets computer players act at the tables: ``commit`` logs and applies an action
    (the caller holds the table's lock), ``broadcast`` sends the news. Decisions are made
    by a pool of ``workers`` processes (default: one per core less one; 0: threads), each
    with a time ``budget`` in seconds (see :mod:`paston.server.work.botpool`)."""

    def __init__(
        self,
        delay: float,
        commit: Commit,
        broadcast: Callable[[Table], None],
        *,
        workers: int | None = None,
        budget: float | None = DEFAULT_BUDGET,
    ) -> None:
        if budget is not None and not budget > 0:
            raise ValueError(f"the bot time budget must be a positive number of seconds, not {budget!r}")
        self.delay = delay
        self.budget = budget
        self.unwatched_grace = UNWATCHED_GRACE
        self.pool = make_pool(default_workers() if workers is None else workers, budget)
        self._commit = commit
        self._broadcast = broadcast
        self.on_decision: Callable[[float], None] | None = None  # hears each decision's seconds

    def watched(self, table: Table) -> bool:
        """Whether computer players may move at the table now (someone is connected,
        or was within the grace)."""
        now = time.monotonic()
        if table.connections:
            table.watched_at = now
            return True
        return now - table.watched_at <= self.unwatched_grace

    def schedule(self, table: Table) -> None:
        """If a computer player is to move (a bot's seat, or a person's seat taken over
        after the table's delay), let it act after a short delay; if a person to move is
        offline and takeover is on, check again when it is due. Nothing happens at a
        table nobody watches."""
        seat = table.match.to_move
        if seat is None or table.gone:
            return
        if table.bot_task is not None and not table.bot_task.done():
            if table.bot_task.get_name() != WAIT_TASK:
                return  # a computer player is thinking or moving
            table.bot_task.cancel()  # only waiting for a stand-in's time: look again now
            table.bot_task = None
        if not self.watched(table):
            return
        loop = asyncio.get_running_loop()
        if table.waits_for_people():
            due = self._stand_in_due(table)
            if due is not None:
                table.bot_task = loop.create_task(self._after(due + 0.01, table), name=WAIT_TASK)
            return
        if actor(table, seat) is not None:
            table.bot_task = loop.create_task(self._turns(table))
        elif table.takeover_seconds is not None and table.seats[seat].taken and not table.online(seat):
            due = table.takeover_seconds - table.offline_for(seat)
            table.bot_task = loop.create_task(self._after(max(0.0, due) + 0.01, table), name=WAIT_TASK)

    @staticmethod
    def _stand_in_due(table: Table) -> float | None:
        """Seconds until a stand-in may play for a seated person who has not come to the
        provisional first deal (``None``: takeover is off, or no such seat)."""
        if table.takeover_seconds is None or table.reshuffling:
            return None
        waiting = [
            i for i, s in enumerate(table.seats) if s.kind == "human" and s.taken and i not in table.arrived
        ]
        if not waiting:
            return None
        return max(0.0, min(table.takeover_seconds - table.offline_for(i) for i in waiting))

    def close(self) -> None:
        """Stop the computer players (at shutdown)."""
        self.pool.close()

    async def _after(self, delay: float, table: Table) -> None:
        await asyncio.sleep(delay)
        table.bot_task = None
        self.schedule(table)

    async def _turns(self, table: Table) -> None:
        while True:
            seat = table.match.to_move
            bot = None if seat is None else actor(table, seat)
            if table.gone:  # another worker plays it now: this copy does nothing more
                table.bot_task = None
                return
            if seat is None or bot is None or not self.watched(table) or table.waits_for_people():
                table.bot_task = None
                self.schedule(table)
                return
            await asyncio.sleep(self.delay)
            if actor(table, seat) is not bot:
                continue  # the person came back
            version = table.version
            job = job_for(table, seat, bot, self.budget)
            asked = time.monotonic()
            action = await self.pool.decide(job, f"at table {table.id} seat {seat}")
            if self.on_decision is not None:
                self.on_decision(time.monotonic() - asked)
            async with table.lock:
                if table.waits_for_people() or version != table.version:
                    continue  # a move meanwhile, or the first deal shuffled again
                if table.match.why_illegal(action, seat) is not None:
                    continue
                if actor(table, seat) is not bot:
                    continue
                try:
                    await self._commit(table, seat, action)
                except FencedOut:
                    table.bot_task = None
                    return  # another worker owns the table: this copy stops
                except TableError:
                    continue  # the database failed: nothing changed, try again
            self._broadcast(table)
