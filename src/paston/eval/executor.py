"""Where independent jobs run: in this process, in a pool of processes, or (through
:mod:`paston.eval.distributed`) on a Ray cluster.

An :class:`Executor` maps a picklable function over jobs and yields the results **in
the jobs' order**, whichever worker finished first; every job carries its own seed, so
the results are the same on every executor (tournaments and self-play rely on it).

>>> with SerialExecutor() as ex:
...     list(ex.map(abs, [-2, 3, -4]))
[2, 3, 4]
>>> PoolExecutor(1).describe()
'1 worker'
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.pool
import os
import signal
from collections.abc import Callable, Iterable, Iterator
from types import TracebackType
from typing import Protocol, Self, TypeVar

from paston.bots.worlds import THREADS_ENV

J = TypeVar("J")
R = TypeVar("R")


class Executor(Protocol):
    """Runs jobs; results come back in the jobs' order."""

    def map(self, fn: Callable[[J], R], jobs: Iterable[J]) -> Iterator[R]:
        """``fn(job)`` for every job, in order (``fn`` must be importable by name)."""
        ...

    def describe(self) -> str:
        """Where the jobs run, for the last line of a report: ``4 workers``, ``Ray (8 CPUs)``."""
        ...

    def close(self) -> None:
        """Free the workers (idempotent)."""
        ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None
    ) -> None: ...


def one_solver_thread() -> None:
    """In a worker: pimc solves its worlds on one thread (unless the environment says
    otherwise), since the workers already use the cores."""
    os.environ.setdefault(THREADS_ENV, "1")


def start_worker() -> None:
    """A pool worker's start: one solver thread, and Ctrl-C left to the parent. The
    terminal sends SIGINT to the whole process group; the workers ignore it, so only
    the parent stops (saving what it has) and then terminates them, with no traceback
    from each worker."""
    one_solver_thread()
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class ExecutorBase:
    """What every executor shares: a context manager that closes it."""

    def close(self) -> None:
        """Nothing to free."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


class SerialExecutor(ExecutorBase):
    """Every job in this process, one after another."""

    def map(self, fn: Callable[[J], R], jobs: Iterable[J]) -> Iterator[R]:
        """``fn(job)`` for each job, lazily."""
        return (fn(job) for job in jobs)

    def describe(self) -> str:
        """``1 worker``."""
        return "1 worker"


class PoolExecutor(ExecutorBase):
    """A pool of ``workers`` processes (fork where the system has it), started on the
    first :meth:`map`; with one worker, jobs run in this process."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self._pool: multiprocessing.pool.Pool | None = None

    def map(self, fn: Callable[[J], R], jobs: Iterable[J]) -> Iterator[R]:
        """``fn(job)`` for each job, one job per task, in order."""
        if self.workers == 1:
            return (fn(job) for job in jobs)
        if self._pool is None:
            methods = multiprocessing.get_all_start_methods()
            ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
            self._pool = ctx.Pool(self.workers, initializer=start_worker)
        return self._pool.imap(fn, jobs, chunksize=1)

    def describe(self) -> str:
        """``N workers``."""
        return f"{self.workers} worker" + ("" if self.workers == 1 else "s")

    def close(self) -> None:
        """Stop the worker processes at once."""
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None

    def __exit__(
        self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None
    ) -> None:
        """After a clean run the workers exit on their own (nothing is left to do); after an
        error or an early stop they are terminated."""
        if kind is None and self._pool is not None:
            self._pool.close()
            self._pool.join()
            self._pool = None
        self.close()


__all__ = ["Executor", "ExecutorBase", "PoolExecutor", "SerialExecutor", "one_solver_thread", "start_worker"]
