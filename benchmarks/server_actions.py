"""The server's own work per action, in process (no sockets): check, log to the
database, apply, and build the messages of three seats and one spectator.

    python benchmarks/server_actions.py [--actions 5000] [--database-url URL]

Prints the median and p99 time per action over batches, and the split between the
database append and the messages. Random legal actions at one table; a finished game
starts a new table.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from paston.rules import Rules
from paston.server.store.db import make_engine, migrate, session_factory
from paston.server.tables.connection import Connection
from paston.server.tables.manager import TableManager


async def run(args: argparse.Namespace) -> None:
    url = args.database_url or f"sqlite:///{Path(tempfile.mkdtemp()) / 'actions.db'}"
    engine = make_engine(url)
    migrate(engine)
    manager = TableManager(session_factory(engine), bot_delay=0.0)
    rng = random.Random(args.seed)
    sent = 0

    async def count(text: str) -> None:
        nonlocal sent
        sent += len(text)

    def new_table() -> tuple[str, list[Connection]]:
        table = manager.create("bench", Rules(), [{"kind": "human"}] * 3)
        conns = [Connection(send=count, seat=s, updates=True) for s in (0, 1, 2, None)]
        for c in conns:
            c.start()
            table.connections.append(c)
        manager.broadcast(table)
        return table.id, conns

    table_id, _ = new_table()
    per_action: list[float] = []
    batch = 100
    done = 0
    while done < args.actions:
        start = time.perf_counter()
        for _ in range(batch):
            table = manager.get(table_id)
            if table.finished:
                table_id, _ = new_table()
                table = manager.get(table_id)
            seat = table.match.to_move
            assert seat is not None
            action = rng.choice(table.match.view(seat).legal_actions)
            await manager.act(table_id, seat, str(action), table.version, None)
        per_action.append((time.perf_counter() - start) / batch)
        done += batch
        await asyncio.sleep(0)  # let the senders run (not timed)
    per_action.sort()
    p99 = per_action[min(len(per_action) - 1, int(len(per_action) * 0.99))]
    print(
        f"{done} actions ({url.split(':')[0]}): median {statistics.median(per_action) * 1e3:.3f} ms "
        f"per action, p99 of {batch}-action batches {p99 * 1e3:.3f} ms; "
        f"{sent / done:,.0f} bytes sent per action"
    )
    manager.log.close()
    engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--actions", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default=None)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
