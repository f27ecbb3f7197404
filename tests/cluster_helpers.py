"""A throwaway Redis server, ``paston serve`` workers of a cluster on loopback, and
players that play a seat through any worker, reconnecting to the next when theirs
goes away (as a browser behind a load balancer would); the cluster tests' fixtures
(``redis_server``, once per module; ``database``, a PostgreSQL database of its own;
``workers``, three workers over both), and what those tests read of a cluster: each
table's owner in Redis, a table seated through several workers, the action rows of a
table, and seats played until a deadline."""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import random
import signal
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from tests.server_process import free_port, paston_command
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from paston.server.store.db import normalize_url
from paston.testing.services import Redis


class RedisServer(Redis):
    """``redis-server`` on a free loopback port, nothing saved to disk
    (:class:`paston.testing.services.Redis`): stopping and starting it again loses every
    key, like a Redis that failed over without them; ``cli`` runs ``redis-cli`` on it."""

    def cli(self, *args: str) -> str:
        return subprocess.run(
            ["redis-cli", "-p", str(self.port), *args], capture_output=True, text=True
        ).stdout


class Worker:
    """One ``paston serve --redis-url`` worker over a shared PostgreSQL database."""

    def __init__(self, folder: Path, database_url: str, redis_url: str, name: str) -> None:
        self.port = free_port()
        self.name = name
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self.log_path = folder / f"{name}.log"
        self._log = open(self.log_path, "w", encoding="utf-8")  # noqa: SIM115 (closed in stop)
        env = {**os.environ, "XDG_DATA_HOME": str(folder), "PASTON_PIMC_THREADS": "1"}
        command = [*paston_command(), "serve", "--port", str(self.port), "--database-url", database_url]
        command += [
            "--redis-url",
            redis_url,
            "--bot-delay",
            "0",
            "--bot-workers",
            "0",
            "--analysis-workers",
            "0",
        ]
        command += ["--seed-timeout", "0", "--next-deal-seconds", "0"]
        self.proc = subprocess.Popen(command, stdout=self._log, stderr=subprocess.STDOUT, text=True, env=env)
        deadline = time.monotonic() + 60
        while True:
            try:
                self.request("GET", "/api/meta")
                break
            except (OSError, urllib.error.URLError, http.client.HTTPException):
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the worker did not start:\n{self.log()}") from None
                time.sleep(0.1)

    def log(self) -> str:
        if not self._log.closed:
            self._log.flush()
        return self.log_path.read_text(encoding="utf-8")

    def kill(self) -> None:
        """``kill -9``: no goodbye, the leases simply stop being renewed."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self._log.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()

    def request(self, method: str, path: str, body: object = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=20) as res:
                return res.status, json.loads(res.read())
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read())


@dataclass
class Seat:
    """A person playing one seat through the workers: the actions acknowledged to it,
    in order (each command id once), and whether the game ended."""

    table: str
    seat: int
    token: str
    urls: list[str]
    at: int  # the worker it connects to first
    acked: list[tuple[int, str, str]] = field(default_factory=list)  # (version, id, action)
    duplicates: int = 0
    reconnects: int = 0
    finished: bool = False
    last_version: int = -1
    errors: list[str] = field(default_factory=list)
    last_view: dict[str, Any] = field(default_factory=dict)
    trace: list[tuple[Any, ...]] = field(default_factory=list)

    def choose(self, legal: list[str], version: int) -> str:
        return random.Random(f"{self.table}/{version}").choice(sorted(legal))

    async def move(self, ws: Any) -> dict[str, Any] | None:
        """Act if the last state says it is this seat's turn; the act sent, or ``None``."""
        view = self.last_view
        if not view or view["to_move"] != self.seat or not view["legal"]:
            return None
        version = self.last_version
        action = self.choose(view["legal"], version)
        act = {"type": "act", "action": action, "version": version, "id": f"s{self.seat}-v{version}"}
        await ws.send(json.dumps(act))
        self.trace.append(("sent", version, act["id"], action))
        return act

    async def play(self, deadline: float) -> None:
        pending: dict[str, Any] | None = None
        while (not self.finished or pending is not None) and time.monotonic() < deadline:
            url = f"{self.urls[self.at % len(self.urls)]}/ws/tables/{self.table}"
            try:
                async with connect(url, open_timeout=5, close_timeout=1) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": self.token}))
                    self.trace.append(("connected", self.at, None, None))
                    if pending is not None:  # not acknowledged before the socket went: send it again
                        await ws.send(json.dumps(pending))
                    while time.monotonic() < deadline:
                        message = json.loads(await asyncio.wait_for(ws.recv(), 20))
                        kind = message.get("type")
                        self.trace.append(
                            (kind, message.get("version"), message.get("id"), message.get("code"))
                        )
                        if kind == "state":
                            self.last_version = message["version"]
                            self.last_view = message["view"]
                            if message["table"]["finished"]:
                                self.finished = True
                                if pending is None:
                                    return
                                continue  # its last move's ack is on its way
                            if pending is None:
                                pending = await self.move(ws)
                        elif kind == "ack":
                            if pending is not None and message["id"] == pending["id"]:
                                self.acked.append((message["version"], pending["id"], pending["action"]))
                                self.duplicates += bool(message.get("duplicate"))
                                pending = None
                                if self.finished:
                                    return
                                pending = await self.move(ws)  # the state came first: it may be our turn
                        elif kind == "error":
                            self.errors.append(message["code"])
                            if message["code"] == "stale":
                                pending = None
                                await ws.send(json.dumps({"type": "sync"}))
                            elif pending is not None and message.get("id") == pending["id"]:
                                await asyncio.sleep(0.2)  # refused while moving (storage): resend
                                await ws.send(json.dumps(pending))
            except (ConnectionClosed, OSError, InvalidStatus, TimeoutError):
                pass
            self.reconnects += 1
            self.at += 1
            await asyncio.sleep(0.1)


def wait_for(check: Any, timeout: float, step: float = 0.1) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(step)


@pytest.fixture(scope="module")
def redis_server() -> Iterator[RedisServer]:
    server = RedisServer()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def database(postgres_url: str) -> Iterator[str]:
    """A database of its own on the test cluster (workers look at every open table in it)."""
    name = f"paston_cluster_{uuid.uuid4().hex[:8]}"
    admin = create_engine(normalize_url(postgres_url), isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f"CREATE DATABASE {name}"))
    url = postgres_url.rsplit("/", 1)[0] + f"/{name}"
    try:
        yield url
    finally:
        with admin.connect() as c:
            c.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()


@pytest.fixture
def workers(tmp_path: Path, database: str, redis_server: RedisServer) -> Iterator[list[Worker]]:
    redis_server.cli("FLUSHALL")
    started: list[Worker] = []
    try:
        for i in range(3):
            started.append(Worker(tmp_path, database, redis_server.url, f"w{i}"))
        yield started
    finally:
        for w in started:
            w.stop()


def owners(redis: RedisServer, tables: list[str]) -> list[str]:
    return [redis.cli("GET", f"paston:owner:{t}").strip() for t in tables]


def seated(workers: list[Worker], creator: int, target: int = 10) -> tuple[str, list[str]]:
    """A table of three people made at one worker, its seats taken through the others."""
    status, body = workers[creator].request(
        "POST",
        "/api/tables",
        {"name": "Cluster", "rules": {"target": target}, "seats": [{"kind": "human"}] * 3},
    )
    assert status == 201, body
    table = str(body["id"])
    tokens = []
    for seat in range(3):
        status, body = workers[(creator + seat) % 3].request(
            "POST", f"/api/tables/{table}/seats/{seat}", {"name": f"P{seat}"}
        )
        assert status == 200, body
        tokens.append(str(body["token"]))
    return table, tokens


COLUMNS = "seq, seat, action, command_id, fence, created"


def action_rows(database: str, table: str) -> list[dict[str, Any]]:
    engine = create_engine(normalize_url(database))
    with engine.connect() as c:
        rows = c.execute(
            text(f"SELECT {COLUMNS} FROM actions WHERE table_id = :t ORDER BY seq"),
            {"t": table},
        )
        out = [dict(r._mapping) for r in rows]
    engine.dispose()
    return out


def play(seats: list[Seat], seconds: float, during: Any = None) -> None:
    async def run() -> None:
        deadline = time.monotonic() + seconds
        games = asyncio.gather(*(s.play(deadline) for s in seats))
        if during is not None:
            await during()
        await games

    asyncio.run(run())
