"""A duplicate tournament on Ray: every deal is a Ray task, the summary is computed here.

Run it on this machine (a local Ray instance is started and stopped):

    python examples/ray_tournament.py --players pimc:1,heuristic --deals 20

or on a cluster (``ray start --head`` on one machine, ``ray start --address=HEAD:6379`` on
the others, ``pip install 'paston[ray]'`` on all of them):

    python examples/ray_tournament.py --address HEAD:6379 --deals 2000

The same seed gives the same deals and the same numbers as
``paston tournament --players A,B --deals N --seed S`` in a process pool.
"""

from __future__ import annotations

import argparse

from paston.eval import run_tournament, summarize
from paston.eval.distributed import RayExecutor


def main(argv: list[str] | None = None) -> None:
    """Play the tournament and print each player's mean points per deal."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="heuristic,random", help="two players, e.g. pimc:1,heuristic")
    parser.add_argument("--deals", type=int, default=10, help="deals, each played in six seatings")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--address", default=None, help="an existing Ray cluster (HEAD:6379); none: local")
    parser.add_argument("--num-cpus", type=int, default=None, help="CPUs of the local instance")
    args = parser.parse_args(argv)
    a, b = args.players.split(",")
    init = {"num_cpus": args.num_cpus} if args.address is None and args.num_cpus else {}
    with RayExecutor(args.address, **init) as executor:
        print(f"playing {args.deals} deals × 6 seatings on {executor.describe()}")
        rows = list(run_tournament(a, b, deals=args.deals, seed=args.seed, executor=executor))
    summary = summarize(rows, a, b)
    for name in (a, b):
        s = summary[name]
        print(f"{name}: {s.mean:+.2f} points per deal, made {s.make_rate:.0%} of its contracts")
    diff = [x - y for x, y in zip(summary[a].per_deal, summary[b].per_deal, strict=True)]
    print(f"{a} − {b}: {sum(diff) / len(diff):+.2f} points per deal")


if __name__ == "__main__":
    main()
