"""Decision times of the computer players, by kind of decision.

    python benchmarks/bot_decisions.py [--player pimc] [--deals 40] [--seed 1]

Plays deals where all three seats are the given player and times every decision that
has a real choice (more than one legal action): median, p99 and max per phase. The
targets for pimc on this machine: card play <= 300 ms median and <= 1 s worst; bidding
and whist <= 1 s; discard plus trump <= 3 s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict

from paston.bots import make_player
from paston.deal import Deal
from paston.dealing import shuffled_deck


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--player", default="pimc")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    times: dict[str, list[float]] = defaultdict(list)
    discard_plus_trump: list[float] = []
    start_all = time.perf_counter()
    for k in range(args.deals):
        deal = Deal(shuffled_deck(rng), dealer=k % 3, first_deal=True)
        players = [make_player(args.player, seed=args.seed * 1000 + 3 * k + s) for s in range(3)]
        pending_discard = 0.0
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            view = deal.view(seat)
            start = time.perf_counter()
            action = players[seat].choose(view)
            elapsed = time.perf_counter() - start
            phase = view.phase.name
            if phase == "DISCARD":
                pending_discard = elapsed
            if phase == "TRUMP":
                discard_plus_trump.append(pending_discard + elapsed)
            if len(view.legal_actions) > 1:
                times[phase].append(elapsed)
            deal.apply(action, seat)
    total = time.perf_counter() - start_all
    print(f"{args.player}: {args.deals} deals in {total:.1f} s")
    rows = [*list(times.items()), ("DISCARD+TRUMP", discard_plus_trump)]
    for phase, values in rows:
        if not values:
            continue
        values.sort()
        p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
        print(
            f"{phase:<14} n={len(values):>5}  median {statistics.median(values) * 1e3:8.2f} ms  "
            f"p99 {p99 * 1e3:8.2f} ms  max {values[-1] * 1e3:8.2f} ms"
        )


if __name__ == "__main__":
    main()
