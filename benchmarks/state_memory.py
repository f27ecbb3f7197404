"""Memory of one deal state and the cost of ``clone()``.

    python benchmarks/state_memory.py [--states 2000] [--trials 7]

Memory is measured with tracemalloc over many independent states in mid-play
(what a search keeps alive), so shared tables are not counted; clone time is the
median over trials of timing many clones.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import tracemalloc

from paston import Deal
from paston.deal import Phase


def mid_play_deal(rng: random.Random) -> Deal:
    """A random deal advanced into the middle of the play."""
    while True:
        deal = Deal.random(rng, dealer=rng.randrange(3))
        while not deal.is_over and not (deal.phase is Phase.PLAY and len(deal.completed_tricks) >= 4):
            acts = deal.legal_actions()
            if deal.phase is Phase.TRUMP:
                acts = acts[:-1]  # no surrender: get to the play
            elif deal.phase is Phase.DEFENCE:
                acts = acts[:1]  # whist
            deal.apply(rng.choice(acts))
        if deal.phase is Phase.PLAY:
            return deal


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--states", type=int, default=2000)
    parser.add_argument("--trials", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(1)
    base = [mid_play_deal(rng) for _ in range(args.states)]

    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    clones = [d.clone() for d in base]
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    per_clone = sum(s.size_diff for s in after.compare_to(before, "filename")) / len(clones)

    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    fresh = [Deal(d.deck, dealer=d.dealer) for d in base]
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    per_fresh = sum(s.size_diff for s in after.compare_to(before, "filename")) / len(fresh)

    times = []
    for _ in range(args.trials):
        start = time.perf_counter()
        for d in base:
            d.clone()
        times.append((time.perf_counter() - start) / len(base))
    print(f"memory of one deal state in mid-play (a clone, own objects only): {per_clone:,.0f} bytes")
    print(f"memory of a freshly dealt state: {per_fresh:,.0f} bytes")
    print(f"clone(): median {statistics.median(times) * 1e6:.2f} µs per clone over {args.trials} trials")


if __name__ == "__main__":
    main()
