"""The measuring points of the inference experiments, shared by
``experiments/inference_accuracy.py`` and ``experiments/opponent_model_fit.py``: held-out
deals played by seeded bots, taken after the auction (the discard is next), after the
whists (before the first card) and mid-play (after four tricks).

A library module, not a script: the two experiments import it by name (their folder is on
``sys.path`` when they run as ``python experiments/<name>.py``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from paston.bots import make_player
from paston.deal import Deal, Phase

POINTS = ("after auction", "after whist", "mid-play")


def point_of(deal: Deal, seen: set[str]) -> str | None:
    """The measuring point the deal has just reached, once per deal."""
    if deal.phase is Phase.DISCARD and "after auction" not in seen:
        return "after auction"
    if deal.phase is Phase.PLAY and not deal.played_mask and "after whist" not in seen:
        return "after whist"
    if deal.phase is Phase.PLAY and len(deal.completed_tricks) == 4 and "mid-play" not in seen:
        return "mid-play"
    return None


def measuring_points(players: str, deals: int, seed: int) -> Iterator[tuple[int, Deal, str, random.Random]]:
    """Play ``deals`` held-out deals by seeded ``players`` from ``seed``; at each measuring
    point of each deal yield the deal's number, the deal as it stands, the point, and the
    deal's random generator (for drawing worlds; the deal goes on after the caller)."""
    for n in range(deals):
        deal_seed = seed * 100_003 + n
        deal = Deal.random(random.Random(deal_seed), dealer=n % 3)
        bots = [make_player(players, seed=deal_seed * 3 + s) for s in range(3)]
        rng = random.Random(deal_seed)
        seen: set[str] = set()
        while not deal.is_over:
            point = point_of(deal, seen)
            if point is not None:
                seen.add(point)
                yield n, deal, point, rng
            seat = deal.to_move
            assert seat is not None
            deal.apply(bots[seat].choose(deal.view(seat)))
