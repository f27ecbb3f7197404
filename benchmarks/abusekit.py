"""Shared by the abuse benchmark (``abuse.py``) and its CI test (``tests/test_server_abuse.py``):
attacks on a running ``paston serve``, one at a time, while a control client measures
what an honest player feels.

- The **control client** (its own process, so the attacker's work is not its own) sits
  at a table of computer players: it sends ``{"type": "ping"}`` every 50 ms and times the
  ``pong``, asks ``GET /api/tables`` every 100 ms and times the answer, notes every move
  of the computer players (the longest gap between two), and samples the server's
  resident memory every 100 ms (``/proc/<pid>/status``).
- Each **attack** is an ``async`` function bounded by its ``seconds``; it returns the
  refusal codes it was answered with and a few figures of its own.
- Afterwards an **honest client** (a fresh address) must be served: it lists the tables,
  makes a table, takes a seat, joins it over a WebSocket and has its ping answered.

Every client speaks from its own loopback address (Linux answers all of ``127.0.0.0/8``):
the control client from 127.0.0.1, the attackers from ``127.0.2.x``, honest clients from
``127.0.1.x``, so the per-address limits meet each attacker alone, as on a real network.

A library module, not a script: ``abuse.py`` imports it by name, the test by path.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import multiprocessing
import os
import random
import re
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection as Pipe
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

#: The goals on 2 shared cores (issue 22): during every attack.
PING_P99_MS = 100.0
HTTP_P99_MS = 250.0
MEMORY_MIB = 150.0

CONTROL_ADDRESS = "127.0.0.1"
HUMANS = [{"kind": "human"}] * 3
BOTS = [{"kind": "bot"}] * 3
#: A control or attacked table plays to this total: no game ends during a run.
LONG_GAME = 100_000
#: JSON bodies over this many bytes are refused by the server (``bodylimit.JSON_BODY_BYTES``).
BIG_BODY = 200 * 1024 * 1024


def attacker_address(k: int) -> str:
    return f"127.0.2.{1 + k % 250}"


def honest_address(k: int) -> str:
    return f"127.0.1.{1 + k % 250}"


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values`` (nearest rank), NaN if none.

    >>> percentile([4.0, 1.0, 3.0, 2.0], 0.5)
    3.0
    """
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


# --- the server --------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A ``paston serve`` process on loopback with its own SQLite database and log."""

    def __init__(self, folder: Path | None = None, extra: Sequence[str] = ()) -> None:
        self.folder = folder or Path(tempfile.mkdtemp(prefix="abuse-"))
        self.port = free_port()
        self.log_path = self.folder / "server.log"
        paston = Path(sys.executable).parent / "paston"
        command = [str(paston)] if paston.exists() else [sys.executable, "-m", "paston.cli"]
        self._log = open(self.log_path, "w", encoding="utf-8")  # noqa: SIM115 (closed in stop)
        self.proc = subprocess.Popen(
            [
                *command,
                "serve",
                "--port",
                str(self.port),
                "--database-url",
                f"sqlite:///{self.folder / 'abuse.db'}",
                *extra,
            ],
            stdout=self._log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "XDG_DATA_HOME": str(self.folder)},
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{self.base}/api/meta", timeout=2):
                    break
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the server did not start:\n{self.log()}") from None
                time.sleep(0.1)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        return self.proc.pid

    def log(self) -> str:
        if not self._log.closed:
            self._log.flush()
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._log.close()


def _stat(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process so far (Linux; 0 when it is gone)."""
    fields = _stat(pid)
    try:
        return 0.0 if fields is None else (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (ValueError, IndexError):
        return 0.0


def descendants(pid: int) -> list[int]:
    """The living descendants of a process (its worker processes; Linux)."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (fields := _stat(int(entry.name))) is not None:
            parents[int(entry.name)] = int(fields[1])
    found: list[int] = []
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        children = [p for p, pp in parents.items() if pp == parent]
        found += children
        frontier += children
    return found


def rss_mib(pid: int) -> float | None:
    """The resident memory of a process in MiB (Linux), or None."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


# --- HTTP, from a chosen loopback address ------------------------------------------------------


@dataclass
class Answer:
    status: int
    body: Any
    headers: dict[str, str]

    @property
    def code(self) -> str | None:
        """The error code of an error answer."""
        if isinstance(self.body, dict) and isinstance(self.body.get("error"), dict):
            return str(self.body["error"].get("code"))
        return None


async def http(
    port: int,
    method: str,
    path: str,
    body: object = None,
    *,
    source: str = CONTROL_ADDRESS,
    headers: dict[str, str] | None = None,
    raw: bytes | None = None,
    timeout: float = 10.0,
) -> Answer:
    """One HTTP/1.1 request on a new connection from ``source`` (JSON ``body`` or ``raw``
    bytes), read to its end."""
    data = raw if raw is not None else (b"" if body is None else json.dumps(body).encode())
    head = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close"]
    if data or method == "POST":
        head += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
    head += [f"{k}: {v}" for k, v in (headers or {}).items()]
    async with asyncio.timeout(timeout):
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
        try:
            writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
            await writer.drain()
            answer = await reader.read()
        finally:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()
    return parse_answer(answer)


def parse_answer(answer: bytes) -> Answer:
    """Status, body and headers of a whole HTTP/1.1 answer (chunked bodies joined)."""
    head, _, rest = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1]) if lines and len(lines[0].split()) > 1 else 0
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding") == "chunked":
        rest = _unchunk(rest)
    try:
        body: Any = json.loads(rest)
    except ValueError:
        body = rest.decode(errors="replace")
    return Answer(status, body, headers)


def _whole(answer: bytes) -> bool:
    """Whether an HTTP answer with a ``Content-Length`` has come whole."""
    head, sep, rest = answer.partition(b"\r\n\r\n")
    if not sep:
        return False
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length" and value.strip().isdigit():
            return len(rest) >= int(value.strip())
    return True


def _unchunk(data: bytes) -> bytes:
    out = []
    while data:
        size_line, _, data = data.partition(b"\r\n")
        try:
            size = int(size_line.split(b";")[0], 16)
        except ValueError:
            break
        if size == 0:
            break
        out.append(data[:size])
        data = data[size + 2 :]
    return b"".join(out)


async def ws_connect(port: int, table: str, source: str, **kwargs: Any) -> ClientConnection:
    kwargs.setdefault("max_size", None)
    kwargs.setdefault("open_timeout", 10)
    kwargs.setdefault("compression", None)
    return await connect(f"ws://127.0.0.1:{port}/ws/tables/{table}", local_addr=(source, 0), **kwargs)


async def next_message(ws: ClientConnection, kinds: set[str], timeout: float = 10.0) -> dict[str, Any]:
    """The next message whose type is one of ``kinds`` (others are skipped)."""
    async with asyncio.timeout(timeout):
        while True:
            message = json.loads(await ws.recv())
            if message.get("type") in kinds:
                return dict(message)


async def new_table(
    port: int, source: str, seats: list[dict[str, Any]], target: int = LONG_GAME, **extra: Any
) -> Answer:
    body = {"name": "abuse", "rules": {"target": target}, "seats": seats, "next_deal_seconds": 0, **extra}
    return await http(port, "POST", "/api/tables", body, source=source)


async def made_table(port: int, source: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    answer = await new_table(port, source, seats, **extra)
    if answer.status != 201:
        raise RuntimeError(f"could not make a table: {answer.status} {answer.body}")
    return dict(answer.body)


async def seated_table(port: int, source: str, target: int = LONG_GAME) -> tuple[str, list[str]]:
    """A table of three people, every seat taken from ``source``: its id and tokens."""
    table = (await made_table(port, source, HUMANS, rules={"target": target}))["id"]
    tokens = []
    for seat in range(3):
        answer = await http(
            port, "POST", f"/api/tables/{table}/seats/{seat}", {"name": f"P{seat}"}, source=source
        )
        if answer.status != 200:
            raise RuntimeError(f"could not take seat {seat}: {answer.status} {answer.body}")
        tokens.append(str(answer.body["token"]))
    return str(table), tokens


# --- the control client -----------------------------------------------------------------------


@dataclass
class Control:
    """What the control client measured during one attack."""

    ping_ms: list[float] = field(default_factory=list)
    http_ms: list[float] = field(default_factory=list)
    rss_mib: list[float] = field(default_factory=list)
    moves: int = 0  # moves of the computer players at the control table
    longest_gap_s: float = 0.0
    failures: list[str] = field(default_factory=list)


PING_EVERY = 0.05
HTTP_EVERY = 0.1
SAMPLE_EVERY = 0.1
#: A ping or request unanswered this long counts as answered in this time, and fails.
GIVE_UP_S = 5.0


async def control_loop(port: int, table: str, pid: int, stop: Callable[[], bool]) -> Control:
    out = Control()
    ws = await ws_connect(port, table, CONTROL_ADDRESS)
    await ws.send(json.dumps({"type": "hello", "token": None, "updates": True}))
    await next_message(ws, {"state"})
    pong = asyncio.Event()
    last_move = time.perf_counter()

    async def reader() -> None:
        nonlocal last_move
        async for raw in ws:
            kind = json.loads(raw).get("type")
            if kind == "pong":
                pong.set()
            elif kind in ("update", "state"):
                now = time.perf_counter()
                out.longest_gap_s = max(out.longest_gap_s, now - last_move)
                last_move = now
                out.moves += 1

    async def pinger() -> None:
        while not stop():
            pong.clear()
            sent = time.perf_counter()
            await ws.send('{"type":"ping"}')
            try:
                await asyncio.wait_for(pong.wait(), GIVE_UP_S)
            except TimeoutError:
                out.failures.append("ping-timeout")
            took = time.perf_counter() - sent
            out.ping_ms.append(took * 1000)
            await asyncio.sleep(max(0.0, PING_EVERY - took))

    async def asker() -> None:
        while not stop():
            sent = time.perf_counter()
            try:
                answer = await http(port, "GET", "/api/tables?limit=20", timeout=GIVE_UP_S)
                if answer.status != 200:
                    out.failures.append(f"http-{answer.status}")
            except (OSError, TimeoutError) as err:
                out.failures.append(f"http-{type(err).__name__}")
            took = time.perf_counter() - sent
            out.http_ms.append(took * 1000)
            await asyncio.sleep(max(0.0, HTTP_EVERY - took))

    async def sampler() -> None:
        while not stop():
            if (rss := rss_mib(pid)) is not None:
                out.rss_mib.append(rss)
            await asyncio.sleep(SAMPLE_EVERY)

    reading = asyncio.create_task(reader())
    try:
        await asyncio.gather(pinger(), asker(), sampler())
    finally:
        out.longest_gap_s = max(out.longest_gap_s, time.perf_counter() - last_move)
        reading.cancel()
        await ws.close()
    return out


def _control_process(port: int, table: str, pid: int, stop: Any, pipe: Pipe) -> None:
    try:
        out = asyncio.run(control_loop(port, table, pid, stop.is_set))
        pipe.send(out)
    except BaseException as err:  # reported to the parent, which fails
        pipe.send(RuntimeError(f"the control client failed: {type(err).__name__}: {err}"))
    finally:
        pipe.close()


class ControlProcess:
    """The control client in a process of its own, from :meth:`start` to :meth:`stop`."""

    def __init__(self, port: int, table: str, pid: int) -> None:
        context = multiprocessing.get_context("fork")
        self._stop = context.Event()
        self._parent, child = context.Pipe(duplex=False)
        self._proc = context.Process(
            target=_control_process, args=(port, table, pid, self._stop, child), daemon=True
        )
        self._proc.start()
        child.close()

    def stop(self) -> Control:
        self._stop.set()
        if not self._parent.poll(GIVE_UP_S + 10):
            self._proc.kill()
            raise RuntimeError("the control client did not report")
        result = self._parent.recv()
        self._proc.join(5)
        if isinstance(result, BaseException):
            raise result
        assert isinstance(result, Control)
        return result


# --- the honest client afterwards ---------------------------------------------------------------


async def honest_client(port: int, source: str) -> list[str]:
    """What went wrong for a fresh honest client: lists tables, makes one (a person and two
    computer players), takes its seat, joins and has a ping answered. Empty: served."""
    wrong: list[str] = []
    listing = await http(port, "GET", "/api/tables", source=source)
    if listing.status != 200:
        wrong.append(f"GET /api/tables: {listing.status}")
    meta = await http(port, "GET", "/api/meta", source=source)
    if meta.status != 200:
        wrong.append(f"GET /api/meta: {meta.status}")
    made = await new_table(
        port, source, [{"kind": "human"}, *BOTS[:2]], creator={"seat": 0, "name": "Honest"}
    )
    if made.status != 201:
        return [*wrong, f"POST /api/tables: {made.status} {made.code}"]
    try:
        ws = await ws_connect(port, made.body["id"], source)
        try:
            await ws.send(json.dumps({"type": "hello", "token": made.body["token"]}))
            state = await next_message(ws, {"state", "error"})
            if state["type"] != "state" or state.get("you") != 0:
                wrong.append(f"hello: {state.get('code') or state.get('you')}")
            await ws.send('{"type":"ping"}')
            await next_message(ws, {"pong"}, timeout=GIVE_UP_S)
        finally:
            await ws.close()
    except (OSError, TimeoutError, ConnectionClosed, InvalidHandshake) as err:
        wrong.append(f"table socket: {type(err).__name__}")
    return wrong


# --- the attacks --------------------------------------------------------------------------------


@dataclass
class Target:
    """What an attack is given: the server's port, the control table (played by computer
    players), and the address to attack from."""

    port: int
    control_table: str
    source: str


@dataclass
class Outcome:
    """What an attack saw: the codes it was refused with, and figures of its own."""

    refusals: Counter[str] = field(default_factory=Counter)
    figures: dict[str, float] = field(default_factory=dict)

    def count(self, key: str, n: float = 1) -> None:
        self.figures[key] = self.figures.get(key, 0) + n


Attack = Callable[[Target, float], Awaitable[Outcome]]


def _error_code(raw: str | bytes) -> str | None:
    """The code of an error message, read without parsing large messages (full states)."""
    if len(raw) > 600 or (isinstance(raw, str) and '"error"' not in raw):
        return None
    try:
        message = json.loads(raw)
    except ValueError:
        return None
    return str(message.get("code")) if message.get("type") == "error" else None


async def _drain(ws: ClientConnection, outcome: Outcome, until: float, kind: str = "messages") -> None:
    """Read (and count) what the server sends until ``until``, noting error codes."""
    with contextlib.suppress(TimeoutError, ConnectionClosed):
        async with asyncio.timeout(max(0.0, until - time.perf_counter())):
            async for raw in ws:
                outcome.count(kind)
                if (code := _error_code(raw)) is not None:
                    outcome.refusals[code] += 1


async def _spectator(
    target: Target, table: str, outcome: Outcome, headers: dict[str, str] | None = None
) -> ClientConnection | None:
    """A spectator socket that said hello and got its state, or None when refused (the
    refusal counted)."""
    try:
        ws = await ws_connect(target.port, table, target.source, additional_headers=headers)
    except (OSError, TimeoutError, InvalidHandshake) as err:
        outcome.refusals[f"connect-{type(err).__name__}"] += 1
        return None
    try:
        with contextlib.suppress(ConnectionClosed):  # a refused socket is told why, then closed
            await ws.send(json.dumps({"type": "hello", "token": None, "updates": True}))
        first = await next_message(ws, {"state", "error"})
    except (ConnectionClosed, TimeoutError) as err:
        outcome.refusals[f"closed-{type(err).__name__}"] += 1
        await ws.close()
        return None
    if first["type"] == "error":
        outcome.refusals[str(first["code"])] += 1
        await ws.close()
        return None
    return ws


async def _close_all(sockets: Sequence[ClientConnection]) -> None:
    await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)


async def attack_idle(target: Target, seconds: float) -> Outcome:
    """No attack: the control client's figures on the machine as it is (the baseline)."""
    await asyncio.sleep(seconds)
    return Outcome()


async def attack_tables(target: Target, seconds: float) -> Outcome:
    """A flood of new tables from one address, four requests at a time."""
    out = Outcome()
    deadline = time.perf_counter() + seconds

    async def one() -> None:
        while time.perf_counter() < deadline:
            answer = await new_table(target.port, target.source, HUMANS)
            if answer.status == 201:
                out.count("made")
            else:
                out.refusals[answer.code or f"http-{answer.status}"] += 1

    await asyncio.gather(*(one() for _ in range(4)))
    return out


async def attack_sockets(target: Target, seconds: float) -> Outcome:
    """Idle watchers from one address, opened 50 at a time (once 1,004 of them exhausted
    the server's file handles): held open, and more asked for, until the time is up."""
    out = Outcome()
    other = (await made_table(target.port, target.source, HUMANS))["id"]
    deadline = time.perf_counter() + seconds
    held: list[ClientConnection] = []
    tables = [target.control_table, other]

    async def opener(k: int) -> None:
        n = 0
        while time.perf_counter() < deadline and out.figures.get("asked", 0) < 1000:
            out.count("asked")
            ws = await _spectator(target, tables[(k + n) % 2], out)
            n += 1
            if ws is not None:
                held.append(ws)
                out.figures["held"] = len(held)
            else:
                await asyncio.sleep(0.01)

    async def reader() -> None:  # held sockets are read (they are idle watchers, not slow readers)
        while time.perf_counter() < deadline:
            for ws in list(held):
                with contextlib.suppress(TimeoutError, ConnectionClosed):
                    await asyncio.wait_for(ws.recv(), 0.001)
            await asyncio.sleep(0.05)

    try:
        await asyncio.gather(reader(), *(opener(k) for k in range(50)))
    finally:
        await _close_all(held)
    return out


async def attack_sync(target: Target, seconds: float) -> Outcome:
    """100 sockets (as many as the address may open) asking the control table for full
    states 45 times a second each (once: ping p99 78 → 1,698 ms)."""
    out = Outcome()
    sockets = [
        ws
        for ws in await asyncio.gather(*(_spectator(target, target.control_table, out) for _ in range(100)))
        if ws
    ]
    out.figures["sockets"] = len(sockets)
    deadline = time.perf_counter() + seconds

    async def sender() -> None:
        while time.perf_counter() < deadline:
            tick = time.perf_counter()
            for ws in sockets:
                with contextlib.suppress(ConnectionClosed):
                    await ws.send('{"type":"sync"}')
                    out.count("asked")
            await asyncio.sleep(max(0.0, 1 / 45 - (time.perf_counter() - tick)))

    async def reader(ws: ClientConnection) -> None:
        with contextlib.suppress(TimeoutError, ConnectionClosed):
            async with asyncio.timeout(max(0.0, deadline + 1 - time.perf_counter())):
                async for raw in ws:
                    if (code := _error_code(raw)) is not None:
                        out.refusals[code] += 1
                    elif '"type":"state"' in raw[:40] or '"type": "state"' in raw[:40]:
                        out.count("states")

    try:
        await asyncio.gather(sender(), *(reader(ws) for ws in sockets))
    finally:
        await _close_all(sockets)
    return out


async def _to_move(ws: ClientConnection, seat: int, timeout: float) -> dict[str, Any] | None:
    """Follow a table until ``seat`` is to move: its state (updates merged), or None."""
    state: dict[str, Any] = {}
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(timeout):
            async for raw in ws:
                message = json.loads(raw)
                if message["type"] == "state":
                    state = message
                elif message["type"] == "update":
                    state = {**state, **message, "type": "state"}
                else:
                    continue
                if state["view"].get("to_move") == seat and state["view"].get("legal"):
                    return state
    return None


async def attack_hints(target: Target, seconds: float) -> Outcome:
    """Hints asked for as fast as one socket may (40 a second) at three practice tables
    of a person and two computer players, each at the person's decision (once, 400 hints
    from one table in 11 s held back every other table's computer players)."""
    out = Outcome()
    seats = [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]
    sockets = []
    for _ in range(3):
        made = await made_table(
            target.port,
            target.source,
            seats,
            hints=True,  # (no takeover: the person stays to move, asking)
            creator={"seat": 0, "name": "H"},
        )
        ws = await ws_connect(target.port, made["id"], target.source)
        await ws.send(json.dumps({"type": "hello", "token": made["token"], "updates": True}))
        sockets.append(ws)
    ready = await asyncio.gather(*(_to_move(ws, 0, 10) for ws in sockets))
    out.figures["tables at a decision"] = sum(r is not None for r in ready)
    deadline = time.perf_counter() + seconds

    async def flood(ws: ClientConnection) -> None:
        async def reader() -> None:
            async for raw in ws:
                message = json.loads(raw)
                if message["type"] == "hint":
                    out.count("hints")
                elif message["type"] == "error":
                    out.refusals[str(message["code"])] += 1

        reading = asyncio.create_task(reader())
        try:
            while time.perf_counter() < deadline:
                await ws.send('{"type":"hint"}')
                out.count("asked")
                await asyncio.sleep(1 / 40)
            await asyncio.sleep(0.5)  # the last answers
        except ConnectionClosed:
            pass
        finally:
            reading.cancel()

    try:
        await asyncio.gather(*(flood(ws) for ws, r in zip(sockets, ready, strict=True) if r is not None))
    finally:
        await _close_all(sockets)
    return out


async def _play_fast(
    port: int, source: str, table: str, tokens: list[str], deadline: float, out: Outcome, rng: random.Random
) -> None:
    """Three seats play random legal moves with no pause until ``deadline`` (or the game's
    end); an action refused (``rate-limited``) is sent again a moment later."""

    async def seat(s: int) -> None:
        ws = await ws_connect(port, table, source)
        await ws.send(json.dumps({"type": "hello", "token": tokens[s], "updates": True}))
        state: dict[str, Any] = {}
        acted = -1
        sent = 0
        try:
            async with asyncio.timeout(max(0.01, deadline - time.perf_counter())):
                async for raw in ws:
                    message = json.loads(raw)
                    if message["type"] == "state":
                        state = message
                    elif message["type"] == "update":
                        state = {**state, **message, "type": "state"}
                    elif message["type"] == "error":
                        out.refusals[str(message["code"])] += 1
                        acted = -1  # act again on this version
                        await asyncio.sleep(0.02)
                    else:
                        continue
                    if not state:
                        continue
                    if state.get("winners"):
                        if s == 0:
                            out.count("games finished")
                        return
                    view, version = state["view"], state["version"]
                    if view.get("to_move") != s or not view.get("legal") or version == acted:
                        continue
                    acted = version
                    sent += 1
                    action = rng.choice(view["legal"])
                    await ws.send(
                        json.dumps({"type": "act", "action": action, "version": version, "id": f"{s}-{sent}"})
                    )
                    out.count("actions")
        except (TimeoutError, ConnectionClosed):
            pass
        finally:
            await ws.close()

    await asyncio.gather(*(seat(s) for s in range(3)))


async def attack_analysis(target: Target, seconds: float) -> Outcome:
    """Three tables of people played as fast as the server answers, no pause between
    deals: every deal played asks for its analysis (once, one such table held back every
    other table's analyses)."""
    out = Outcome()
    rng = random.Random(22)
    tables = [await seated_table(target.port, target.source) for _ in range(3)]
    deadline = time.perf_counter() + seconds
    await asyncio.gather(
        *(_play_fast(target.port, target.source, t, tokens, deadline, out, rng) for t, tokens in tables)
    )
    return out


async def _body_flood_one(port: int, source: str, path: str, chunked: bool, out: Outcome) -> None:
    """One request of a 200 MB body: declared (and sent until the server hangs up), or
    chunked without a length."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    except OSError as err:
        out.refusals[f"connect-{type(err).__name__}"] += 1
        return
    length = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {BIG_BODY}"
    head = f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n{length}\r\n\r\n"
    chunk = b"x" * 65536
    reading = asyncio.create_task(reader.read(65536))  # the answer: the server need not read on
    answer = b""
    try:
        writer.write(head.encode())
        sent = 0
        while sent < BIG_BODY and not reading.done():
            writer.write(b"%x\r\n%s\r\n" % (len(chunk), chunk) if chunked else chunk)
            await writer.drain()
            sent += len(chunk)
            out.count("MB sent", len(chunk) / 2**20)
    except OSError:
        pass  # the server hung up once it had answered
    finally:
        with contextlib.suppress(OSError, TimeoutError):
            answer = await asyncio.wait_for(reading, 10)
            while answer and not _whole(answer):  # the head came first, the body after
                more = await asyncio.wait_for(reader.read(65536), 2)
                if not more:
                    break
                answer += more
        writer.close()
    if not answer:
        out.refusals["no-answer"] += 1
    else:
        answered = parse_answer(answer)
        out.refusals[answered.code or f"http-{answered.status}"] += 1


async def attack_bodies(target: Target, seconds: float) -> Outcome:
    """200 MB bodies to ``POST /api/tables``, ``/seats`` and ``/rematch``, declared or
    chunked, four at a time (once +630 MiB and a 3.6 s stall each)."""
    out = Outcome()
    table = (await made_table(target.port, target.source, HUMANS))["id"]
    deadline = time.perf_counter() + seconds
    paths = ["/api/tables", f"/api/tables/{table}/seats/0", f"/api/tables/{table}/rematch"]

    async def one(k: int) -> None:
        n = 0
        while time.perf_counter() < deadline:
            await _body_flood_one(target.port, target.source, paths[(k + n) % 3], (k + n) % 2 == 1, out)
            out.count("requests")
            n += 1

    await asyncio.gather(*(one(k) for k in range(4)))
    return out


async def attack_spectators(target: Target, seconds: float) -> Outcome:
    """Spectators of the control table: 48 held, and 12 more joining and leaving in a
    loop (each join is a full state and news for the table)."""
    out = Outcome()
    held = [
        ws
        for ws in await asyncio.gather(*(_spectator(target, target.control_table, out) for _ in range(48)))
        if ws
    ]
    out.figures["held"] = len(held)
    deadline = time.perf_counter() + seconds

    async def churn() -> None:
        while time.perf_counter() < deadline:
            ws = await _spectator(target, target.control_table, out)
            if ws is not None:
                out.count("joined")
                await ws.close()
            else:
                await asyncio.sleep(0.05)

    try:
        await asyncio.gather(*(churn() for _ in range(12)), *(_drain(ws, out, deadline) for ws in held))
    finally:
        await _close_all(held)
    return out


async def _silent_spectator(port: int, source: str, table: str) -> socket.socket | None:
    """A spectator that says hello and then never reads a byte (a small receive buffer)."""
    loop = asyncio.get_running_loop()
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    try:
        sock.bind((source, 0))
        await loop.sock_connect(sock, ("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        await loop.sock_sendall(
            sock,
            (
                f"GET /ws/tables/{table} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode(),
        )
        answer = b""
        while b"\r\n\r\n" not in answer:  # (nothing follows the answer until the hello)
            part = await loop.sock_recv(sock, 4096)
            if not part:
                raise OSError("closed")
            answer += part
        if not answer.startswith(b"HTTP/1.1 101"):
            raise OSError("refused")
        await loop.sock_sendall(sock, masked_frame(json.dumps({"type": "hello", "token": None}).encode()))
        return sock
    except OSError:
        sock.close()
        return None


def masked_frame(payload: bytes, opcode: int = 0x1) -> bytes:
    """One client frame (FIN, masked as a client must), at most 125 bytes of payload."""
    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + body


async def attack_slow_readers(target: Target, seconds: float) -> Outcome:
    """60 spectators that never read, at a table its three seats play as fast as the
    server answers: their unread updates pile up at the server."""
    out = Outcome()
    table, tokens = await seated_table(target.port, target.source)
    silent = [
        s
        for s in await asyncio.gather(
            *(_silent_spectator(target.port, target.source, table) for _ in range(60))
        )
        if s
    ]
    out.figures["silent"] = len(silent)
    deadline = time.perf_counter() + seconds
    try:
        await _play_fast(target.port, target.source, table, tokens, deadline, out, random.Random(7))
        await asyncio.sleep(0.5)
        out.figures["dropped by the server"] = sum(_hung_up(sock) for sock in silent)
    finally:
        for sock in silent:
            sock.close()
    return out


def _hung_up(sock: socket.socket, most: int = 8 << 20) -> bool:
    """Whether the server has closed a socket we never read: what it sent is read (at
    most ``most`` bytes, without waiting) to see whether its end follows."""
    read = 0
    while read < most:
        try:
            data = sock.recv(1 << 16)
        except BlockingIOError:
            return False
        except OSError:
            return True
        if not data:
            return True
        read += len(data)
    return False


async def attack_forged_headers(target: Target, seconds: float) -> Outcome:
    """Every request and socket with a forged ``X-Forwarded-For``, ``X-Real-IP`` and
    ``Forwarded`` (once believed from a loopback peer): new tables as fast as they are
    answered, and 100 sockets, each claiming another address."""
    out = Outcome()

    def forged(k: int) -> dict[str, str]:
        address = f"203.0.113.{1 + k % 250}"
        return {
            "X-Forwarded-For": address,
            "X-Real-IP": f"198.51.100.{1 + k % 250}",
            "Forwarded": f"for={address}",
        }

    async def creator(k: int) -> None:
        n = 0
        while time.perf_counter() < deadline:
            body = {"name": "forged", "seats": HUMANS}
            answer = await http(
                target.port, "POST", "/api/tables", body, source=target.source, headers=forged(k * 1000 + n)
            )
            n += 1
            if answer.status == 201:
                out.count("made")
            else:
                out.refusals[answer.code or f"http-{answer.status}"] += 1

    held = [
        ws
        for ws in await asyncio.gather(
            *(_spectator(target, target.control_table, out, headers=forged(k)) for k in range(100))
        )
        if ws
    ]
    out.figures["sockets held"] = len(held)
    deadline = time.perf_counter() + seconds
    try:
        await asyncio.gather(*(creator(k) for k in range(4)), *(_drain(ws, out, deadline) for ws in held))
    finally:
        await _close_all(held)
    return out


async def finished_game(port: int, source: str) -> tuple[str, list[str]]:
    """A table of three people played to its end (a short game): its id and tokens."""
    table, tokens = await seated_table(port, source, target=10)
    out = Outcome()
    await _play_fast(port, source, table, tokens, time.perf_counter() + 120, out, random.Random(3))
    if not out.figures.get("games finished"):
        raise RuntimeError(f"the game did not end: {out}")
    return table, tokens


async def attack_rematch(
    target: Target, seconds: float, game: tuple[str, list[str]] | None = None
) -> Outcome:
    """A stranger asks for a finished game's rematch over and over (once it took all three
    seats under the players' names), with no token, forged ones and too long ones; then a
    player asks, and the stranger takes no seat of the new table."""
    out = Outcome()
    table, tokens = game or await finished_game(target.port, honest_address(200))
    deadline = time.perf_counter() + seconds
    bodies: list[dict[str, Any]] = [
        {},
        {"token": None},
        {"token": secrets.token_hex(16)},
        {"token": "x" * 64},
        {"token": "x" * 65},
    ]

    async def one(k: int) -> None:
        n = 0
        while time.perf_counter() < deadline:
            answer = await http(
                target.port,
                "POST",
                f"/api/tables/{table}/rematch",
                bodies[(k + n) % len(bodies)],
                source=target.source,
            )
            n += 1
            out.refusals[answer.code or f"http-{answer.status}"] += 1

    await asyncio.gather(*(one(k) for k in range(4)))
    mine = await http(
        target.port, "POST", f"/api/tables/{table}/rematch", {"token": tokens[0]}, source=honest_address(200)
    )
    out.figures["player's rematch"] = mine.status
    if mine.status == 200:
        new = mine.body["id"]
        out.figures["player got a seat"] = float(bool(mine.body.get("token")))
        for seat in (1, 2):
            taken = await http(
                target.port,
                "POST",
                f"/api/tables/{new}/seats/{seat}",
                {"name": "Stranger"},
                source=target.source,
            )
            out.refusals[taken.code or f"http-{taken.status}"] += 1
            if taken.status == 200:
                out.count("seats taken by the stranger")
    return out


async def attack_bad_input(target: Target, seconds: float) -> Outcome:
    """Invalid UTF-8 text frames and 5,000-digit integers (once, a traceback each in the
    log): frames on new sockets, integers in messages and in HTTP paths, queries, bodies."""
    out = Outcome()
    table = (await made_table(target.port, target.source, HUMANS))["id"]
    huge = "9" * 5000
    deadline = time.perf_counter() + seconds

    async def utf8() -> None:
        while time.perf_counter() < deadline:
            sock = await _silent_handshake(target.port, target.source, table)
            if sock is None:
                out.refusals["connect-refused"] += 1
                await asyncio.sleep(0.05)
                continue
            reader, writer = sock
            writer.write(masked_frame(b"\xff\xfe\xfd"))
            with contextlib.suppress(OSError, TimeoutError):
                frame = await asyncio.wait_for(reader.read(64), 5)
                if frame[:1] == b"\x88" and len(frame) >= 4:
                    out.refusals[f"close-{int.from_bytes(frame[2:4], 'big')}"] += 1
            writer.close()
            out.count("bad frames")

    async def integers() -> None:
        ws = await ws_connect(target.port, table, target.source)
        await ws.send(json.dumps({"type": "hello", "token": None}))
        await next_message(ws, {"state"})
        requests: list[tuple[str, str, object]] = [
            ("GET", f"/api/tables?limit={huge}", None),
            ("GET", f"/api/tables?offset={huge}", None),
            ("GET", f"/api/tables/{table}/deals/{huge}/analysis", None),
            ("GET", f"/api/games?limit={huge}", None),
            ("POST", f"/api/tables/{table}/seats/{huge}", {"name": "x"}),
        ]
        try:
            n = 0
            while time.perf_counter() < deadline:
                await ws.send(f'{{"type": "act", "action": "pass", "version": {huge}}}')
                if (code := _error_code(await ws.recv())) is not None:
                    out.refusals[code] += 1
                method, path, body = requests[n % len(requests)]
                answer = await http(target.port, method, path, body, source=target.source)
                seats = json.dumps(HUMANS)
                raw = f'{{"name": "n", "seats": {seats}, "takeover_seconds": {huge}}}'.encode()
                made = await http(target.port, "POST", "/api/tables", source=target.source, raw=raw)
                for a in (answer, made):
                    out.refusals[a.code or f"http-{a.status}"] += 1
                n += 1
                await asyncio.sleep(0.05)
        finally:
            await ws.close()

    await asyncio.gather(utf8(), utf8(), integers())
    return out


async def _silent_handshake(
    port: int, source: str, table: str
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(
            (
                f"GET /ws/tables/{table} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    except (OSError, TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
        return None
    if not head.startswith(b"HTTP/1.1 101"):
        writer.close()
        return None
    return reader, writer


#: Every attack, by name, in the order the benchmark runs them.
ATTACKS: dict[str, Attack] = {
    "idle": attack_idle,
    "tables": attack_tables,
    "sockets": attack_sockets,
    "sync": attack_sync,
    "hints": attack_hints,
    "analysis": attack_analysis,
    "bodies": attack_bodies,
    "spectators": attack_spectators,
    "slow-readers": attack_slow_readers,
    "forged-headers": attack_forged_headers,
    "rematch": attack_rematch,
    "bad-input": attack_bad_input,
}


# --- one attack, measured ------------------------------------------------------------------------


@dataclass
class Figures:
    """One attack against a running server, as the control client saw it."""

    name: str
    seconds: float
    control: Control
    outcome: Outcome
    rss_before_mib: float
    server_cpu: float  # the server process's CPU time over the attack's, 1.0: a whole core
    workers_cpu: float  # the same for its worker processes (computer players, analyses)
    tracebacks: int
    crashes: int  # errors the server did not mean: unretrieved task exceptions, 500 answers
    log_lines: int
    honest_wrong: list[str]

    @property
    def ping_p50(self) -> float:
        return statistics.median(self.control.ping_ms) if self.control.ping_ms else float("nan")

    @property
    def ping_p99(self) -> float:
        return percentile(self.control.ping_ms, 0.99)

    @property
    def http_p50(self) -> float:
        return statistics.median(self.control.http_ms) if self.control.http_ms else float("nan")

    @property
    def http_p99(self) -> float:
        return percentile(self.control.http_ms, 0.99)

    @property
    def memory_delta_mib(self) -> float:
        """The server's peak resident memory during the attack, over its memory before."""
        return max(self.control.rss_mib, default=self.rss_before_mib) - self.rss_before_mib

    @property
    def honest_served(self) -> bool:
        return not self.honest_wrong

    def misses(self) -> list[str]:
        """The goals this attack missed (empty: all met)."""
        missed = []
        if not self.ping_p99 <= PING_P99_MS:
            missed.append(f"ping p99 {self.ping_p99:.0f} ms > {PING_P99_MS:.0f}")
        if not self.http_p99 <= HTTP_P99_MS:
            missed.append(f"HTTP p99 {self.http_p99:.0f} ms > {HTTP_P99_MS:.0f}")
        if not self.memory_delta_mib <= MEMORY_MIB:
            missed.append(f"memory +{self.memory_delta_mib:.0f} MiB > {MEMORY_MIB:.0f}")
        if self.tracebacks:
            missed.append(f"{self.tracebacks} tracebacks")
        if self.crashes:
            missed.append(f"{self.crashes} crashes in the log")
        if self.control.failures:
            missed.append(f"control failures {Counter(self.control.failures)}")
        if self.honest_wrong:
            missed.append(f"honest client: {self.honest_wrong}")
        return missed


async def _run_attack(attack: Attack, target: Target, seconds: float) -> Outcome:
    return await attack(target, seconds)


def measure(
    server: Server, control_table: str, name: str, seconds: float, index: int = 0, attacker_nice: int = 0
) -> Figures:
    """Run the attack ``name`` for ``seconds`` against ``server`` while the control client
    measures, then ask an honest client to be served. ``attacker_nice``: the attacker (this
    process, while it attacks) runs at that niceness, so that its own work on the same
    cores, which a remote attacker would not take from the server, counts less."""
    attack = ATTACKS[name]
    log_before = server.log()
    rss_before = rss_mib(server.pid) or float("nan")
    control = ControlProcess(server.port, control_table, server.pid)
    workers = descendants(server.pid)
    try:
        time.sleep(0.3)  # the control client has joined
        cpu_before = cpu_seconds(server.pid), sum(cpu_seconds(w) for w in workers)
        started = time.perf_counter()
        niceness = os.getpriority(os.PRIO_PROCESS, 0)
        if attacker_nice:
            os.setpriority(os.PRIO_PROCESS, 0, niceness + attacker_nice)
        try:
            outcome = asyncio.run(
                _run_attack(attack, Target(server.port, control_table, attacker_address(index)), seconds)
            )
        finally:
            if attacker_nice:
                with contextlib.suppress(PermissionError):  # (lowering it back needs root)
                    os.setpriority(os.PRIO_PROCESS, 0, niceness)
        elapsed = time.perf_counter() - started
        cpu = cpu_seconds(server.pid) - cpu_before[0], sum(cpu_seconds(w) for w in workers) - cpu_before[1]
    finally:
        measured = control.stop()
    honest = asyncio.run(honest_client(server.port, honest_address(index)))
    log_after = server.log()
    added = log_after[len(log_before) :]
    return Figures(
        name=name,
        seconds=seconds,
        control=measured,
        outcome=outcome,
        rss_before_mib=rss_before,
        server_cpu=cpu[0] / elapsed,
        workers_cpu=cpu[1] / elapsed,
        tracebacks=added.count("Traceback"),
        crashes=crashes(added),
        log_lines=added.count("\n"),
        honest_wrong=honest,
    )


#: What the server logs for an error it did not mean: an exception nobody awaited, a
#: request that failed inside (answered 500 ``internal``, logged beside its id).
CRASH = re.compile(r"exception was never retrieved|^.*error [0-9a-f]{8}: .* failed: ", re.MULTILINE)


def crashes(log: str) -> int:
    """The crashes in a piece of the server's log.

    >>> crashes("bad input (malformed): from 127.0.0.1\\nerror 3f9a0c1e: GET /x failed: KeyError: 1\\n")
    1
    """
    return len(CRASH.findall(log))


def control_table(server: Server) -> str:
    """The table of computer players the control client watches (made from its address)."""
    made = asyncio.run(made_table(server.port, CONTROL_ADDRESS, BOTS))
    return str(made["id"])
