"""The gain per doubling of sampled worlds: a duplicate tournament of pimc with ``n``
worlds against pimc with ``2n`` worlds.

    python experiments/world_doubling.py --worlds 4 --deals 200 [--seed 7] [--out FILE]

Both players sample ``n`` (or ``2n``) worlds for card play, bidding, whist and the
discard-and-trump decision, and try the same number of discards (``--discards``), so only
the number of worlds differs. The two settings stand in for levels 1 and 2 of pimc in
this process and in the tournament's worker processes (forked, so they inherit them).
Prints the points per deal of ``2n`` minus ``n`` with a bootstrap 95% interval.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import time
from pathlib import Path

from paston.bots import pimc
from paston.eval.stats import bootstrap_ci, summarize
from paston.eval.tournament import DealResultRow, run_tournament


def settings(worlds: int, discards: int) -> pimc.Level:
    """One world count for every kind of decision."""
    return pimc.Level(play=worlds, bid=worlds, discard=worlds, discards_tried=discards, whist=worlds)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--worlds", type=int, default=4, help="n: the smaller world count")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--discards", type=int, default=6)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="also write the summary here")
    args = parser.parse_args()
    if "fork" not in multiprocessing.get_all_start_methods() and args.workers > 1:
        raise SystemExit("needs the fork start method for several workers")
    n = args.worlds
    pimc.LEVELS[1] = settings(n, args.discards)
    pimc.LEVELS[2] = settings(2 * n, args.discards)
    small, large = "pimc:1", "pimc:2"
    rows: list[list[DealResultRow]] = []
    start = time.perf_counter()
    for deal_rows in run_tournament(large, small, deals=args.deals, seed=args.seed, workers=args.workers):
        rows.append(deal_rows)
        if args.out is not None and len(rows) % 25 == 0 and len(rows) < args.deals:
            report(rows, n, args, time.perf_counter() - start, args.out)
    report(rows, n, args, time.perf_counter() - start, args.out)


def report(
    rows: list[list[DealResultRow]], n: int, args: argparse.Namespace, elapsed: float, out: Path | None
) -> None:
    """Print (and write to ``out``) the summary of the deals played so far."""
    small, large = "pimc:1", "pimc:2"
    summary = summarize(rows, large, small)
    diff = [x - y for x, y in zip(summary[large].per_deal, summary[small].per_deal, strict=True)]
    lo, hi = bootstrap_ci(diff, seed=args.seed)
    mean = sum(diff) / len(diff)
    lines = [
        f"pimc {2 * n} worlds - pimc {n} worlds: {mean:+.2f} points per deal, 95% CI [{lo:+.2f}, {hi:+.2f}]",
        f"{len(rows)} of {args.deals} deals x 6 seatings, seed {args.seed}, discards tried {args.discards}, "
        f"{elapsed:.0f} s with {args.workers} worker(s), load {os.getloadavg()[0]:.2f}",
        f"ms per decision: {2 * n} worlds {summary[large].mean_decision_ms:.1f}, "
        f"{n} worlds {summary[small].mean_decision_ms:.1f}",
    ]
    text = "\n".join(lines)
    print(text, flush=True)
    if out is not None:
        out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
