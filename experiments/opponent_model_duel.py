"""Duplicate tournament of ``infer`` with the fitted opponent model against ``infer`` with
the default one, at the same level (so the same worlds and time per decision).

The fitted settings are ``paston.bots.inference.FITTED_MODEL`` (fitted to ``pimc:3``'s
play by ``experiments/opponent_model_fit.py``, decision I8). Deals are those of
``paston tournament`` with the same seed, in all six seatings; each game runs with one
solver thread, ``--workers`` games at a time. Prints both bots' points per deal with
bootstrap 95% intervals, the difference, and the decision times.

    PASTON_PIMC_THREADS=1 python experiments/opponent_model_duel.py --deals 2000 --seed 50
    python experiments/opponent_model_duel.py --deals 6 --level 3 --workers 1
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import time
from typing import Any

from paston.bots.base import Player, make_player
from paston.bots.inference import FITTED_MODEL, InferPlayer
from paston.bots.registry import parse_player_name
from paston.eval.stats import bootstrap_ci, summarize
from paston.eval.tournament import DealResultRow, play_duplicate_deal

FITTED = "-fitted"


def factory(name: str, *, seed: int | None = None) -> Player:
    """``infer:N-fitted``: ``infer:N`` with the fitted model; any other name as usual."""
    if name.endswith(FITTED):
        key, level = parse_player_name(name.removesuffix(FITTED))
        if key != "infer":
            raise ValueError(f"only infer has an opponent model to fit, not {key!r}")
        return InferPlayer(seed=seed, level=level or 3, model=FITTED_MODEL)
    return make_player(name, seed=seed)


def one_deal(job: tuple[int, str, str, int]) -> list[DealResultRow]:
    k, a, b, seed = job
    return play_duplicate_deal(k, a, b, seed=seed, factory=factory)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=50)
    parser.add_argument("--level", type=int, default=3, help="infer's level for both")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    os.environ.setdefault("PASTON_PIMC_THREADS", "1")  # a core per game
    a, b = f"infer:{args.level}{FITTED}", f"infer:{args.level}"
    jobs = [(k, a, b, args.seed) for k in range(args.deals)]
    start = time.perf_counter()
    rows: list[list[DealResultRow]] = []
    load: list[float] = [os.getloadavg()[0]]
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        for n, deal_rows in enumerate(pool.imap(one_deal, jobs), 1):
            rows.append(deal_rows)
            if n % 50 == 0 or n == args.deals:
                load.append(os.getloadavg()[0])
                print(f"{n}/{args.deals} deals, {time.perf_counter() - start:.0f} s", flush=True)
    summary = summarize(rows, a, b)
    print(
        f"opponent model duel: {args.deals} deals × 6 seatings, seed {args.seed}, {args.workers} workers, "
        f"{time.perf_counter() - start:.0f} s, load {min(load):.1f}–{max(load):.1f}"
    )
    report: dict[str, Any] = {}
    for name in (a, b):
        s = summary[name]
        lo, hi = bootstrap_ci(s.per_deal, seed=args.seed)
        report[name] = (s.mean, lo, hi)
        print(
            f"{name:<16} {s.mean:+.2f} [{lo:+.2f}, {hi:+.2f}] points/deal; made {s.make_rate:.1%}, "
            f"whist {s.whist_rate:.1%}; decisions mean {s.mean_decision_ms:.1f} / median "
            f"{s.median_decision_ms:.1f} / p99 {s.p99_decision_ms:.0f} ms"
        )
    diff = [x - y for x, y in zip(summary[a].per_deal, summary[b].per_deal, strict=True)]
    lo, hi = bootstrap_ci(diff, seed=args.seed)
    print(f"{a} − {b}: {statistics.fmean(diff):+.2f} [{lo:+.2f}, {hi:+.2f}] points per deal")


if __name__ == "__main__":
    main()
