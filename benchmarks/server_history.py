"""A server with a long history: start-up, memory and the finished-games list.

    python benchmarks/server_history.py [--games 100] [--target 61] [--open 20] [--database-url URL]

Plays ``--games`` whole games (random legal moves, games to ``--target``) and leaves
``--open`` tables unfinished (in their first deal), all through the server's table
manager, then starts a new manager on the same database as a restarted server does.
Prints:

- start-up: what a restart loads (only the unfinished tables) against rebuilding every
  table from the action log, in time and in memory allocated;
- the finished-games list (``/api/games``, 50 newest, built from the stored rows);
- loading a finished game that is no longer in memory (median over 50).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.progress import track

from paston.rules import Rules
from paston.server.store.db import TableRow, make_engine, migrate, session_factory
from paston.server.tables.manager import TableManager
from paston.server.tables.tablestore import TableStore


async def play(manager: TableManager, rng: random.Random, *, target: int, finish: bool) -> str:
    table = manager.create("history", Rules(target=target), [{"kind": "human"}] * 3)
    moves = 0 if finish else rng.randrange(1, 20)
    while not table.finished and (finish or moves > 0):
        seat = table.match.to_move
        if seat is None:  # the next deal waits for its seeds (docs/FAIRNESS.md)
            await asyncio.sleep(0.005)
            continue
        action = rng.choice(table.match.view(seat).legal_actions)
        await manager.act(table.id, seat, str(action), table.version, None)
        moves -= 1
    return table.id


def measured(work: Callable[[], Any]) -> tuple[float, int]:
    """Seconds and bytes allocated (still held at the end) by ``work``."""
    gc.collect()
    tracemalloc.start()
    start = time.perf_counter()
    kept = work()
    seconds = time.perf_counter() - start
    size, _peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del kept
    return seconds, size


async def run(args: argparse.Namespace) -> None:
    url = args.database_url or f"sqlite:///{Path(tempfile.mkdtemp()) / 'history.db'}"
    engine = make_engine(url)
    migrate(engine)
    sessions = session_factory(engine)
    rng = random.Random(args.seed)
    writer = TableManager(sessions, bot_delay=0.0)
    games = track(range(args.games), description="games")
    finished = [await play(writer, rng, target=args.target, finish=True) for _ in games]
    for _ in range(args.open):
        await play(writer, rng, target=args.target, finish=False)
    writer.log.close()

    restarted = TableManager(sessions, bot_delay=0.0)
    seconds, size = measured(lambda: restarted.load_all() or restarted.tables)
    print(
        f"restart: {len(restarted.tables)} unfinished tables loaded in {seconds * 1e3:.0f} ms, "
        f"{size / 1e6:.1f} MB held"
    )

    def rebuild_all() -> list[Any]:
        store = TableStore(sessions)
        with sessions() as session:
            ids = [row.id for row in session.query(TableRow).all()]
        return [store.load(table_id) for table_id in ids]

    seconds, size = measured(rebuild_all)
    print(
        f"every table rebuilt instead ({args.games} finished + {args.open} open): "
        f"{seconds * 1e3:.0f} ms, {size / 1e6:.1f} MB held"
    )

    times = []
    for _ in range(20):
        start = time.perf_counter()
        listed = restarted.finished_summaries(50)
        times.append(time.perf_counter() - start)
    print(f"finished-games list ({len(listed)} newest): median {statistics.median(times) * 1e3:.2f} ms")

    times = []
    for table_id in rng.sample(finished, min(50, len(finished))):
        restarted.tables.pop(table_id, None)
        restarted.finished_games.forget(table_id)
        start = time.perf_counter()
        restarted.get(table_id)
        times.append(time.perf_counter() - start)
    print(f"a finished game loaded on demand: median {statistics.median(times) * 1e3:.2f} ms")
    kept = restarted.finished_games
    print(f"finished games in memory now: {len(kept)} (limit {kept.keep})")
    restarted.log.close()
    engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--target", type=int, default=61)
    parser.add_argument("--open", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default=None)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
