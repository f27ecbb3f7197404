"""The web server in process, as the server tests drive it through FastAPI's
``TestClient``: the ``db_url`` (a fresh SQLite file) and ``client`` fixtures, tables made
and seats taken over the lobby API, states read off a table's WebSocket, random legal
play (a few moves, or three people playing a whole game while every message is checked
for hidden cards), the card codes a view shows, and the table manager behind a client."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from paston.server.tables.manager import TableManager
from paston.server.web.app import create_app

ALL_CODES = {r + s for r in "789TJQKA" for s in "SCDH"}


@pytest.fixture()
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'paston.db'}"


@pytest.fixture()
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, bot_delay=0.0)) as c:
        yield c


def new_table(client: TestClient, seats: list[dict[str, Any]], target: int = 20) -> str:
    res = client.post("/api/tables", json={"name": "Test", "rules": {"target": target}, "seats": seats})
    assert res.status_code == 201, res.text
    body = res.json()
    assert body["invite"] == f"/t/{body['id']}"
    return str(body["id"])


HUMANS = [{"kind": "human"}] * 3


def take(client: TestClient, table: str, seat: int, name: str) -> str:
    res = client.post(f"/api/tables/{table}/seats/{seat}", json={"name": name})
    assert res.status_code == 200, res.text
    return str(res.json()["token"])


def receive_state(ws: Any, version: int | None = None) -> dict[str, Any]:
    """Read messages until a state (at ``version`` if given) arrives."""
    while True:
        msg = ws.receive_json()
        if msg["type"] == "state" and (version is None or msg["version"] >= version):
            return dict(msg)


def act_in_turn(
    client: TestClient, table: str, tokens: list[str], rng: random.Random, n: int
) -> dict[str, Any]:
    """``n`` random legal actions, each seat connecting only when it must act; returns
    the last actor's state."""
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": None})
        state = receive_state(ws)
    for _ in range(n):
        seat = state["view"]["to_move"]
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            ws.send_json({"type": "hello", "token": tokens[seat]})
            mine = receive_state(ws)
            ws.send_json(
                {"type": "act", "action": rng.choice(mine["view"]["legal"]), "version": mine["version"]}
            )
            state = receive_state(ws, mine["version"] + 1)
    return state


def known_codes(view: dict[str, Any]) -> set[str]:
    """Every card code that appears anywhere in a view."""
    found: set[str] = set()

    def walk(x: object) -> None:
        if isinstance(x, str) and x in ALL_CODES:
            found.add(x)
        elif isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(view)
    return found


def play_three_humans(
    client: TestClient, table: str, tokens: list[str], rng: random.Random
) -> dict[str, Any]:
    """Three WebSocket clients play the whole game with random legal actions; returns the
    last state and checks every message each seat gets for leaks."""
    with (
        client.websocket_connect(f"/ws/tables/{table}") as w0,
        client.websocket_connect(f"/ws/tables/{table}") as w1,
        client.websocket_connect(f"/ws/tables/{table}") as w2,
        client.websocket_connect(f"/ws/tables/{table}") as watcher,
    ):
        sockets = [w0, w1, w2]
        for ws, token in zip(sockets, tokens, strict=True):
            ws.send_json({"type": "hello", "token": token})
        watcher.send_json({"type": "hello", "token": None})
        states = [receive_state(ws) for ws in sockets]
        receive_state(watcher)
        version = max(s["version"] for s in states)
        # (a join sends the others nothing new: only a seat behind reads on)
        states = [
            s if s["version"] >= version else receive_state(ws, version)
            for s, ws in zip(states, sockets, strict=True)
        ]
        steps = 0
        while not states[0]["winners"]:
            seat = states[0]["view"]["to_move"]
            assert seat is not None
            legal = states[seat]["view"]["legal"]
            assert legal, states[seat]["view"]
            for s in range(3):
                if s != seat:
                    assert states[s]["view"]["legal"] == []
            action = rng.choice(legal)
            sockets[seat].send_json({"type": "act", "action": action, "version": version, "id": f"c{steps}"})
            version += 1
            states = [receive_state(ws, version) for ws in sockets]
            public = receive_state(watcher, version)
            for s, st in enumerate(states):
                view = st["view"]
                allowed = set(view["hand"])
                for h in view["history"]:
                    if h["type"] == "play":
                        allowed.add(h["card"])
                if view["prikup"] is not None:
                    assert view["declarer"] == s
                    allowed |= set(view["prikup"]) | set(view["discard"] or [])
                assert known_codes(view) <= allowed, f"seat {s} sees hidden cards"
            assert public["view"]["hand"] == [] and public["view"]["prikup"] is None
            assert known_codes(public["view"]) <= {
                h["card"] for h in public["view"]["history"] if h["type"] == "play"
            }
            steps += 1
            assert steps < 5000
        return states[0]


def manager_of(client: TestClient) -> TableManager:
    manager = client.app.state.manager  # type: ignore[attr-defined]
    assert isinstance(manager, TableManager)
    return manager
