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
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from loadkit import percentile, running_server, server_cpu_seconds
from tablekit import lifted_limits, load_process, lost_actions, make_tables


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
