"""The lobby: open tables a page at a time (newest first, with the total), and their
changes pushed as server-sent events, coalesced, to a limited number of streams; a
server stops at once with streams open."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server_process import paston_command

from paston.server.web.app import create_app
from paston.server.web.limits import Limits
from paston.server.web.lobby import MAX_CHANGES, Lobby

HUMANS = [{"kind": "human"}] * 3
MANY = Limits(create_burst=100, tables_per_client=100)  # one client makes many tables


@pytest.fixture()
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'paston.db'}"


def _create(client: TestClient, name: str = "T") -> str:
    res = client.post("/api/tables", json={"name": name, "seats": HUMANS})
    assert res.status_code == 201, res.text
    return str(res.json()["id"])


def _events(lines: Iterator[str]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(event, data) of a server-sent event stream, comments and ``retry`` left out."""
    event, data = "message", ""
    for line in lines:
        if line == "":
            if data:
                yield event, json.loads(data)
            event, data = "message", ""
        elif line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: "):
            data += line[6:]


def test_the_lobby_is_paged_newest_first_with_the_total(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0.0, limits=MANY)) as client:
        made = [_create(client, f"T{i}") for i in range(25)]
        first = client.get("/api/tables").json()
        assert (first["total"], first["offset"], first["limit"]) == (25, 0, 20)
        assert [t["id"] for t in first["tables"]] == made[::-1][:20]
        rest = client.get("/api/tables", params={"offset": 20}).json()
        assert [t["id"] for t in rest["tables"]] == made[::-1][20:]
        assert client.get("/api/tables", params={"limit": 100}).json()["tables"][-1]["id"] == made[0]
        assert client.get("/api/tables", params={"offset": 99}).json() == {
            "tables": [],
            "total": 25,
            "offset": 99,
            "limit": 20,
        }
        for bad, field in (({"limit": 101}, "limit"), ({"limit": 0}, "limit"), ({"offset": -1}, "offset")):
            res = client.get("/api/tables", params=bad)
            assert res.status_code == 422 and res.json()["error"]["field"] == field, res.text


def test_lobby_changes_are_pushed_as_server_sent_events(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        old = _create(client, "Old")
        with client.stream("GET", "/api/lobby/events", headers={"accept-encoding": "gzip"}) as res:
            assert res.status_code == 200
            assert res.headers["content-type"].startswith("text/event-stream")
            assert "content-encoding" not in res.headers  # a stream is never held back to compress it
            events = _events(res.iter_lines())
            assert next(events) == ("ready", {"total": 1})
            new = _create(client, "New")
            event, data = next(events)
            assert event == "lobby" and data["total"] == 2
            assert [(c["op"], c["table"]["id"]) for c in data["changes"]] == [("added", new)]
            client.post(f"/api/tables/{old}/seats/2", json={"name": "Ana"})
            _, data = next(events)
            [change] = data["changes"]
            assert change["op"] == "changed" and change["table"]["seats"][2]["name"] == "Ana"
            client.app.state.retirer.sweep(time.monotonic() + 10**6)  # type: ignore[attr-defined]
            _, data = next(events)
            assert sorted(c["id"] for c in data["changes"]) == sorted([old, new]) and data["total"] == 0
            assert {c["op"] for c in data["changes"]} == {"removed"}


def test_changes_are_coalesced_and_many_become_a_reset(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0.0, limits=MANY)) as client:
        lobby = Lobby(client.app.state.manager.tables, Limits())  # type: ignore[attr-defined]
        assert lobby.changes() is None
        made = [_create(client) for _ in range(5)]
        news = lobby.changes()
        assert news is not None and [c["table"]["id"] for c in news["changes"]] == made
        assert lobby.changes() is None  # sent once
        for _ in range(MAX_CHANGES + 1):
            _create(client)
        assert lobby.changes() == {"reset": True, "total": MAX_CHANGES + 6}


def test_lobby_streams_are_limited_per_client(db_url: str) -> None:
    limits = Limits(lobby_streams_per_client=1)
    with TestClient(create_app(db_url, bot_delay=0.0, limits=limits)) as client:
        with client.stream("GET", "/api/lobby/events") as res:
            events = _events(res.iter_lines())  # (kept: dropping it would close the stream)
            assert next(events)[0] == "ready"
            refused = client.get("/api/lobby/events")
            assert refused.status_code == 429 and int(refused.headers["retry-after"]) > 0
            assert refused.json()["error"]["code"] == "too-many-streams"
        _wait = time.monotonic() + 10
        while client.app.state.lobby.streams and time.monotonic() < _wait:  # type: ignore[attr-defined]
            time.sleep(0.05)
        with client.stream("GET", "/api/lobby/events") as res:  # a closed stream frees its place
            assert res.status_code == 200


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_server_stops_at_once_with_lobby_streams_open(tmp_path: Path) -> None:
    port = _port()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    url = f"sqlite:///{tmp_path / 'paston.db'}"
    proc = subprocess.Popen(
        [*paston_command(), "serve", "--port", str(port), "--database-url", url],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    try:
        assert proc.stdout is not None and "running" in proc.stdout.readline()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/api/lobby/events")
        res = conn.getresponse()
        assert res.status == 200
        lines = (line.decode().rstrip("\r\n") for line in iter(res.readline, b""))
        assert next(_events(lines))[0] == "ready"
        began = time.monotonic()
        proc.terminate()
        proc.wait(timeout=20)
        assert time.monotonic() - began < 5
        assert list(lines) == []  # the stream ended
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
