"""Soak: honest and hostile clients together against a real ``paston serve`` for N minutes.

    python benchmarks/soak.py [--minutes 5] [--tables 30] [--attackers 4] [--seed 1]

Honest tables play as in ``server_load.py`` (three WebSocket clients a table, random
legal moves, updates); at the same time hostile clients in this process keep attacking:
garbage and oversized messages, message floods, binary frames, forged tokens, spectators
that connect and vanish or never read, and a flood of table creations. Every 10 s the
server's resident memory (with its worker processes) is sampled.

Reports the memory growth (first to last sample, and the slope over the second half),
the honest clients' action→update p50/p99, their errors and lost actions (both must be
0), what the attackers were answered (response codes), and the lines the server logged
(no traceback may appear).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import secrets
import statistics
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

from loadkit import descendants, percentile, running_server
from tablekit import lifted_limits, load_process, lost_actions, make_tables

SAMPLE_SECONDS = 10.0


def rss_kib(pid: int) -> int:
    """Resident memory of a process and its descendants (Linux), in KiB."""
    total = 0
    for p in (pid, *descendants(pid)):
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total


class Attacks:
    """What the attackers sent and what they were answered."""

    def __init__(self) -> None:
        self.sent: Counter[str] = Counter()
        self.answers: Counter[str] = Counter()


async def _answer(ws: Any, attacks: Attacks, kind: str, timeout: float = 2.0) -> None:
    try:
        raw = await asyncio.wait_for(ws.recv(), timeout)
        message = json.loads(raw) if isinstance(raw, str) else {"type": "binary"}
        attacks.answers[f"{kind}: {message.get('type')} {message.get('code', '')}".strip()] += 1
    except TimeoutError:
        attacks.answers[f"{kind}: no answer"] += 1
    except WebSocketException as err:
        code = getattr(getattr(err, "rcvd", None), "code", None)
        attacks.answers[f"{kind}: closed {code}"] += 1


async def one_attack(port: int, table: str, rng: random.Random, attacks: Attacks) -> None:
    """One hostile connection doing one kind of harm."""
    kind = rng.choice(
        ["garbage", "oversized", "flood", "binary", "forged-token", "vanishing-spectator", "silent-reader"]
    )
    attacks.sent[kind] += 1
    url = f"ws://127.0.0.1:{port}/ws/tables/{table}"
    try:
        async with connect(url, max_size=2**24, open_timeout=5, close_timeout=1) as ws:
            if kind == "forged-token":
                await ws.send(json.dumps({"type": "hello", "token": secrets.token_hex(16)}))
                await _answer(ws, attacks, kind)
                return
            await ws.send(json.dumps({"type": "hello", "token": None, "updates": True}))
            await ws.recv()  # the state
            if kind == "garbage":
                await ws.send(
                    rng.choice(['{"type": "act", ', "[" * 1000, '{"type": 7}', "null", "\x00" * 50])
                )
                await _answer(ws, attacks, kind)
            elif kind == "oversized":
                await ws.send("x" * rng.choice([5_000, 1_000_000]))
                await _answer(ws, attacks, kind)
            elif kind == "flood":
                for _ in range(300):
                    await ws.send('{"type": "act", "action": "pass", "version": 0}')
                await _answer(ws, attacks, kind)
            elif kind == "binary":
                await ws.send(b"\x00\x01binary")
                await _answer(ws, attacks, kind)
            elif kind == "silent-reader":
                await asyncio.sleep(rng.uniform(2, 8))  # reads nothing while the table plays
            # vanishing-spectator: leaves at once
    except (OSError, WebSocketException, TimeoutError) as err:
        attacks.answers[f"{kind}: {type(err).__name__}"] += 1


def create_flood(port: int, attacks: Attacks, n: int) -> None:
    """Table creations from one address, as fast as they are answered."""
    body = json.dumps({"name": "flood", "seats": [{"kind": "human"}] * 3}).encode()
    for _ in range(n):
        attacks.sent["create-table"] += 1
        req = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/tables", data=body, headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(req, timeout=5) as res:
                attacks.answers[f"create-table: {res.status}"] += 1
        except urllib.error.HTTPError as err:
            attacks.answers[f"create-table: {err.code}"] += 1
        except OSError as err:
            attacks.answers[f"create-table: {type(err).__name__}"] += 1


async def attackers(
    port: int, tables: list[str], args: argparse.Namespace, deadline: float, attacks: Attacks
) -> None:
    rng = random.Random(args.seed)

    async def worker(k: int) -> None:
        local = random.Random(rng.random())
        while time.perf_counter() < deadline:
            await one_attack(port, local.choice(tables), local, attacks)
            await asyncio.sleep(local.uniform(0.05, 0.3))

    async def creations() -> None:
        while time.perf_counter() < deadline:
            await asyncio.to_thread(create_flood, port, attacks, 20)
            await asyncio.sleep(5)

    await asyncio.gather(*(worker(k) for k in range(args.attackers)), creations())


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--tables", type=int, default=30, help="honest tables (three clients each)")
    parser.add_argument("--attackers", type=int, default=4, help="hostile connections at a time")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args()
    seconds = args.minutes * 60
    log = Path(tempfile.mkdtemp()) / "server.log"
    # the honest tables fill the creation burst of this one address; the flood then meets
    # the limits of a public server (a refill every 10 s, 20 more open tables at most)
    with running_server(args.database_url, lifted_limits(args.tables, spare=20), log=log) as (port, pid, db):
        runs = make_tables(port, args.tables)
        honest = argparse.Namespace(seconds=seconds, think=0.1, full_states=False)
        samples: list[tuple[float, int]] = []
        stop = threading.Event()

        def sample() -> None:
            start = time.perf_counter()
            while not stop.is_set():
                samples.append((time.perf_counter() - start, rss_kib(pid)))
                stop.wait(SAMPLE_SECONDS)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        attacks = Attacks()
        start = time.perf_counter()
        with ProcessPoolExecutor(1) as pool:
            future = pool.submit(load_process, port, runs, honest, random.Random(args.seed).random())
            asyncio.run(attackers(port, [r.table for r in runs], args, start + seconds, attacks))
            runs = future.result()
        elapsed = time.perf_counter() - start
        stop.set()
        sampler.join()
        samples.append((elapsed, rss_kib(pid)))
        lost = lost_actions(port, runs)
    latencies = sorted(x for run in runs for x in run.latencies)
    errors = Counter(e for run in runs for e in run.errors)
    actions = sum(run.acked for run in runs)
    first, last = samples[0][1], samples[-1][1]
    half = [s for s in samples if s[0] >= elapsed / 2]
    slope = 0.0
    if len(half) > 1:
        slope = (half[-1][1] - half[0][1]) / max(1e-9, (half[-1][0] - half[0][0]) / 60)
    lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
    store = db.split(":")[0]
    print(f"soak: {elapsed / 60:.1f} min, {args.tables} honest tables, {args.attackers} attackers ({store})")
    print(
        f"server memory (with workers): {first / 1024:.1f} MiB -> {last / 1024:.1f} MiB "
        f"({(last - first) / 1024:+.1f} MiB); second half {slope / 1024:+.2f} MiB/min"
    )
    if latencies:
        print(
            f"honest action -> all three updated: p50 {statistics.median(latencies) * 1e3:.1f} ms, "
            f"p99 {percentile(latencies, 0.99) * 1e3:.1f} ms ({actions} actions)"
        )
    print(f"honest errors: {sum(errors.values())} {dict(errors)}; lost actions: {lost}")
    print("attacks sent: " + ", ".join(f"{k} {v}" for k, v in sorted(attacks.sent.items())))
    print("answered:")
    for answer, n in sorted(attacks.answers.items()):
        print(f"  {answer}: {n}")
    tracebacks = sum("Traceback" in line for line in lines)
    print(f"server log: {len(lines)} lines, {tracebacks} tracebacks")


if __name__ == "__main__":
    main()
