"""Decision times and worlds sampled by pimc, by kind of decision, against the targets.

    python benchmarks/pimc_time.py [--player pimc] [--level 5] [--deals 10] [--threads N] [--seed 1]

Plays deals where all three seats are ``--player`` (``pimc``, or ``infer`` for
:class:`paston.bots.inference.InferPlayer`) at ``--level`` (level 5 samples by time,
levels 1-4 a fixed number of worlds) on ``--threads`` threads (default: the cores), and
for every decision with a real choice records its wall time and the worlds it sampled.
Prints median and max time and median worlds per kind, the budget of the timed level,
and whether the targets hold: card play <= 300 ms median and <= 1 s worst; bidding and
whist <= 1 s; discard plus trump <= 3 s. The machine's load average is printed too: a
loaded machine solves fewer worlds in the same time, never more time.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections import defaultdict

from paston.bots.inference import InferPlayer
from paston.bots.pimc import TIME_BUDGETS, PimcPlayer
from paston.deal import Deal
from paston.dealing import shuffled_deck

TARGETS = {"PLAY": 1.0, "AUCTION": 1.0, "DEFENCE": 1.0, "DISCARD+TRUMP": 3.0}
"""Worst time per kind (seconds); DEFENCE is the whist-or-pass answer."""


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--player", choices=("pimc", "infer"), default="pimc")
    parser.add_argument("--level", type=int, default=5)
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    times: dict[str, list[float]] = defaultdict(list)
    worlds: dict[str, list[int]] = defaultdict(list)
    load_before = os.getloadavg()[0]
    threads = 1
    for k in range(args.deals):
        deal = Deal(shuffled_deck(rng), dealer=k % 3, first_deal=True)
        kind = InferPlayer if args.player == "infer" else PimcPlayer
        bots = [
            kind(seed=args.seed * 1000 + 3 * k + s, level=args.level, threads=args.threads) for s in range(3)
        ]
        threads = bots[0].threads
        pending = 0.0
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            view = deal.view(seat)
            if len(view.legal_actions) == 1:
                deal.apply(view.legal_actions[0], seat)
                continue
            start = time.perf_counter()
            scored = bots[seat].options(view)
            elapsed = time.perf_counter() - start
            phase = view.phase.name
            times[phase].append(elapsed)
            worlds[phase].append(scored.worlds)
            if phase == "DISCARD":
                pending = elapsed
            elif phase == "TRUMP":
                times["DISCARD+TRUMP"].append(pending + elapsed)
            deal.apply(scored.chosen(view.legal_actions), seat)
    print(
        f"{args.player}:{args.level} on {threads} thread(s), {args.deals} deals; load average "
        f"{load_before:.2f} before, {os.getloadavg()[0]:.2f} after"
    )
    print(
        f"time budgets of the timed level (s): play {TIME_BUDGETS.play}, bid {TIME_BUDGETS.bid}, "
        f"whist {TIME_BUDGETS.whist}, discard {TIME_BUDGETS.discard}, trump {TIME_BUDGETS.trump}"
    )
    for phase, values in sorted(times.items()):
        w = worlds.get(phase)
        target = TARGETS.get(phase)
        ok = "" if target is None else (" ok" if max(values) <= target else f" OVER the {target:g} s target")
        if phase == "PLAY" and statistics.median(values) > 0.3:
            ok += " (median over 300 ms)"
        print(
            f"{phase:<14} n={len(values):>4}  median {statistics.median(values) * 1e3:8.1f} ms  "
            f"max {max(values) * 1e3:8.1f} ms"
            + (f"  worlds median {statistics.median(w):g} (min {min(w)}, max {max(w)})" if w else "")
            + ok
        )


if __name__ == "__main__":
    main()
