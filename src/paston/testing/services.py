"""Throwaway services for whole-system tests: a PostgreSQL cluster made with the
installed ``initdb``, a ``redis-server`` that keeps nothing on disk, and ``paston serve``
workers of a cluster over both; each can be killed, paused and started again, which is
what :mod:`paston.testing.chaos` does to them.

Nothing here is mocked: the programs are Debian's (``postgresql``, ``redis-server``)
and this package's own command.

>>> free_port() > 1024
True
"""

from __future__ import annotations

import contextlib
import glob
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any


class ServiceError(RuntimeError):
    """A service could not be started (its program missing, or it did not answer)."""


def free_port() -> int:
    """A TCP port nobody listens on now (loopback)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def paston_command() -> list[str]:
    """How to run this package's ``paston`` command from the running interpreter."""
    script = Path(sys.executable).parent / "paston"
    return [str(script)] if script.exists() else [sys.executable, "-m", "paston.cli"]


def _as_postgres(args: list[str]) -> list[str]:
    """Run as the postgres user when we are root (``initdb`` refuses root)."""
    return ["runuser", "-u", "postgres", "--", *args] if os.geteuid() == 0 else args


class Postgres:
    """A PostgreSQL cluster of its own in a temporary folder, on a free loopback port,
    with one database ``paston``. :meth:`crash` stops it at once (``-m immediate``: as a
    power cut, recovery at the next start), :meth:`start` starts it again."""

    def __init__(self) -> None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not found:
            raise ServiceError("PostgreSQL's server programs are not installed (Debian's postgresql)")
        self.bindir = os.path.dirname(found[-1])
        self.folder = tempfile.mkdtemp(prefix="paston-chaos-pg-")
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
        self.data = os.path.join(self.folder, "data")
        self.port = free_port()
        subprocess.run(
            _as_postgres([f"{self.bindir}/initdb", "-D", self.data, "-A", "trust", "-U", "postgres"]),
            check=True,
            capture_output=True,
        )
        self.start()
        subprocess.run(
            _as_postgres(
                [
                    f"{self.bindir}/createdb",
                    "-h",
                    "127.0.0.1",
                    "-p",
                    str(self.port),
                    "-U",
                    "postgres",
                    "paston",
                ]
            ),
            check=True,
            capture_output=True,
        )
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/paston"

    def _ctl(self, *args: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            _as_postgres([f"{self.bindir}/pg_ctl", "-D", self.data, *args]), capture_output=True
        )

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c max_connections=200"
        done = self._ctl("-l", os.path.join(self.folder, "log"), "-w", "-o", options, "start")
        if done.returncode != 0:
            raise ServiceError(f"PostgreSQL did not start: {done.stderr.decode(errors='replace')}")

    def crash(self) -> None:
        self._ctl("-m", "immediate", "stop")

    def close(self) -> None:
        self.crash()
        shutil.rmtree(self.folder, ignore_errors=True)


class Redis:
    """``redis-server`` on a free loopback port that saves nothing: :meth:`restart_empty`
    kills it and starts it again with every key gone, like a Redis that failed over
    without its data."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise ServiceError("redis-server is not installed (Debian's redis-server)")
        self.binary = binary
        self.port = free_port()
        self.folder = tempfile.mkdtemp(prefix="paston-chaos-redis-")
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                *(self.binary, "--port", str(self.port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no", "--dir", self.folder, "--protected-mode", "no"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while not self.answers():
            if time.monotonic() > deadline:
                raise ServiceError("redis-server did not start")
            time.sleep(0.05)

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def restart_empty(self) -> None:
        self.stop()
        self.start()

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


#: ``paston serve`` options of a chaos worker: computer players think in the server's
#: threads at once (no process pool to orphan), deals follow at once, and the per-address
#: limits are lifted (every scripted client comes from 127.0.0.1).
WORKER_OPTIONS = (
    *("--bot-delay", "0.05", "--bot-workers", "0", "--analysis-workers", "0"),
    *("--seed-timeout", "0", "--next-deal-seconds", "0"),
    *("--create-burst", "100000", "--create-every", "0", "--tables-per-client", "100000"),
    *("--sockets-per-client", "100000", "--open-tables", "100000"),
)


class Worker:
    """One ``paston serve --redis-url`` worker on a fixed port: :meth:`kill` (``kill -9``),
    :meth:`pause` / :meth:`resume` (``SIGSTOP`` / ``SIGCONT``) and :meth:`start` again on
    the same port, its output appended to one log file."""

    def __init__(self, folder: Path, database_url: str, redis_url: str, name: str) -> None:
        self.name = name
        self.folder = folder
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self.log_path = folder / f"{name}.log"
        self.command = [
            *paston_command(),
            *("serve", "--port", str(self.port), "--database-url", database_url, "--redis-url", redis_url),
            *WORKER_OPTIONS,
        ]
        self.proc: subprocess.Popen[str] | None = None
        self.paused = False
        self.starts = 0

    def start(self, wait: float = 60.0) -> None:
        env = {**os.environ, "XDG_DATA_HOME": str(self.folder), "PASTON_PIMC_THREADS": "1"}
        env.pop("PASTON_SERVER_PID", None)  # a server of its own, nobody's helper process
        with open(self.log_path, "a", encoding="utf-8") as log:
            self.proc = subprocess.Popen(
                self.command, stdout=log, stderr=subprocess.STDOUT, text=True, env=env, start_new_session=True
            )
        self.starts += 1
        self.paused = False
        deadline = time.monotonic() + wait
        while True:
            try:
                self.request("GET", "/api/meta", timeout=2)
                return
            except (OSError, urllib.error.URLError, http.client.HTTPException, ValueError):
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise ServiceError(f"worker {self.name} did not start:\n{self.log()[-3000:]}") from None
                time.sleep(0.1)

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace") if self.log_path.exists() else ""

    def _signal(self, sig: signal.Signals) -> None:
        if self.alive:
            assert self.proc is not None
            self.proc.send_signal(sig)

    def kill(self) -> None:
        """``kill -9`` of the worker process alone (its children must die with it:
        :mod:`paston.server.work.lifeline`)."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
        self.paused = False

    def pause(self) -> None:
        self._signal(signal.SIGSTOP)
        self.paused = True

    def resume(self) -> None:
        self._signal(signal.SIGCONT)
        self.paused = False

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.resume()
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.kill()
        with contextlib.suppress(ProcessLookupError):  # anything its session left behind
            os.killpg(self.proc.pid, signal.SIGKILL)

    def request(self, method: str, path: str, body: object = None, timeout: float = 10) -> tuple[int, Any]:
        """One HTTP request: ``(status, JSON body)``."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=timeout) as res:
                return res.status, json.loads(res.read())
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read() or b"null")
