"""The pieces behind two of issue 22's fixes, in process: the quiet error log
(:mod:`paston.server.web.quietlog`) and the helper processes' lifeline
(:mod:`paston.server.work.lifeline`). The end-to-end tests, against a real server, are in
tests/test_server_strangers.py."""

from __future__ import annotations

import logging
import multiprocessing
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from paston.server.web import quietlog
from paston.server.web.quietlog import OneLineErrors
from paston.server.work import lifeline


def record(message: str = "bad frame", exc: BaseException | None = None) -> logging.LogRecord:
    info = (type(exc), exc, None) if exc is not None else None
    return logging.LogRecord("uvicorn.error", logging.ERROR, "x", 1, message, None, info)


# --- the quiet log ---------------------------------------------------------------------------------
def test_a_traceback_becomes_one_line_naming_the_exception() -> None:
    quiet = OneLineErrors()
    r = record(
        "Invalid UTF-8 sequence received from client.", UnicodeDecodeError("utf-8", b"\xff", 0, 1, "bad")
    )
    assert quiet.filter(r)
    assert r.exc_info is None and r.exc_text is None
    assert r.getMessage().startswith("Invalid UTF-8 sequence received from client. (UnicodeDecodeError: ")
    handler = logging.StreamHandler()
    assert "Traceback" not in handler.format(r)


def test_each_kind_has_its_own_allowance_and_a_handler_counts_a_record_once() -> None:
    now = [0.0]
    quiet = OneLineErrors(per_minute=3, clock=lambda: now[0])
    assert [quiet.filter(record("a")) for _ in range(5)] == [True] * 3 + [False] * 2
    assert quiet.filter(record("b"))  # another kind is let through
    seen = record("c")
    assert quiet.filter(seen) and quiet.filter(seen)  # a second handler: not counted again
    now[0] = 61.0
    later = record("a")
    assert quiet.filter(later) and "(2 more like this in the last minute not logged)" in later.getMessage()


def test_the_kinds_remembered_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(quietlog, "MAX_KINDS", 5)
    quiet = OneLineErrors(per_minute=1)
    for k in range(12):
        assert quiet.filter(record(f"kind {k}"))
    assert len(quiet._kinds) <= 5


def test_install_puts_the_filter_on_every_handler_once() -> None:
    logger = logging.getLogger("paston-test-quiet")
    handler = logging.StreamHandler()
    logger.addHandler(handler)
    try:
        quiet = quietlog.install(["paston-test-quiet"])
        assert quiet in handler.filters and logging.lastResort is not None
        assert quiet in logging.lastResort.filters
        again = quietlog.install(["paston-test-quiet"])
        assert handler.filters.count(quiet) == 1 and again in handler.filters
    finally:
        logger.removeHandler(handler)
        for h in (handler, logging.lastResort):
            if h is not None:
                for f in list(h.filters):
                    if isinstance(f, OneLineErrors):
                        h.removeFilter(f)


# --- the lifeline ----------------------------------------------------------------------------------
def test_alive_tells_running_ended_and_unreaped_processes_apart() -> None:
    assert lifeline._alive(os.getpid())
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    deadline = time.monotonic() + 10
    while lifeline._alive(child.pid) and time.monotonic() < deadline:  # ended, not reaped: a zombie
        time.sleep(0.02)
    assert not lifeline._alive(child.pid)
    child.wait()
    assert not lifeline._alive(child.pid)


def test_the_worker_context_names_the_server_and_preloads_the_lifeline_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(lifeline.SERVER_PID_ENV, raising=False)
    context = lifeline.worker_context(["paston.bots.pimc", lifeline.__name__])
    assert os.environ[lifeline.SERVER_PID_ENV] == str(os.getpid())
    if context.get_start_method() == "forkserver":
        from multiprocessing import forkserver

        assert forkserver._forkserver._preload_modules == [lifeline.__name__, "paston.bots.pimc"]  # type: ignore[attr-defined]


def test_the_fork_server_binds_only_to_the_server_that_named_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    bound: list[dict[str, object]] = []
    monkeypatch.setattr(lifeline, "bind_to_parent", lambda **how: bound.append(how) or True)
    monkeypatch.delenv(lifeline.SERVER_PID_ENV, raising=False)
    lifeline._bind_the_fork_server()  # not started by a server
    monkeypatch.setenv(lifeline.SERVER_PID_ENV, str(os.getpid()))
    lifeline._bind_the_fork_server()  # the server itself
    monkeypatch.setenv(lifeline.SERVER_PID_ENV, "not a pid")
    lifeline._bind_the_fork_server()
    assert bound == []
    monkeypatch.setenv(lifeline.SERVER_PID_ENV, str(os.getppid()))
    lifeline._bind_the_fork_server()  # a child of that server, but not its fork server
    assert bound == []
    monkeypatch.setattr(lifeline, "_is_fork_server", lambda: True)
    lifeline._bind_the_fork_server()  # its fork server: watched, no thread-bound signal
    assert bound == [{"deathsig": False}]

    class Exited(Exception):
        pass

    def exit_now(code: int) -> None:
        raise Exited(code)

    parents = iter([os.getppid(), 1])  # the server died just as the binding was made
    monkeypatch.setattr(lifeline.os, "getppid", lambda: next(parents))
    monkeypatch.setattr(lifeline.os, "_exit", exit_now)
    with pytest.raises(Exited):
        lifeline._bind_the_fork_server()


def test_a_bound_process_ends_when_the_server_it_watches_ends() -> None:
    """In a child: bound to a short-lived 'server' process, it ends soon after that does."""
    server = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1.0)"])
    code = (
        "import os, time\n"
        f"os.environ[{lifeline.SERVER_PID_ENV!r}] = '{server.pid}'\n"
        "from paston.server.work.lifeline import bind_to_parent\n"
        "bind_to_parent(watch_seconds=0.05)\n"
        "time.sleep(30)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", code])
    try:
        server.wait(timeout=10)
        started = time.monotonic()
        assert child.wait(timeout=10) == 0  # its watch ended it
        assert time.monotonic() - started < 5
    finally:
        for p in (server, child):
            if p.poll() is None:
                p.kill()


def test_the_watch_thread_ends_the_process_once_the_server_is_gone(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same in this process, with the exit caught (the watch would end the test run)."""
    import threading

    server = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(0.3)"])
    ended = threading.Event()
    monkeypatch.setenv(lifeline.SERVER_PID_ENV, str(server.pid))
    monkeypatch.setattr(lifeline.os, "_exit", lambda code: ended.set())
    # no parent-death signal for the test process itself (its parent is the test runner)
    monkeypatch.setattr(lifeline.sys, "platform", "not-linux")
    assert lifeline.bind_to_parent(watch_seconds=0.02) is False
    assert not ended.is_set()
    server.wait(timeout=10)
    assert ended.wait(timeout=5)


def test_a_server_started_by_a_thread_of_a_process_with_pools_is_not_bound(tmp_path: Path) -> None:
    """Found by the chaos suite in the full test run: a process that once made a pool has
    ``PASTON_SERVER_PID`` set, and a ``paston serve`` it started from a thread inherited
    it, took itself for the fork server, bound its life to that thread, and was killed,
    silently, when the thread ended. Only a fork server binds now."""
    script = tmp_path / "serve_like.py"
    script.write_text(
        "import time\nimport paston.server.work.lifeline\nprint('up', flush=True)\ntime.sleep(20)\n"
    )
    env = {**os.environ, lifeline.SERVER_PID_ENV: str(os.getpid())}
    started: list[subprocess.Popen[str]] = []

    def start() -> None:  # the thread lives until the child has imported the lifeline
        child = subprocess.Popen([sys.executable, str(script)], env=env, stdout=subprocess.PIPE, text=True)
        started.append(child)
        assert child.stdout is not None and child.stdout.readline().strip() == "up"

    thread = threading.Thread(target=start)
    thread.start()
    thread.join(30)
    child = started[0]
    try:
        time.sleep(1.0)  # the thread that started it is gone
        assert child.poll() is None, "killed when the thread that started it ended"
    finally:
        child.kill()
        child.wait()


FORK_SERVER_FROM_THREADS = """
import os, threading
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import forkserver
from paston.server.work.lifeline import bind_to_parent, worker_context

def use(context, out):
    try:
        with ProcessPoolExecutor(1, mp_context=context, initializer=bind_to_parent) as pool:
            out.append(pool.submit(os.getpid).result(timeout=30) > 0)
    except Exception as e:
        out.append(repr(e))

if __name__ == "__main__":
    context = worker_context([])
    results, servers = [], set()
    for _ in range(12):
        out = []
        thread = threading.Thread(target=use, args=(context, out))
        thread.start()
        thread.join()
        results += out
        servers.add(forkserver._forkserver._forkserver_pid)
    print(results, len(servers))
"""


def test_a_fork_server_started_by_a_thread_outlives_that_thread(tmp_path: Path) -> None:
    """Found by a CI run (a browser test's server would not start: ``EOFError`` from the
    fork server): a pool started from a thread started the fork server, whose parent-death
    signal killed it when that thread ended, as the next thread's pool used it. Pools made
    one after another from short-lived threads all work, through one fork server."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork server on this platform")
    script = tmp_path / "pools_from_threads.py"
    script.write_text(FORK_SERVER_FROM_THREADS)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == f"{[True] * 12} 1", done.stdout + done.stderr[-2000:]
