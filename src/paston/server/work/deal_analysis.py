"""The analysis of each finished deal, computed in the background and kept in the database.

When a deal ends, :meth:`Analyses.deal_ended` sends the deal (its deck, dealer, rules
and actions: a finished deal, whose cards no longer bear on the game) to a worker
process, which runs :func:`paston.eval.analysis.analyze_deal` at the default ``pimc``
level; the event loop only waits for the answer. The result is stored in the
``analyses`` table (one row per table, deal and level) and kept in memory, so it
survives a restart and is computed once. ``GET /api/tables/{id}/deals/{n}/analysis``
(:func:`paston.server.web.app.add_analysis_routes`) answers 200 with it, 202
``{"status": "pending"}`` while it is being computed (a finished deal without a row,
after a restart say, is computed on first request), and 404 for a deal that does not
exist or is not finished: nothing of a running deal is ever analysed.

Moves go first. The workers run at the idle scheduling class (Linux ``SCHED_IDLE``,
else the lowest priority), so they use only the cores nothing else wants; a deal is
analysed as it ends only where a connected client shows the deal's end (a browser:
:meth:`~paston.server.tables.table.Table.shows_deal_ends`), others are analysed when asked
for. Jobs wait in two bounded lists, those asked for first: a deal that ended while
:data:`MAX_ENDED_WAITING` others wait pushes out the oldest, and one of a table that has
:data:`MAX_ENDED_PER_TABLE` waiting already pushes out that table's oldest (each is
computed when asked for), so one table played fast cannot hold the others' back; past
:data:`MAX_ASKED_WAITING` a request is answered pending without being queued (it is
queued when asked again with room).

>>> job = DealJob.of(_sample_deal(), 0, level=1)
>>> result = run_analysis(job)
>>> result["deal"], result["level"], len(result["cards"]) > 0
(0, 1, True)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections import deque
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from paston.actions import Action
from paston.bots.pimc import DEFAULT_LEVEL
from paston.bots.worlds import THREADS_ENV
from paston.deal import Deal
from paston.rules import Rules
from paston.server.store.db import AnalysisRow, now
from paston.server.table_error import TableError
from paston.server.work.lifeline import bind_to_parent, worker_context

log = logging.getLogger("paston.server.work.deal_analysis")

#: Worker processes that analyse deals, unless the server says otherwise.
ANALYSIS_WORKERS = 1
#: Analyses kept in memory (the oldest go first; the database keeps every one).
KEEP_IN_MEMORY = 256
#: Their scheduling priority is lowered as the bot workers' is: moves go first.
WORKER_NICENESS = 19
#: Ended deals waiting to be analysed unasked; one more pushes out the oldest.
MAX_ENDED_WAITING = 64
#: Ended deals of one table waiting unasked; one more pushes out that table's oldest (a
#: table played fast once filled the list and held every other table's analysis back).
MAX_ENDED_PER_TABLE = 2
#: Asked-for deals waiting to be analysed; more are answered pending without a place.
MAX_ASKED_WAITING = 256

_SOLVER: Any = None


@dataclass(frozen=True, slots=True)
class DealJob:
    """A finished deal as it crosses to a worker: the deck, the dealer, the rules and
    the actions (seat, text), its index in the game, and the analysis level and seed."""

    deck: tuple[int, ...]
    dealer: int
    rules: dict[str, Any]
    first_deal: bool
    actions: tuple[tuple[int, str], ...]
    index: int
    level: int
    seed: int

    @classmethod
    def of(cls, deal: Deal, index: int, *, level: int = DEFAULT_LEVEL, seed: int = 0) -> DealJob:
        return cls(
            tuple(int(c) for c in deal.deck),
            deal.dealer,
            deal.rules.to_dict(),
            deal.first_deal,
            tuple((e.seat, str(e.action)) for e in deal.events),
            index,
            level,
            seed,
        )

    def deal(self) -> Deal:
        """The deal rebuilt by replaying its actions."""
        deal = Deal(
            self.deck, dealer=self.dealer, rules=Rules.from_dict(self.rules), first_deal=self.first_deal
        )
        for seat, text in self.actions:
            deal.apply(Action.parse(text), seat)
        return deal


def run_analysis(job: DealJob) -> dict[str, Any]:
    """Analyse one deal (in a worker: its solver, and its tables, serve every job)."""
    global _SOLVER
    from paston.eval.analysis import analyze_deal
    from paston.solver import Solver

    if _SOLVER is None:
        _SOLVER = Solver()
    return analyze_deal(job.deal(), job.index, level=job.level, seed=job.seed, solver=_SOLVER)


def _worker_start() -> None:
    bind_to_parent()  # dies with the fork server, which dies with the server (kill -9)
    os.environ.setdefault(THREADS_ENV, "1")  # the server's other work shares the cores
    with contextlib.suppress(OSError, AttributeError):  # not everywhere
        os.nice(WORKER_NICENESS)
    # the idle class: a waking server thread preempts the analysis at once (nice alone
    # lets it finish its slice, which doubled the moves' latency under load)
    with contextlib.suppress(OSError, AttributeError):  # Linux only
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    import paston.eval.analysis  # noqa: F401  (loaded once, before the first deal)


def analysis_executor(workers: int) -> Executor:
    """``workers`` processes (forkserver where offered), or one thread with 0 (tests)."""
    if workers <= 0:
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="analysis")
    context = worker_context(["paston.eval.analysis"])
    return ProcessPoolExecutor(workers, context, initializer=_worker_start)


def _sample_deal() -> Deal:
    """A short finished deal for the examples: everyone passes, the holder of J♠ plays."""
    import random

    deal = Deal.random(random.Random(4), dealer=0)
    while not deal.is_over:
        deal.apply(deal.legal_actions()[0])
    return deal


class Analyses:
    """Each finished deal's analysis: in memory, in the database, or being computed."""

    def __init__(
        self, sessions: sessionmaker[Session], *, workers: int = ANALYSIS_WORKERS, level: int = DEFAULT_LEVEL
    ) -> None:
        self.sessions = sessions
        self.level = level
        self.workers = workers
        self._executor: Executor | None = None
        self._done: dict[tuple[str, int], dict[str, Any]] = {}  # the latest KEEP_IN_MEMORY
        self._running: dict[tuple[str, int], asyncio.Task[None]] = {}  # in a worker now
        self._asked: dict[tuple[str, int], DealJob] = {}  # waiting, asked for (first in, first out)
        self._ended: dict[tuple[str, int], DealJob] = {}  # waiting, unasked (first in, first out)
        self.durations: deque[float] = deque(maxlen=1000)  # seconds from a deal's end to its analysis

    def _pool(self) -> Executor:
        if self._executor is None:
            self._executor = analysis_executor(self.workers)
        return self._executor

    def start(self) -> None:
        """Start the workers now, so that the first deal does not wait for them."""
        pool = self._pool()
        if isinstance(pool, ProcessPoolExecutor):
            pool.submit(_worker_start)

    @property
    def busy(self) -> bool:
        """Whether an analysis is being computed or waits for a worker."""
        return bool(self._running or self._asked or self._ended)

    def waiting(self) -> int:
        """Analyses waiting for a worker."""
        return len(self._asked) + len(self._ended)

    def close(self) -> None:
        """Stop: analyses under way are dropped (they are computed again when asked for)."""
        self._asked.clear()
        self._ended.clear()
        for task in self._running.values():
            task.cancel()
        if self._executor is not None:
            # the workers are stopped, not waited for: one may be in the middle of a deal
            workers = []
            if isinstance(self._executor, ProcessPoolExecutor):
                workers = list((self._executor._processes or {}).values())
            self._executor.shutdown(wait=False, cancel_futures=True)
            for worker in workers:
                worker.terminate()
            for worker in workers:
                worker.join(timeout=2)
            self._executor = None

    def deal_ended(self, table_id: str, deal: Deal, index: int) -> None:
        """Analyse a deal that just ended, after those asked for (on the event loop;
        returns at once). The oldest unasked deal waiting is pushed out when
        :data:`MAX_ENDED_WAITING` wait."""
        key = (table_id, index)
        if key in self._done or key in self._running or key in self._asked or key in self._ended:
            return
        same_table = [k for k in self._ended if k[0] == table_id]
        for old in same_table[: max(0, len(same_table) - MAX_ENDED_PER_TABLE + 1)]:
            del self._ended[old]  # the table's oldest: computed when asked for
        self._ended[key] = DealJob.of(deal, index, level=self.level)
        while len(self._ended) > MAX_ENDED_WAITING:
            del self._ended[next(iter(self._ended))]
        self._start_next()

    def _ask(self, table_id: str, deal: Deal, index: int) -> None:
        """Analyse a deal someone asked for, before the unasked ones (no place: nothing)."""
        key = (table_id, index)
        job = self._ended.pop(key, None)
        if key in self._running or key in self._asked:
            return
        if len(self._asked) >= MAX_ASKED_WAITING:
            return  # answered pending; asked again with room, it is queued
        self._asked[key] = job or DealJob.of(deal, index, level=self.level)
        self._start_next()

    def _start_next(self) -> None:
        """Hand waiting jobs to the workers while one is free (asked-for jobs first)."""
        loop = asyncio.get_running_loop()
        while len(self._running) < max(1, self.workers) and (self._asked or self._ended):
            waiting = self._asked or self._ended
            key = next(iter(waiting))
            job = waiting.pop(key)
            self._running[key] = loop.create_task(self._compute(key, job))

    async def _compute(self, key: tuple[str, int], job: DealJob) -> None:
        loop = asyncio.get_running_loop()
        started = loop.time()
        try:
            result = await loop.run_in_executor(self._pool(), run_analysis, job)
            await asyncio.to_thread(self._store, key, result)
            self._remember(key, result)
            self.durations.append(loop.time() - started)
        except asyncio.CancelledError:
            raise
        except BrokenExecutor:  # a worker died: the next analysis gets new workers
            log.warning(
                "an analysis worker stopped; deal %d of table %s is analysed when asked for", key[1], key[0]
            )
            if self._executor is not None:
                self._executor.shutdown(wait=False, cancel_futures=True)
                self._executor = None
        except Exception as err:  # a broken worker: asked for again, it is computed again
            log.warning(
                "analysis of deal %d of table %s failed: %s: %s", key[1], key[0], type(err).__name__, err
            )
        finally:
            self._running.pop(key, None)
            with contextlib.suppress(RuntimeError):  # the loop is closing: nothing more to start
                self._start_next()

    def _remember(self, key: tuple[str, int], result: dict[str, Any]) -> None:
        self._done[key] = result
        while len(self._done) > KEEP_IN_MEMORY:
            del self._done[next(iter(self._done))]  # the oldest: the database keeps it

    def _store(self, key: tuple[str, int], result: dict[str, Any]) -> None:
        with self.sessions() as session:
            session.add(
                AnalysisRow(table_id=key[0], deal=key[1], level=self.level, data=result, created=now())
            )
            try:
                session.commit()
            except IntegrityError:  # already stored (by an earlier run of the server)
                session.rollback()

    def _load(self, key: tuple[str, int]) -> dict[str, Any] | None:
        with self.sessions() as session:
            row = session.scalars(
                select(AnalysisRow).where(
                    AnalysisRow.table_id == key[0],
                    AnalysisRow.deal == key[1],
                    AnalysisRow.level == self.level,
                )
            ).first()
            return None if row is None else dict(row.data)

    async def get(self, table_id: str, deals: list[Deal], index: int) -> dict[str, Any] | None:
        """The analysis of deal ``index`` of a table's ``deals``, or None while it is being
        computed (started here if need be). A deal that does not exist or is not over is
        a :class:`TableError` (``no-deal``, ``deal-not-finished``)."""
        if not 0 <= index < len(deals):
            raise TableError("no-deal", f"the game has no deal {index} (it has {len(deals)})")
        deal = deals[index]
        if not deal.is_over:
            raise TableError(
                "deal-not-finished", f"deal {index} is still being played: it is analysed once over"
            )
        key = (table_id, index)
        if key in self._done:
            return self._done[key]
        if key in self._running or key in self._asked:
            return None
        stored = await asyncio.to_thread(self._load, key)
        if stored is not None:
            self._remember(key, stored)
            return stored
        if key not in self._done:  # (computed meanwhile)
            self._ask(table_id, deal, index)
        return self._done.get(key)
