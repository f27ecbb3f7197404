"""Rematches (issue 22): once a stranger could start a finished game's rematch and take all
three seats under the players' names (the players then got ``token: None``), and a
rematch skipped the creation rate limit and the per-client table cap. Now only a player of
the game starts it, the other people's seats are kept for their players for a while, and a
rematch is a creation like any other."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tests.ws_helpers import play_three_humans

from paston.server.tables import manager as manager_module
from paston.server.web.app import create_app
from paston.server.web.limits import Limits

HUMANS = [{"kind": "human"}] * 3


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    limits = Limits(create_burst=3, create_every=3600.0)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'r.db'}", bot_delay=0.0, limits=limits)) as c:
        yield c


def finished_game(client: TestClient, seed: int = 5) -> tuple[str, list[str]]:
    table = client.post("/api/tables", json={"name": "R", "rules": {"target": 10}, "seats": HUMANS}).json()[
        "id"
    ]
    names = ["Ana", "Aram", "Lusine"]
    tokens = [
        client.post(f"/api/tables/{table}/seats/{s}", json={"name": n}).json()["token"]
        for s, n in enumerate(names)
    ]
    play_three_humans(client, table, tokens, random.Random(seed))
    return str(table), tokens


def test_a_stranger_cannot_start_a_rematch_nor_take_the_players_seats(client: TestClient) -> None:
    table, tokens = finished_game(client)
    refused = client.post(f"/api/tables/{table}/rematch", json={})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not-a-player"
    bad = client.post(f"/api/tables/{table}/rematch", json={"token": "forged-token"})
    assert bad.status_code >= 400 and bad.json()["error"]["code"] != "internal"
    first = client.post(f"/api/tables/{table}/rematch", json={"token": tokens[0]}).json()
    assert first["token"]
    # the stranger now knows the new table: the other two seats are kept for their players
    for seat, name in ((1, "Aram"), (2, "Lusine")):
        taken = client.post(f"/api/tables/{first['id']}/seats/{seat}", json={"name": name})
        assert taken.status_code == 409 and taken.json()["error"]["code"] == "seat-reserved", taken.json()
    # a spectator asking is shown the same new table, without a seat
    assert client.post(f"/api/tables/{table}/rematch", json={}).json() == {**first, "token": None}
    # the players get their seats back with their tokens
    for seat in (1, 2):
        back = client.post(f"/api/tables/{table}/rematch", json={"token": tokens[seat]}).json()
        assert back["id"] == first["id"] and back["token"]
    seats = client.get(f"/api/tables/{first['id']}").json()["seats"]
    assert [s["name"] for s in seats] == ["Ana", "Aram", "Lusine"] and all(s["taken"] for s in seats)


def test_a_kept_seat_is_free_for_anyone_once_its_time_is_up(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(manager_module, "REMATCH_RESERVE_SECONDS", 0.0)
    table, tokens = finished_game(client, seed=6)
    new = client.post(f"/api/tables/{table}/rematch", json={"token": tokens[2]}).json()
    taken = client.post(f"/api/tables/{new['id']}/seats/0", json={"name": "Newcomer"})
    assert taken.status_code == 200 and taken.json()["token"]
    # and its old player, coming late, is told the seat is taken, not given a broken answer
    late = client.post(f"/api/tables/{table}/rematch", json={"token": tokens[0]}).json()
    assert late["id"] == new["id"] and late["token"] is None


def test_a_rematch_is_a_creation_under_the_creation_limit(client: TestClient) -> None:
    table, tokens = finished_game(client, seed=7)  # 1 of the 3 tables the bucket allows
    for name in ("F", "G"):  # 2 and 3 of 3
        assert client.post("/api/tables", json={"name": name, "seats": HUMANS}).status_code == 201
    refused = client.post(f"/api/tables/{table}/rematch", json={"token": tokens[0]})
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate-limited"
    assert client.get(f"/api/tables/{table}").json()["rematch"] is None  # nothing was made


def test_a_strangers_refused_rematches_cost_nobody_a_creation(client: TestClient) -> None:
    """A rematch asked for without a player's token is refused before the creation limit
    is counted: a stranger asking again and again keeps hearing ``not-a-player`` (not
    ``rate-limited``), and the player's own rematch still goes through (found by the
    abuse suite)."""
    table, tokens = finished_game(client, seed=8)  # 1 of the 3 tables the bucket allows
    for _ in range(6):
        refused = client.post(f"/api/tables/{table}/rematch", json={})
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "not-a-player"
    made = client.post(f"/api/tables/{table}/rematch", json={"token": tokens[1]})
    assert made.status_code == 200 and made.json()["token"]
