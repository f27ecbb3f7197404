"""Random-play throughput: complete deals per second through the public Python API.

The loop is the shape of a random playout driven from Python: ask the deal for its
legal actions, pick one at random, apply it, until the deal is over.

    python benchmarks/random_play.py [--seconds 2] [--trials 7] [--seed 0]

Prints each trial and the median. Also times whole games played by the
``random`` bot through per-seat views (the path the CLI uses).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from paston import Deal, Match
from paston.bots import RandomPlayer


def deals_per_second(seconds: float, seed: int) -> tuple[float, float]:
    """(all deals incl. redeals, deals that were scored) per second."""
    rng = random.Random(seed)
    choice = rng.choice
    n = scored = 0
    dealer = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(100):
            deal = Deal.random(rng, dealer=dealer)
            while not deal.is_over:
                deal.apply(choice(deal.legal_actions()))
            n += 1
            scored += deal.redeal is None
            dealer = (dealer + 1) % 3
        now = time.perf_counter()
        if now >= deadline:
            return n / (now - start), scored / (now - start)


def games_via_views(seconds: float, seed: int) -> float:
    """Deals per second when the random bot plays whole games through seat views."""
    rng = random.Random(seed)
    bot = RandomPlayer(seed=seed)
    deals = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        match = Match(first_dealer=0, rng=rng)
        while not match.is_over:
            seat = match.to_move
            assert seat is not None
            match.apply(bot.choose(match.view(seat)), seat)
        deals += len(match.deals)
    return deals / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one trial")
    parser.add_argument("--trials", type=int, default=7, help="number of trials (median reported)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    results = []
    for t in range(args.trials):
        total, scored = deals_per_second(args.seconds, args.seed + t)
        results.append((total, scored))
        print(f"trial {t + 1}: {total:,.0f} deals/s ({scored:,.0f} scored deals/s)")
    print(
        f"median: {statistics.median(r[0] for r in results):,.0f} deals/s "
        f"({statistics.median(r[1] for r in results):,.0f} scored deals/s), one core, target >= 10,000"
    )
    views = [games_via_views(args.seconds, args.seed + t) for t in range(3)]
    print(f"whole games through seat views (random bot): median {statistics.median(views):,.0f} deals/s")


if __name__ == "__main__":
    main()
