"""What Ray costs on one machine: a duplicate tournament in a process pool of ``--cpus``
workers and on a local Ray instance (``--ray``: every core of the machine; give ``--cpus``
the machine's cores for a fair match), alternately, ``--runs`` times each.

    PASTON_PIMC_THREADS=1 python benchmarks/ray_overhead.py [--players heuristic,pimc:1]
        [--deals 60] [--cpus 2] [--runs 3]

For each run it measures the whole command as a person waits for it, in a fresh
subprocess (``paston tournament``, start-up included: Python, the pool or ``ray.init``,
the deals, the shutdown), and prints per mode the median, minimum and maximum wall time,
and the deals' time as the command reports it (``N deals in X s``: after the pool or Ray
is up). Both modes write the same records; the script checks that the files are equal.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PASTON = str(Path(sys.executable).with_name("paston"))


def one_run(mode: str, args: argparse.Namespace, out: Path) -> tuple[float, float]:
    """(wall seconds, the command's own deal seconds) of one tournament."""
    where = ["--workers", str(args.cpus)] if mode == "pool" else ["--ray"]
    command = [PASTON, "tournament", "-p", args.players, "-n", str(args.deals), "-s", str(args.seed)]
    command += ["-q", "--force", "-o", str(out), *where]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    found = re.search(r"deals? in ([\d.]+) s", done.stdout)
    assert found, done.stdout
    return wall, float(found.group(1))


def main() -> None:
    """Alternate the modes, then print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="heuristic,pimc:1")
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--cpus", type=int, default=2, help="pool workers (local Ray takes every core)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    times: dict[str, list[tuple[float, float]]] = {"pool": [], "ray": []}
    with tempfile.TemporaryDirectory() as folder:
        files = {mode: Path(folder) / f"{mode}.jsonl" for mode in times}
        for _ in range(args.runs):
            for mode in times:
                times[mode].append(one_run(mode, args, files[mode]))
        same = files["pool"].read_bytes() == files["ray"].read_bytes()
    print(f"{args.players}, {args.deals} deals × 6 seatings, {args.cpus} CPUs, {args.runs} runs each")
    for mode, runs in times.items():
        wall = [w for w, _ in runs]
        deals = [d for _, d in runs]
        print(
            f"{mode:>4}: wall median {statistics.median(wall):6.1f} s (min {min(wall):.1f}, "
            f"max {max(wall):.1f}); deals median {statistics.median(deals):6.1f} s"
        )
    overhead = statistics.median(w for w, _ in times["ray"]) - statistics.median(w for w, _ in times["pool"])
    print(f"Ray − pool, wall medians: {overhead:+.1f} s; same records: {same}")


if __name__ == "__main__":
    main()
