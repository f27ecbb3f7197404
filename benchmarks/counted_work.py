"""Counted work on the hot paths: figures that do not depend on the machine's speed or
load, so CI can hold them to limits on every change (tests/test_counted_work.py).

    python benchmarks/counted_work.py [--actions 300] [--deals 200] [--update]

- server, per accepted action at a table of three people on WebSockets (SQLite): the
  database statements and commits, the messages sent to the clients and their bytes
  (the same decks every run: the table id, first dealer and deck secrets are fixed);
- engine, per random deal (legal actions, pick, apply, to the end; fixed seed): the
  Python function calls, and per seat view of a match: the calls to build it.

``--update`` writes the figures to ``tests/golden/counted_work.json``, the baseline the
test compares with: a figure over its limit times its baseline fails (a change that
doubles a hot path's work; :func:`limit_of`). Update it, in the same commit, when a change makes the work
smaller or knowingly larger, and say why in the commit message.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import random
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

BASELINE = Path(__file__).resolve().parent.parent / "tests" / "golden" / "counted_work.json"
#: A server figure may grow to this many times its baseline; a doubled hot path fails.
LIMIT = 1.5
#: The engine's figures are exact (a fixed seed, the same calls on every machine): a
#: quarter more fails, so that doubling one part of a deal's work is seen.
ENGINE_LIMIT = 1.25


def limit_of(name: str) -> float:
    """The limit a figure is held to (times its baseline)."""
    return ENGINE_LIMIT if name.startswith("engine") else LIMIT


@contextmanager
def counted_calls() -> Iterator[Counter[str]]:
    """Counts the Python function calls made inside the block (``"calls"``)."""
    counts: Counter[str] = Counter()

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event == "call":
            counts["calls"] += 1

    sys.setprofile(profile)
    try:
        yield counts
    finally:
        sys.setprofile(None)


def random_deal(rng: random.Random, dealer: int) -> None:
    """One random deal through the public API, to its end."""
    from paston import Deal

    deal = Deal.random(rng, dealer=dealer)
    while not deal.is_over:
        deal.apply(rng.choice(deal.legal_actions()))


def engine_counts(deals: int, seed: int = 7) -> dict[str, float]:
    """Python calls per random deal, and per decision of a whole game played by the
    random bot through seat views (the path of the command line and the bots)."""
    from paston import Match
    from paston.bots import RandomPlayer

    rng = random.Random(seed)
    with counted_calls() as counts:
        for i in range(deals):
            random_deal(rng, i % 3)
    per_deal = counts["calls"] / deals
    bot = RandomPlayer(seed=seed)
    match = Match(first_dealer=0, rng=random.Random(seed))
    decisions = 0
    with counted_calls() as view_counts:
        while not match.is_over and decisions < 20 * deals:
            seat = match.to_move
            assert seat is not None
            match.apply(bot.choose(match.view(seat)), seat)
            decisions += 1
    return {
        "engine calls per deal": per_deal,
        "engine calls per seat-view decision": view_counts["calls"] / decisions,
    }


def play(client: Any, table: str, tokens: list[str], actions: int) -> int:
    """Three people's sockets play ``actions`` random legal moves; returns how many."""
    rng = random.Random(3)
    sockets = [client.websocket_connect(f"/ws/tables/{table}") for _ in range(3)]
    opened = [s.__enter__() for s in sockets]
    try:
        views: list[dict[str, Any]] = []
        for seat, ws in enumerate(opened):
            ws.send_json({"type": "hello", "token": tokens[seat], "updates": True})
            views.append(read_version(ws, None))
        done = 0
        while done < actions:
            view = views[0]["view"]
            seat = view["to_move"] if view["to_move"] is not None else 0
            legal = views[seat]["view"]["legal"]
            if not legal:
                break
            version = views[seat]["version"]
            opened[seat].send_json(
                {"type": "act", "action": rng.choice(legal), "version": version, "id": f"{done}"}
            )
            views = [read_version(ws, version + 1) for ws in opened]
            done += 1
        return done
    finally:
        for s in reversed(sockets):
            s.__exit__(None, None, None)


def read_version(ws: Any, version: int | None) -> dict[str, Any]:
    """Read a socket until it holds ``version`` (any first state with None); returns
    the message, merged into a whole state for updates."""
    state: dict[str, Any] = {}
    while True:
        msg = ws.receive_json()
        if msg["type"] == "error":
            raise RuntimeError(f"refused: {msg}")
        if msg["type"] == "state":
            state = msg
        elif msg["type"] == "update":
            state = {**state, **{k: v for k, v in msg.items() if k != "event"}}
        else:
            continue
        if version is None or state["version"] >= version:
            return state


def server_counts(actions: int) -> dict[str, float]:
    """Database statements and commits, messages and bytes per accepted action."""
    from fastapi.testclient import TestClient
    from sqlalchemy import event
    from starlette.websockets import WebSocket

    from paston.server.web.app import create_app

    sent: Counter[str] = Counter()
    real_send = WebSocket.send_text

    async def send_text(self: WebSocket, data: str) -> None:
        sent["messages"] += 1
        sent["bytes"] += len(data)
        await real_send(self, data)

    from unittest import mock

    from paston.server.tables import manager as manager_module
    from paston.server.tables import tablestore
    from paston.server.tables.decks import commitment

    secrets_made = itertools.count()

    def fixed_secret() -> tuple[str, str]:  # the same decks every run: the figures are the same
        secret = hashlib.sha256(f"counted work {next(secrets_made)}".encode()).hexdigest()
        return secret, commitment(secret)

    fixed_ids = SimpleNamespace(token_urlsafe=lambda size: "counted-work", randbelow=lambda n: 0)
    with (
        tempfile.TemporaryDirectory() as folder,
        mock.patch.object(tablestore, "new_secret", fixed_secret),
        mock.patch.object(manager_module, "secrets", fixed_ids),  # the table's id and first dealer
    ):
        app = create_app(f"sqlite:///{folder}/counted.db", bot_delay=0.0, analysis_workers=0)
        manager = app.state.manager
        with TestClient(app) as client:
            made = client.post(
                "/api/tables",
                json={"name": "counted", "rules": {"target": 100_000}, "seats": [{"kind": "human"}] * 3},
            )
            table = made.json()["id"]
            tokens = [
                client.post(f"/api/tables/{table}/seats/{s}", json={"name": f"p{s}"}).json()["token"]
                for s in range(3)
            ]
            statements: Counter[str] = Counter()
            engine = manager.store.sessions.kw["bind"]

            def executed(*args: Any) -> None:
                statements["statements"] += 1

            event.listen(engine, "before_cursor_execute", executed)
            commits = manager.log.commits
            WebSocket.send_text = send_text  # type: ignore[method-assign]
            try:
                done = play(client, table, tokens, actions)
            finally:
                WebSocket.send_text = real_send  # type: ignore[method-assign]
                event.remove(engine, "before_cursor_execute", executed)
            log_commits = manager.log.commits - commits
    return {
        "server database statements per action": (statements["statements"] + log_commits) / done,
        "server action-log commits per action": log_commits / done,
        "server messages per action": sent["messages"] / done,
        "server bytes per action": sent["bytes"] / done,
    }


def measure(actions: int, deals: int) -> dict[str, float]:
    return {**engine_counts(deals), **server_counts(actions)}


def over_limit(figures: dict[str, float], baseline: dict[str, float]) -> list[str]:
    """The figures over their limit (:func:`limit_of`) times their baseline, one line each.

    >>> base = {"server calls": 100.0, "engine calls": 100.0}
    >>> for line in over_limit({"server calls": 210.0, "engine calls": 130.0}, base):
    ...     print(line)
    server calls: 210.0, over 1.5 x its baseline 100.0
    engine calls: 130.0, over 1.25 x its baseline 100.0
    """
    return [
        f"{name}: {value:.1f}, over {limit_of(name)} x its baseline {baseline[name]:.1f}"
        for name, value in figures.items()
        if name in baseline and value > limit_of(name) * baseline[name]
    ]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--actions", type=int, default=300, help="moves played at the server's table")
    parser.add_argument("--deals", type=int, default=200, help="random deals the engine plays")
    parser.add_argument("--update", action="store_true", help=f"write the figures to {BASELINE}")
    args = parser.parse_args()
    figures = measure(args.actions, args.deals)
    baseline = json.loads(BASELINE.read_text()) if BASELINE.exists() else {}
    for name, value in figures.items():
        base = baseline.get(name)
        ratio = f"{value / base:5.2f} x baseline" if base else "no baseline"
        print(f"{name:<40} {value:12,.1f}   {ratio}")
    if args.update:
        BASELINE.write_text(json.dumps({k: round(v, 1) for k, v in figures.items()}, indent=2) + "\n")
        print(f"written to {BASELINE}")


if __name__ == "__main__":
    main()
