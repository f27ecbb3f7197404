"""Where a decision of the PettingZoo loop goes: the median cost of each part of
``benchmarks/env_speed.py``'s ``pettingzoo`` loop, in nanoseconds.

The parts that leave the state as it is are timed alone at a state in the middle of a
deal (``agent_iter``'s next agent, ``last()``, the loop's ``mask.nonzero()``, the random
choice); ``step`` (with the deal's end and the next ``reset``) is the rest of the whole
loop's time per decision.

    python benchmarks/env_breakdown.py [--trials 5]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import timeit

from envkit import pettingzoo_loop
from paston.env.pettingzoo import env


def whole_loop(seconds: float, seed: int) -> float:
    """Nanoseconds per decision of the pettingzoo loop of env_speed.py (that very loop, from envkit)."""
    decisions, elapsed = pettingzoo_loop(seconds, seed)
    return elapsed / decisions * 1e9


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--trials", type=int, default=5)
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    e = env()
    e.reset(seed=1)
    for _ in range(6):  # into the deal a little
        obs = e.last()[0]
        assert obs is not None
        e.step(int(obs["action_mask"].nonzero()[0][0]))
    obs = e.last()[0]
    assert obs is not None
    names = {
        "agent_iter: next agent": "next(it)",
        "last()": "e.last()",
        "mask.nonzero()[0]": "obs['action_mask'].nonzero()[0]",
        "randrange + legal[k]": "legal[rng.randrange(len(legal))]",
    }
    scope = {
        "e": e,
        "obs": obs,
        "legal": obs["action_mask"].nonzero()[0],
        "rng": random.Random(0),
        "it": e.agent_iter(),
    }
    n = 100_000
    parts: dict[str, list[float]] = {name: [] for name in names}
    totals: list[float] = []
    for trial in range(args.trials):
        for name, stmt in names.items():
            parts[name].append(timeit.timeit(stmt, globals=scope, number=n) / n * 1e9)
        totals.append(whole_loop(1.0, trial))
    medians = {name: statistics.median(v) for name, v in parts.items()}
    total = statistics.median(totals)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    for name, value in medians.items():
        print(f"{name:<28} {value:>8,.0f} ns")
    print(f"{'step, deal ends, resets':<28} {total - sum(medians.values()):>8,.0f} ns  (the rest)")
    print(f"{'a decision in all':<28} {total:>8,.0f} ns  ({1e9 / total:,.0f} decisions/s)")


if __name__ == "__main__":
    main()
