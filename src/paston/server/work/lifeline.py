"""Worker processes that die with the server.

The server's helper processes (the fork server, the bot workers, the analysis workers)
are started through :mod:`multiprocessing`; killed with ``kill -9``, the server left them
running: a process waiting on a queue whose other end it holds itself never hears that
the server is gone. On Linux each asks the kernel to kill it when its parent dies
(``prctl(PR_SET_PDEATHSIG, SIGKILL)``): the workers (children of the fork server) when
the fork server dies. The fork server itself watches the server (a thread looking every
:data:`WATCH_SECONDS`) instead: the kernel's signal follows the parent's *thread* that
started the process, and a fork server started from a thread of the server (a pool made
in a worker thread, a test's server in a thread) was killed when that thread ended, so
the next pool's start read ``EOFError`` from the dying fork server. Elsewhere nothing
changes (the workers still leave once their pipe to the server closes).

The fork server runs :func:`bind_to_parent` by importing this module (it is in the fork
server's preload list) when :data:`SERVER_PID_ENV` names its parent.

>>> SERVER_PID_ENV
'PASTON_SERVER_PID'
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from multiprocessing.context import BaseContext
from types import FrameType

#: Set by the server (its pid) before the fork server starts: the fork server binds its
#: life to that parent when it imports this module.
SERVER_PID_ENV = "PASTON_SERVER_PID"

PR_SET_PDEATHSIG = 1
#: How often the watch thread looks whether the parent is still there.
WATCH_SECONDS = 0.5


def worker_context(preload: list[str]) -> BaseContext:
    """The context the server starts its workers in: a fork server where there is one
    (quick to start a worker, and safe under a threaded server, unlike a plain fork),
    which imports this module first (so it dies with the server) and then ``preload``;
    else fresh interpreters. Every pool of the server uses it: the fork server is one
    per process, started with the preload list of whichever pool starts it first."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        os.environ[SERVER_PID_ENV] = str(os.getpid())  # read by the fork server at its start
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__, *(m for m in preload if m != __name__)])
        return context
    return multiprocessing.get_context("spawn")


def bind_to_parent(watch_seconds: float = WATCH_SECONDS, *, deathsig: bool = True) -> bool:
    """Make this process end when the server does: the kernel's parent-death signal
    (Linux, with ``deathsig``; whether it was set is returned), and a watch thread that ends the process
    once the server named by :data:`SERVER_PID_ENV` (else the parent) is gone. The kernel
    ties its signal to the parent's *thread* that started this process, which a pool may
    end early, and a fork server's child outlives a dead fork server's signal; the watch
    covers both."""
    named = os.environ.get(SERVER_PID_ENV, "")
    server = int(named) if named.isdigit() and int(named) != os.getpid() else os.getppid()
    bound = False
    if deathsig and sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            bound = libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    if watch_seconds > 0 and server > 1:

        def watch() -> None:
            while _alive(server):
                time.sleep(watch_seconds)
            os._exit(0)

        threading.Thread(target=watch, name="paston-lifeline", daemon=True).start()
    return bound


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie does not: it has ended, unreaped)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return True  # no /proc: the signal answered, so it is there


def _is_fork_server() -> bool:
    """Whether this module is being imported by a :mod:`multiprocessing` fork server's
    preloading (its ``main`` is on the stack). Any other child of the server inherits
    :data:`SERVER_PID_ENV` too, and must not bind: a ``paston serve`` started from a
    thread of a process that once started a pool bound itself to that thread and was
    killed, silently, when the thread ended."""
    frame: FrameType | None = sys._getframe()
    while frame is not None:
        if frame.f_globals.get("__name__") == "multiprocessing.forkserver":
            return True
        frame = frame.f_back
    return False


def _bind_the_fork_server() -> None:
    """In the fork server (the child of the server that named itself): watch the server
    (no parent-death signal: it would follow the thread that started the fork server),
    and stop at once if the server is already gone (the parent died before the watch)."""
    parent = os.environ.get(SERVER_PID_ENV)
    if parent is None or not parent.isdigit() or int(parent) == os.getpid() or not _is_fork_server():
        return
    if os.getppid() == int(parent):
        bind_to_parent(deathsig=False)
        if os.getppid() != int(parent):  # died meanwhile: the kernel will not tell us now
            os._exit(0)


_bind_the_fork_server()
