"""Operating a real ``paston serve`` (issue 22, "operating in public"): the probes, the
metrics after play, JSON log lines, idle connections closed, file handles running out
without a flood of log lines, and ``/readyz`` failing while the database refuses
connections. Each server is a real process on loopback (tests/server_process.py)."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from websockets.exceptions import ConnectionClosed

import server_process
from paston.server.web.idlehttp import HEAD_TIMEOUT
from server_process import ServerProcess, until


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(
        tmp_path_factory.mktemp("ops"),
        "--log-format",
        "json",
        "--bot-workers",
        "1",
        "--analysis-workers",
        "0",
    )
    yield proc
    proc.stop()


def scrape(server: ServerProcess) -> dict[str, float]:
    """``/metrics`` as {sample with its labels: value}."""
    with urllib.request.urlopen(server.base + "/metrics", timeout=10) as res:
        assert res.headers["content-type"].startswith("text/plain; version=")
        text = res.read().decode()
    samples = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            samples[name] = float(value)
    return samples


def test_healthz_and_readyz_answer(server: ServerProcess) -> None:
    assert server.request("GET", "/healthz")[:2] == (200, {"ok": True})
    status, body, headers = server.request("GET", "/readyz")
    assert (status, body) == (200, {"ok": True, "checks": {"database": "ok"}})
    assert headers["cache-control"] == "no-store"


def test_metrics_count_the_play_the_sockets_and_the_refusals(server: ServerProcess) -> None:
    table = server.new_table([{"kind": "bot", "bot": "heuristic"}] * 3)
    watcher, _ = server.join(table, None)
    try:
        deadline = time.monotonic() + 60
        while True:
            samples = scrape(server)
            if samples.get("paston_actions_committed_total", 0) >= 20:
                break
            assert time.monotonic() < deadline, samples
            time.sleep(0.2)
        assert samples["paston_bot_decision_seconds_count"] >= 20
        assert samples['paston_tables{state="open"}'] + samples['paston_tables{state="finished"}'] >= 1
        assert samples["paston_websockets"] >= 1 and samples["paston_table_connections"] >= 1
        assert samples["process_max_fds"] >= samples["process_open_fds"] > 0
        assert "paston_bot_queue" in samples and "paston_analysis_queue" in samples
        watcher.send(b"\x00binary")  # bad input: refused, and counted by its code
        until(watcher, "error")
    finally:
        watcher.close()
    big = urllib.request.Request(
        server.base + "/api/tables", data=b"{" * 20_000, headers={"content-type": "application/json"}
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(big, timeout=10)
    assert refused.value.code == 413
    samples = scrape(server)
    assert samples['paston_refused_total{reason="binary-frame",via="websocket"}'] >= 1
    assert samples['paston_refused_total{reason="too-large",via="http"}'] >= 1
    # counts only go up: a later scrape never shows fewer actions
    assert scrape(server)["paston_actions_committed_total"] >= samples["paston_actions_committed_total"]


def test_metrics_are_not_served_to_a_request_a_proxy_forwarded(server: ServerProcess) -> None:
    status, body, _ = server.request("GET", "/metrics", headers={"X-Forwarded-For": "203.0.113.9"})
    assert status == 404 and body["error"]["code"] == "not-found"


def test_every_log_line_is_one_json_object(server: ServerProcess) -> None:
    ws = server.socket(server.new_table())
    try:
        ws.send(b"binary before hello")  # refused, closed 1003 and logged: one warning line
        assert json.loads(ws.recv(timeout=5))["code"] == "binary-frame"
    finally:
        ws.close()
    broken = server.socket(server.new_table())
    try:  # invalid UTF-8 in a text frame: uvicorn logs a traceback, made one line
        broken.send(b"\xff\xfe", text=True)
        with pytest.raises(ConnectionClosed):
            broken.recv(timeout=5)
    finally:
        broken.close()
    deadline = time.monotonic() + 10
    while "binary-frame" not in server.log() or "UnicodeDecodeError" not in server.log():
        assert time.monotonic() < deadline, server.log()
        time.sleep(0.1)
    lines = [json.loads(line) for line in server.log().splitlines()]
    assert all(set(line) >= {"time", "level", "logger", "message"} for line in lines), lines
    assert lines[0]["message"].startswith("Paston is running: open http://localhost:")
    bad = [line for line in lines if "binary-frame" in line["message"]]
    assert bad and bad[0]["level"] == "WARNING" and bad[0]["logger"] == "paston.server"
    utf8 = [line for line in lines if "UnicodeDecodeError" in line["message"]]
    assert utf8 and utf8[0]["level"] == "ERROR" and utf8[0]["logger"] == "uvicorn.error"
    assert "Traceback" not in server.log()


def _closed_after(sock: socket.socket, limit: float) -> float:
    """Seconds until the server closes ``sock`` (reading whatever it answers)."""
    start = time.monotonic()
    sock.settimeout(limit)
    while sock.recv(4096):
        pass
    return time.monotonic() - start


def test_idle_connections_are_closed(server: ServerProcess) -> None:
    opened = time.monotonic()
    silent = socket.create_connection(("127.0.0.1", server.port))  # says nothing at all
    kept = socket.create_connection(("127.0.0.1", server.port))  # one request, then silence
    slow = socket.create_connection(("127.0.0.1", server.port))  # a head that never ends
    try:
        kept.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        slow.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        assert 4.0 <= _closed_after(kept, 15) <= 10.0  # the 5 s keep-alive
        slow.sendall(b"X-Slow: 1\r\n")  # a header line now and then does not keep it open
        _closed_after(silent, 20)
        assert HEAD_TIMEOUT - 1 <= time.monotonic() - opened <= HEAD_TIMEOUT + 6
        assert _closed_after(slow, 5) < 5
    finally:
        for sock in (silent, kept, slow):
            sock.close()
    assert server.request("GET", "/healthz")[0] == 200


def test_running_out_of_file_handles_costs_a_few_log_lines_and_the_server_recovers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the server may open 200 files (soft and hard limit): 300 idle connections are too many
    limited = "import os, resource, sys; resource.setrlimit(resource.RLIMIT_NOFILE, (200, 200)); "
    limited += "os.execv(sys.argv[1], sys.argv[1:])"
    command = server_process.paston_command()  # its first word is a path: execv runs it
    monkeypatch.setattr(server_process, "paston_command", lambda: [sys.executable, "-c", limited, *command])
    proc = ServerProcess(tmp_path, "--log-format", "json", "--bot-workers", "0", "--analysis-workers", "0")
    held: list[socket.socket] = []
    try:
        assert proc.request("GET", "/metrics")[0] == 200
        for _ in range(300):
            with contextlib.suppress(OSError):
                held.append(socket.create_connection(("127.0.0.1", proc.port), timeout=2))
        try:  # while they are held: refused (503 beyond --max-connections) or dropped, never served
            during = proc.request("GET", "/healthz")[0]
        except OSError:
            during = None
        assert during != 200
        deadline = time.monotonic() + HEAD_TIMEOUT + 10
        for sock in held:  # the server drops what it could not take, then the silent ones
            sock.settimeout(max(0.1, deadline - time.monotonic()))
            with contextlib.suppress(ConnectionResetError):
                assert sock.recv(10) == b""
        status, body, _ = proc.request("GET", "/healthz")
        assert (status, body) == (200, {"ok": True})
        samples = scrape(proc)
        assert samples["process_max_fds"] == 200
        assert samples["process_open_fds"] < 100  # the idle connections are gone
        log = proc.log()
        assert "Traceback" not in log
        assert len(log.splitlines()) <= 40, log
        assert all(json.loads(line) for line in log.splitlines())
    finally:
        for sock in held:
            sock.close()
        proc.stop()


def test_readyz_fails_while_the_database_refuses_and_recovers(postgres_url: str, tmp_path: Path) -> None:
    admin_url = postgres_url.rsplit("/", 1)[0] + "/postgres"
    name = "paston_ops_ready"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.execute(f"CREATE DATABASE {name}")
    url = postgres_url.rsplit("/", 1)[0] + f"/{name}?connect_timeout=1"
    proc = ServerProcess(tmp_path, "--database-url", url, "--bot-workers", "0", "--analysis-workers", "0")
    try:
        assert proc.request("GET", "/readyz")[:2] == (200, {"ok": True, "checks": {"database": "ok"}})
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
            admin.execute(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'")
        deadline = time.monotonic() + 10
        while (answer := proc.request("GET", "/readyz"))[0] == 200:
            assert time.monotonic() < deadline, "readyz never failed"
            time.sleep(0.2)
        status, body, _ = answer
        assert status == 503 and body["ok"] is False
        assert body["checks"]["database"].startswith("failed: "), body
        assert body["error"]["code"] == "not-ready"
        assert proc.request("GET", "/healthz")[:2] == (200, {"ok": True})  # alive all the same
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
        deadline = time.monotonic() + 10
        while proc.request("GET", "/readyz")[0] != 200:
            assert time.monotonic() < deadline, "readyz never recovered"
            time.sleep(0.2)
    finally:
        proc.stop()
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def test_beyond_max_connections_http_is_answered_503_and_served_again_after(tmp_path: Path) -> None:
    options = (
        "--max-connections",
        "4",
        "--log-format",
        "json",
        "--bot-workers",
        "0",
        "--analysis-workers",
        "0",
    )
    proc = ServerProcess(tmp_path, *options)
    idle = [socket.create_connection(("127.0.0.1", proc.port)) for _ in range(4)]
    try:
        time.sleep(0.5)  # accepted
        status, body, _ = proc.request("GET", "/healthz")
        assert status == 503, body
        for sock in idle:
            sock.close()
        deadline = time.monotonic() + 10
        while proc.request("GET", "/healthz")[0] != 200:
            assert time.monotonic() < deadline, "never served again"
            time.sleep(0.1)
        lines = [json.loads(line) for line in proc.log().splitlines()]  # uvicorn's warning too
        said = [line for line in lines if line["logger"].startswith("uvicorn")]
        assert said and said[0]["level"] == "WARNING" and "concurrency limit" in said[0]["message"], lines
    finally:
        for sock in idle:
            sock.close()
        proc.stop()


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        ("--log-format", "xml", "error: invalid value for '--log-format'"),
        ("--metrics-from", "10.0.0.300", "--metrics-from: not an address or network: '10.0.0.300'"),
    ],
)
def test_a_bad_operator_option_is_a_usage_error(option: str, value: str, said: str, tmp_path: Path) -> None:
    done = subprocess.run(
        [*server_process.paston_command(), "serve", "--port", str(server_process.free_port()), option, value],
        capture_output=True,
        text=True,
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path)},
        timeout=60,
    )
    assert done.returncode == 2
    assert said in " ".join((done.stdout + done.stderr).split()), done.stderr
