"""Where computer players think: a pool of worker processes (the default), or threads of
the server process (``--bot-workers 0``, the design before the pool).

The compiled solver holds the interpreter lock while it searches, so a ``pimc`` player
thinking in a thread of the server stops every other table for as long as it thinks.
In the pool each decision is a :class:`~paston.server.work.botjobs.Job` (the seat's view,
never the deal) sent over a pipe to an idle worker process; the event loop only routes
the bytes (it is woken by the pipe, no thread waits). A decision that does not come back
within ``hard_timeout`` seconds, or whose worker dies, is decided by the fast
:data:`~paston.server.work.botjobs.FALLBACK` player instead, with one line in the log, and the
worker is replaced, so the table always moves on. A decision that has waited
``queue_timeout`` seconds (by default ``hard_timeout``) for a worker without getting one
is the fallback player's too.

Hints never hold up a decision: decisions go to the workers first, hints only when no
decision waits, and at most ``max_hints`` hints wait at once (one more is refused at
once with :class:`PoolBusy`); a hint nobody waits for any more is dropped from the queue.

>>> hard_timeout_for(2.0), hard_timeout_for(None)
(5.0, 60.0)
>>> default_workers() >= 1
True
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import pickle
import signal
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import Any, Protocol

from paston.actions import Action
from paston.bots.worlds import THREADS_ENV
from paston.errors import ParseError
from paston.server.work.botjobs import FALLBACK, HintJob, Job, decode, encode, fallback, run_any, run_job
from paston.server.work.lifeline import bind_to_parent, worker_context

log = logging.getLogger("paston.server.work.botpool")

#: Seconds a ``pimc`` decision may sample by default (it then decides on what it has).
DEFAULT_BUDGET = 2.0

#: How much lower the worker processes' scheduling priority is than the server's: when the
#: machine is busy, routing messages goes first and computer players wait a little.
WORKER_NICENESS = 19

#: Modules the worker processes start with (imported once, in the fork server).
PRELOAD = [
    "paston.server.work.botpool",
    "paston.bots.pimc",
    "paston.bots.explain",
    "paston.bots.heuristic",
    "paston.bots.random_player",
]


def default_workers() -> int:
    """Worker processes by default: one per core the server may use, less one for the
    server itself, and at least one."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, cores - 1)


def hard_timeout_for(budget: float | None) -> float:
    """Seconds after which a decision is given up: twice the budget plus a second (a
    budget is checked between samples, and a sample can take a while), or a minute
    without a budget."""
    return 2.0 * budget + 1.0 if budget is not None else 60.0


class BotFailure(Exception):
    """A decision that did not come back: it overran, its worker died, or the player failed."""


class PoolBusy(BotFailure):
    """A hint refused at once: as many hints as the pool lets wait are waiting already."""


#: Hints that may wait for a worker at once, per worker of the pool.
HINTS_PER_WORKER = 2


class BotPool(Protocol):
    """Decides jobs; never fails (a failed decision is the fallback player's)."""

    async def decide(self, job: Job, where: str) -> Action:
        """The action for ``job``; ``where`` names the table and seat in the log."""
        ...

    async def hint(self, job: HintJob) -> dict[str, Any]:
        """The hint for ``job`` (:meth:`paston.bots.explain.Hint.to_dict`); raises
        :class:`BotFailure` when it cannot be had in time (there is no fallback)."""
        ...

    def close(self) -> None:
        """Stop deciding (the jobs still waiting are cancelled)."""
        ...


def _fall_back(job: Job, where: str, reason: str) -> Action:
    action = fallback(job)
    log.warning("computer player %s %s: %s; %s played %s instead", job.name, where, reason, FALLBACK, action)
    return action


class ThreadBotPool:
    """Decisions in threads of the server process (the design before the pool: a
    ``pimc`` player then slows every table of the server)."""

    def __init__(self, hard_timeout: float) -> None:
        self.hard_timeout = hard_timeout
        self.fallbacks = 0

    async def decide(self, job: Job, where: str) -> Action:
        try:
            return await asyncio.wait_for(asyncio.to_thread(run_job, job), self.hard_timeout)
        except TimeoutError:
            reason = f"no decision within {self.hard_timeout:g} s"
        except Exception as err:
            reason = f"{type(err).__name__}: {err}"
        self.fallbacks += 1
        return _fall_back(job, where, reason)

    async def hint(self, job: HintJob) -> dict[str, Any]:
        try:
            text = await asyncio.wait_for(asyncio.to_thread(run_any, job), self.hard_timeout)
        except TimeoutError:
            raise BotFailure(f"no hint within {self.hard_timeout:g} s") from None
        except Exception as err:
            raise BotFailure(f"{type(err).__name__}: {err}") from None
        result: dict[str, Any] = json.loads(text)
        return result

    def close(self) -> None:
        return None


def _worker_main(conn: Connection) -> None:
    """A worker process: decide each job that arrives, until the server goes away."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, which stops us
    bind_to_parent()  # and so does its death (kill -9): the fork server's, then ours
    os.environ.setdefault(THREADS_ENV, "1")  # the pool's processes share the cores: one solver thread each
    with contextlib.suppress(OSError, AttributeError):  # not everywhere
        os.nice(WORKER_NICENESS)
    while True:
        try:
            data = conn.recv_bytes()
        except (EOFError, OSError):
            return
        try:
            reply = ("ok", run_any(decode(data)))
        except Exception as err:
            reply = ("error", f"{type(err).__name__}: {err}")
        try:
            conn.send_bytes(pickle.dumps(reply))
        except OSError:
            return


def _default_context() -> BaseContext:
    """The workers' context (:func:`~paston.server.work.lifeline.worker_context`)."""
    return worker_context(PRELOAD)


@dataclass(eq=False)
class _Pending:
    job: Job | HintJob
    where: str
    payload: bytes
    future: asyncio.Future[str]
    expiry: asyncio.TimerHandle | None = None  # fails the job if it waits too long for a worker
    queued_at: float = 0.0  # the loop's time when it began to wait


@dataclass(eq=False)
class _Worker:
    process: BaseProcess
    conn: Connection
    pending: _Pending | None = None
    timer: asyncio.TimerHandle | None = None


_HELPER: list[ThreadPoolExecutor] = []


def _helper() -> ThreadPoolExecutor:
    """The one thread that starts and reaps worker processes, for every pool (starting a
    process takes a while; and one at a time, as :mod:`multiprocessing` wants)."""
    if not _HELPER:
        _HELPER.append(ThreadPoolExecutor(1, thread_name_prefix="paston-bot-pool"))
    return _HELPER[0]


def _reap(process: BaseProcess) -> None:
    process.join(5.0)
    if process.exitcode is not None:
        process.close()


class ProcessBotPool:
    """At most ``size`` worker processes, started when first needed and replaced when
    one dies or overruns. Decisions wait their turn in order of arrival (a table has at
    most one job at a time, so no table starves another), each at most ``queue_timeout``
    seconds (default ``hard_timeout``); hints wait behind every decision, at most
    ``max_hints`` of them (default: :data:`HINTS_PER_WORKER` per worker)."""

    def __init__(
        self,
        size: int,
        *,
        hard_timeout: float,
        context: BaseContext | None = None,
        max_hints: int | None = None,
        queue_timeout: float | None = None,
    ) -> None:
        if size < 1:
            raise ValueError(f"a pool needs at least one worker, not {size!r}")
        self.size = size
        self.hard_timeout = hard_timeout
        self.max_hints = max_hints if max_hints is not None else HINTS_PER_WORKER * size
        self.queue_timeout = queue_timeout
        self.hints_refused = 0  # hints refused because as many were waiting
        self.started = 0  # worker processes started so far
        self.fallbacks = 0  # decisions the fallback player made
        self._context = context or _default_context()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._generation = 0  # a new one after close(): late starts of the old are stopped
        self._workers: list[_Worker] = []
        self._idle: list[_Worker] = []
        self._queue: deque[_Pending] = deque()  # decisions
        self._hints: deque[_Pending] = deque()
        self._starting = 0
        self.on_wait: Callable[[float], None] | None = None  # hears how long each decision waited

    # --- what the tables see -------------------------------------------------------------------
    async def decide(self, job: Job, where: str) -> Action:
        try:
            return Action.parse(await self._run(job, where))
        except (BotFailure, ParseError) as err:
            self.fallbacks += 1
            return _fall_back(job, where, str(err))

    async def hint(self, job: HintJob) -> dict[str, Any]:
        result: dict[str, Any] = json.loads(await self._run(job, "(a hint)"))
        return result

    async def _run(self, job: Job | HintJob, where: str) -> str:
        """The worker's answer to ``job`` (in its turn); :class:`BotFailure` if none."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self.close()
            self._loop = loop
        pending = _Pending(job, where, encode(job), loop.create_future(), queued_at=loop.time())
        if isinstance(job, HintJob):
            self._drop_abandoned(self._hints)
            if len(self._hints) >= self.max_hints:
                self.hints_refused += 1
                raise PoolBusy(f"{len(self._hints)} hints are waiting already")
            self._hints.append(pending)
        else:
            self._queue.append(pending)
            wait = self.queue_timeout if self.queue_timeout is not None else self.hard_timeout
            pending.expiry = loop.call_later(wait, self._expired, pending, wait)
        self._dispatch()
        return await pending.future

    @staticmethod
    def _drop_abandoned(queue: deque[_Pending]) -> None:
        """Forget the jobs nobody waits for any more (their futures are done: cancelled)."""
        if any(p.future.done() for p in queue):
            kept = [p for p in queue if not p.future.done()]
            queue.clear()
            queue.extend(kept)

    def _expired(self, pending: _Pending, wait: float) -> None:
        """A decision that waited ``wait`` seconds without a worker: the fallback player's
        (it stays queued only until the dispatcher sees it done)."""
        pending.expiry = None
        if not pending.future.done():
            self._waited(pending)
            waiting = len(self._queue)
            pending.future.set_exception(
                BotFailure(f"no decision within {wait:g} s: no worker was free ({waiting} decisions waiting)")
            )

    def _waited(self, pending: _Pending) -> None:
        if self.on_wait is not None and self._loop is not None:
            self.on_wait(self._loop.time() - pending.queued_at)

    def queued(self) -> tuple[int, int]:
        """Decisions and hints waiting for a worker now."""
        return (
            sum(not p.future.done() for p in self._queue),
            sum(not p.future.done() for p in self._hints),
        )

    def pids(self) -> list[int]:
        """The process ids of the running workers."""
        return [w.process.pid for w in self._workers if w.process.pid is not None]

    def busy_pids(self) -> list[int]:
        """The process ids of the workers deciding now."""
        return [w.process.pid for w in self._workers if w.pending is not None and w.process.pid is not None]

    def close(self) -> None:
        self._generation += 1
        for worker in list(self._workers):
            self._retire(worker)
        for queue in (self._queue, self._hints):
            while queue:
                pending = queue.popleft()
                if pending.expiry is not None:
                    pending.expiry.cancel()
                pending.future.cancel()
        self._starting = 0

    # --- routing ---------------------------------------------------------------------------------
    def _dispatch(self) -> None:
        """Send waiting jobs to idle workers: every decision before any hint."""
        while True:
            queue = self._queue if self._queue else self._hints
            if not queue:
                return
            if queue[0].future.done():  # its table stopped waiting, or it expired
                queue.popleft()
                continue
            if not self._idle:
                wanted = min(self.size - len(self._workers), len(self._queue) + len(self._hints))
                while self._starting < wanted:
                    self._start()
                return
            pending = queue.popleft()
            if pending.expiry is not None:
                pending.expiry.cancel()
                pending.expiry = None
            if queue is self._queue:
                self._waited(pending)
            self._send(self._idle.pop(), pending)

    def _send(self, worker: _Worker, pending: _Pending) -> None:
        assert self._loop is not None
        worker.pending = pending
        try:
            worker.conn.send_bytes(pending.payload)
        except OSError:
            self._lost(worker, "its worker process could not be reached")
            return
        worker.timer = self._loop.call_later(self.hard_timeout, self._overrun, worker)

    def _readable(self, worker: _Worker) -> None:
        try:
            if not worker.conn.poll():
                return
            data = worker.conn.recv_bytes()
        except (EOFError, OSError):
            self._lost(worker, "its worker process stopped")
            return
        pending, worker.pending = worker.pending, None
        if worker.timer is not None:
            worker.timer.cancel()
            worker.timer = None
        self._idle.append(worker)
        if pending is not None and not pending.future.done():
            status, text = pickle.loads(data)
            if status == "ok":
                pending.future.set_result(text)
            else:
                pending.future.set_exception(BotFailure(text))
        self._dispatch()

    def _overrun(self, worker: _Worker) -> None:
        pending = worker.pending
        worker.timer = None
        if pending is None or worker not in self._workers:
            return
        self._retire(worker)  # its work is of no use now: the process is stopped
        if not pending.future.done():
            pending.future.set_exception(BotFailure(f"no decision within {self.hard_timeout:g} s"))
        self._replace()

    def _lost(self, worker: _Worker, reason: str) -> None:
        if worker not in self._workers:
            return
        code = worker.process.exitcode
        self._retire(worker)
        pending = worker.pending
        if pending is not None and not pending.future.done():
            why = reason if code is None else f"{reason} (exit code {code})"
            pending.future.set_exception(BotFailure(why))
        self._replace()

    # --- the processes ---------------------------------------------------------------------------
    def _start(self) -> None:
        assert self._loop is not None
        self._starting += 1
        loop, generation = self._loop, self._generation

        def back_in_the_loop(started: Future[_Worker]) -> None:
            try:
                loop.call_soon_threadsafe(self._spawned, generation, started)
            except RuntimeError:  # the loop is closed: nobody waits for this worker
                if started.exception() is None:
                    self._stop_process(started.result())

        _helper().submit(self._spawn).add_done_callback(back_in_the_loop)

    def _spawn(self) -> _Worker:
        """Start one worker process (in the helper thread: starting takes a while)."""
        parent, child = self._context.Pipe(duplex=True)
        process: BaseProcess = self._context.Process(  # type: ignore[attr-defined]
            target=_worker_main, args=(child,), name="paston-bot", daemon=True
        )
        process.start()
        child.close()
        return _Worker(process, parent)

    def _spawned(self, generation: int, started: Future[_Worker]) -> None:
        error = started.exception()
        if generation != self._generation:  # closed meanwhile
            if error is None:
                self._stop_process(started.result())
            return
        self._starting -= 1
        if error is not None:
            log.error("a bot worker process could not start: %s", error)
            if not self._workers and not self._starting:  # nobody will decide: tables move on without
                for queue in (self._queue, self._hints):
                    while queue:
                        pending = queue.popleft()
                        if pending.expiry is not None:
                            pending.expiry.cancel()
                        if not pending.future.done():
                            pending.future.set_exception(BotFailure("no worker process could start"))
            return
        worker = started.result()
        assert self._loop is not None
        self._loop.add_reader(worker.conn.fileno(), self._readable, worker)
        self._loop.add_reader(worker.process.sentinel, self._lost, worker, "its worker process stopped")
        self._workers.append(worker)
        self._idle.append(worker)
        self.started += 1
        self._dispatch()

    def _replace(self) -> None:
        if len(self._workers) + self._starting < self.size:
            self._start()
        self._dispatch()

    def _retire(self, worker: _Worker) -> None:
        self._workers.remove(worker)
        if worker in self._idle:
            self._idle.remove(worker)
        if worker.timer is not None:
            worker.timer.cancel()
            worker.timer = None
        if self._loop is not None and not self._loop.is_closed():
            for fd in (worker.conn.fileno(), worker.process.sentinel):
                self._loop.remove_reader(fd)
        self._stop_process(worker)

    def _stop_process(self, worker: _Worker) -> None:
        worker.conn.close()
        if worker.process.exitcode is None:
            worker.process.kill()
        _helper().submit(partial(_reap, worker.process))
