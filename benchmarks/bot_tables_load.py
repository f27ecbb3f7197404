"""Computer players and people on one server: ``--bot-tables`` tables of three ``pimc:5``
players, each watched by a spectator (the server moves computer players only while
someone watches), next to ``--tables`` tables of three clients playing random legal
moves as in ``server_load.py``, and a spectator pinging a quiet table of people.

    python benchmarks/bot_tables_load.py [--bot-tables 30] [--level 5] [--tables 100]
        [--seconds 20] [--think 0.1] [--processes 2] [--bot-workers N] [--bot-delay 0.6]
        [--threads | --compare] [--database-url URL]

Reports the p50/p99/max time from a client sending an action to all three clients of
its table having the update (target p99 <= 50 ms), the round trip of a ping on the quiet
table (target p99 <= 20 ms), the computer players' decisions per second, the CPU time of
the server process and of its worker processes, errors and lost actions, and the load
average of the machine before and after. The computer players think in the server's
pool of worker processes (``--bot-workers``, default the server's: the cores less one);
``--threads`` runs them in threads of the server process instead (``--bot-workers 0``,
the design before the pool), and ``--compare`` runs both, one after the other, and
prints them side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from websockets.asyncio.client import connect

from loadkit import descendants, get, percentile, post, running_server, server_cpu_seconds
from tablekit import LONG_GAME, TableRun, lifted_limits, load_process, lost_actions, make_tables


@dataclass
class Result:
    """One run's figures."""

    label: str
    seconds: float = 0.0
    actions: int = 0
    latencies: list[float] = field(default_factory=list)
    pings: list[float] = field(default_factory=list)
    decisions: int = 0
    server_cpu: float = float("nan")
    workers_cpu: float = float("nan")
    errors: list[str] = field(default_factory=list)
    lost: int = 0
    load_before: tuple[float, float, float] = (0.0, 0.0, 0.0)
    load_after: tuple[float, float, float] = (0.0, 0.0, 0.0)


def make_bot_tables(port: int, n: int, level: int) -> list[str]:
    seats = [{"kind": "bot", "bot": "pimc", "level": level}] * 3
    return [
        post(port, "/api/tables", {"name": f"bots {i}", "rules": {"target": LONG_GAME}, "seats": seats})["id"]
        for i in range(n)
    ]


async def watch(port: int, table: str, deadline: float) -> None:
    """A spectator of a table of computer players: reads every message until the deadline."""
    async with connect(f"ws://127.0.0.1:{port}/ws/tables/{table}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": None, "updates": True}))
        try:
            async with asyncio.timeout(max(0.01, deadline - time.perf_counter())):
                async for _ in ws:
                    pass
        except TimeoutError:
            pass


async def ping(port: int, table: str, deadline: float, every: float) -> list[float]:
    """Round trips of pings from a spectator of a quiet table, one every ``every`` seconds."""
    times: list[float] = []
    async with connect(f"ws://127.0.0.1:{port}/ws/tables/{table}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": None, "updates": True}))
        await ws.recv()  # the first state
        while time.perf_counter() < deadline:
            start = time.perf_counter()
            await ws.send(json.dumps({"type": "ping"}))
            while json.loads(await ws.recv())["type"] != "pong":
                pass
            times.append(time.perf_counter() - start)
            await asyncio.sleep(every)
    return times


async def play(
    port: int, runs: list[TableRun], bot_tables: list[str], quiet: str, args: argparse.Namespace
) -> tuple[list[TableRun], list[float]]:
    """The people's tables in load processes; here, the spectators and the pings."""
    deadline = time.perf_counter() + args.seconds
    rng = random.Random(args.seed)
    groups = [runs[i :: args.processes] for i in range(args.processes)]
    with ProcessPoolExecutor(args.processes) as pool:
        people = [
            asyncio.wrap_future(pool.submit(load_process, port, g, args, rng.random())) for g in groups if g
        ]
        watchers = [watch(port, t, deadline) for t in bot_tables]
        pings, *_ = await asyncio.gather(ping(port, quiet, deadline, args.ping_every), *watchers)
        played = [run for f in people for run in await f]
    return played, pings


def cpu_of(pids: list[int]) -> float:
    return sum(c for p in pids if (c := server_cpu_seconds(p)) is not None)


def run(args: argparse.Namespace, workers: int | None, label: str) -> Result:
    extra = ["--bot-delay", str(args.bot_delay), *lifted_limits(args.tables + 1 + args.bot_tables)]
    if workers is not None:
        extra += ["--bot-workers", str(workers)]
    result = Result(label)
    with running_server(args.database_url, extra) as (port, pid, _db):
        runs = make_tables(port, args.tables)
        quiet = make_tables(port, 1)[0].table
        bot_tables = make_bot_tables(port, args.bot_tables, args.level)
        time.sleep(args.warm_up)  # the worker processes start, the players get going
        before = {t: get(port, f"/api/tables/{t}")["version"] for t in bot_tables}
        server_before, workers_before = cpu_of([pid]), cpu_of(descendants(pid))
        result.load_before = os.getloadavg()
        start = time.perf_counter()
        runs, result.pings = asyncio.run(play(port, runs, bot_tables, quiet, args))
        result.seconds = time.perf_counter() - start
        result.load_after = os.getloadavg()
        result.server_cpu = cpu_of([pid]) - server_before
        result.workers_cpu = cpu_of(descendants(pid)) - workers_before
        result.decisions = sum(get(port, f"/api/tables/{t}")["version"] - before[t] for t in bot_tables)
        result.lost = lost_actions(port, runs)
    result.latencies = sorted(x for r in runs for x in r.latencies)
    result.pings.sort()
    result.actions = sum(r.acked for r in runs)
    result.errors = [e for r in runs for e in r.errors]
    return result


def ms(x: float) -> str:
    return f"{x * 1e3:.1f} ms"


def report(results: list[Result], args: argparse.Namespace) -> None:
    print(
        f"{args.bot_tables} tables of pimc:{args.level} (each watched; bot delay {args.bot_delay:g} s) + "
        f"{args.tables} tables x 3 clients (think {args.think * 1e3:.0f} ms, {args.processes} load "
        f"processes) + 1 quiet table pinged every {args.ping_every * 1e3:.0f} ms; "
        f"{args.seconds:g} s each, loopback, {os.cpu_count()} cores"
    )
    rows: list[tuple[str, ...]] = [("", *(r.label for r in results))]

    def row(name: str, value: str | list[str]) -> None:
        rows.append((name, *(value if isinstance(value, list) else [value])))

    row("action -> update p50", [ms(statistics.median(r.latencies)) if r.latencies else "-" for r in results])
    row("action -> update p99 (<= 50 ms)", [ms(percentile(r.latencies, 0.99)) for r in results])
    row("action -> update max", [ms(r.latencies[-1]) if r.latencies else "-" for r in results])
    row("accepted actions/s", [f"{r.actions / r.seconds:,.0f}" for r in results])
    row("quiet-table ping p50", [ms(statistics.median(r.pings)) if r.pings else "-" for r in results])
    row("quiet-table ping p99 (<= 20 ms)", [ms(percentile(r.pings, 0.99)) for r in results])
    row("quiet-table ping max", [ms(r.pings[-1]) if r.pings else "-" for r in results])
    row("pings", [str(len(r.pings)) for r in results])
    row("bot decisions/s", [f"{r.decisions / r.seconds:.1f}" for r in results])
    row("server process CPU", [f"{r.server_cpu / r.seconds:.0%} of a core" for r in results])
    row("worker processes CPU", [f"{r.workers_cpu / r.seconds:.0%} of a core" for r in results])
    row("errors; lost actions", [f"{len(r.errors)} {sorted(set(r.errors))}; {r.lost}" for r in results])
    row("load average before", [" ".join(f"{x:.2f}" for x in r.load_before) for r in results])
    row("load average after", [" ".join(f"{x:.2f}" for x in r.load_after) for r in results])
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip())


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--bot-tables", type=int, default=30)
    parser.add_argument("--level", type=int, default=5, choices=range(1, 6), help="pimc level (default 5)")
    parser.add_argument("--tables", type=int, default=100, help="tables of three clients (default 100)")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--processes", type=int, default=2, help="load-generating client processes")
    parser.add_argument("--think", type=float, default=0.1, help="seconds a client waits before acting")
    parser.add_argument("--full-states", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--bot-delay", type=float, default=0.6, help="the server's --bot-delay (default 0.6)")
    parser.add_argument("--bot-workers", type=int, default=None, help="the server's --bot-workers")
    parser.add_argument("--ping-every", type=float, default=0.05, help="seconds between pings (default 0.05)")
    parser.add_argument("--warm-up", type=float, default=2.0, help="seconds before measuring (default 2)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--threads", action="store_true", help="computer players in threads (--bot-workers 0)")
    mode.add_argument("--compare", action="store_true", help="the pool, then threads, side by side")
    args = parser.parse_args()
    pool_label = f"pool ({args.bot_workers} workers)" if args.bot_workers else "pool (default workers)"
    if args.threads:
        results = [run(args, 0, "threads")]
    elif args.compare:
        results = [run(args, args.bot_workers, pool_label), run(args, 0, "threads")]
    else:
        results = [run(args, args.bot_workers, pool_label)]
    report(results, args)


if __name__ == "__main__":
    main()
