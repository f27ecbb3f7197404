"""The server's abuse limits on the HTTP side: table creation per client (a token bucket,
``X-Forwarded-For`` believed only from a trusted proxy), the caps on open tables per client
and in all, and idle tables retired (stored, out of memory and the lobby, back on demand)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from tests.db_helpers import any_db

from paston.server.store.db import TableRow, make_engine, session_factory
from paston.server.web.app import create_app
from paston.server.web.limits import CreationGate, Limits, client_key, parse_networks

__all__ = ["any_db"]  # the fixture (tests/db_helpers.py): SQLite and PostgreSQL

HUMANS = [{"kind": "human"}] * 3
PROXY = "10.0.0.1"


def _app(db_url: str, **limits: Any) -> TestClient:
    """The app behind a (trusted) proxy at PROXY: ``X-Forwarded-For`` names each client."""
    app = create_app(db_url, bot_delay=0.0, limits=Limits(trusted_proxies=parse_networks([PROXY]), **limits))
    return TestClient(app, client=(PROXY, 50000))


def _create(client: TestClient, who: str | None = None, name: str = "T") -> Any:
    headers = {"x-forwarded-for": who} if who else {}
    return client.post("/api/tables", json={"name": name, "seats": HUMANS}, headers=headers)


def _refused(res: Any, status: int, code: str) -> dict[str, Any]:
    assert res.status_code == status, res.text
    body = res.json()
    assert set(body) == {"error"} and body["error"]["code"] == code, body
    assert body["error"]["message"]
    return dict(body["error"])


def _wait_for(condition: Callable[[], bool], seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


@pytest.fixture()
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'paston.db'}"


# --- creation rate ---------------------------------------------------------------------------------
def test_table_creation_is_limited_per_client_with_retry_after(db_url: str) -> None:
    with _app(db_url, create_burst=3, create_every=30.0) as client:
        for _ in range(3):
            assert _create(client, "203.0.113.1").status_code == 201
        res = _create(client, "203.0.113.1")
        _refused(res, 429, "rate-limited")
        assert 1 <= int(res.headers["retry-after"]) <= 30
        # what the client writes left of its own address is not believed
        _refused(_create(client, "198.51.100.99, 203.0.113.1"), 429, "rate-limited")
        # another client is not slowed down, and a refused request made no table
        assert _create(client, "203.0.113.2").status_code == 201
        assert client.get("/api/tables").json()["total"] == 4


def test_forwarded_for_is_ignored_unless_the_peer_is_a_trusted_proxy(db_url: str) -> None:
    app = create_app(db_url, bot_delay=0.0, limits=Limits(create_burst=2, create_every=30.0))
    with TestClient(app, client=(PROXY, 50000)) as client:
        assert _create(client, "203.0.113.1").status_code == 201
        assert _create(client, "203.0.113.2").status_code == 201
        _refused(_create(client, "203.0.113.3"), 429, "rate-limited")  # all of them are PROXY


def test_the_bucket_refills_at_its_rate() -> None:
    gate = CreationGate(Limits(create_burst=2, create_every=10.0))
    assert gate.take("a", 0.0) is None and gate.take("a", 0.0) is None
    assert gate.take("a", 4.0) == pytest.approx(6.0)
    assert gate.take("a", 10.0) is None  # one back after 10 s
    assert gate.take("a", 10.0) == pytest.approx(10.0)
    assert gate.take("b", 10.0) is None
    gate.prune(1000.0)  # full buckets are forgotten: memory does not grow with clients
    assert gate.buckets == {}
    unlimited = CreationGate(Limits(create_burst=1, create_every=0.0))
    assert all(unlimited.take("a", 0.0) is None for _ in range(5))


def test_client_addresses_behind_proxies() -> None:
    proxies = parse_networks(["10.0.0.0/8", "192.0.2.1"])
    hop = {"x-forwarded-for": "1.1.1.1, 203.0.113.5, 10.2.3.4"}
    assert client_key("192.0.2.1", hop, proxies) == "203.0.113.5"  # nearest untrusted hop
    assert client_key("198.51.100.1", hop, proxies) == "198.51.100.1"
    assert client_key("10.0.0.7", {}, proxies) == "10.0.0.7"
    assert client_key("10.0.0.7", {"x-forwarded-for": "10.1.1.1"}, proxies) == "10.1.1.1"
    assert client_key("10.0.0.7", {"x-forwarded-for": "nonsense"}, proxies) == "10.0.0.7"
    # IPv6 is counted by /64; an IPv4 address mapped in IPv6 as itself
    assert client_key("2001:db8::1", {}, ()) == client_key("2001:db8::ffff:1", {}, ()) == "2001:db8::/64"
    assert client_key("::ffff:203.0.113.7", {}, ()) == "203.0.113.7"
    with pytest.raises(ValueError, match=re.escape("'10.0.0.0/33'")):
        parse_networks(["127.0.0.1,10.0.0.0/33"])


# --- caps ------------------------------------------------------------------------------------------
def test_open_tables_are_capped_per_client_and_in_all(db_url: str) -> None:
    with _app(db_url, tables_per_client=2, open_tables=3, create_burst=100) as client:
        assert _create(client, "203.0.113.1").status_code == 201
        assert _create(client, "203.0.113.1").status_code == 201
        error = _refused(_create(client, "203.0.113.1"), 429, "too-many-tables")
        assert "2 open tables" in error["message"]
        assert _create(client, "203.0.113.2").status_code == 201
        res = _create(client, "203.0.113.3")
        _refused(res, 429, "server-full")
        assert int(res.headers["retry-after"]) > 0
        # retired tables are open no more: they count against nobody
        retirer = client.app.state.retirer  # type: ignore[attr-defined]
        assert len(retirer.sweep(time.monotonic() + 10**6)) == 3
        assert _create(client, "203.0.113.1").status_code == 201
        assert _create(client, "203.0.113.1").status_code == 201


# --- retiring idle tables --------------------------------------------------------------------------
def _stored_settings(db_url: str, table_id: str) -> dict[str, Any]:
    engine = make_engine(db_url)
    try:
        with session_factory(engine)() as session:
            row = session.scalars(select(TableRow).where(TableRow.id == table_id)).one()
            return dict(row.settings)
    finally:
        engine.dispose()


def _listed(client: TestClient) -> list[str]:
    return [t["id"] for t in client.get("/api/tables?limit=100").json()["tables"]]


def test_idle_tables_retire_stay_stored_and_open_again_on_demand(any_db: str) -> None:
    with _app(any_db, retire_after=3600.0) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        retirer = client.app.state.retirer  # type: ignore[attr-defined]
        idle, watched = _create(client).json()["id"], _create(client).json()["id"]
        token = client.post(f"/api/tables/{idle}/seats/1", json={"name": "Ana"}).json()["token"]
        start = time.monotonic()
        with client.websocket_connect(f"/ws/tables/{watched}") as ws:
            ws.send_json({"type": "hello", "token": None})
            assert ws.receive_json()["type"] == "state"
            assert retirer.sweep(start + 3600.0 - 1) == []  # not sooner than asked
            assert retirer.sweep(start + 3600.0 + 2 * retirer.interval + 1) == [idle]
        assert idle not in manager.tables and watched in manager.tables
        assert _listed(client) == [watched]
        assert "retired" in _stored_settings(any_db, idle)
        # the table's address still shows it, without bringing it back to the lobby
        info = client.get(f"/api/tables/{idle}")
        assert info.status_code == 200 and info.json()["seats"][1]["name"] == "Ana"
        assert _listed(client) == [watched]
        # its seat token opens it; once someone is connected it is open again
        with client.websocket_connect(f"/ws/tables/{idle}") as ws:
            ws.send_json({"type": "hello", "token": token})
            state = ws.receive_json()
            assert state["type"] == "state" and state["you"] == 1
            retirer.sweep(time.monotonic())
        assert set(_listed(client)) == {idle, watched}
        assert "retired" not in _stored_settings(any_db, idle)


def test_a_restart_does_not_load_retired_tables(any_db: str) -> None:
    with _app(any_db) as client:
        kept, gone = _create(client, name="Kept").json()["id"], _create(client, name="Gone").json()["id"]
        client.app.state.manager.tables[kept].last_seen = time.monotonic() + 10**7  # type: ignore[attr-defined]
        assert client.app.state.retirer.sweep(time.monotonic() + 10**6) == [gone]  # type: ignore[attr-defined]
    with _app(any_db) as client:
        assert set(client.app.state.manager.tables) == {kept}  # type: ignore[attr-defined]
        assert _listed(client) == [kept]
        assert client.get(f"/api/tables/{gone}").json()["name"] == "Gone"


def test_the_server_retires_idle_tables_by_itself(db_url: str) -> None:
    with _app(db_url, retire_after=0.3) as client:
        table = _create(client).json()["id"]
        _wait_for(lambda: table not in client.app.state.manager.tables)  # type: ignore[attr-defined]
        assert _listed(client) == []
        assert client.get(f"/api/tables/{table}").status_code == 200
