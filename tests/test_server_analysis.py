"""The analysis of finished deals on the server: computed in worker processes when a deal
ends before a client that shows it (else when asked for), kept in the database (it
survives a restart), 202 while it is computed, 404 for a deal that does not exist or is
not over (nothing of a running deal is analysed)."""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import Callable
from concurrent.futures import BrokenExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from tests.db_helpers import any_db
from tests.ws_helpers import manager_of

__all__ = ["any_db"]  # the fixture, used by name

import paston.server.work.deal_analysis as server_analysis
from paston.deal import Deal
from paston.eval.analysis import analyze_deal
from paston.server.store.db import TableRow, open_database, session_factory
from paston.server.web.app import create_app
from paston.server.work.deal_analysis import Analyses
from paston.solver import Solver

BOTS = [{"kind": "bot", "bot": "random"}] * 3


def play_to_the_end(client: TestClient, target: int = 40, *, shows_next: bool = False) -> str:
    """A table of computer players, watched until the game is over (several deals), by a
    client that shows each deal's end (as the browser does) with ``shows_next``."""
    res = client.post("/api/tables", json={"name": "Done", "rules": {"target": target}, "seats": BOTS})
    assert res.status_code == 201, res.text
    table = str(res.json()["id"])
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": None, "next": shows_next})
        for _ in range(20000):
            message = ws.receive_json()
            if message.get("type") == "state" and message["winners"]:
                return table
    raise AssertionError("the game did not end")


@pytest.fixture()
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'paston.db'}"


def wait_ready(
    client: TestClient, table: str, deal: int, limit: float = 60.0
) -> tuple[dict[str, Any], list[int]]:
    """Poll until the analysis is there; returns it and every status code seen."""
    codes: list[int] = []
    end = time.monotonic() + limit
    while time.monotonic() < end:
        res = client.get(f"/api/tables/{table}/deals/{deal}/analysis")
        codes.append(res.status_code)
        if res.status_code == 200:
            return dict(res.json()), codes
        assert res.status_code == 202, res.text
        assert res.json() == {"status": "pending"}
        time.sleep(0.05)
    raise AssertionError(f"no analysis of deal {deal} within {limit} s: {codes[-5:]}")


def stored_deals(db_url: str, table: str) -> list[int]:
    engine = create_engine(db_url)
    with engine.connect() as c:
        rows = c.execute(text("SELECT deal FROM analyses WHERE table_id = :t"), {"t": table}).all()
    engine.dispose()
    return sorted(d for (d,) in rows)


def test_finished_deals_are_analysed_in_a_worker_and_stored(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0.0, analysis_workers=1)) as client:
        table = play_to_the_end(client, shows_next=True)
        match = manager_of(client).get(table).match
        deals = list(range(len(match.deals)))
        # watched by a client showing each deal's end: analysed unasked as the deals end;
        # played faster than the worker analyses, only the table's newest
        # MAX_ENDED_PER_TABLE wait, so at least those are stored without anyone asking
        newest = deals[-server_analysis.MAX_ENDED_PER_TABLE :]
        end = time.monotonic() + 60
        while not set(newest) <= set(stored_deals(db_url, table)) and time.monotonic() < end:
            time.sleep(0.05)
        assert set(newest) <= set(stored_deals(db_url, table))
        solver = Solver()
        for i, deal in enumerate(match.deals):
            got, _ = wait_ready(client, table, i)  # the rest are computed when asked
            # the same as computing it here: the worker saw the same deal
            assert got == analyze_deal(deal, i, solver=solver)
        assert stored_deals(db_url, table) == deals
    engine = create_engine(db_url)
    with engine.connect() as c:
        rows = c.execute(text("SELECT deal, level FROM analyses WHERE table_id = :t"), {"t": table}).all()
    engine.dispose()
    assert sorted(d for d, _ in rows) == deals
    assert {level for _, level in rows} == {3}


def test_pending_then_ready_and_the_row_survives_a_restart(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with TestClient(create_app(db_url, bot_delay=0.0, analysis_workers=1)) as client:
        kept_table, table = play_to_the_end(client), play_to_the_end(client)
        deals = len(manager_of(client).get(table).match.deals)
        kept, _ = wait_ready(client, kept_table, 0)
        for i in range(deals):
            wait_ready(client, table, i)
    # forget one deal's analysis: the next server computes it again when asked
    engine = create_engine(db_url)
    with engine.begin() as c:
        forget = text("DELETE FROM analyses WHERE table_id = :t AND deal = :d")
        c.execute(forget, {"t": table, "d": deals - 1})
    engine.dispose()
    calls: list[int] = []
    real: Callable[[server_analysis.DealJob], dict[str, Any]] = server_analysis.run_analysis

    def counted(job: server_analysis.DealJob) -> dict[str, Any]:
        calls.append(job.index)
        return real(job)

    monkeypatch.setattr(server_analysis, "run_analysis", counted)
    with TestClient(create_app(db_url, bot_delay=0.0, analysis_workers=0)) as client:
        # stored: answered from the row, nothing computed
        again = client.get(f"/api/tables/{kept_table}/deals/0/analysis")
        assert again.status_code == 200 and again.json() == kept
        # not stored: pending first, then ready, computed once
        got, codes = wait_ready(client, table, deals - 1)
        assert codes[0] == 202 and codes[-1] == 200
        assert got["deal"] == deals - 1
        assert calls == [deals - 1]
        wait_ready(client, table, deals - 1)
        assert calls == [deals - 1]


def test_deals_nobody_shows_are_analysed_only_when_asked_for(db_url: str) -> None:
    """A client that does not show the deals' ends (an API client, a benchmark): nothing
    is computed until someone asks, then the deal asked for is."""
    with TestClient(create_app(db_url, bot_delay=0.0, analysis_workers=0)) as client:
        table = play_to_the_end(client)
        analyses = manager_of(client).analyses
        time.sleep(0.2)
        assert not analyses.busy and stored_deals(db_url, table) == []
        # the game may end in its first deal: ask for the last one, whichever it is
        last = len(manager_of(client).get(table).match.deals) - 1
        wait_ready(client, table, last)
        assert stored_deals(db_url, table) == [last]


def finished_deal(seed: int) -> Deal:
    deal = Deal.random(random.Random(seed), dealer=0)
    while not deal.is_over:
        deal.apply(deal.legal_actions()[0])
    return deal


def test_waiting_analyses_are_bounded_and_asked_ones_go_first(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A flood of ended deals keeps at most MAX_ENDED_WAITING waiting (the oldest pushed
    out); a deal asked for is computed before every unasked one; asked-for deals beyond
    MAX_ASKED_WAITING are answered pending without a place."""
    monkeypatch.setattr(server_analysis, "MAX_ENDED_WAITING", 5)
    monkeypatch.setattr(server_analysis, "MAX_ASKED_WAITING", 3)
    deal = finished_deal(4)
    sessions = session_factory(open_database(db_url))

    async def run() -> None:
        analyses = Analyses(sessions, workers=0, level=1)
        for i in range(20):  # tables t0..t19, their deal 0 ended; the first takes the worker
            analyses.deal_ended(f"t{i}", deal, 0)
        assert analyses.waiting() == 5  # t15..t19 wait; t1..t14 were pushed out
        assert list(analyses._ended) == [(f"t{i}", 0) for i in range(15, 20)]
        for i in range(20, 26):  # asked for: three find a place, the others are pending
            assert await analyses.get(f"t{i}", [deal], 0) is None
        assert list(analyses._asked) == [(f"t{i}", 0) for i in range(20, 23)]
        while analyses.busy:
            await asyncio.sleep(0.02)
        analyses.close()

    order_of: list[str] = []
    real_compute = Analyses._compute

    async def noted(self: Analyses, key: tuple[str, int], job: server_analysis.DealJob) -> None:
        order_of.append(key[0])
        await real_compute(self, key, job)

    monkeypatch.setattr(Analyses, "_compute", noted)
    asyncio.run(run())
    # t0 was under way; then the asked ones, then the unasked ones left
    assert order_of == ["t0", "t20", "t21", "t22", "t15", "t16", "t17", "t18", "t19"]


def test_a_table_played_fast_does_not_hold_back_the_others_analyses(db_url: str) -> None:
    """15 s of fast play at one table once left another table's analysis unfinished after
    150 s: now a table has at most MAX_ENDED_PER_TABLE unasked deals waiting (the newest),
    so another table's deal waits behind two of them, not behind all."""
    deal = finished_deal(4)
    sessions = session_factory(open_database(db_url))

    async def run() -> None:
        analyses = Analyses(sessions, workers=0, level=1)
        for i in range(30):  # a fast table: 30 deals ended while the worker is busy
            analyses.deal_ended("fast", deal, i)
        analyses.deal_ended("other", deal, 0)
        waiting = list(analyses._ended)
        assert waiting == [("fast", 28), ("fast", 29), ("other", 0)]
        assert sum(k[0] == "fast" for k in waiting) == server_analysis.MAX_ENDED_PER_TABLE
        while analyses.busy:
            await asyncio.sleep(0.02)
        analyses.close()

    asyncio.run(run())


def test_analysis_workers_use_only_idle_cores(db_url: str) -> None:
    """The workers run in the idle scheduling class (Linux): a move never waits for one."""
    if not hasattr(os, "sched_getscheduler"):
        pytest.skip("no scheduling classes here")
    analyses = Analyses(session_factory(open_database(db_url)), workers=1)
    try:
        analyses.start()
        pool = analyses._pool()
        assert pool.submit(os.sched_getscheduler, 0).result(timeout=60) == os.SCHED_IDLE
    finally:
        analyses.close()


def test_no_deal_and_a_running_deal_are_404(db_url: str) -> None:
    people = [{"kind": "human"}] * 3
    with TestClient(create_app(db_url, bot_delay=0.0, analysis_workers=0)) as client:
        res = client.post("/api/tables", json={"name": "Open", "rules": {}, "seats": people})
        table = res.json()["id"]
        running = client.get(f"/api/tables/{table}/deals/0/analysis")
        assert running.status_code == 404
        assert running.json()["error"]["code"] == "deal-not-finished"
        beyond = client.get(f"/api/tables/{table}/deals/5/analysis")
        assert beyond.status_code == 404 and beyond.json()["error"]["code"] == "no-deal"
        negative = client.get(f"/api/tables/{table}/deals/-1/analysis")
        assert negative.status_code == 404 and negative.json()["error"]["code"] == "no-deal"
        missing = client.get("/api/tables/nope/deals/0/analysis")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "no-table"
        bad = client.get(f"/api/tables/{table}/deals/x/analysis")
        assert bad.status_code == 422


def test_a_dead_worker_is_replaced(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0.0, analysis_workers=1)) as client:
        table = play_to_the_end(client)
        wait_ready(client, table, 0)
    engine = create_engine(db_url)
    with engine.begin() as c:
        c.execute(text("DELETE FROM analyses"))
    engine.dispose()
    with TestClient(create_app(db_url, bot_delay=0.0, analysis_workers=1)) as client:
        analyses = manager_of(client).analyses
        dying = analyses._pool().submit(os._exit, 3)  # the worker process dies
        with pytest.raises(BrokenExecutor):
            dying.result(timeout=30)
        got, codes = wait_ready(client, table, 0)
        assert got["deal"] == 0 and codes[0] == 202


def test_a_stored_analysis_is_read_back_on_both_databases(any_db: str) -> None:
    """The row of migration 0004_analysis on SQLite and PostgreSQL: stored once (a second
    store of the same deal is no error), read back by a new server without computing."""
    engine = open_database(any_db)
    sessions = session_factory(engine)
    with sessions() as s:
        s.add(TableRow(id="t-analysis", name="x", rules={}, settings={}, first_dealer=0))
        s.commit()
    deal = Deal.random(random.Random(4), dealer=0)
    while not deal.is_over:
        deal.apply(deal.legal_actions()[0])

    async def run() -> None:
        first = Analyses(sessions, workers=0, level=1)
        assert await first.get("t-analysis", [deal], 0) is None  # pending
        while (got := await first.get("t-analysis", [deal], 0)) is None:
            await asyncio.sleep(0.02)
        first._store(("t-analysis", 0), got)  # again: the unique row stays one
        first.close()
        restarted = Analyses(sessions, workers=0, level=1)
        assert await restarted.get("t-analysis", [deal], 0) == got
        assert restarted._executor is None  # nothing computed
        restarted.close()

    asyncio.run(run())
    with engine.connect() as c:
        assert c.execute(text("SELECT count(*) FROM analyses")).scalar() == 1
    engine.dispose()
