"""Many tables at once on loopback: three WebSocket clients per table play random legal
moves against a real ``paston serve`` process.

    python benchmarks/server_load.py [--tables 100] [--seconds 30] [--think 0.1]
                                     [--processes 2] [--database-url URL] [--full-states]

Reports accepted actions per second, the p50/p99/max time from a client sending an
action to every client of the table having the resulting update, the server process's
CPU time per action, errors, and lost actions (accepted actions missing from the
server's final state). Target on this machine: 100 concurrent tables with p99 <= 50 ms
and no errors or lost actions.

Each client acts ``--think`` seconds after its turn comes (default 0.1 s: six times
faster than the server's own computer players, many times faster than people), so 100
tables send about 600 actions a second. ``--think 0`` is a closed loop with no pause:
every table always has an action in flight, the machine is saturated (the load
processes take more CPU than the server), and the latency measured is mostly queueing.
The clients run in ``--processes`` processes and ask for update messages (``--full-states``:
a full state after every action, as before updates existed).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from websockets.asyncio.client import connect

from loadkit import get, percentile, post, running_server, server_cpu_seconds

#: The tables play to this total, so that no game ends during a run.
LONG_GAME = 100_000


class TableRun:
    """Three clients of one table and the timing of its actions."""

    def __init__(self, table: str, tokens: list[str]) -> None:
        self.table = table
        self.tokens = tokens
        self.sent_at: dict[int, float] = {}  # version produced -> send time
        self.seen: dict[int, int] = {}  # version -> clients that have it
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.acked = 0
        self.version = 0


async def client(
    port: int, run: TableRun, seat: int, deadline: float, rng: random.Random, updates: bool, think: float
) -> None:
    async with connect(f"ws://127.0.0.1:{port}/ws/tables/{run.table}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": run.tokens[seat], "updates": updates}))
        try:
            async with asyncio.timeout(max(0.01, deadline - time.perf_counter())):
                await follow(ws, run, seat, deadline, rng, think)
        except TimeoutError:
            pass


async def follow(
    ws: Any, run: TableRun, seat: int, deadline: float, rng: random.Random, think: float
) -> None:
    """Read the table's messages, time the updates, act when it is this seat's turn."""
    state: dict[str, Any] = {}
    async for raw in ws:
        msg = json.loads(raw)
        now = time.perf_counter()
        if msg["type"] == "error":
            run.errors.append(msg["code"])
            continue
        if msg["type"] == "ack":
            run.acked += 1
            continue
        if msg["type"] == "update":
            if msg.get("event") is not None and msg["version"] != state.get("version", -2) + 1:
                run.errors.append("update-gap")
            state.update({k: v for k, v in msg.items() if k not in ("view", "event")})
            state["view"] = msg["view"]
            msg = state
        elif msg["type"] == "state":
            state = msg
        else:
            continue
        v = msg["version"]
        run.version = max(run.version, v)
        if v in run.sent_at:
            run.seen[v] = run.seen.get(v, 0) + 1
            if run.seen[v] == 3:
                run.latencies.append(now - run.sent_at.pop(v))
        view = msg["view"]
        if msg["winners"] or view["to_move"] != seat or not view["legal"]:
            continue
        if v + 1 in run.sent_at:
            continue  # already acted on this version (a repeated state)
        if think:
            await asyncio.sleep(think)
            if time.perf_counter() >= deadline:
                return
        run.sent_at[v + 1] = time.perf_counter()
        await ws.send(
            json.dumps(
                {"type": "act", "action": rng.choice(view["legal"]), "version": v, "id": f"{seat}-{v}"}
            )
        )


async def play_tables(port: int, runs: list[TableRun], args: argparse.Namespace, seed: float) -> None:
    deadline = time.perf_counter() + args.seconds
    rng = random.Random(seed)
    await asyncio.gather(
        *(
            client(port, run, seat, deadline, random.Random(rng.random()), not args.full_states, args.think)
            for run in runs
            for seat in range(3)
        )
    )


def load_process(port: int, runs: list[TableRun], args: argparse.Namespace, seed: float) -> list[TableRun]:
    """One load-generating process: plays its share of the tables, returns their timings.
    Its garbage collection is tuned like the server's, so that its own pauses do not
    count as server latency."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)
    asyncio.run(play_tables(port, runs, args, seed))
    return runs


def lifted_limits(tables: int, spare: int = 0) -> tuple[str, ...]:
    """``paston serve`` options that let one address (the benchmark's) make ``tables``
    tables at once, and ``spare`` more open ones: the limits of a public server lifted."""
    return (
        *("--create-burst", str(tables), "--tables-per-client", str(tables + spare)),
        *("--open-tables", str(max(1000, tables + spare))),
    )


def make_tables(port: int, n: int) -> list[TableRun]:
    """``n`` tables of three people (playing to :data:`LONG_GAME`), every seat taken."""
    runs = []
    for i in range(n):
        table = post(
            port,
            "/api/tables",
            {"name": f"load {i}", "rules": {"target": LONG_GAME}, "seats": [{"kind": "human"}] * 3},
        )["id"]
        tokens = [post(port, f"/api/tables/{table}/seats/{s}", {"name": f"p{s}"})["token"] for s in range(3)]
        runs.append(TableRun(table, tokens))
    return runs


def lost_actions(port: int, runs: list[TableRun]) -> int:
    """Accepted actions missing from the server's own count (its final versions)."""
    return sum(max(0, run.acked - get(port, f"/api/tables/{run.table}")["version"]) for run in runs)


def main_with_server(args: argparse.Namespace) -> None:
    with running_server(args.database_url, lifted_limits(args.tables)) as (port, pid, db):
        runs = make_tables(port, args.tables)
        rng = random.Random(args.seed)
        groups = [runs[i :: args.processes] for i in range(args.processes)]
        cpu_before = server_cpu_seconds(pid)
        start = time.perf_counter()
        with ProcessPoolExecutor(args.processes) as pool:
            futures = [pool.submit(load_process, port, g, args, rng.random()) for g in groups if g]
            runs = [run for f in futures for run in f.result()]
        elapsed = time.perf_counter() - start
        lost = lost_actions(port, runs)
        latencies = sorted(x for run in runs for x in run.latencies)
        actions = sum(run.acked for run in runs)
        errors = [e for run in runs for e in run.errors]
        p99 = percentile(latencies, 0.99)
        mode = "full states" if args.full_states else "updates"
        print(
            f"{args.tables} tables x 3 WebSocket clients ({mode}, think {args.think * 1e3:.0f} ms) for "
            f"{elapsed:.1f} s on loopback ({db.split(':')[0]}), {args.processes} load processes"
        )
        print(f"accepted actions: {actions} ({actions / elapsed:,.0f}/s)")
        if latencies:
            print(
                f"action -> all three clients updated: p50 {statistics.median(latencies) * 1e3:.1f} ms, "
                f"p99 {p99 * 1e3:.1f} ms, max {latencies[-1] * 1e3:.1f} ms (target p99 <= 50 ms)"
            )
        cpu_after = server_cpu_seconds(pid)
        if cpu_before is not None and cpu_after is not None and actions:
            cpu = cpu_after - cpu_before
            print(
                f"server process CPU while playing: {cpu:.1f} s ({cpu / elapsed:.0%} of one core), "
                f"{cpu / actions * 1e3:.2f} ms per action"
            )
        print(f"errors: {len(errors)} {sorted(set(errors))}; lost actions: {lost}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default=None)
    parser.add_argument(
        "--processes", type=int, default=2, help="load-generating client processes (default 2)"
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.1,
        help="seconds a client waits before acting (default 0.1, six times faster than the server's "
        "own computer players; 0: a closed loop with no pause at all, a saturation test)",
    )
    parser.add_argument(
        "--full-states", action="store_true", help="ask for a full state after every action (no updates)"
    )
    main_with_server(parser.parse_args())


if __name__ == "__main__":
    main()
