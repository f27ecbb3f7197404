"""How often αμ changes PIMC's card, on the same worlds, and how much PIMC's strategy
fusion overestimates the declarer's chances.

    python experiments/alphamu_same_worlds.py [--positions 150] [--worlds 16] [--seed 5]
        [--depths 2,3]

Collects the declarer's card decisions of deals played by ``pimc:1`` (those where the
declarer has a choice and the contract is not yet made or beaten), samples ``--worlds``
worlds uniformly for each, and values every card at depth 1 (PIMC) and at each depth of
``--depths`` on those same worlds. Prints, per depth: the share of decisions where the
chosen card differs from PIMC's; the mean share of the worlds PIMC's own card is counted
to make minus what αμ's best plan makes (PIMC's optimism from strategy fusion: αμ never
counts more, a tested property); and the median and maximum seconds of a search.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from paston.bots.alphamu import AlphaMu, rank, root_node
from paston.bots.knowledge import uniform_worlds
from paston.bots.pimc import PimcPlayer
from paston.deal import Deal, Phase
from paston.scoring import DECLARER_NEEDS
from paston.solver import Solver
from paston.views import DealView


def positions(count: int, seed: int) -> list[DealView]:
    """Declarer card decisions with a choice and an open contract, from ``pimc:1`` self-play."""
    out: list[DealView] = []
    k = 0
    while len(out) < count:
        deal = Deal.random(random.Random(f"amu-same-worlds:{seed}:{k}"), dealer=k % 3)
        bots = [PimcPlayer(seed=seed * 100 + 3 * k + s, level=1, threads=1) for s in range(3)]
        k += 1
        while not deal.is_over and len(out) < count:
            seat = deal.to_move
            assert seat is not None
            view = deal.view(seat)
            own = view.tricks[seat]
            open_contract = own < DECLARER_NEEDS <= own + 10 - sum(view.tricks)
            play = view.phase is Phase.PLAY and seat == view.declarer
            if play and len(view.legal_actions) > 1 and open_contract:
                out.append(view)
            deal.apply(bots[seat].choose(view))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--positions", type=int, default=150)
    parser.add_argument("--worlds", type=int, default=16)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--depths", default="2,3")
    args = parser.parse_args()
    depths = [int(d) for d in args.depths.split(",")]
    views = positions(args.positions, args.seed)
    solver = Solver()
    changed = {d: 0 for d in depths}
    optimism: dict[int, list[float]] = {d: [] for d in depths}
    seconds: dict[int, list[float]] = {d: [] for d in [1, *depths]}
    for i, view in enumerate(views):
        assert view.contract is not None and view.declarer is not None
        worlds = uniform_worlds(view, args.worlds, random.Random(args.seed * 10_000 + i))
        results = {}
        for depth in [1, *depths]:
            search = AlphaMu(
                solver,
                worlds,
                contract=view.contract,
                declarer=view.declarer,
                defenders=view.defenders,
                root=root_node(view),
            )
            start = time.perf_counter()
            results[depth] = search.root(depth)
            seconds[depth].append(time.perf_counter() - start)
        pimc_card = rank(results[1], view.contract)[0].action
        for depth in depths:
            options = rank(results[depth], view.contract)
            changed[depth] += options[0].action != pimc_card
            best = max(wins for wins, _ in results[depth].values())
            optimism[depth].append((max(w for w, _ in results[1].values()) - best) / args.worlds)
    print(f"{len(views)} declarer decisions (open contracts), {args.worlds} worlds each, seed {args.seed}")
    print(f"depth 1 (PIMC): median {1000 * statistics.median(seconds[1]):.1f} ms")
    for depth in depths:
        print(
            f"depth {depth}: card differs from PIMC's in {changed[depth] / len(views):.1%}; "
            f"PIMC's optimism {statistics.fmean(optimism[depth]):.3f} of the worlds "
            f"(in {sum(1 for o in optimism[depth] if o > 0) / len(views):.1%} of decisions); "
            f"median {1000 * statistics.median(seconds[depth]):.1f} ms, "
            f"max {1000 * max(seconds[depth]):.0f} ms"
        )


if __name__ == "__main__":
    main()
