"""Time to analyse a finished deal at the default pimc level (paston.eval.analysis).

    python benchmarks/analysis_time.py [--deals 30] [--level 3] [--seed 1]

The deals are the finished deals of games between heuristic players (the bidding,
discard, whist and play of a plausible table), taken in order until ``--deals`` are
collected. Three measures per deal, each printing median, mean, p90 and max:

- fresh solver: ``analyze_deal`` in this process with a new solver (a worker's first deal);
- warm solver: the same with one solver kept across deals (a worker's later deals);
- server worker: what the server does when a deal ends — the deal sent to a worker
  process (``paston.server.work.deal_analysis``), analysed there, the result sent back — timed from
  the submission to the answer (the database write, a few ms, is not included);
- with ``--server-games N``: the whole server (``create_app``, one analysis worker, an
  SQLite file) while N games of heuristic players are played at ``--bot-delay`` seconds a
  move; each deal's time from its last card (or last decision) to its analysis stored
  (``Analyses.durations``): what a player waits for after a deal ends.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor

from fastapi.testclient import TestClient

from paston.bots.pimc import DEFAULT_LEVEL
from paston.bots.runner import seeded_game
from paston.deal import Deal
from paston.eval.analysis import analyze_deal
from paston.server.web.app import create_app
from paston.server.work.deal_analysis import DealJob, analysis_executor, run_analysis
from paston.solver import Solver


def collect(n: int, seed: int) -> list[Deal]:
    """``n`` finished (scored) deals from seeded heuristic games."""
    deals: list[Deal] = []
    game = seed
    while len(deals) < n:
        match = seeded_game(game, ["heuristic"] * 3, max_deals=20)
        deals.extend(d for d in match.deals if d.is_over and d.result is not None)
        game += 1
    return deals[:n]


def report(name: str, times: list[float]) -> None:
    times = sorted(times)
    p90 = times[min(len(times) - 1, int(len(times) * 0.9))]
    print(
        f"{name:<14} n={len(times):>4}  median {statistics.median(times):6.3f} s  "
        f"mean {statistics.mean(times):6.3f} s  p90 {p90:6.3f} s  max {times[-1]:6.3f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--level", type=int, default=DEFAULT_LEVEL)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--server-games", type=int, default=0)
    parser.add_argument("--bot-delay", type=float, default=0.1)
    args = parser.parse_args()
    deals = collect(args.deals, args.seed)
    played = sum(1 for d in deals if d.result is not None and d.result.outcome == "played")
    print(f"{len(deals)} finished deals ({played} with card play), pimc level {args.level}")

    fresh = []
    for i, deal in enumerate(deals):
        start = time.perf_counter()
        analyze_deal(deal, i, level=args.level, solver=Solver())
        fresh.append(time.perf_counter() - start)
    report("fresh solver", fresh)

    warm = []
    solver = Solver()
    for i, deal in enumerate(deals):
        start = time.perf_counter()
        analyze_deal(deal, i, level=args.level, solver=solver)
        warm.append(time.perf_counter() - start)
    report("warm solver", warm)

    pool = analysis_executor(1)
    assert isinstance(pool, ProcessPoolExecutor)
    pool.submit(int).result()  # the worker started and its modules loaded, as at a server's start
    worker = []
    for i, deal in enumerate(deals):
        start = time.perf_counter()
        pool.submit(run_analysis, DealJob.of(deal, i, level=args.level)).result()
        worker.append(time.perf_counter() - start)
    pool.shutdown()
    report("server worker", worker)
    if args.server_games:
        report("deal end→ready", server_durations(args.server_games, args.bot_delay))


def server_durations(games: int, bot_delay: float) -> list[float]:
    """Seconds from each deal's end to its stored analysis, on a whole server."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(f"sqlite:///{folder}/bench.db", bot_delay=bot_delay, analysis_workers=1)
        with TestClient(app) as client:
            seats = [{"kind": "bot", "bot": "heuristic"}] * 3
            for _ in range(games):
                made = client.post(
                    "/api/tables", json={"name": "bench", "rules": {"target": 30}, "seats": seats}
                )
                table = made.json()["id"]
                with client.websocket_connect(f"/ws/tables/{table}") as ws:  # bots play while watched
                    # a client that shows each deal's end (as the browser does): analysed at once
                    ws.send_json({"type": "hello", "token": None, "next": True})
                    while not ws.receive_json().get("winners"):
                        pass
            analyses = app.state.manager.analyses
            deadline = time.monotonic() + 60
            while analyses.busy and time.monotonic() < deadline:
                time.sleep(0.1)
            return list(analyses.durations)


if __name__ == "__main__":
    main()
