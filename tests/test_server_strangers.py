"""A stranger against a real ``paston serve`` (issue 22): what held before the fixes of
this file did not, each test written against the defect as it was found.

- A forged ``X-Forwarded-For`` from a loopback peer was believed by uvicorn, so every
  per-address limit could be dodged (40 creations, 40 × 201).
- No route limited its request body (a 200 MB body: +630 MiB and a 3.6 s stall).
- One address could hold any number of sockets (1,004 watchers exhausted the handles) and
  ask for full states over all of them at once.
- Every invalid UTF-8 text frame logged a six-line traceback.
- ``kill -9`` of a server left its fork server, resource tracker and pool processes running.
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator

import pytest
from tests.server_process import ServerProcess

from paston.server.work.lifeline import _alive


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    # two tables at once per address, then one more every minute
    proc = ServerProcess(tmp_path_factory.mktemp("strangers"), "--create-burst", "2", "--create-every", "60")
    yield proc
    proc.stop()


def test_a_forged_forwarded_for_does_not_dodge_the_creation_limit(server: ServerProcess) -> None:
    """Without ``--trusted-proxy`` the header is ignored: forty forged addresses are one
    client (the peer's), which may make two tables and no more."""
    seats = [{"kind": "human"}] * 3
    statuses = []
    for k in range(40):
        status, body, _ = server.request(
            "POST",
            "/api/tables",
            {"name": f"forged {k}", "seats": seats},
            headers={"X-Forwarded-For": f"203.0.113.{k + 1}", "X-Real-IP": f"198.51.100.{k + 1}"},
        )
        statuses.append(status)
        if status != 201:
            assert body["error"]["code"] == "rate-limited", body
    assert statuses.count(201) == 2 and statuses.count(429) == 38, statuses


def read_answer(sock: socket.socket) -> str:
    """What the server sent until it closed the connection (it says ``connection: close``)."""
    parts = []
    with contextlib.suppress(OSError):
        while chunk := sock.recv(65536):
            parts.append(chunk)
    return b"".join(parts).decode()


# --- bodies ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/api/tables", "/api/tables/x/seats/0", "/api/tables/x/rematch"])
def test_a_body_declared_too_large_is_refused_unread(server: ServerProcess, path: str) -> None:
    """A 200 MB body once cost the server 630 MiB and a 3.6 s stall: now a declared
    length over the limit is refused at once, and nothing is read."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Content-Length: {200 * 1024 * 1024}\r\n\r\n{{".encode()
        )
        answer = read_answer(sock)
    assert answer.startswith("HTTP/1.1 413"), answer
    assert '"code":"too-large"' in answer.replace(" ", "")


def test_a_chunked_body_is_cut_off_at_the_limit(server: ServerProcess) -> None:
    """Without a declared length the body is counted as it comes, and refused once over."""
    chunk = b"x" * 8192
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        try:
            for _ in range(64):  # 512 KB offered; the limit is 16 KB
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        except OSError:
            pass  # the server may close once it has answered
        answer = read_answer(sock)
    assert answer.startswith("HTTP/1.1 413"), answer
    status, _, _ = server.request("GET", "/api/meta")  # and it answers others as before
    assert status == 200


def test_an_honest_body_is_read_as_before(server: ServerProcess) -> None:
    status, body, _ = server.request("POST", "/api/tables/no-such/seats/0", {"name": "Ani"})
    assert status == 404 and body["error"]["code"] == "no-table", body


# --- many sockets from one address ------------------------------------------------------------------
def test_one_address_holds_a_bounded_number_of_sockets_over_all_tables(server: ServerProcess) -> None:
    """1,004 watchers (each table within its own cap) once held the server's every file
    handle: now one address holds at most 64 sockets, however many tables it watches."""
    from tests.server_process import until

    from paston.server.web.socketguard import MAX_SOCKETS_PER_ADDRESS

    seats = [{"kind": "human"}] * 3
    tables = []
    for k in range(2):  # two tables in the creation bucket of this module's server
        status, body, _ = server.request("POST", "/api/tables", {"name": f"w{k}", "seats": seats})
        if status == 201:
            tables.append(body["id"])
    if not tables:  # the bucket was spent by the tests above: watch any open table
        _, listing, _ = server.request("GET", "/api/tables")
        tables = [t["id"] for t in listing["tables"]]
    held = []
    try:
        for k in range(MAX_SOCKETS_PER_ADDRESS):
            ws, _ = server.join(tables[k % len(tables)], None)
            held.append(ws)
        extra = server.socket(tables[0])
        refused = until(extra, "error")
        assert refused["code"] == "too-many-sockets", refused
        extra.close()
        held.pop().close()  # one closed: one more may open
        ws, state = server.join(tables[0], None)
        held.append(ws)
        assert state["type"] == "state"
    finally:
        for ws in held:
            ws.close()


def test_full_states_are_limited_per_address_across_sockets(server: ServerProcess) -> None:
    """100 sockets asking for full states 45 times a second once slowed every table: the
    address shares one bucket (16 at once, 8 a second) however many sockets it uses."""
    import json
    import time

    _, listing, _ = server.request("GET", "/api/tables")
    table = listing["tables"][0]["id"]
    sockets = [server.join(table, None)[0] for _ in range(10)]
    try:
        for ws in sockets:
            for _ in range(4):  # 40 asked at once from one address
                ws.send(json.dumps({"type": "sync"}))
        states = refusals = 0
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and states + refusals < 40:
            for ws in sockets:
                try:
                    message = json.loads(ws.recv(timeout=0.05))
                except TimeoutError:
                    continue
                if message["type"] == "state":
                    states += 1
                elif message["type"] == "error":
                    assert message["code"] == "rate-limited", message
                    refusals += 1
        assert states + refusals == 40
        assert states <= 16 + 8 and refusals >= 40 - 16 - 8, (states, refusals)
    finally:
        for ws in sockets:
            ws.close()


# --- logs a stranger cannot flood -------------------------------------------------------------------
def masked_frame(payload: bytes, opcode: int = 0x1) -> bytes:
    """One client frame (FIN, masked as a client must), at most 125 bytes of payload."""
    import os

    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + body


def test_invalid_utf8_frames_log_a_few_lines_and_no_traceback(server: ServerProcess) -> None:
    """Each text frame that is not UTF-8 once logged a six-line traceback: now one line
    each, at most ten a minute of the kind, and the server answers as before."""
    import base64
    import os

    _, listing, _ = server.request("GET", "/api/tables")  # (no creation: this module's bucket is spent)
    table = listing["tables"][0]["id"]
    before = server.log().count("Invalid UTF-8")
    for _ in range(30):
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
            key = base64.b64encode(os.urandom(16)).decode()
            sock.sendall(
                f"GET /ws/tables/{table} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n".encode()
            )
            assert sock.recv(4096).startswith(b"HTTP/1.1 101")
            sock.sendall(masked_frame(b"\xff\xfe\xfd"))
            with contextlib.suppress(OSError):
                sock.recv(4096)  # the close frame (1007)
    status, _, _ = server.request("GET", "/api/meta")
    assert status == 200
    log = server.log()
    assert "Traceback" not in log
    said = log.count("Invalid UTF-8") - before
    assert 1 <= said <= 10, log[-2000:]


# --- a server killed -9 leaves nothing behind ------------------------------------------------------
def test_a_killed_server_leaves_no_worker_process_behind(tmp_path_factory: pytest.TempPathFactory) -> None:
    """``kill -9`` of a worker once orphaned its fork server, resource tracker and pool
    processes: now each dies with its parent."""
    import os
    import signal
    import time

    from tests.server_process import send, until

    proc = ServerProcess(tmp_path_factory.mktemp("killed"), "--bot-delay", "0")
    try:
        bots = [{"kind": "bot", "bot": "pimc", "level": 1}] * 3
        table = proc.new_table(bots)
        ws, _ = proc.join(table, None)  # a table of computer players moves while watched
        for _ in range(5):
            until(ws, "state", timeout=30)
        send(ws, {"type": "ping"})
        ws.close()
        _, _, _ = proc.request("GET", f"/api/tables/{table}")
        children = _descendants(proc.proc.pid)
        assert children, "the server started no worker process"
        os.kill(proc.proc.pid, signal.SIGKILL)
        proc.proc.wait(timeout=10)
        deadline = time.monotonic() + 15
        alive = [pid for pid in children if _alive(pid)]
        while alive and time.monotonic() < deadline:
            time.sleep(0.2)
            alive = [pid for pid in children if _alive(pid)]
        assert alive == [], {pid: _command(pid) for pid in alive}
    finally:
        if proc.proc.poll() is None:
            proc.stop()


def _descendants(pid: int) -> list[int]:
    out: list[int] = []
    todo = [pid]
    while todo:
        parent = todo.pop()
        try:
            text = open(f"/proc/{parent}/task/{parent}/children", encoding="ascii").read()  # noqa: SIM115
        except OSError:
            continue
        kids = [int(p) for p in text.split()]
        out += kids
        todo += kids
    return out


def _command(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")[:120]
    except OSError:
        return "?"
