"""Three real workers over one PostgreSQL and Redis: a seat taken through a worker that
does not own the table is taken by the owner, once; a worker whose table was claimed
meanwhile refuses it (fenced) and the seat is taken at the new owner; a rematch whose
new table moved to another worker seats its asker there; a move resent with its
command id after its owner died is answered, not applied twice."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from sqlalchemy import create_engine, text
from tests.cluster_helpers import (  # noqa: F401 (fixtures)
    RedisServer,
    Seat,
    Worker,
    action_rows,
    database,
    play,
    redis_server,
    seated,
    wait_for,
    workers,
)
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from paston.server.store.db import normalize_url
from paston.server.tables.seating import hash_token


def seat_rows(database: str, table: str) -> list[tuple[int, str | None, str | None]]:  # noqa: F811
    engine = create_engine(normalize_url(database))
    with engine.connect() as c:
        rows = c.execute(
            text("SELECT seat, name, token_hash FROM seats WHERE table_id = :t ORDER BY seat"), {"t": table}
        )
        out = [(int(s), n, h) for s, n, h in rows]
    engine.dispose()
    return out


def sql(database: str, statement: str, **params: Any) -> Any:  # noqa: F811
    engine = create_engine(normalize_url(database))
    with engine.begin() as c:
        value = c.execute(text(statement), params).scalar()
    engine.dispose()
    return value


def owned(workers: list[Worker], table: str) -> list[bool]:  # noqa: F811
    return [table in w.request("GET", "/api/cluster")[1]["owned"] for w in workers]


def test_a_seat_taken_through_a_worker_that_does_not_own_the_table_lands_once(
    workers: list[Worker],  # noqa: F811
    database: str,  # noqa: F811
) -> None:
    people = [{"kind": "human"}] * 3
    status, body = workers[0].request("POST", "/api/tables", {"name": "Seats", "seats": people})
    assert status == 201, body
    table = str(body["id"])
    status, got = workers[1].request("POST", f"/api/tables/{table}/seats/1", {"name": "Via one"})
    assert status == 200, got
    status, again = workers[2].request("POST", f"/api/tables/{table}/seats/1", {"name": "Via two"})
    assert status == 409 and again["error"]["code"] == "seat-taken", again
    assert seat_rows(database, table) == [
        (0, None, None),
        (1, "Via one", hash_token(got["token"])),
        (2, None, None),
    ]
    assert owned(workers, table) == [True, False, False]  # taken by the owner; no copy elsewhere
    for w in workers:
        seats = w.request("GET", f"/api/tables/{table}")[1]["seats"]
        assert [(s["taken"], s["name"]) for s in seats][1] == (True, "Via one")

    # the owner is cut off (another worker claimed the table: its token moved on in the
    # database): a seat forwarded to it is refused, then taken at the table's next owner
    fence = int(sql(database, "UPDATE tables SET fence = fence + 1 WHERE id = :t RETURNING fence", t=table))
    status, refused = workers[1].request("POST", f"/api/tables/{table}/seats/2", {"name": "Late"})
    assert status == 503 and refused["error"]["code"] == "not-owner", refused
    assert seat_rows(database, table)[2] == (2, None, None)

    def retried() -> dict[str, Any] | None:
        status, body = workers[1].request("POST", f"/api/tables/{table}/seats/2", {"name": "Late"})
        return body if status == 200 else None

    taken = wait_for(retried, 15, step=0.25)  # the lease runs out, a worker claims the table
    assert taken is not None
    assert seat_rows(database, table)[2] == (2, "Late", hash_token(taken["token"]))
    assert sum(owned(workers, table)) == 1
    assert int(sql(database, "SELECT fence FROM tables WHERE id = :t", t=table)) > fence


async def _turn(base: str, table: str, tokens: list[str]) -> tuple[int, dict[str, Any]]:
    """The seat to move and its state (once the first deal is dealt)."""
    for _ in range(100):
        async with connect(f"{base}/ws/tables/{table}") as ws:
            await ws.send(json.dumps({"type": "hello", "token": tokens[0]}))
            state = json.loads(await asyncio.wait_for(ws.recv(), 10))
        seat = state["view"]["to_move"]
        if seat is not None and not state.get("shuffling"):
            return int(seat), state
        await asyncio.sleep(0.1)
    raise AssertionError("the first deal was not dealt")


async def _answer(ws: Any, command_id: str) -> dict[str, Any]:
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if message.get("type") in ("ack", "error") and message.get("id") == command_id:
            return dict(message)


def test_a_move_resent_after_its_owner_died_is_applied_once(
    workers: list[Worker],  # noqa: F811
    redis_server: RedisServer,  # noqa: F811
    database: str,  # noqa: F811
) -> None:
    table, tokens = seated(workers, 0)  # owned by worker 0
    owner, other = workers[0], workers[1]

    async def go() -> tuple[dict[str, Any], dict[str, Any], int, float]:
        seat, _ = await _turn(owner.ws_base, table, tokens)
        async with connect(f"{owner.ws_base}/ws/tables/{table}") as ws:
            await ws.send(json.dumps({"type": "hello", "token": tokens[seat]}))
            state = json.loads(await asyncio.wait_for(ws.recv(), 10))
            version, legal = int(state["version"]), sorted(state["view"]["legal"])
            act = {"type": "act", "action": legal[0], "version": version, "id": "resend-1"}
            await ws.send(json.dumps(act))
            while not any(r["command_id"] == "resend-1" for r in action_rows(database, table)):
                await asyncio.sleep(0.01)  # committed: the owner dies before its answer is read
            await asyncio.to_thread(owner.kill)
        killed = time.monotonic()
        while True:  # the browser's way: reconnect to any worker, resend under the same id
            try:
                async with connect(f"{other.ws_base}/ws/tables/{table}", open_timeout=5) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": tokens[seat]}))
                    await ws.send(json.dumps(act))
                    ack = await _answer(ws, "resend-1")
                    if ack["type"] == "error" and ack["code"] != "id-reused":
                        raise ConnectionError(ack["code"])  # the table is changing hands: again
                    other_action = {**act, "action": legal[-1]} if len(legal) > 1 else {**act, "action": "?"}
                    await ws.send(json.dumps(other_action))
                    reused = await _answer(ws, "resend-1")
                    return ack, reused, version, time.monotonic() - killed
            except (ConnectionClosed, InvalidStatus, OSError, TimeoutError):
                await asyncio.sleep(0.2)

    ack, reused, version, waited = asyncio.run(go())
    assert ack == {"type": "ack", "id": "resend-1", "version": version + 1, "duplicate": True}, ack
    assert reused["type"] == "error" and reused["code"] == "id-reused", reused
    rows = action_rows(database, table)
    assert [r["seq"] for r in rows if r["command_id"] == "resend-1"] == [version]
    assert len(rows) == version + 1  # nothing else was applied
    assert waited < 15, waited


def test_a_rematch_whose_new_table_is_played_elsewhere_seats_its_asker_there(
    workers: list[Worker],  # noqa: F811
    redis_server: RedisServer,  # noqa: F811
    database: str,  # noqa: F811
) -> None:
    table, tokens = seated(workers, 0)  # owned by worker 0
    seats = [Seat(table, i, tokens[i], [workers[0].ws_base], at=0) for i in range(3)]
    play(seats, 120)
    assert all(s.finished for s in seats)
    status, first = workers[2].request("POST", f"/api/tables/{table}/rematch", {"token": tokens[0]})
    assert status == 200 and first["token"], first  # made at the finished table's owner
    new = str(first["id"])
    assert owned(workers, new) == [True, False, False]
    # the new table moves to worker 1 (worker 0's lease is taken: it gives the table up)
    name1 = workers[1].request("GET", "/api/cluster")[1]["worker"]
    redis_server.cli("SET", f"paston:owner:{new}", name1, "PX", "3000")
    assert workers[1].request("GET", f"/api/tables/{new}")[0] == 200
    assert wait_for(lambda: owned(workers, new) == [False, True, False], 10), owned(workers, new)

    status, second = workers[2].request("POST", f"/api/tables/{table}/rematch", {"token": tokens[1]})
    assert status == 200 and second["id"] == new and second["token"], second
    status, third = workers[0].request("POST", f"/api/tables/{table}/rematch", {"token": tokens[1]})
    assert status == 200 and third["token"] is None, third  # that seat is taken already
    rows = seat_rows(database, new)
    assert rows[0][2] == hash_token(first["token"]) and rows[1][2] == hash_token(second["token"])
    assert rows[2] == (2, None, None)
    assert owned(workers, new) == [False, True, False]
