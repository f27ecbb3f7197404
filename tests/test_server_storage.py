"""Storage on SQLite and on a real PostgreSQL server, and a server process killed
mid-deal and started again: the action log is the truth, nothing is lost."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from tests.db_helpers import any_db
from tests.ws_helpers import HUMANS, act_in_turn, new_table, play_three_humans, take
from websockets.sync.client import connect

from paston.record import from_record
from paston.server.web.app import create_app

__all__ = ["any_db"]  # the fixture (tests/db_helpers.py): SQLite and PostgreSQL


def test_storage_keeps_tables_across_restarts(any_db: str) -> None:
    rng = random.Random(11)
    with TestClient(create_app(any_db, bot_delay=0.0)) as client:
        table = new_table(client, HUMANS, target=15)
        tokens = [take(client, table, s, n) for s, n in enumerate(("Ana", "Bo", "Cy"))]
        state = act_in_turn(client, table, tokens, rng, 8)
    with TestClient(create_app(any_db, bot_delay=0.0)) as client:
        listed = client.get("/api/tables").json()["tables"]
        assert [t["id"] for t in listed] == [table]
        assert listed[0]["version"] == state["version"]
        final = play_three_humans(client, table, tokens, rng)
        record = client.get(f"/api/tables/{table}/record").json()
        assert list(from_record(record).winners) == final["winners"]


# --- a real server process, killed mid-deal ------------------------------------------------
def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(db: str, port: int) -> subprocess.Popen[bytes]:
    paston = Path(sys.executable).parent / "paston"
    command = [str(paston)] if paston.exists() else [sys.executable, "-m", "paston.cli"]
    proc = subprocess.Popen(
        [*command, "serve", "--port", str(port), "--database-url", db, "--bot-delay", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    for _ in range(100):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=1)
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError(proc.stdout.read().decode() if proc.stdout else "server did not start")


def _post(port: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=5) as res:
        return dict(json.loads(res.read()))


def _state(ws: Any, version: int = 0) -> dict[str, Any]:
    while True:
        msg = json.loads(ws.recv(timeout=10))
        if msg["type"] == "state" and msg["version"] >= version:
            return dict(msg)


def _act_once(port: int, table: str, tokens: list[str], rng: random.Random) -> dict[str, Any]:
    with connect(f"ws://127.0.0.1:{port}/ws/tables/{table}") as ws:
        ws.send(json.dumps({"type": "hello", "token": None}))
        state = _state(ws)
    seat = state["view"]["to_move"]
    with connect(f"ws://127.0.0.1:{port}/ws/tables/{table}") as ws:
        ws.send(json.dumps({"type": "hello", "token": tokens[seat]}))
        mine = _state(ws)
        action = rng.choice(mine["view"]["legal"])
        ws.send(json.dumps({"type": "act", "action": action, "version": mine["version"]}))
        return _state(ws, mine["version"] + 1)


def test_killed_server_continues_every_table(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'paston.db'}"
    port = _port()
    rng = random.Random(4)
    proc = _start(db, port)
    try:
        table = _post(port, "/api/tables", {"name": "Kill", "rules": {"target": 12}, "seats": HUMANS})["id"]
        tokens = [
            _post(port, f"/api/tables/{table}/seats/{s}", {"name": n})["token"]
            for s, n in enumerate(("Ana", "Bo", "Cy"))
        ]
        for _ in range(5):
            _act_once(port, table, tokens, rng)
        with connect(f"ws://127.0.0.1:{port}/ws/tables/{table}") as ws:
            ws.send(json.dumps({"type": "hello", "token": None}))
            state = _state(ws)
        assert state["version"] == 5 and state["view"]["phase"] != "over"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    proc = _start(db, port)
    try:
        with connect(f"ws://127.0.0.1:{port}/ws/tables/{table}") as ws:
            ws.send(json.dumps({"type": "hello", "token": None}))
            resumed = _state(ws)
        assert resumed["version"] == state["version"]
        assert resumed["view"]["history"] == state["view"]["history"]
        steps = 0
        while not resumed["winners"]:
            resumed = _act_once(port, table, tokens, rng)
            steps += 1
            assert steps < 3000
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables/{table}/record", timeout=5) as res:
            record = json.loads(res.read())
        match = from_record(record)
        assert sum(len(d.events) for d in match.deals) == resumed["version"]
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
    assert os.path.exists(tmp_path / "paston.db")


def test_sqlite_log_is_checkpointed_in_the_background(tmp_path: Path) -> None:
    """Commits never wait for a checkpoint (autocheckpoint is off); the checkpointer
    copies the write-ahead log into the database, and empties it when it stops."""
    from paston.server.store.db import WalCheckpointer, make_engine

    db = tmp_path / "wal.db"
    engine = make_engine(f"sqlite:///{db}")
    with engine.begin() as connection:
        assert connection.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
        connection.exec_driver_sql("CREATE TABLE t (x TEXT)")
        for i in range(200):
            connection.exec_driver_sql("INSERT INTO t VALUES (?)", (str(i) * 100,))
    wal = Path(f"{db}-wal")
    assert wal.stat().st_size > 0
    checkpointer = WalCheckpointer(engine, interval=0.05)
    checkpointer.start()
    time.sleep(0.3)
    checkpointer.stop()
    assert wal.stat().st_size == 0
    with engine.connect() as connection:
        assert connection.exec_driver_sql("SELECT count(*) FROM t").scalar() == 200
    engine.dispose()
