"""Solving the sampled worlds of one decision on several threads.

The compiled solver releases the GIL while it searches, so worlds solved on different
threads, each thread with its own :class:`~paston.solver.Solver` (its own tables), run
in parallel. :meth:`WorldPool.map` returns the results in the order of the items, so a
caller that aggregates them in that order gets the same answer for any thread count.

>>> pool = world_pool(2)
>>> pool.map(lambda solver, x: x * x, [1, 2, 3, 4], default_solver())
[1, 4, 9, 16]
>>> default_threads() >= 1
True
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from paston.solver import Solver, default_solver

T = TypeVar("T")
R = TypeVar("R")

THREADS_ENV = "PASTON_PIMC_THREADS"
"""Environment variable: how many threads pimc solves worlds on (default: the cores)."""
MAX_THREADS = 64
INLINE_BELOW = 0.002
"""Seconds: when the first world took so little that the rest is forecast to take less
than this, :meth:`WorldPool.map` solves them all on the caller's thread."""


def default_threads() -> int:
    """``PASTON_PIMC_THREADS`` if set to a number from 1 to 64, else the cores this
    process may run on."""
    text = os.environ.get(THREADS_ENV, "").strip()
    if text.isdigit() and 1 <= int(text) <= MAX_THREADS:
        return int(text)
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_THREADS))


def _check(threads: object) -> None:
    if type(threads) is not int or not 1 <= threads <= MAX_THREADS:
        raise ValueError(f"threads must be an int from 1 to {MAX_THREADS}, not {threads!r}")


class WorldPool:
    """A pool of ``threads`` threads, each with its own solver, created on first use."""

    def __init__(self, threads: int) -> None:
        _check(threads)
        self.threads = threads
        self._local = threading.local()
        self._executor = (
            ThreadPoolExecutor(threads, thread_name_prefix="paston-worlds") if threads > 1 else None
        )

    def _solver(self) -> Solver:
        solver: Solver | None = getattr(self._local, "solver", None)
        if solver is None:
            solver = self._local.solver = Solver()
        return solver

    def map(self, fn: Callable[[Solver, T], R], items: Sequence[T], solver: Solver) -> list[R]:
        """``[fn(s, item) for item in items]`` in the items' order, where ``s`` is a
        solver of the thread running the call (``solver``, on the caller's thread, when
        the pool has one thread, there is a single item or the first item shows that the
        rest is quicker to solve here, see :data:`INLINE_BELOW`)."""
        if self._executor is None or len(items) <= 1:
            return [fn(solver, item) for item in items]
        # the first item on the caller's thread: when the rest is forecast to take less
        # than handing it to the threads costs, it is solved here too (a card late in a
        # deal takes microseconds a world; the threads' round trips would double it)
        start = time.perf_counter()
        first = [fn(solver, items[0])]
        rest = items[1:]
        if (time.perf_counter() - start) * len(rest) < INLINE_BELOW:
            return first + [fn(solver, item) for item in rest]
        # contiguous chunks, a few per thread: little overhead, and a slow world does not
        # leave the other threads idle for long
        size = max(1, -(-len(rest) // (self.threads * 4)))
        chunks = [rest[i : i + size] for i in range(0, len(rest), size)]

        def run(chunk: Sequence[T]) -> list[R]:
            own = self._solver()
            return [fn(own, item) for item in chunk]

        out: list[R] = first
        for part in self._executor.map(run, chunks):
            out.extend(part)
        return out


_POOLS: dict[tuple[int, int], WorldPool] = {}
_POOLS_LOCK = threading.Lock()


def world_pool(threads: int) -> WorldPool:
    """The process's shared pool of ``threads`` threads (a new one after a fork: the
    threads of the parent do not exist in the child)."""
    _check(threads)
    key = (os.getpid(), threads)
    with _POOLS_LOCK:
        pool = _POOLS.get(key)
        if pool is None:
            pool = _POOLS[key] = WorldPool(threads)
        return pool


__all__ = ["THREADS_ENV", "WorldPool", "default_solver", "default_threads", "world_pool"]
