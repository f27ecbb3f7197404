"""The live table WebSocket facing hostile or careless clients: hundreds of spectators
join at no cost to the others, a table takes a bounded number of them, a client that
never reads never delays the table, and binary frames are answered and closed without
a traceback in the log (bad input is one short line, a few a minute)."""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.ws_helpers import HUMANS, new_table, receive_state, take
from websockets.asyncio.client import connect as aconnect
from websockets.sync.client import connect

from paston.server.tables import connection
from paston.server.tables.manager import MAX_SEAT_CONNECTIONS, TableManager
from paston.server.web.app import create_app
from paston.server.web.limits import Limits


def manager_of(app: FastAPI) -> TableManager:
    manager = app.state.manager
    assert isinstance(manager, TableManager)
    return manager


# --- a real server in this process ----------------------------------------------------------
def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving(app: FastAPI) -> Iterator[int]:
    """Run ``app`` under uvicorn on a free port (its log goes to the root logger)."""
    port = _port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_config=None, log_level="warning", ws_per_message_deflate=False
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    assert server.started, "the server did not start"
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def post(port: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=10) as res:
        return dict(json.loads(res.read()))


def raw_hello(port: int, table: str) -> socket.socket:
    """A WebSocket that says hello as a spectator and then never reads a byte."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET /ws/tables/{table} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:  # the handshake's answer (and maybe more: left unread)
        answer += sock.recv(1)
    assert answer.startswith(b"HTTP/1.1 101"), answer
    payload = json.dumps({"type": "hello", "token": None}).encode()
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    sock.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + masked)
    return sock


# --- spectators -----------------------------------------------------------------------------
def test_hundreds_of_spectators_join_at_no_cost_to_the_others(tmp_path: Path) -> None:
    n = 300
    # one address, so its socket cap is lifted too
    app = create_app(
        f"sqlite:///{tmp_path / 'p.db'}", bot_delay=0.0, max_watchers=n, limits=Limits(sockets_per_client=n)
    )
    with serving(app) as port:
        table = post(port, "/api/tables", {"name": "Crowd", "seats": HUMANS})["id"]

        async def crowd() -> tuple[float, list[str]]:
            url = f"ws://127.0.0.1:{port}/ws/tables/{table}"
            sockets = []
            started = time.perf_counter()
            for _ in range(n):
                ws = await aconnect(url)
                await ws.send(json.dumps({"type": "hello", "token": None}))
                assert json.loads(await ws.recv())["type"] == "state"
                sockets.append(ws)
            took = time.perf_counter() - started
            # nobody heard of the others coming: the next thing each hears is its pong
            nexts = []
            for ws in sockets:
                await ws.send(json.dumps({"type": "ping"}))
                nexts.append(json.loads(await ws.recv())["type"])
            for ws in sockets[: n // 2]:  # nor of the others leaving
                await ws.close()
            for ws in sockets[n // 2 :]:
                await ws.send(json.dumps({"type": "ping"}))
                nexts.append(json.loads(await ws.recv())["type"])
                await ws.close()
            return took, nexts

        took, nexts = asyncio.run(crowd())
    assert set(nexts) == {"pong"}
    assert took < 30, f"{n} spectators took {took:.1f} s to join"


def test_a_table_takes_a_bounded_number_of_watchers_and_tabs_per_seat(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'p.db'}", bot_delay=0.0, max_watchers=3)) as client:
        table = new_table(client, HUMANS)
        token = take(client, table, 0, "Ana")
        url = f"/ws/tables/{table}"
        with ExitStack() as stack:
            watchers = [stack.enter_context(client.websocket_connect(url)) for _ in range(3)]
            for ws in watchers:
                ws.send_json({"type": "hello", "token": None})
                receive_state(ws)
            with client.websocket_connect(url) as extra:
                extra.send_json({"type": "hello", "token": None})
                refused = extra.receive_json()
                assert refused["type"] == "error" and refused["code"] == "too-many-watchers", refused
                with pytest.raises(WebSocketDisconnect) as closed:
                    extra.receive_json()
                assert closed.value.code == 1013
            # seats are not watchers: a person still sits down, in a few tabs at most
            tabs = [stack.enter_context(client.websocket_connect(url)) for _ in range(MAX_SEAT_CONNECTIONS)]
            for ws in tabs:
                ws.send_json({"type": "hello", "token": token})
                assert receive_state(ws)["you"] == 0
            with client.websocket_connect(url) as extra:
                extra.send_json({"type": "hello", "token": token})
                assert extra.receive_json()["code"] == "too-many-connections"
                with pytest.raises(WebSocketDisconnect) as closed:
                    extra.receive_json()
                assert closed.value.code == 1013
            watchers[0].close()
            time.sleep(0.2)
            with client.websocket_connect(url) as again:  # a place came free
                again.send_json({"type": "hello", "token": None})
                assert receive_state(again)["you"] is None


def test_a_person_reconnecting_in_a_loop_costs_watchers_a_message_a_second(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'p.db'}", bot_delay=0.0)) as client:
        table = new_table(client, HUMANS)
        token = take(client, table, 0, "Ana")
        url = f"/ws/tables/{table}"
        with client.websocket_connect(url) as watcher:
            watcher.send_json({"type": "hello", "token": None})
            assert receive_state(watcher)["table"]["seats"][0]["online"] is False
            started = time.monotonic()
            for _ in range(30):
                with client.websocket_connect(url) as ws:
                    ws.send_json({"type": "hello", "token": token})
                    receive_state(ws)
            seconds = time.monotonic() - started
            watcher.send_json({"type": "ping"})
            heard = []
            while (msg := watcher.receive_json())["type"] != "pong":
                heard.append(msg)
            # 60 changes of who is online; the first news at once, then one a second at most
            assert 1 <= len(heard) <= 2 + int(seconds), (seconds, len(heard))
            assert heard[0]["table"]["seats"][0]["online"] is True
            if seconds < 1:  # the last news comes when the second is up: she is offline
                assert receive_state(watcher)["table"]["seats"][0]["online"] is False


def test_clients_that_never_read_do_not_delay_the_table(tmp_path: Path) -> None:
    # 150 stuck clients from one address: its socket cap is lifted (the cap has its own test)
    app = create_app(f"sqlite:///{tmp_path / 'p.db'}", bot_delay=0.0, limits=Limits(sockets_per_client=200))
    manager = manager_of(app)
    with serving(app) as port:
        table = post(port, "/api/tables", {"name": "Stuck", "seats": HUMANS})["id"]
        tokens = [post(port, f"/api/tables/{table}/seats/{s}", {"name": f"P{s}"})["token"] for s in range(3)]
        stuck = [raw_hello(port, table) for _ in range(150)]
        try:
            for _ in range(100):
                if len(manager.tables[table].connections) == len(stuck):
                    break
                time.sleep(0.05)
            assert len(manager.tables[table].connections) == len(stuck)
            url = f"ws://127.0.0.1:{port}/ws/tables/{table}"
            with connect(url) as w0, connect(url) as w1, connect(url) as w2:
                seats = [w0, w1, w2]
                for ws, token in zip(seats, tokens, strict=True):
                    ws.send(json.dumps({"type": "hello", "token": token}))
                latencies = []
                states = [_state(ws, 0) for ws in seats]
                for step in range(120):
                    version = states[0]["version"]
                    seat = states[0]["view"]["to_move"]
                    legal = states[seat]["view"]["legal"]
                    started = time.perf_counter()
                    seats[seat].send(
                        json.dumps({"type": "act", "action": legal[step % len(legal)], "version": version})
                    )
                    states[seat] = _state(seats[seat], version + 1)
                    latencies.append(time.perf_counter() - started)
                    states = [
                        st if s == seat else _state(seats[s], version + 1) for s, st in enumerate(states)
                    ]
                    if states[0]["winners"]:
                        break
            latencies.sort()
            assert latencies[len(latencies) // 2] < 0.25, latencies
            assert latencies[-1] < 2.0, latencies
            assert all(
                c.queued_bytes <= connection.MAX_OUTBOX_BYTES for c in manager.tables[table].connections
            )
        finally:
            for sock in stuck:
                sock.close()


def test_a_client_whose_outbox_grows_too_large_is_dropped() -> None:
    async def scenario() -> tuple[bool, int]:
        stuck = asyncio.Event()
        hung_up = asyncio.Event()

        async def never_sends(text: str) -> None:
            await stuck.wait()

        async def hangup() -> None:
            hung_up.set()

        conn = connection.Connection(send=never_sends, seat=None)
        conn.hangup = hangup
        conn.start()
        big = "x" * 20_000  # a long full state, far fewer than MAX_OUTBOX of them
        pushed = 0
        while not conn.closed and pushed < connection.MAX_OUTBOX // 2:
            conn.push(big)
            pushed += 1
        await asyncio.wait_for(hung_up.wait(), 1)
        return conn.closed, pushed

    closed, pushed = asyncio.run(scenario())
    assert closed
    assert pushed * 20_000 <= connection.MAX_OUTBOX_BYTES + 40_000


def _state(ws: Any, version: int) -> dict[str, Any]:
    while True:
        msg = json.loads(ws.recv(timeout=10))
        if msg["type"] == "state" and msg["version"] >= version:
            return dict(msg)


# --- binary frames and the log --------------------------------------------------------------
def test_a_binary_frame_is_answered_and_closed_1003(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'p.db'}", bot_delay=0.0)) as client:
        table = new_table(client, HUMANS)
        url = f"/ws/tables/{table}"
        with client.websocket_connect(url) as ws:  # instead of a hello
            ws.send_bytes(b"\x00\x01hello")
            reply = ws.receive_json()
            assert reply == {
                "type": "error",
                "code": "binary-frame",
                "message": "messages are JSON text; binary frames are not accepted",
            }
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1003
        with client.websocket_connect(url) as ws, client.websocket_connect(url) as other:
            other.send_json({"type": "hello", "token": None})
            before = receive_state(other)
            ws.send_json({"type": "hello", "token": None})
            receive_state(ws)
            ws.send_bytes(json.dumps({"type": "ping"}).encode())
            assert ws.receive_json()["code"] == "binary-frame"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1003
            other.send_json({"type": "sync"})  # the table goes on, unchanged
            assert receive_state(other) == before


def test_a_thousand_bad_frames_log_a_few_short_lines_and_no_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    app = create_app(f"sqlite:///{tmp_path / 'p.db'}", bot_delay=0.0)
    with serving(app) as port:
        table = post(port, "/api/tables", {"name": "Bad", "seats": HUMANS})["id"]
        url = f"ws://127.0.0.1:{port}/ws/tables/{table}"

        async def binary(after_hello: bool) -> tuple[str, int | None]:
            async with aconnect(url) as ws:
                if after_hello:
                    await ws.send(json.dumps({"type": "hello", "token": None}))
                    await ws.recv()
                await ws.send(b"\xff" * 10)
                code = json.loads(await ws.recv())["code"]
                await ws.wait_closed()
                return code, ws.close_code

        async def flood() -> list[tuple[str, int | None]]:
            out = []
            for start in range(0, 800, 50):
                out += await asyncio.gather(*(binary(i % 2 == 0) for i in range(start, start + 50)))
            async with aconnect(url) as ws:  # and 200 malformed text frames on one socket
                await ws.send(json.dumps({"type": "hello", "token": None}))
                await ws.recv()
                for _ in range(200):
                    await ws.send('{"type": "act", "action": "pass", "version": true}')
                for _ in range(200):
                    out.append((json.loads(await ws.recv())["code"], None))
            return out

        answers = asyncio.run(flood())
    assert {(code, close) for code, close in answers[:800]} == {("binary-frame", 1003)}
    assert {code for code, _ in answers[800:]} <= {"malformed", "rate-limited"}
    records = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert all(r.exc_info is None for r in caplog.records), "a traceback was logged"
    assert "Traceback" not in caplog.text
    assert 2 <= len(records) <= 30, [r.getMessage() for r in records]
    assert all(len(r.getMessage()) < 200 and "\n" not in r.getMessage() for r in records)
    assert any("binary-frame" in r.getMessage() for r in records)
