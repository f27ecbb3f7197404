"""What the operator reads, in process (issue 22): the readiness probe's bounds (a hung
or unreachable database, one check at a time, the answer cached), the metrics of an app
(its own registry, refusals and 500s counted, queue waits timed), who may scrape, and
JSON log lines. The same over a real ``paston serve``: tests/test_server_ops.py."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import random
import socket
import time
from pathlib import Path

from fastapi.testclient import TestClient

from paston.deal import Phase
from paston.match import Match
from paston.server.store.db import make_engine
from paston.server.web.app import create_app
from paston.server.web.jsonlog import use_json
from paston.server.web.limits import Limits, parse_networks
from paston.server.web.metrics import LOOPBACK, ServerMetrics, may_scrape
from paston.server.web.ops import DatabaseCheck, Readiness
from paston.server.work.botjobs import Job, decision_seed
from paston.server.work.botpool import ProcessBotPool


def sample(text: str, name: str) -> float:
    """The value of one sample (its name with labels, exactly) in an exposition."""
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[-1])
    raise AssertionError(f"no sample {name!r} in:\n{text}")


# --- readiness -------------------------------------------------------------------------------
def test_a_hung_check_fails_within_the_timeout_and_is_not_started_twice() -> None:
    started = []

    async def hung() -> None:
        started.append(time.monotonic())
        await asyncio.sleep(60)

    async def run() -> tuple[list[dict[str, str]], float]:
        ready = Readiness({"database": hung}, timeout=0.3, cache=0.0)
        t0 = time.monotonic()
        answers = await asyncio.gather(ready.check(), ready.check(), ready.check())
        return list(answers), time.monotonic() - t0

    answers, took = asyncio.run(run())
    assert took < 1.5
    assert all(a == {"database": "failed: no answer within 0.3 s"} for a in answers)
    assert len(started) == 1  # three probes at once: one check


def test_the_answer_is_kept_for_the_cache_time() -> None:
    calls = []
    now = [0.0]

    async def counted() -> None:
        calls.append(now[0])

    async def run() -> None:
        ready = Readiness({"database": counted}, cache=1.0, clock=lambda: now[0])
        for t in (0.0, 0.5, 0.99, 1.0, 1.5, 2.2):
            now[0] = t
            assert await ready.check() == {"database": "ok"}

    asyncio.run(run())
    assert calls == [0.0, 1.0, 2.2]


def test_an_unreachable_database_fails_the_check_and_a_hung_one_is_not_asked_again(tmp_path: Path) -> None:
    dead = make_engine("postgresql://nobody@127.0.0.1:9/none?connect_timeout=1")  # port 9: nothing listens
    check = DatabaseCheck(dead)
    ready = Readiness({"database": check}, timeout=5.0, cache=0.0)
    try:
        answer = asyncio.run(ready.check())
    finally:
        check.close()
    assert answer["database"].startswith("failed: "), answer
    assert "OperationalError" in answer["database"]

    sqlite = make_engine(f"sqlite:///{tmp_path / 'empty.db'}")  # no schema: no version row to read
    check = DatabaseCheck(sqlite)
    try:
        assert asyncio.run(Readiness({"database": check}).check())["database"].startswith("failed: ")
    finally:
        check.close()


def test_healthz_and_readyz_of_an_app(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'p.db'}", bot_workers=0, analysis_workers=0)
    with TestClient(app) as client:
        health = client.get("/healthz")
        assert (health.status_code, health.json()) == (200, {"ok": True})
        ready = client.get("/readyz")
        assert (ready.status_code, ready.json()) == (200, {"ok": True, "checks": {"database": "ok"}})
        assert ready.headers["cache-control"] == "no-store"


# --- metrics ---------------------------------------------------------------------------------
def test_two_apps_in_one_process_keep_their_own_registries(tmp_path: Path) -> None:
    one = create_app(f"sqlite:///{tmp_path / 'a.db'}", bot_workers=0, analysis_workers=0)
    two = create_app(
        f"sqlite:///{tmp_path / 'b.db'}",
        bot_workers=0,
        analysis_workers=0,
        limits=Limits(create_burst=1, create_every=100.0),
    )
    seats = [{"kind": "human"}] * 3
    with TestClient(one) as a, TestClient(two) as b:
        assert a.post("/api/tables", json={"name": "a", "seats": seats}).status_code == 201
        assert b.post("/api/tables", json={"name": "b", "seats": seats}).status_code == 201
        refused = b.post("/api/tables", json={"name": "b", "seats": seats})
        assert refused.status_code == 429
        big = b.post("/api/tables", content=b"x" * 20_000, headers={"content-type": "application/json"})
        assert big.status_code == 413
    text_a = one.state.metrics.render().decode()
    text_b = two.state.metrics.render().decode()
    assert sample(text_a, 'paston_tables{state="open"}') == 1.0
    assert sample(text_b, 'paston_tables{state="open"}') == 1.0
    assert "paston_refused_total{" not in text_a
    assert sample(text_b, 'paston_refused_total{reason="rate-limited",via="http"}') == 1.0
    assert sample(text_b, 'paston_refused_total{reason="too-large",via="http"}') == 1.0


def test_a_crash_is_counted_and_logged_as_json_with_its_error_id(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'p.db'}", bot_workers=0, analysis_workers=0)

    @app.get("/api/crash")
    async def crash() -> None:
        raise RuntimeError("the disk is on fire")

    stream = io.StringIO()
    root = logging.getLogger()
    before = list(root.handlers)
    use_json(loggers=(), stream=stream)
    try:
        with TestClient(app, raise_server_exceptions=False) as client:
            answer = client.get("/api/crash")
    finally:
        for handler in set(root.handlers) - set(before):
            root.removeHandler(handler)
    assert answer.status_code == 500
    incident = answer.json()["error"]["id"]
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    crashed = [line for line in lines if line.get("error_id") == incident]
    assert len(crashed) == 1, lines
    assert crashed[0]["level"] == "ERROR" and crashed[0]["logger"] == "paston.server"
    assert "RuntimeError: the disk is on fire" in crashed[0]["message"]
    assert sample(app.state.metrics.render().decode(), "paston_http_internal_errors_total") == 1.0


def test_only_loopback_or_the_named_peers_may_scrape_and_never_through_a_proxy() -> None:
    office = parse_networks(["10.0.0.0/8"])
    assert may_scrape("127.0.0.1", {}, LOOPBACK) and may_scrape("::1", {}, LOOPBACK)
    assert may_scrape("::ffff:127.0.0.1", {}, LOOPBACK)
    assert not may_scrape("10.1.2.3", {}, LOOPBACK) and may_scrape("10.1.2.3", {}, office)
    assert not may_scrape("127.0.0.1", {"forwarded": "for=203.0.113.9"}, LOOPBACK)
    assert not may_scrape("testclient", {}, LOOPBACK) and not may_scrape(None, {}, LOOPBACK)


def test_the_metrics_route_answers_404_to_a_stranger(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'p.db'}", bot_workers=0, analysis_workers=0)
    with TestClient(app) as client:  # its peer is "testclient": not loopback
        answer = client.get("/metrics")
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "not-found"


def _opening_view():
    match = Match(first_dealer=0, seats=("a", "b", "c"), rng=random.Random(11))
    assert match.to_move is not None
    return match.view(match.to_move)


def _play_view():  # a decision in the card play (αμ searches there until its budget is spent)
    match = Match(first_dealer=0, seats=("a", "b", "c"), rng=random.Random(11))
    rng = random.Random(2)
    while match.view(match.to_move).phase is not Phase.PLAY:  # type: ignore[arg-type]
        match.apply(rng.choice(match.legal_actions()), match.to_move)
    return match.view(match.to_move)  # type: ignore[arg-type]


def test_a_decisions_wait_for_a_worker_is_timed() -> None:
    metrics = ServerMetrics()
    waits: list[float] = []
    marks: list[float] = []  # when the second decision was asked for, when the slow one ended
    pool = ProcessBotPool(1, hard_timeout=30.0)
    pool.on_wait = lambda seconds: (waits.append(seconds), metrics.queue_wait_seconds.observe(seconds))

    async def run() -> None:
        first = Job("amu:3", decision_seed(1, 0), 0.6, _play_view())
        second = Job("random", decision_seed(2, 0), None, _opening_view())
        await pool.decide(Job("random", decision_seed(3, 0), None, _opening_view()), "warm-up")
        waits.clear()
        slow = asyncio.ensure_future(pool.decide(first, "slow"))
        slow.add_done_callback(lambda _: marks.append(time.monotonic()))
        await asyncio.sleep(0.05)
        marks.append(time.monotonic())  # the second decision is asked for now
        await asyncio.gather(slow, pool.decide(second, "behind it"))

    try:
        asyncio.run(run())
    finally:
        pool.close()
    assert len(waits) == 2
    assert waits[0] < 0.05  # the worker was free
    asked, slow_done = marks
    assert slow_done - asked > 0.05, marks  # the slow search was still running when it was asked
    assert waits[1] >= max(0.04, slow_done - asked - 0.1)  # it waited for the slow one to end
    text = metrics.render().decode()
    assert sample(text, "paston_bot_queue_wait_seconds_count") == 3.0  # with the warm-up


def test_an_accept_out_of_file_handles_is_one_line_a_few_times_a_minute() -> None:
    """What asyncio logs when ``accept`` fails with EMFILE (a traceback and the socket on
    a line of its own, once a second) goes through the quiet filter of ``paston serve``."""
    import errno

    from paston.server.web.quietlog import PER_MINUTE, OneLineErrors

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(OneLineErrors(clock=lambda: 0.0))
    logger = logging.getLogger("asyncio")
    logger.addHandler(handler)
    loop = asyncio.new_event_loop()
    try:
        with socket.socket() as listening:
            for _ in range(100):
                loop.call_exception_handler(
                    {
                        "message": "socket.accept() out of system resource",
                        "exception": OSError(errno.EMFILE, "Too many open files"),
                        "socket": listening,
                    }
                )
    finally:
        loop.close()
        logger.removeHandler(handler)
    lines = stream.getvalue().splitlines()
    assert len(lines) == PER_MINUTE
    assert "Traceback" not in stream.getvalue()
    assert lines[0].startswith("socket.accept() out of system resource | socket: <socket.socket")
    assert lines[0].endswith("(OSError: [Errno 24] Too many open files)")


def test_hints_the_pool_refused_are_refusals_with_their_code(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'p.db'}", bot_workers=1, analysis_workers=0)
    pool = app.state.manager.bot_runner.pool
    assert isinstance(pool, ProcessBotPool)
    key = 'paston_refused_total{reason="hint-busy",via="websocket"}'
    assert sample(app.state.metrics.render().decode(), key) == 0.0
    pool.hints_refused = 3  # counted by the pool as it refuses them (tests/test_server_botpool_queue.py)
    assert sample(app.state.metrics.render().decode(), key) == 3.0
    pool.close()
