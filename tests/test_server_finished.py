"""Finished games leave server memory and come back on demand.

Every unfinished table stays in memory; finished games beyond ``keep_finished`` (least
recently used first, never one with an open connection) are dropped and loaded from the
database again when asked for. A restart loads only unfinished tables. The list of
finished games is built from the stored rows, newest first, and says exactly what the
live tables said.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.ws_helpers import manager_of

from paston.rules import Rules
from paston.server.tables.manager import TableManager
from paston.server.web.app import create_app

BOTS = [{"kind": "bot", "bot": "random"}] * 3


@pytest.fixture()
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'paston.db'}"


@pytest.fixture()
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, bot_delay=0.0, keep_finished=2)) as c:
        yield c


def play_to_the_end(client: TestClient, seats: list[dict[str, Any]] = BOTS) -> str:
    """A table of computer players, watched until the game is over (then the watcher leaves)."""
    res = client.post("/api/tables", json={"name": "Done", "rules": {"target": 10}, "seats": seats})
    assert res.status_code == 201, res.text
    table = str(res.json()["id"])
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": None})
        for _ in range(5000):
            message = ws.receive_json()
            if message.get("type") == "state" and message["winners"]:
                break
        else:
            raise AssertionError("the game did not end")
    return table


def play_seat_zero_to_the_end(client: TestClient, table: str, token: str, rng: random.Random) -> None:
    """Seat 0's person plays random legal cards (the bots play the rest) until the game is over."""
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": token})
        while True:
            message = ws.receive_json()
            if message.get("type") != "state":
                continue
            if message["winners"]:
                break
            if message["view"]["to_move"] == 0:
                action = rng.choice(message["view"]["legal"])
                ws.send_json({"type": "act", "action": action, "version": message["version"]})


def test_finished_games_beyond_the_limit_leave_memory_and_come_back(client: TestClient) -> None:
    manager = manager_of(client)
    games = [play_to_the_end(client) for _ in range(4)]
    summaries = {g: client.get(f"/api/tables/{g}").json() for g in games[2:]}
    in_memory = {t for t, table in manager.tables.items() if table.finished}
    assert in_memory == set(games[2:])  # the two least recently used are gone
    # the list comes from the rows: newest first, the same facts the live tables give
    listed = client.get("/api/games").json()
    assert [g["id"] for g in listed] == games[::-1]
    for g in listed:
        if g["id"] in summaries:
            assert g == summaries[g["id"]]
    stored_only = {g["id"]: g for g in listed if g["id"] in games[:2]}
    # asking for a dropped game loads it again, with the same summary and its record
    for g in games[:2]:
        assert client.get(f"/api/tables/{g}").json() == stored_only[g]
        record = client.get(f"/api/tables/{g}/record")
        assert record.status_code == 200 and record.json()["deals"]
        assert len(manager.tables) <= 2
    assert client.get("/api/games", params={"limit": 1}).json() == listed[:1]
    for bad in (0, 501, "x"):
        assert client.get("/api/games", params={"limit": bad}).status_code == 422
    assert client.get("/api/tables/never-was").status_code == 404


def test_a_watched_finished_game_stays_until_its_last_connection_closes(client: TestClient) -> None:
    manager = manager_of(client)
    first = play_to_the_end(client)
    with client.websocket_connect(f"/ws/tables/{first}") as ws:
        ws.send_json({"type": "hello", "token": None})
        assert ws.receive_json()["type"] == "state"
        watched = manager.tables[first]
        for _ in range(3):
            play_to_the_end(client)
        assert manager.tables.get(first) is watched  # still watched: kept beyond the limit
    play_to_the_end(client)  # the next trim drops it
    assert first not in manager.tables
    assert client.get(f"/api/tables/{first}").json()["finished"] is True


def test_a_restart_loads_only_unfinished_tables(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        done = play_to_the_end(client)
        res = client.post("/api/tables", json={"name": "Open", "rules": {}, "seats": [{"kind": "human"}] * 3})
        open_table = str(res.json()["id"])
        before = client.get(f"/api/tables/{done}").json()
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        manager = manager_of(client)
        assert set(manager.tables) == {open_table}
        assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == [open_table]
        assert client.get("/api/games").json() == [before]
        assert client.get(f"/api/tables/{done}").json() == before
        assert client.get(f"/api/tables/{done}/replay").status_code == 200
        assert not manager.tables[done].bots  # a finished game needs no computer players


def test_rematch_of_a_dropped_game_finds_the_same_new_table(client: TestClient) -> None:
    manager = manager_of(client)
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    res = client.post("/api/tables", json={"name": "Re", "rules": {"target": 10}, "seats": seats})
    table = str(res.json()["id"])
    token = client.post(f"/api/tables/{table}/seats/0", json={"name": "Ana"}).json()["token"]
    play_seat_zero_to_the_end(client, table, token, random.Random(4))
    first = client.post(f"/api/tables/{table}/rematch", json={"token": token}).json()["id"]
    for _ in range(3):
        play_to_the_end(client)
    assert table not in manager.tables
    assert client.post(f"/api/tables/{table}/rematch", json={}).json()["id"] == first


def test_history_benchmark_runs_and_prints_its_figures(tmp_path: Path) -> None:
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    url = f"sqlite:///{tmp_path / 'history.db'}"
    args = ["--games", "3", "--open", "2", "--target", "10", "--database-url", url]
    done = subprocess.run(
        [sys.executable, str(root / "benchmarks" / "server_history.py"), *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert re.search(r"restart: \d+ unfinished tables loaded in \d+ ms, [\d.]+ MB held", out), out
    assert "every table rebuilt instead (3 finished + 2 open)" in out, out
    assert "finished-games list (3 newest)" in out and "loaded on demand: median" in out, out


def test_a_connection_never_joins_a_game_that_left_memory(tmp_path: Path) -> None:
    # A game ends while a connection waits for the table's lock; other traffic trims the
    # finished games meanwhile (here a task trimming at every turn of the loop, with no
    # finished game allowed to stay). The waiting connection must still join the table
    # the manager holds, never a dropped copy.
    import asyncio

    from paston.server.store.db import make_engine, migrate, session_factory
    from paston.server.tables.connection import Connection

    async def scenario() -> None:
        engine = make_engine(f"sqlite:///{tmp_path / 'race.db'}")
        migrate(engine)
        manager = TableManager(session_factory(engine), bot_delay=0.0, keep_finished=0)
        save = manager.log.append_durably

        async def slow_save(row: dict[str, Any]) -> None:  # moves take a while to save
            await asyncio.sleep(0.002)
            await save(row)

        manager.log.append_durably = slow_save  # type: ignore[method-assign]
        table = manager.create("race", Rules(target=10), BOTS)
        manager.schedule_bots(table)
        stop = False

        async def other_traffic() -> None:
            while not stop:
                manager.finished_games.trim()
                await asyncio.sleep(0)

        async def ignore(text: str) -> None:
            return None

        trimmer = asyncio.create_task(other_traffic())
        joins = 0
        try:
            while True:
                current = manager.get(table.id)
                conn = Connection(send=ignore, seat=None)
                await manager.join(current, conn)
                joins += 1
                assert manager.tables.get(table.id) is current, f"joined a dropped table (join {joins})"
                current.connections.remove(conn)
                conn.close()
                if current.finished and (current.bot_task is None or current.bot_task.done()):
                    break
                await asyncio.sleep(0)
        finally:
            stop = True
            await trimmer
            manager.log.close()
            engine.dispose()
        assert joins > 10

    asyncio.run(scenario())


def test_a_stored_summary_equals_the_live_one_with_a_takeover_setting(client: TestClient) -> None:
    # A finished game has no stand-ins, whatever its takeover setting and however long
    # its people have been away, so its live and stored summaries agree.
    manager = manager_of(client)
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    body = {"name": "Away", "rules": {"target": 10}, "seats": seats, "takeover_seconds": 1}
    table = str(client.post("/api/tables", json=body).json()["id"])
    token = client.post(f"/api/tables/{table}/seats/0", json={"name": "Ana"}).json()["token"]
    play_seat_zero_to_the_end(client, table, token, random.Random(6))
    manager.tables[table].offline_since[0] = 0.0  # away for ages
    live = client.get(f"/api/tables/{table}").json()
    assert live["seats"][0]["standin"] is False
    for _ in range(2):
        play_to_the_end(client)
    assert table not in manager.tables
    stored = next(g for g in client.get("/api/games").json() if g["id"] == table)
    assert stored == live
