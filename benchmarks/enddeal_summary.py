"""What the end-of-deal summary costs the server: building it (``last_summary(match)``
and its JSON) and the bytes it adds to a full state, over games of many deals.

    python benchmarks/enddeal_summary.py [--games 20] [--deals 40] [--seed 1]

Every full state and every update after a deal's end carries the summary of the last
scored deal (server/tables/messages.py), so it should cost well under a millisecond.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from paston.match import Match
from paston.randomplay import play_out
from paston.rules import Rules
from paston.summary import last_summary


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    times: list[float] = []
    sizes: list[int] = []
    for g in range(args.games):
        match = Match(first_dealer=g % 3, rules=Rules(target=100_000), rng=random.Random(args.seed + g))
        play_out(match, random.Random(args.seed * 1000 + g), max_deals=args.deals)
        for _ in range(50):
            start = time.perf_counter()
            summary = last_summary(match)
            assert summary is not None
            text = json.dumps(summary.to_json(), separators=(",", ":"))
            times.append(time.perf_counter() - start)
        sizes.append(len(text))
    print(f"{args.games} games of {args.deals} deals, {len(times)} summaries built")
    print(
        f"last_summary + JSON: median {statistics.median(times) * 1e6:.0f} µs, max {max(times) * 1e6:.0f} µs"
    )
    print(f"JSON size: median {statistics.median(sizes)} bytes, max {max(sizes)} bytes")


if __name__ == "__main__":
    main()
