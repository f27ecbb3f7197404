"""Speed-up of solving many worlds on several threads (the solver releases the GIL).

    python benchmarks/solver_threads.py [--worlds 200] [--repeats 5] [--threads 1,2] [--seed 1]

Solves the same ``--worlds`` random full deals (three-hand trick count, and max^n with the
scores of R7) with a pool of 1, 2, … threads, each thread with its own solver on a fresh
table (the tables are fresh on every repeat, so each repeat does the same work). Prints
the median wall time over ``--repeats`` (the thread counts alternate within each
repeat, so a change of load falls on all alike) and the speed-up against one thread,
with the machine's load average before and after: on a shared machine the load caps
the speed-up (with two cores, at most 2x).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from paston.contracts import Contract
from paston.solver import Position, Solver


def random_position(rng: random.Random) -> Position:
    """A random full deal: declarer, two defenders, contract; the declarer leads."""
    deck = list(range(32))
    rng.shuffle(deck)
    declarer = rng.randrange(3)
    hands = [sum(1 << c for c in deck[10 * s : 10 * s + 10]) for s in range(3)]
    return Position(
        hands=(hands[0], hands[1], hands[2]),
        contract=Contract(rng.randrange(5)),
        declarer=declarer,
        defenders=tuple(s for s in range(3) if s != declarer),
        leader=declarer,
    )


def solve_all(positions: list[Position], threads: int, work: Callable[[Solver, Position], object]) -> float:
    """Seconds to solve every position on ``threads`` threads (contiguous shares)."""
    share = -(-len(positions) // threads)
    parts = [positions[i : i + share] for i in range(0, len(positions), share)]
    solvers = [Solver(memory_mb=4) for _ in parts]  # fresh tables, made before the clock starts

    def run(k: int) -> None:
        for pos in parts[k]:
            work(solvers[k], pos)

    start = time.perf_counter()
    if threads == 1:
        run(0)
    else:
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(run, range(len(parts))))
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--worlds", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--threads", default=",".join(str(t) for t in range(1, (os.cpu_count() or 1) + 1)))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    positions = [random_position(rng) for _ in range(args.worlds)]
    counts = [int(t) for t in args.threads.split(",")]
    modes: dict[str, Callable[[Solver, Position], object]] = {
        "tricks (three-hand)": lambda s, p: s.tricks(p),
        "max^n (R7 scores)": lambda s, p: s.maxn(p),
    }
    print(f"{args.worlds} random full deals, {args.repeats} repeats, {os.cpu_count()} cores")
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    for name, work in modes.items():
        # the thread counts alternate within each repeat, so that a change in the
        # machine's load falls on all of them alike
        runs: dict[int, list[float]] = {t: [] for t in counts}
        for _ in range(args.repeats):
            for threads in counts:
                runs[threads].append(solve_all(positions, threads, work))
        base = None
        for threads in counts:
            times = runs[threads]
            median = statistics.median(times)
            base = base or median
            print(
                f"{name:20s} {threads:2d} thread(s): median {1000 * median:8.1f} ms "
                f"(min {1000 * min(times):.1f}, max {1000 * max(times):.1f}), speed-up {base / median:.2f}x"
            )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
