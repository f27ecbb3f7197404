"""How well inference (paston.bots.inference) locates the hidden cards, against the
uniform consistent sampling pimc uses.

Held-out deals are played by seeded bots (``--players``, default ``heuristic``). At three
points of each deal — after the auction (the discard is next), after the whists (before
the first card) and mid-play (after four tricks) — every seat's view is taken, ``--worlds``
consistent worlds are drawn from it, and each hidden card's probability of each place
(seat 0–2 or the hidden talon) is estimated twice from the same worlds: with equal
weights (uniform) and with the inference weights. The table gives, per point, the mean
log-likelihood of the true places (probabilities floored at 1/(4·worlds)) and the share
of hidden cards whose most likely place is the true one. Reproducible from ``--seed``.

    python experiments/inference_accuracy.py --deals 60
    python experiments/inference_accuracy.py --deals 20 --players pimc:1
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from inference_points import POINTS, measuring_points
from paston.bots.inference import DEFAULT_MODEL, OpponentModel, marginals, weighted_worlds
from paston.bots.knowledge import Knowledge
from paston.deal import Deal


def measure(
    deal: Deal, seat: int, worlds: int, rng: random.Random, model: OpponentModel
) -> tuple[list[float], ...]:
    """Per hidden card: log p(true place) and hit (0/1), uniform and inferred; and the
    effective sample size of the weights."""
    view = deal.view(seat)
    know = Knowledge.from_view(view)
    weighted = weighted_worlds(view, worlds, rng, model)
    uniform = [(w, 1.0 / len(weighted)) for w, _ in weighted]
    ess = 1.0 / sum(x * x for _, x in weighted)
    floor = 1.0 / (4 * worlds)
    out: tuple[list[float], ...] = ([], [], [], [], [ess])
    for k, table in enumerate((marginals(uniform), marginals(weighted))):
        for c in range(32):
            if not know.unknown >> c & 1:
                continue
            place = next((s for s in range(3) if deal.hand_mask(s) >> c & 1), 3)
            probs = table[c]
            out[2 * k].append(math.log(max(probs[place], floor)))
            out[2 * k + 1].append(1.0 if max(range(4), key=lambda p: probs[p]) == place else 0.0)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--players", default="heuristic", help="who plays the held-out deals")
    parser.add_argument("--worlds", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--temperature", type=float, default=DEFAULT_MODEL.temperature)
    parser.add_argument("--noise", type=float, default=DEFAULT_MODEL.noise)
    parser.add_argument("--slip", type=float, default=DEFAULT_MODEL.play_slip)
    args = parser.parse_args()
    model = OpponentModel(args.temperature, args.noise, args.slip)
    rows: dict[str, list[list[float]]] = {p: [[], [], [], [], []] for p in POINTS}
    positions = dict.fromkeys(POINTS, 0)
    start = time.perf_counter()
    for _, deal, point, rng in measuring_points(args.players, args.deals, args.seed):
        positions[point] += 1
        for seat in range(3):
            for acc, values in zip(rows[point], measure(deal, seat, args.worlds, rng, model), strict=True):
                acc.extend(values)
    print(
        f"inference accuracy: {args.deals} deals played by {args.players}, seed {args.seed}, "
        f"{args.worlds} worlds per view, {model}, {time.perf_counter() - start:.0f} s"
    )
    header = (
        "point",
        "deals",
        "cards",
        "loglik uniform",
        "loglik inferred",
        "acc uniform",
        "acc inferred",
        "ESS",
    )
    print(" | ".join(header))
    for p in POINTS:
        r = rows[p]
        if not r[0]:
            continue
        means = " | ".join(f"{statistics.fmean(r[k]):.3f}" for k in (0, 2, 1, 3))
        print(f"{p} | {positions[p]} | {len(r[0])} | {means} | {statistics.median(r[4]):.0f}")


if __name__ == "__main__":
    main()
