"""Jobs on a Ray cluster (the optional extra ``paston[ray]``): :class:`RayExecutor`.

``RayExecutor()`` starts a local Ray instance (``ray.init()``, which first looks for a
cluster named by ``RAY_ADDRESS`` or started on this machine); ``RayExecutor("HEAD:6379")``
joins an existing cluster. Each job is one Ray task on one CPU; results come back in the
jobs' order, at most ``window`` jobs (twice the cluster's CPUs by default) submitted and
not yet handed on, so a million-deal tournament holds only a few results in memory. A
job whose worker dies is run again by Ray (``max_retries``): jobs are deterministic, so a
retry gives the same result. Every machine of the cluster needs the same version of
``paston`` installed (the workers import it; the C solver is not shipped over the wire).

When Ray is already running in this process (a script that called ``ray.init`` itself,
the tests), the executor uses that instance and leaves it running when closed.

>>> make_executor(workers=3, ray_address=None).describe()
'3 workers'
>>> ray_wanted("local"), ray_wanted(None)
(True, False)
"""

from __future__ import annotations

import importlib
import logging
import os
import socket
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from paston.bots.worlds import THREADS_ENV
from paston.eval.executor import Executor, ExecutorBase, PoolExecutor, SerialExecutor

J = TypeVar("J")
R = TypeVar("R")

LOCAL = "local"
"""The ``--ray`` value that means: no address, ``ray.init()`` (a local instance)."""
INSTALL_HINT = "Ray is not installed; install it with: pip install 'paston[ray]'"


class RayUnavailableError(RuntimeError):
    """Ray is not installed, or the cluster cannot be reached."""


def ray_wanted(address: str | None) -> bool:
    """Whether a ``--ray`` value asks for Ray (``None``: the process pool)."""
    return address is not None


def _run_job(fn: Callable[[Any], Any], job: Any, threads: str) -> Any:
    """The Ray task: one job on a worker, pimc on ``threads`` solver threads."""
    os.environ[THREADS_ENV] = threads
    return fn(job)


def reachable(address: str, timeout: float = 10.0) -> None:
    """Refuse at once a ``HOST:PORT`` that nothing answers on (``ray.init`` would wait on
    it for many minutes); other forms (``auto``, ``ray://…``) are left to Ray.

    >>> reachable("auto")
    >>> try:
    ...     reachable("127.0.0.1:1", timeout=1)  # nothing listens on port 1
    ... except RayUnavailableError as err:
    ...     print(str(err).split(": ")[0])
    cannot reach the Ray cluster at 127.0.0.1:1
    """
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or "/" in address:
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as err:
        raise RayUnavailableError(
            f"cannot reach the Ray cluster at {address}: {err.strerror or err} "
            "(is `ray start --head` running there, and the port open?)"
        ) from None


def _import_ray() -> Any:
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise RayUnavailableError(INSTALL_HINT) from None


class RayExecutor(ExecutorBase):
    """Jobs as Ray tasks: on a local instance (``address`` ``None`` or ``"local"``) or on
    the cluster at ``address`` (``HOST:PORT``, ``auto``, ``ray://HOST:PORT``).

    ``init`` is passed on to ``ray.init`` when this executor starts Ray (the tests give
    ``num_cpus``, ``include_dashboard``, ``object_store_memory``)."""

    def __init__(self, address: str | None = None, *, window: int | None = None, **init: Any) -> None:
        ray = _import_ray()
        self._ray = ray
        self.address = None if address in (None, LOCAL) else address
        self._started = False
        if self.address is not None:
            reachable(self.address)
        if not ray.is_initialized():
            init.setdefault("logging_level", logging.WARNING)
            init.setdefault("include_dashboard", False)
            try:
                ray.init(address=self.address, **init)
            except Exception as err:  # ConnectionError, ValueError, RuntimeError: all mean "no cluster"
                where = f"the Ray cluster at {self.address}" if self.address else "a local Ray instance"
                raise RayUnavailableError(f"cannot start or reach {where}: {err}") from None
            self._started = True
        self.cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self.window = window or 2 * self.cpus
        threads = os.environ.get(THREADS_ENV, "").strip() or "1"
        self._threads = threads
        self._task = ray.remote(_run_job).options(num_cpus=1, max_retries=3)

    def map(self, fn: Callable[[J], R], jobs: Iterable[J]) -> Iterator[R]:
        """``fn(job)`` for every job as a Ray task, yielded in the jobs' order."""
        ray = self._ray
        todo = iter(enumerate(jobs))
        pending: dict[Any, int] = {}  # object ref → job index
        done: dict[int, R] = {}
        next_out = 0
        exhausted = False
        try:
            while True:
                while not exhausted and len(pending) + len(done) < self.window:
                    item = next(todo, None)
                    if item is None:
                        exhausted = True
                        break
                    i, job = item
                    pending[self._task.remote(fn, job, self._threads)] = i
                if not pending and not done:
                    return
                if next_out not in done:
                    ready, _ = ray.wait(list(pending), num_returns=1)
                    for ref in ready:
                        done[pending.pop(ref)] = ray.get(ref)
                while next_out in done:
                    yield done.pop(next_out)
                    next_out += 1
        finally:
            for ref in pending:  # a consumer that stopped early: cancel what is left
                ray.cancel(ref)

    def describe(self) -> str:
        """``Ray at HOST:PORT (N CPUs)`` or ``local Ray (N CPUs)``."""
        where = f"Ray at {self.address}" if self.address else "local Ray"
        return f"{where} ({self.cpus} CPU{'' if self.cpus == 1 else 's'})"

    def close(self) -> None:
        """Shut Ray down if this executor started it."""
        if self._started:
            self._ray.shutdown()
            self._started = False


def make_executor(*, workers: int, ray_address: str | None) -> Executor:
    """The executor a command asked for: Ray when ``ray_address`` is given (``"local"``
    for a local instance), else a process pool of ``workers`` (one: this process)."""
    if ray_wanted(ray_address):
        return RayExecutor(ray_address)
    return SerialExecutor() if workers <= 1 else PoolExecutor(workers)


__all__ = ["LOCAL", "RayExecutor", "RayUnavailableError", "make_executor", "ray_wanted", "reachable"]
