"""A cluster of ``paston serve`` workers (``--redis-url``) on this machine: the load of
``server_load.py`` spread over 1, 2 and 3 workers, what a forwarded action costs over a
local one, and how long a killed worker's tables take to move.

    python benchmarks/cluster_load.py [--tables 30] [--seconds 10] [--think 0.1]
                                      [--workers 1,2,3] [--kills 10] [--database-url URL]

Needs ``redis-server`` (Debian's package) and PostgreSQL: ``--database-url`` names a
server, otherwise a throwaway cluster is started with the installed ``initdb``. Each
worker count gets a fresh database and Redis. Table ``i`` is made at worker ``i % n``
(so owned there) and its seat ``s`` connects to worker ``(i + s) % n``, as a load
balancer spreading connections would: with ``n`` workers, ``(n - 1) / n`` of the
clients are tunnelled to another worker.

Reports, per worker count: accepted actions per second, p50/p99 of the time from a
client's action to all three clients of the table having the update, errors and lost
actions, and the CPU time each part spent per accepted action (the workers, their
analysis processes, PostgreSQL, Redis, the load-generating clients; read from ``/proc``,
so the figures hold even when the machine is shared: they say what a core per worker
would hold); then the latency
of one table's actions with all its clients at the owner (local) and all at another
worker (forwarded); then the time from ``kill -9`` of a
table's owner to another worker holding it (median of ``--kills``).
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from loadkit import descendants, free_port, get, percentile, post
from paston.testing.history import Ack, ack_violations, log_violations, read_history
from tablekit import LONG_GAME, TableRun, client, lifted_limits

WORKER_OPTIONS = ("--bot-workers", "0", "--analysis-workers", "1", "--bot-delay", "0")
"""No computer players; each finished deal's analysis in one process of its own, so that
its CPU time (about 0.2 s a deal, most of a server's work) is counted apart."""
TICKS = os.sysconf("SC_CLK_TCK")
SERVICE_PIDS: dict[str, int] = {}
"""The pids of the throwaway ``redis`` and PostgreSQL (postmaster) of the current run."""


def _stat(pid: int) -> list[str]:
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()


def cpu_seconds(pid: int, *, with_children: bool = False) -> float:
    """User plus system CPU seconds of a process (all its threads); with its living
    children and the children it has reaped (PostgreSQL's backends) if asked."""
    try:
        fields = _stat(pid)
    except OSError:
        return 0.0
    ticks = int(fields[11]) + int(fields[12])  # utime, stime
    if with_children:
        ticks += int(fields[13]) + int(fields[14])  # cutime, cstime: reaped children
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    child = _stat(int(entry))
                except OSError:
                    continue
                if int(child[1]) == pid:  # ppid
                    ticks += int(child[11]) + int(child[12])
    return ticks / TICKS


def children_cpu_seconds() -> float:
    """CPU seconds of this process's reaped children (the load-generating clients)."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@contextmanager
def redis_server() -> Iterator[str]:
    """A throwaway ``redis-server`` on a free port (nothing saved)."""
    port = free_port()
    folder = tempfile.mkdtemp(prefix="paston-redis-")
    proc = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", folder],
        stdout=subprocess.DEVNULL,
    )
    SERVICE_PIDS["redis"] = proc.pid
    try:
        for _ in range(100):
            ping = subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True, text=True)
            if ping.stdout.strip() == "PONG":
                break
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.kill()
        proc.wait()
        shutil.rmtree(folder, ignore_errors=True)


def _as_postgres(args: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *args] if os.geteuid() == 0 else args


@contextmanager
def postgres_server(given: str | None) -> Iterator[str]:
    """The server of ``--database-url``, or a throwaway one (as the tests start it)."""
    if given:
        yield given
        return
    bindir = os.path.dirname(sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))[-1])
    folder = tempfile.mkdtemp(prefix="paston-pg-")
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
    data, port = os.path.join(folder, "data"), free_port()
    subprocess.run(
        _as_postgres([f"{bindir}/initdb", "-D", data, "-A", "trust", "-U", "postgres"]),
        check=True,
        capture_output=True,
    )
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1"
    start = [f"{bindir}/pg_ctl", "-D", data, "-l", os.path.join(folder, "log"), "-w", "-o", options, "start"]
    subprocess.run(_as_postgres(start), check=True, capture_output=True)
    with open(os.path.join(data, "postmaster.pid")) as f:
        SERVICE_PIDS["postgres"] = int(f.readline())
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            _as_postgres([f"{bindir}/pg_ctl", "-D", data, "-m", "immediate", "stop"]), capture_output=True
        )
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def fresh_database(server: str) -> Iterator[str]:
    from sqlalchemy import create_engine, text

    from paston.server.store.db import normalize_url

    name = f"paston_bench_{uuid.uuid4().hex[:8]}"
    admin = create_engine(normalize_url(server), isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f"CREATE DATABASE {name}"))
    try:
        yield server.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with admin.connect() as c:
            c.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()


class Worker:
    """One ``paston serve --redis-url`` process."""

    def __init__(self, db: str, redis: str, extra: tuple[str, ...] = ()) -> None:
        self.port = free_port()
        paston_bin = Path(sys.executable).parent / "paston"
        command = [str(paston_bin) if paston_bin.exists() else "paston", "serve", "--port", str(self.port)]
        command += ["--database-url", db, "--redis-url", redis, *WORKER_OPTIONS, *extra]
        self.proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(300):
            try:
                self.name = str(get(self.port, "/api/cluster")["worker"])
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("a worker did not start")

    def stop(self, kill: bool = False) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
            self.proc.wait(timeout=20)


def make_tables(workers: list[Worker], n: int) -> list[tuple[TableRun, list[int]]]:
    """``n`` tables, table ``i`` made at worker ``i % k``; each seat's worker port."""
    out = []
    k = len(workers)
    for i in range(n):
        owner = workers[i % k].port
        body = {"name": f"load {i}", "rules": {"target": LONG_GAME}, "seats": [{"kind": "human"}] * 3}
        table = post(owner, "/api/tables", body)["id"]
        tokens = [post(owner, f"/api/tables/{table}/seats/{s}", {"name": f"p{s}"})["token"] for s in range(3)]
        out.append((TableRun(table, tokens), [workers[(i + s) % k].port for s in range(3)]))
    return out


async def _play(groups: list[tuple[TableRun, list[int]]], seconds: float, think: float, seed: float) -> None:
    deadline = time.perf_counter() + seconds
    rng = random.Random(seed)
    await asyncio.gather(
        *(
            client(ports[seat], run, seat, deadline, random.Random(rng.random()), True, think)
            for run, ports in groups
            for seat in range(3)
        )
    )


def load_process(
    groups: list[tuple[TableRun, list[int]]], seconds: float, think: float, seed: float
) -> list[TableRun]:
    asyncio.run(_play(groups, seconds, think, seed))
    return [run for run, _ in groups]


def run_load(workers: list[Worker], db: str, args: argparse.Namespace) -> dict[str, Any]:
    tables = make_tables(workers, args.tables)
    groups = [tables[i :: args.processes] for i in range(args.processes)]
    cpu_before = _cpu_parts(workers)
    start = time.perf_counter()
    with ProcessPoolExecutor(args.processes) as pool:
        futures = [
            pool.submit(load_process, g, args.seconds, args.think, random.random()) for g in groups if g
        ]
        runs = [run for f in futures for run in f.result()]
    elapsed = time.perf_counter() - start
    cpu = {part: after - cpu_before[part] for part, after in _cpu_parts(workers).items()}
    history = read_history(db)
    wrong = []  # each acknowledged action once at its place in the log, and nothing else
    for r in runs:
        rows = history[r.table].rows if r.table in history else []
        wrong += log_violations(r.table, rows)
        for seat in range(3):
            acks = [Ack(v, cid, action, False) for v, s, cid, action in r.acks if s == seat]
            wrong += ack_violations(r.table, seat, acks, rows)
    latencies = sorted(x for r in runs for x in r.latencies)
    actions = sum(r.acked for r in runs)
    return {
        "actions_per_s": actions / elapsed,
        "p50_ms": statistics.median(latencies) * 1e3 if latencies else float("nan"),
        "p99_ms": percentile(latencies, 0.99) * 1e3 if latencies else float("nan"),
        "errors": sorted({e for r in runs for e in r.errors}),
        "lost": len(wrong),
        "wrong": [str(v) for v in wrong[:5]],
        "cpu_ms_per_action": {part: 1e3 * spent / max(actions, 1) for part, spent in cpu.items()},
        "worker_cpu_share": cpu["workers"] / elapsed,
    }


def _cpu_parts(workers: list[Worker]) -> dict[str, float]:
    """CPU seconds so far of the workers, PostgreSQL, Redis and the reaped clients."""
    postgres = SERVICE_PIDS.get("postgres")
    return {
        "workers": sum(cpu_seconds(w.proc.pid) for w in workers),
        "analyses": sum(cpu_seconds(child) for w in workers for child in descendants(w.proc.pid)),
        "postgres": cpu_seconds(postgres, with_children=True) if postgres else float("nan"),
        "redis": cpu_seconds(SERVICE_PIDS["redis"]),
        "clients": children_cpu_seconds(),
    }


def one_table_latency(workers: list[Worker], at: int, seconds: float) -> float:
    """Median action latency of one table (closed loop) with all clients at worker ``at``
    (the table is made at worker 0)."""
    body = {"name": "probe", "rules": {"target": LONG_GAME}, "seats": [{"kind": "human"}] * 3}
    table = post(workers[0].port, "/api/tables", body)["id"]
    tokens = [
        post(workers[0].port, f"/api/tables/{table}/seats/{s}", {"name": f"p{s}"})["token"] for s in range(3)
    ]
    run = TableRun(table, tokens)
    load_process([(run, [workers[at].port] * 3)], seconds, 0.0, 1.0)
    return statistics.median(run.latencies) * 1e3


def failover_times(db: str, redis: str, kills: int) -> list[tuple[float, float]]:
    """``kills`` times: a worker makes a table and seats its three people, and is killed
    with ``kill -9``; the seconds until the other worker holds the table (its lease in
    Redis), and until the people's next move is acknowledged there (they connect to the
    other worker at once and try until a move is taken)."""
    times = []
    survivor = Worker(db, redis)
    try:
        for _ in range(kills):
            doomed = Worker(db, redis)
            body = {"name": "doomed", "rules": {}, "seats": [{"kind": "human"}] * 3}
            table = post(doomed.port, "/api/tables", body)["id"]
            tokens = [
                post(doomed.port, f"/api/tables/{table}/seats/{s}", {"name": f"p{s}"})["token"]
                for s in range(3)
            ]
            doomed.stop(kill=True)
            killed = time.monotonic()
            owned: list[float] = []
            watcher = threading.Thread(target=_watch_owned, args=(survivor.port, table, killed, owned))
            watcher.start()
            moved = asyncio.run(_next_move_acknowledged(survivor.port, table, tokens, killed))
            watcher.join()
            times.append((owned[0], moved))
    finally:
        survivor.stop()
    return times


def _watch_owned(port: int, table: str, since: float, out: list[float]) -> None:
    """Beside the people: the seconds from ``since`` until the worker at ``port`` owns the table."""
    while table not in get(port, "/api/cluster")["owned"]:
        time.sleep(0.02)
    out.append(time.monotonic() - since)


async def _next_move_acknowledged(port: int, table: str, tokens: list[str], since: float) -> float:
    """Seconds from ``since`` until a move of the table's seat to move is acknowledged at
    ``port`` (the seats reconnect until then)."""
    url = f"ws://127.0.0.1:{port}/ws/tables/{table}"
    while True:
        try:
            for seat, token in enumerate(tokens):
                async with connect(url, open_timeout=2) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": token}))
                    state = json.loads(await asyncio.wait_for(ws.recv(), 2))
                    view = state.get("view") or {}
                    if state.get("type") != "state" or view.get("to_move") != seat:
                        continue
                    act = {"type": "act", "action": view["legal"][0], "version": state["version"], "id": "f"}
                    await ws.send(json.dumps(act))
                    while True:
                        answer = json.loads(await asyncio.wait_for(ws.recv(), 2))
                        if answer.get("type") == "ack":
                            return time.monotonic() - since
                        if answer.get("type") == "error":
                            break
        except (OSError, TimeoutError, ConnectionClosed, InvalidStatus):
            pass
        await asyncio.sleep(0.05)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--think", type=float, default=0.1)
    parser.add_argument("--processes", type=int, default=2, help="load-generating client processes")
    parser.add_argument("--workers", default="1,2,3")
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument(
        "--database-url", default=None, help="a PostgreSQL server (a database is made on it per run)"
    )
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f} at the start")
    with postgres_server(args.database_url) as server:
        for n in [int(x) for x in args.workers.split(",")]:
            with ExitStack() as stack:
                db = stack.enter_context(fresh_database(server))
                redis = stack.enter_context(redis_server())
                workers = [Worker(db, redis, lifted_limits(args.tables, 10)) for _ in range(n)]
                for w in workers:
                    stack.callback(w.stop)
                r = run_load(workers, db, args)
                print(
                    f"{n} worker(s), {args.tables} tables x 3 clients, think {args.think * 1e3:.0f} ms, "
                    f"{args.seconds:.0f} s: {r['actions_per_s']:,.0f} actions/s, p50 {r['p50_ms']:.1f} ms, "
                    f"p99 {r['p99_ms']:.1f} ms; errors {r['errors']}; lost or wrong {r['lost']} {r['wrong']}"
                )
                per = r["cpu_ms_per_action"]
                print(
                    "    CPU ms per action: "
                    + ", ".join(f"{part} {ms:.2f}" for part, ms in per.items())
                    + f"; the workers used {r['worker_cpu_share']:.2f} cores. A core per worker holds"
                    f" about {1e3 / per['workers']:,.0f} actions/s,"
                    f" {1e3 / (per['workers'] + per['analyses']):,.0f} with the deals' analyses"
                )
        with ExitStack() as stack:
            db = stack.enter_context(fresh_database(server))
            redis = stack.enter_context(redis_server())
            workers = [Worker(db, redis) for _ in range(2)]
            for w in workers:
                stack.callback(w.stop)
            local = one_table_latency(workers, 0, args.seconds / 2)
            forwarded = one_table_latency(workers, 1, args.seconds / 2)
            print(
                f"one table, closed loop, median action -> all three updated: local {local:.2f} ms, "
                f"forwarded (all clients at another worker) {forwarded:.2f} ms (+{forwarded - local:.2f} ms)"
            )
        if args.kills:
            with fresh_database(server) as db, redis_server() as redis:
                times = failover_times(db, redis, args.kills)
            owned, moved = [t for t, _ in times], [m for _, m in times]
            print(
                f"failover after kill -9, {len(times)} kills: table owned again after median "
                f"{statistics.median(owned):.2f} s (max {max(owned):.2f} s); the people's next move "
                f"acknowledged after median {statistics.median(moved):.2f} s (max {max(moved):.2f} s) "
                f"(lease {3.0:.0f} s, scan every 1 s)"
            )


if __name__ == "__main__":
    main()
