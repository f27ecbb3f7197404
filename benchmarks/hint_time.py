"""How long a hint takes, per kind of decision, at the default pimc level.

    python benchmarks/hint_time.py [--deals 30] [--seed 1] [--level 3] [--budget 1.5] [--server-deals 3]

Plays random deals with heuristic players (fast, and they bid, declare and defend like
people do) and, at every decision with a real choice (more than one legal action),
times :func:`paston.bots.explain.explain` on the seat's view: median, p90 and max per
kind, and how many took over 2 s. ``--budget`` is the time budget the server gives a
hint (``paston.server.tables.hints.HINT_BUDGET``); ``--budget 0`` times the full sample count.
The server's target: every hint within 2 s at the default level.

Then, end to end, ``--server-deals`` deals at a practice table of an in-process server
(three people following the hints): the time from sending ``{"type": "hint"}`` to the
answer, through the bot worker pool.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections import defaultdict

from paston.bots.explain import explain
from paston.bots.heuristic import HeuristicPlayer
from paston.bots.pimc import DEFAULT_LEVEL
from paston.deal import Deal
from paston.dealing import shuffled_deck
from paston.server.tables.hints import HINT_BUDGET

KINDS = {"AUCTION": "bid or pass", "DISCARD": "discard", "TRUMP": "trump or surrender",
         "DEFENCE": "whist or pass", "PLAY": "card"}  # fmt: skip


def server_times(deals: int) -> dict[str, list[float]]:
    """Hint round trips over the WebSocket of an in-process server, per phase."""
    import tempfile

    from fastapi.testclient import TestClient

    from paston.server.web.app import create_app

    times: dict[str, list[float]] = defaultdict(list)
    with (
        tempfile.TemporaryDirectory() as folder,
        TestClient(create_app(f"sqlite:///{folder}/b.db")) as client,
    ):
        seats = [{"kind": "human"}] * 3
        body = {"name": "Bench", "rules": {"target": 200}, "seats": seats, "hints": True}
        table = client.post("/api/tables", json=body).json()["id"]
        tokens = [
            client.post(f"/api/tables/{table}/seats/{s}", json={"name": f"P{s}"}).json()["token"]
            for s in range(3)
        ]
        sockets = []
        for token in tokens:
            ws = client.websocket_connect(f"/ws/tables/{table}").__enter__()
            ws.send_json({"type": "hello", "token": token})
            sockets.append(ws)
        states = [next_of(ws, "state") for ws in sockets]
        while len(states[0].get("sheet", [])) < deals:
            mover = states[0]["view"]["to_move"]
            ws = sockets[mover]
            state = states[mover]
            start = time.perf_counter()
            ws.send_json({"type": "hint"})
            hint = next_of(ws, "hint")
            times[state["view"]["phase"].upper()].append(time.perf_counter() - start)
            ws.send_json({"type": "act", "action": hint["chosen"], "version": state["version"]})
            states = [next_of(w, "state", state["version"] + 1) for w in sockets]
        for ws in sockets:
            ws.__exit__(None, None, None)
    return times


def next_of(ws: object, kind: str, version: int = 0) -> dict[str, object]:
    """The next message of ``kind`` (a state at ``version`` or later)."""
    while True:
        msg = ws.receive_json()  # type: ignore[attr-defined]
        if msg["type"] == kind and (kind != "state" or msg["version"] >= version):
            return dict(msg)


def print_rows(times: dict[str, list[float]], worlds: dict[str, list[int]] | None) -> None:
    header = f"{'decision':<20}{'n':>5}{'median ms':>11}{'p90 ms':>9}{'max ms':>9}{'> 2 s':>7}"
    print(header + (f"{'worlds':>8}" if worlds else ""))
    for phase, label in KINDS.items():
        values = sorted(times.get(phase, []))
        if not values:
            print(f"{label:<20}{0:>5}")
            continue
        p90 = values[min(len(values) - 1, int(0.9 * len(values)))]
        over = sum(v > 2.0 for v in values)
        row = (
            f"{label:<20}{len(values):>5}{1000 * statistics.median(values):>11.1f}{1000 * p90:>9.1f}"
            f"{1000 * values[-1]:>9.1f}{over:>7}"
        )
        print(row + (f"{statistics.median(worlds[phase]):>8.0f}" if worlds else ""))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", type=int, default=DEFAULT_LEVEL)
    parser.add_argument("--budget", type=float, default=HINT_BUDGET, help="seconds; 0 for none")
    parser.add_argument("--server-deals", type=int, default=3, help="deals timed end to end; 0 for none")
    args = parser.parse_args()
    budget = args.budget or None
    rng = random.Random(args.seed)
    times: dict[str, list[float]] = defaultdict(list)
    worlds: dict[str, list[int]] = defaultdict(list)
    start_all = time.perf_counter()
    for k in range(args.deals):
        deal = Deal(shuffled_deck(rng), dealer=k % 3, first_deal=k == 0)
        players = [HeuristicPlayer(seed=args.seed * 1000 + 3 * k + s) for s in range(3)]
        while not deal.is_over and deal.redeal is None:
            seat = deal.to_move
            assert seat is not None
            view = deal.view(seat)
            if len(view.legal_actions) > 1:
                start = time.perf_counter()
                hint = explain(view, level=args.level, seed=k, time_budget=budget)
                times[view.phase.name].append(time.perf_counter() - start)
                worlds[view.phase.name].append(hint.worlds)
            deal.apply(players[seat].choose(view), seat)
    total = time.perf_counter() - start_all
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"hints at pimc level {args.level}, budget {budget or 'none'} s: {args.deals} deals in {total:.1f} s "
        f"(load average {load}, {os.cpu_count()} cores)"
    )
    print_rows(times, worlds)
    if args.server_deals:
        print(
            f"end to end (WebSocket, bot worker pool, server budget {HINT_BUDGET} s): "
            f"{args.server_deals} deals"
        )
        print_rows(server_times(args.server_deals), None)


if __name__ == "__main__":
    main()
