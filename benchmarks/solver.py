"""Double-dummy solver speed on random full deals (one thread).

    python benchmarks/solver.py [--deals 10000] [--maxn-deals 10000] [--reference-deals 20] [--seed 1]

For each mode it prints mean, median, p99 and max time per solve and the mean
number of positions searched:

- three-hand: declarer against two defenders, the declarer's exact trick count;
- two-hand: declarer against a lone defender (the passer's cards out of play);
- makes-6: "does the declarer take 6 tricks?" (three-hand);
- max^n: each player maximises their own score of R7 (three-hand);
- the pure-Python reference on smaller positions (6 cards each), for comparison.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from paston.contracts import Contract
from paston.solver import MAXN_MIN_MEMORY_MB, Position, Solver, reference


def random_position(rng: random.Random, *, cards: int = 10, two_hand: bool = False) -> Position:
    """A random deal's play position: random declarer, contract and first leader (the declarer)."""
    deck = list(range(32))
    rng.shuffle(deck)
    declarer = rng.randrange(3)
    others = [s for s in range(3) if s != declarer]
    defenders = (rng.choice(others),) if two_hand else tuple(others)
    hands = [0, 0, 0]
    i = 0
    for seat in sorted((declarer, *defenders)):
        for _ in range(cards):
            hands[seat] |= 1 << deck[i]
            i += 1
    return Position(
        hands=(hands[0], hands[1], hands[2]),
        contract=Contract(rng.randrange(5)),
        declarer=declarer,
        defenders=defenders,
        leader=declarer,
        tricks=(0, 0, 0),
    )


def report(name: str, times: list[float], nodes: list[int]) -> None:
    if not times:
        print(f"{name:<22} skipped (no deals asked for)")
        return
    times = sorted(times)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    node_text = f", {statistics.mean(nodes):,.0f} nodes mean" if nodes else ""
    print(
        f"{name:<22} n={len(times):>6}  mean {statistics.mean(times) * 1e3:8.3f} ms  "
        f"median {statistics.median(times) * 1e3:8.3f} ms  p99 {p99 * 1e3:8.3f} ms  "
        f"max {times[-1] * 1e3:8.3f} ms{node_text}"
    )


def run(name: str, positions: list[Position], solve: Callable[[Position], int | None]) -> None:
    times, nodes = [], []
    for pos in positions:
        start = time.perf_counter()
        n = solve(pos)
        times.append(time.perf_counter() - start)
        if n is not None:
            nodes.append(n)
    report(name, times, nodes)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--maxn-deals", type=int, default=10000)
    parser.add_argument("--reference-deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--memory-mb", type=float, default=32)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    three = [random_position(rng) for _ in range(args.deals)]
    two = [random_position(rng, two_hand=True) for _ in range(args.deals)]
    solver = Solver(memory_mb=args.memory_mb)
    print(
        f"solver memory {args.memory_mb} MB; targets: three-hand <= 1 ms mean and <= 5 ms p99, "
        "two-hand <= 0.2 ms mean, makes-6 <= 0.5 ms mean, max^n <= 10 ms mean"
    )
    run("three-hand", three, lambda p: solver.tricks_with_nodes(p)[1])
    run("two-hand", two, lambda p: solver.tricks_with_nodes(p)[1])
    fresh = Solver(memory_mb=args.memory_mb)
    run("makes-6 (three-hand)", three, lambda p: (fresh.makes(p), None)[1])
    if args.memory_mb >= MAXN_MIN_MEMORY_MB:
        run("max^n (three-hand)", three[: args.maxn_deals], lambda p: solver.maxn(p).nodes)
    else:
        print(f"max^n (three-hand)     skipped: it needs --memory-mb {MAXN_MIN_MEMORY_MB} or more")
    small = [random_position(rng, cards=6) for _ in range(args.reference_deals)]
    run("reference, 6 cards", small, lambda p: (reference.declarer_tricks(p), None)[1])
    run("compiled, same 6 cards", small, lambda p: solver.tricks_with_nodes(p)[1])


if __name__ == "__main__":
    main()
