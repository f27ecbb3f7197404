"""OpenSpiel's Python information-set MCTS on ``python_paston`` against two random players.

Shows that an OpenSpiel search algorithm runs on the game unchanged (it draws worlds with
``resample_from_infostate``) and what it is worth: every deal is played three times, the
searching player in each seat in turn, the deck the same (chance sampled from one seed),
and the figure is the searcher's mean R7 score per deal against the random players'.

    python experiments/openspiel_ismcts.py [--deals 20] [--simulations 100] [--seed 0]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import paston.env.openspiel  # noqa: F401  (registers python_paston)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--simulations", type=int, default=100, help="ISMCTS simulations per decision")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = pyspiel.load_game("python_paston")
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(args.seed))
    searcher: list[float] = []
    randoms: list[float] = []
    start = time.perf_counter()
    for deal in range(args.deals):
        for seat in range(3):
            bots = [pyspiel.make_uniform_random_bot(s, args.seed + 10 * deal + s) for s in range(3)]
            bots[seat] = ismcts.ISMCTSBot(
                game, evaluator, 2.0, args.simulations, random_state=np.random.RandomState(args.seed + deal)
            )
            returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, args.seed + deal)
            searcher.append(returns[seat])
            randoms.extend(r for s, r in enumerate(returns) if s != seat)
    elapsed = time.perf_counter() - start
    diff = statistics.mean(searcher) - statistics.mean(randoms)
    error = statistics.stdev(searcher) / len(searcher) ** 0.5
    print(
        f"{args.deals} deals × 3 seats, ISMCTS {args.simulations} simulations: "
        f"searcher {statistics.mean(searcher):+.2f} per deal (± {error:.2f} s.e.), "
        f"random {statistics.mean(randoms):+.2f}; difference {diff:+.2f}; {elapsed:.0f} s"
    )


if __name__ == "__main__":
    main()
