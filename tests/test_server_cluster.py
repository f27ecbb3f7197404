"""A cluster of ``paston serve`` workers over one PostgreSQL and a real Redis: one owner
per table, moves and messages through any worker, fencing at commit, a worker killed
mid-deal, and Redis stopped and started again."""

from __future__ import annotations

import asyncio
import json
import time
from datetime import UTC, datetime
from typing import Any

from tests.cluster_helpers import (
    RedisServer,
    Seat,
    Worker,
    action_rows,
    database,
    owners,
    play,
    redis_server,
    seated,
    wait_for,
    workers,
)

from paston.record import read_record, to_record

__all__ = ["database", "redis_server", "workers"]  # the fixtures (tests/cluster_helpers.py)


def check_game(database: str, worker: Worker, table: str, seats: list[Seat]) -> None:
    """Every acknowledged move is in the log once, in its place, and nothing else is;
    no two owners committed moves (tokens never go back); the record is the one a single
    process makes of the same decks and actions."""
    rows = action_rows(database, table)
    acked = sorted((version, s.seat, cid, action) for s in seats for version, cid, action in s.acked)
    assert [(r["seq"] + 1, r["seat"], r["command_id"], r["action"]) for r in rows] == acked
    fences = [r["fence"] for r in rows]
    assert all(f is not None for f in fences) and fences == sorted(fences)
    status, record = worker.request("GET", f"/api/tables/{table}/record")
    assert status == 200, record
    match, fairness = read_record(record)  # the same decks and actions, in one process
    assert to_record(match, fairness) == record
    assert match.is_over


def test_one_owner_per_table_moves_through_any_worker_and_fenced_commits(
    workers: list[Worker], redis_server: RedisServer, database: str
) -> None:
    table, tokens = seated(workers, 0)
    assert owners(redis_server, [table]) == [workers[0].request("GET", "/api/cluster")[1]["worker"]]
    seats = [Seat(table, i, tokens[i], [w.ws_base for w in workers], at=i) for i in range(3)]
    play(seats, 120)
    assert all(s.finished for s in seats), [
        (s.errors, s.last_version, s.reconnects, s.acked[-2:]) for s in seats
    ]
    check_game(database, workers[2], table, seats)
    states = [w.request("GET", "/api/cluster")[1] for w in workers]
    assert [table in s["owned"] for s in states] == [True, False, False]
    assert states[0]["published"] > 0  # the messages of the seats at w1 and w2, one per change


def test_a_worker_killed_mid_deal_loses_no_move_and_its_tables_move_within_5_seconds(
    workers: list[Worker], redis_server: RedisServer, database: str
) -> None:
    # table k is made, so owned, at worker k; the doomed table's game is long enough to go on
    # after the kill (to 10 points, a game can end with the deal the kill interrupts)
    tables = [seated(workers, k, target=40 if k == 1 else 10) for k in range(3)]
    names = [w.request("GET", "/api/cluster")[1]["worker"] for w in workers]
    assert owners(redis_server, [t for t, _ in tables]) == names
    urls = [w.ws_base for w in workers]
    seats = [
        [Seat(t, i, tokens[i], urls, at=k + i) for i in range(3)] for k, (t, tokens) in enumerate(tables)
    ]
    doomed, victim = tables[1][0], workers[1]
    moved: dict[str, float] = {}

    async def kill_mid_deal() -> None:
        await asyncio.wait_for(kill_and_watch(), 150)  # a clear failure, never a hang

    async def kill_and_watch() -> None:
        while max(s.last_version for s in seats[1]) < 5:  # a few moves into the first deal
            await asyncio.sleep(0.02)
        at = max(s.last_version for s in seats[1])
        await asyncio.to_thread(victim.kill)
        killed = time.monotonic()
        while not moved.get("owner"):
            owner = owners(redis_server, [doomed])[0]
            if owner and owner != names[1]:
                moved["owner"] = time.monotonic() - killed
            await asyncio.sleep(0.05)
        while max(s.last_version for s in seats[1]) <= at + 1:
            await asyncio.sleep(0.05)
        moved["move"] = time.monotonic() - killed

    play([s for group in seats for s in group], 180, kill_mid_deal)
    for group in seats:
        assert all(s.finished for s in group), [(s.errors, s.last_version, s.trace[-6:]) for s in group]
    for (table, _), group in zip(tables, seats, strict=True):
        check_game(database, workers[0], table, group)
    print(f"failover after kill -9: {moved}")
    assert moved["owner"] < 5.0, moved
    assert owners(redis_server, [doomed])[0] in (names[0], names[2])
    fences = {r["fence"] for r in action_rows(database, doomed)}
    assert len(fences) >= 2  # moves committed by the dead owner, then by the one that took over
    assert sum(s.reconnects for s in seats[1]) >= 1


def test_redis_stopped_and_started_again_leaves_no_table_with_two_owners(
    workers: list[Worker], redis_server: RedisServer, database: str
) -> None:
    tables = [seated(workers, k, target=20) for k in range(2)]
    urls = [w.ws_base for w in workers]
    seats = [
        [Seat(t, i, tokens[i], urls, at=k + i + 1) for i in range(3)] for k, (t, tokens) in enumerate(tables)
    ]
    samples: list[list[dict[str, int]]] = []
    restarted: list[datetime] = []

    def sample() -> None:
        samples.append([w.request("GET", "/api/cluster")[1]["owned"] for w in workers])

    async def partition() -> None:
        while min(s.last_version for group in seats for s in group) < 3:
            await asyncio.sleep(0.02)
        redis_server.stop()
        for _ in range(50):  # 5 s without Redis: every lease runs out
            await asyncio.to_thread(sample)
            await asyncio.sleep(0.1)
        redis_server.start()  # empty: every key is gone
        restarted.append(datetime.now(UTC))
        for _ in range(50):
            await asyncio.to_thread(sample)
            await asyncio.sleep(0.1)

    play([s for group in seats for s in group], 180, partition)
    for group in seats:
        assert all(s.finished for s in group), [(s.errors, s.last_version, s.trace[-6:]) for s in group]
    for (table, _), group in zip(tables, seats, strict=True):
        check_game(database, workers[2], table, group)
        holders = [sum(table in owned for owned in sample) for sample in samples]
        assert max(holders) <= 1, holders
        assert 0 in holders  # given up while Redis was away
        rows = action_rows(database, table)
        later = [r["fence"] for r in rows if r["created"] > restarted[0]]
        assert all(f > rows[0]["fence"] for f in later)  # after Redis came back: a new owner's token


def test_every_worker_lists_every_open_table(workers: list[Worker]) -> None:
    made = {seated(workers, k)[0] for k in range(3)}

    def listed() -> bool:
        # a worker's lobby reads the owners' summaries once a second: a summary written
        # between two of the seats being taken is listed until the next refresh
        pages = [w.request("GET", "/api/tables")[1] for w in workers]
        return all(
            {t["id"] for t in page["tables"]} == made
            and page["total"] == 3
            and all(s["taken"] for t in page["tables"] for s in t["seats"])
            for page in pages
        )

    assert wait_for(listed, 10), [w.request("GET", "/api/tables")[1] for w in workers]


def test_a_table_that_does_not_exist_is_one_clear_error_at_any_worker(workers: list[Worker]) -> None:
    status, body = workers[1].request("GET", "/api/tables/no-such-table")
    assert status == 404 and body["error"]["code"] == "no-table"

    async def socket() -> dict[str, Any]:
        from websockets.asyncio.client import connect

        async with connect(f"{workers[2].ws_base}/ws/tables/no-such-table") as ws:
            return dict(json.loads(await asyncio.wait_for(ws.recv(), 10)))

    message = asyncio.run(socket())
    assert message["type"] == "error" and message["code"] == "no-table"
