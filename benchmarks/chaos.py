"""Chaos: a cluster of three ``paston serve`` workers over PostgreSQL and Redis, people
and computer players on many tables, and a random schedule of faults (``kill -9``,
``SIGSTOP`` past the lease, Redis restarted empty, PostgreSQL stopped at once, client
sockets cut around a move); then a checker over the whole history
(:mod:`paston.testing.chaos`).

    python benchmarks/chaos.py [--minutes 30] [--heal 20] [--tables 8] [--seed 1]
                               [--faults kill,pause,redis,postgres,cut]

Prints each fault as it is injected, then the faults by kind, the tables and moves, what
the players were told, and every violation found (exit 1 if there is one): an
acknowledged move not in the log exactly once at its place, versions with a gap, a
fencing token going back, a table some worker cannot load or loads at another version,
a finished game whose record fails ``paston check`` or ``paston verify``, a table
without a move for more than 10 s once the faults have healed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from paston.testing.chaos import FAULTS, run_chaos


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="how long faults are injected")
    parser.add_argument("--heal", type=float, default=20.0, help="seconds of play after the last fault")
    parser.add_argument("--tables", type=int, default=8, help="tables played at once")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--target", type=int, default=20, help="each game's target (points)")
    parser.add_argument("--faults", default=",".join(FAULTS), help="the kinds of fault to inject")
    args = parser.parse_args()
    faults = [f for f in args.faults.split(",") if f]
    unknown = sorted(set(faults) - set(FAULTS))
    if unknown or not faults:
        parser.error(f"--faults: unknown {unknown} (choose from {', '.join(FAULTS)})")
    started = time.monotonic()
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f} at the start", flush=True)
    report = run_chaos(
        seconds=args.minutes * 60,
        heal=args.heal,
        slots=args.tables,
        seed=args.seed,
        target=args.target,
        faults=faults,
        progress=lambda line: print(line, flush=True),
    )
    print(report.summary())
    print(f"wall time {time.monotonic() - started:.0f} s, load {os.getloadavg()[0]:.2f} at the end")
    sys.exit(1 if report.violations else 0)


if __name__ == "__main__":
    main()
