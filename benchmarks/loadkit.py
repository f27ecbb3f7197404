"""Shared by the server benchmarks: a real ``paston serve`` process on loopback, JSON
requests to it, percentiles, and the CPU time of the server and its worker processes."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def post(port: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=10) as res:
        return dict(json.loads(res.read()))


def get(port: int, path: str) -> Any:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as res:
        return json.loads(res.read())


@contextmanager
def running_server(
    database_url: str | None, extra: Sequence[str] = (), log: Path | None = None
) -> Iterator[tuple[int, int, str]]:
    """A ``paston serve`` process on a free loopback port (``--bot-delay 0`` unless
    ``extra`` says otherwise), ready for requests: yields its port, its process id and
    its database URL (default: SQLite in a new temporary folder). Its output goes to
    ``log`` when given."""
    port = free_port()
    db = database_url or f"sqlite:///{Path(tempfile.mkdtemp()) / 'load.db'}"
    paston = Path(sys.executable).parent / "paston"
    delay = [] if "--bot-delay" in extra else ["--bot-delay", "0"]
    out = open(log, "w", encoding="utf-8") if log is not None else subprocess.DEVNULL  # noqa: SIM115
    proc = subprocess.Popen(
        [str(paston), "serve", "--port", str(port), "--database-url", db, *delay, *extra],
        stdout=out,
        stderr=subprocess.STDOUT if log is not None else subprocess.DEVNULL,
    )
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        yield port, proc.pid, db
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        if log is not None and not isinstance(out, int):
            out.close()


def _stat(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def server_cpu_seconds(pid: int) -> float | None:
    """User plus system CPU time of a process so far (Linux), or None."""
    fields = _stat(pid)
    if fields is None:
        return None
    try:
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (ValueError, IndexError):
        return None


def descendants(pid: int) -> list[int]:
    """The living descendants of a process (Linux; its worker processes), or none."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (fields := _stat(int(entry.name))) is not None:
            parents[int(entry.name)] = int(fields[1])
    found: list[int] = []
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        children = [p for p, pp in parents.items() if pp == parent]
        found.extend(children)
        frontier.extend(children)
    return found


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) of sorted ``values`` (nearest rank), NaN if none.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.5)
    3.0
    """
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(len(values) * q))]
