"""A real ``paston serve`` process on loopback, and plain clients for it (HTTP and
WebSocket), as a hostile stranger on the network would use them."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def paston_command() -> list[str]:
    script = Path(sys.executable).parent / "paston"
    return [str(script)] if script.exists() else [sys.executable, "-m", "paston.cli"]


class ServerProcess:
    """``paston serve`` with its own SQLite database; stopped by :meth:`stop`."""

    def __init__(self, folder: Path, *extra: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self.log_path = folder / "server.log"
        env = {**os.environ, "XDG_DATA_HOME": str(folder)}
        self._log = open(self.log_path, "w", encoding="utf-8")  # noqa: SIM115 (closed in stop)
        self.proc = subprocess.Popen(
            [
                *paston_command(),
                "serve",
                "--port",
                str(self.port),
                "--database-url",
                f"sqlite:///{folder / 'paston.db'}",
                "--bot-delay",
                "0",
                *extra,
            ],
            stdout=self._log,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                self.request("GET", "/api/meta")
                break
            except (OSError, urllib.error.URLError):
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the server did not start:\n{self.log()}") from None
                time.sleep(0.1)

    def log(self) -> str:
        if not self._log.closed:
            self._log.flush()
        return self.log_path.read_text(encoding="utf-8")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._log.close()

    # --- HTTP ------------------------------------------------------------------------------------
    def request(
        self, method: str, path: str, body: object = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any, dict[str, str]]:
        """Status, body (JSON when it is) and headers (names in lower case)."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        for key, value in (headers or {}).items():
            req.add_header(key, value)
        try:
            with urllib.request.urlopen(req, timeout=10) as res:
                raw = res.read()
                return res.status, _json_or_text(raw), {k.lower(): v for k, v in res.headers.items()}
        except urllib.error.HTTPError as err:
            return err.code, _json_or_text(err.read()), {k.lower(): v for k, v in err.headers.items()}

    def new_table(self, seats: list[dict[str, Any]] | None = None, target: int = 121) -> str:
        seats = seats or [{"kind": "human"}] * 3
        status, body, _ = self.request(
            "POST", "/api/tables", {"name": "Red team", "rules": {"target": target}, "seats": seats}
        )
        assert status == 201, body
        return str(body["id"])

    def take(self, table: str, seat: int, name: str) -> str:
        status, body, _ = self.request("POST", f"/api/tables/{table}/seats/{seat}", {"name": name})
        assert status == 200, body
        return str(body["token"])

    # --- WebSocket -------------------------------------------------------------------------------
    def socket(self, table: str, **kwargs: Any) -> ClientConnection:
        kwargs.setdefault("max_size", None)
        kwargs.setdefault("open_timeout", 10)
        # entered at once: the connection is closed by the caller (websockets wants a
        # context manager, and a test holds several connections open at a time)
        return connect(f"{self.ws_base}/ws/tables/{table}", **kwargs).__enter__()

    def join(self, table: str, token: str | None) -> tuple[ClientConnection, dict[str, Any]]:
        """A connection that said hello, with the full state it got first."""
        ws = self.socket(table)
        send(ws, {"type": "hello", "token": token, "updates": False})
        return ws, until(ws, "state")


def _json_or_text(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        return raw.decode(errors="replace")


def send(ws: ClientConnection, message: object) -> None:
    ws.send(json.dumps(message))


def until(ws: ClientConnection, kind: str, timeout: float = 10.0) -> dict[str, Any]:
    """The next message of type ``kind`` (others are skipped)."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"no {kind!r} message within {timeout} s")
        message = json.loads(ws.recv(timeout=left))
        if message.get("type") == kind:
            return dict(message)


def ping_ms(ws: ClientConnection) -> float:
    """The time for a ``ping`` to be answered with ``pong``, in milliseconds."""
    start = time.perf_counter()
    send(ws, {"type": "ping"})
    until(ws, "pong")
    return (time.perf_counter() - start) * 1000
