"""Fit the opponent model of inference (``OpponentModel``: softmax temperature, uniform
noise, card-play slip) to how given players really act, and measure it on held-out deals.

Training and held-out deals are played by seeded bots (``--players``, default
``pimc:3``, the opponent of the strength runs). At the three points of
``inference_accuracy.py`` (``inference_points.py``: after the auction, after the whists,
mid-play) every seat's view is taken and ``--worlds`` consistent worlds are drawn from
it once; the evidence of each world (the other seats' preferences and choices, the clues
it breaks: ``inference.evidence``) is computed once, so every model of the grid is
priced on the same worlds. A model's fit is the mean log-likelihood of the true place of
each hidden card under the weighted worlds (probabilities floored at 1/(4·worlds)), the
measure of ``inference_accuracy.py``. The model with the best fit on the training deals
is then compared, on the held-out deals, with the default model and with uniform
weights. Reproducible from ``--seed``.

    python experiments/opponent_model_fit.py
    python experiments/opponent_model_fit.py --train-deals 40 --test-deals 40 --worlds 60
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import time
from dataclasses import dataclass

import numpy as np

from inference_points import POINTS, measuring_points
from paston.bots.inference import DEFAULT_MODEL, Evidence, OpponentModel, evidence, observe, score
from paston.bots.knowledge import Knowledge
from paston.deal import Deal

TEMPERATURES = (0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0)
NOISES = (0.02, 0.05, 0.1, 0.25, 0.5, 0.75)
SLIPS = (0.05, 0.1, 0.2, 0.35, 0.5, 0.75)


@dataclass
class View:
    """One seat's view at one point: its sampled worlds' evidence, and for each hidden
    card whether each world puts it in its true place (and in which place)."""

    deal: int  # which deal it is from (views of one deal are not independent)
    point: str
    evidence: list[Evidence]
    at_truth: np.ndarray  # worlds × hidden cards: 1 where the world has the card's true place
    places: np.ndarray  # worlds × hidden cards: the place (0–3) each world gives the card
    truth: np.ndarray  # hidden cards: the true place


def views_of(deal: Deal, index: int, seat: int, point: str, worlds: int, rng: random.Random) -> View:
    view = deal.view(seat)
    know = Knowledge.from_view(view)
    obs = observe(view)
    drawn = [know.sample(rng) for _ in range(worlds)]
    cards = [c for c in range(32) if know.unknown >> c & 1]
    truth = np.array(
        [next((s for s in range(3) if deal.hand_mask(s) >> c & 1), 3) for c in cards], dtype=np.int8
    )
    places = np.array(
        [[next(p for p in range(4) if w[p] >> c & 1) for c in cards] for w in drawn], dtype=np.int8
    )
    return View(
        index, point, [evidence(obs, w) for w in drawn], (places == truth).astype(np.float64), places, truth
    )


def collect(players: str, deals: int, seed: int, worlds: int) -> list[View]:
    """The views of ``deals`` deals played by ``players`` from ``seed``."""
    out: list[View] = []
    for n, deal, point, rng in measuring_points(players, deals, seed):
        out.extend(views_of(deal, n, s, point, worlds, rng) for s in range(3))
    return out


def weights(view: View, model: OpponentModel | None) -> np.ndarray:
    """The normalised weights of a view's worlds (``None``: uniform)."""
    if model is None:
        return np.full(len(view.evidence), 1.0 / len(view.evidence))
    logs = np.array([score(ev, model) for ev in view.evidence])
    w = np.exp(logs - logs.max())
    return w / w.sum()  # type: ignore[no-any-return]


def fit(views: list[View], model: OpponentModel | None, worlds: int) -> dict[str, tuple[float, float, int]]:
    """Per point: mean log-likelihood of the true places, accuracy, cards."""
    floor = 1.0 / (4 * worlds)
    logs: dict[str, list[np.ndarray]] = {p: [] for p in POINTS}
    hits: dict[str, list[np.ndarray]] = {p: [] for p in POINTS}
    for v in views:
        if not len(v.truth):
            continue
        w = weights(v, model)
        logs[v.point].append(np.log(np.maximum(w @ v.at_truth, floor)))
        probs = np.stack([w @ (v.places == p) for p in range(4)])  # places × cards
        hits[v.point].append((probs.argmax(axis=0) == v.truth).astype(np.float64))
    out = {}
    for p in POINTS:
        if logs[p]:
            ll, acc = np.concatenate(logs[p]), np.concatenate(hits[p])
            out[p] = (float(ll.mean()), float(acc.mean()), len(ll))
    return out


def overall(result: dict[str, tuple[float, float, int]]) -> float:
    """Mean log-likelihood over every hidden card of every point."""
    cards = sum(n for _, _, n in result.values())
    return sum(ll * n for ll, _, n in result.values()) / cards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--train-deals", type=int, default=300)
    parser.add_argument("--test-deals", type=int, default=300)
    parser.add_argument("--players", default="pimc:3", help="who plays the deals")
    parser.add_argument("--worlds", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2027)
    args = parser.parse_args()
    start = time.perf_counter()
    train = collect(args.players, args.train_deals, args.seed, args.worlds)
    test = collect(args.players, args.test_deals, args.seed + 1, args.worlds)
    collected = time.perf_counter() - start
    grid = [OpponentModel(t, n, s) for t, n, s in itertools.product(TEMPERATURES, NOISES, SLIPS)]
    scored = sorted(((overall(fit(train, m, args.worlds)), i) for i, m in enumerate(grid)), reverse=True)
    best = grid[scored[0][1]]
    print(
        f"opponent model fit: deals by {args.players}, {args.train_deals} training (seed {args.seed}) and "
        f"{args.test_deals} held out (seed {args.seed + 1}), {args.worlds} worlds per view, "
        f"{len(grid)} models; {collected:.0f} s to play and draw, {time.perf_counter() - start:.0f} s in all"
    )
    print(f"best on the training deals: {best} (default {DEFAULT_MODEL})")
    print(
        "top five on the training deals: "
        + "; ".join(
            f"T={grid[i].temperature} noise={grid[i].noise} slip={grid[i].play_slip}: {ll:.4f}"
            for ll, i in scored[:5]
        )
    )
    print(
        "held out | point | cards | loglik uniform | loglik default | loglik fitted "
        "| acc uniform | acc default | acc fitted"
    )
    results = {
        name: fit(test, m, args.worlds)
        for name, m in (("uniform", None), ("default", DEFAULT_MODEL), ("fitted", best))
    }
    for p in POINTS:
        if p not in results["uniform"]:
            continue
        u, d, f = (results[k][p] for k in ("uniform", "default", "fitted"))
        print(f"| {p} | {u[2]} | {u[0]:.3f} | {d[0]:.3f} | {f[0]:.3f} | {u[1]:.3f} | {d[1]:.3f} | {f[1]:.3f}")
    print(
        "all points: loglik "
        + ", ".join(f"{k} {overall(r):.4f}" for k, r in results.items())
        + f"; per card, fitted − default {overall(results['fitted']) - overall(results['default']):+.4f} nats"
    )
    floor = 1 / (4 * args.worlds)
    per_deal: dict[int, float] = {}  # fitted − default, summed over the deal's views and hidden cards
    for v in test:
        if len(v.truth):
            gain = float(np.log(np.maximum(weights(v, best) @ v.at_truth, floor)).sum()) - float(
                np.log(np.maximum(weights(v, DEFAULT_MODEL) @ v.at_truth, floor)).sum()
            )
            per_deal[v.deal] = per_deal.get(v.deal, 0.0) + gain
    gains = list(per_deal.values())
    draws = random.Random(args.seed)
    boots = sorted(statistics.fmean(draws.choices(gains, k=len(gains))) for _ in range(2000))
    print(
        "fitted − default per deal (summed over its views and hidden cards): "
        f"{statistics.fmean(gains):+.3f} nats, "
        f"95% bootstrap over deals [{boots[50]:+.3f}, {boots[1949]:+.3f}], {len(gains)} deals"
    )
    assert math.isfinite(overall(results["fitted"]))


if __name__ == "__main__":
    main()
