"""Shared by the server benchmarks that play tables over WebSockets (``server_load.py``,
``bot_tables_load.py``, ``cluster_load.py``, ``soak.py``): tables of three people made
through the HTTP API, WebSocket clients that play random legal moves and time every
update, the load-generating process that runs them, and the ``paston serve`` options that
lift a public server's limits for one address.

A library module, not a script: the benchmarks import it by name (their folder is on
``sys.path`` when they run as ``python benchmarks/<name>.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import time
from typing import Any

from websockets.asyncio.client import connect

from loadkit import get, post

#: The tables play to this total, so that no game ends during a run.
LONG_GAME = 100_000


class TableRun:
    """Three clients of one table and the timing of its actions."""

    def __init__(self, table: str, tokens: list[str]) -> None:
        self.table = table
        self.tokens = tokens
        self.sent_at: dict[int, float] = {}  # version produced -> send time
        self.seen: dict[int, int] = {}  # version -> clients that have it
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.acked = 0
        self.version = 0
        self.sent: dict[str, str] = {}  # command id -> the action sent with it
        self.acks: list[tuple[int, int, str, str]] = []  # (version, seat, command id, action)


async def client(
    port: int, run: TableRun, seat: int, deadline: float, rng: random.Random, updates: bool, think: float
) -> None:
    async with connect(f"ws://127.0.0.1:{port}/ws/tables/{run.table}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": run.tokens[seat], "updates": updates}))
        try:
            async with asyncio.timeout(max(0.01, deadline - time.perf_counter())):
                await follow(ws, run, seat, deadline, rng, think)
        except TimeoutError:
            pass


async def follow(
    ws: Any, run: TableRun, seat: int, deadline: float, rng: random.Random, think: float
) -> None:
    """Read the table's messages, time the updates, act when it is this seat's turn."""
    state: dict[str, Any] = {}
    async for raw in ws:
        msg = json.loads(raw)
        now = time.perf_counter()
        if msg["type"] == "error":
            run.errors.append(msg["code"])
            continue
        if msg["type"] == "ack":
            run.acked += 1
            run.acks.append((int(msg["version"]), seat, str(msg["id"]), run.sent.get(str(msg["id"]), "")))
            continue
        if msg["type"] == "update":
            if msg.get("event") is not None and msg["version"] != state.get("version", -2) + 1:
                run.errors.append("update-gap")
            state.update({k: v for k, v in msg.items() if k not in ("view", "event")})
            state["view"] = msg["view"]
            msg = state
        elif msg["type"] == "state":
            state = msg
        else:
            continue
        v = msg["version"]
        run.version = max(run.version, v)
        if v in run.sent_at:
            run.seen[v] = run.seen.get(v, 0) + 1
            if run.seen[v] == 3:
                run.latencies.append(now - run.sent_at.pop(v))
        view = msg["view"]
        if msg["winners"] or view["to_move"] != seat or not view["legal"]:
            continue
        if v + 1 in run.sent_at:
            continue  # already acted on this version (a repeated state)
        if think:
            await asyncio.sleep(think)
            if time.perf_counter() >= deadline:
                return
        run.sent_at[v + 1] = time.perf_counter()
        action = rng.choice(view["legal"])
        run.sent[f"{seat}-{v}"] = action
        await ws.send(json.dumps({"type": "act", "action": action, "version": v, "id": f"{seat}-{v}"}))


async def play_tables(port: int, runs: list[TableRun], args: argparse.Namespace, seed: float) -> None:
    deadline = time.perf_counter() + args.seconds
    rng = random.Random(seed)
    await asyncio.gather(
        *(
            client(port, run, seat, deadline, random.Random(rng.random()), not args.full_states, args.think)
            for run in runs
            for seat in range(3)
        )
    )


def load_process(port: int, runs: list[TableRun], args: argparse.Namespace, seed: float) -> list[TableRun]:
    """One load-generating process: plays its share of the tables, returns their timings.
    Its garbage collection is tuned like the server's, so that its own pauses do not
    count as server latency."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)
    asyncio.run(play_tables(port, runs, args, seed))
    return runs


def lifted_limits(tables: int, spare: int = 0) -> tuple[str, ...]:
    """``paston serve`` options that let one address (the benchmark's) make ``tables``
    tables at once, and ``spare`` more open ones, and hold every socket of them (people
    and spectators): the limits of a public server lifted."""
    return (
        *("--create-burst", str(tables), "--tables-per-client", str(tables + spare)),
        *("--open-tables", str(max(1000, tables + spare))),
        *("--sockets-per-client", str(max(64, 10 * (tables + spare)))),
    )


def make_tables(port: int, n: int) -> list[TableRun]:
    """``n`` tables of three people (playing to :data:`LONG_GAME`), every seat taken."""
    runs = []
    for i in range(n):
        table = post(
            port,
            "/api/tables",
            {"name": f"load {i}", "rules": {"target": LONG_GAME}, "seats": [{"kind": "human"}] * 3},
        )["id"]
        tokens = [post(port, f"/api/tables/{table}/seats/{s}", {"name": f"p{s}"})["token"] for s in range(3)]
        runs.append(TableRun(table, tokens))
    return runs


def lost_actions(port: int, runs: list[TableRun]) -> int:
    """Accepted actions missing from the server's own count (its final versions)."""
    return sum(max(0, run.acked - get(port, f"/api/tables/{run.table}")["version"]) for run in runs)
