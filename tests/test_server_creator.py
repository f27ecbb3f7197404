"""A table's creator sits down with the table (``POST /api/tables`` with ``creator``): the
seat is taken in the same transaction that stores the table, its token comes back once,
and the lobby never shows that seat free."""

from __future__ import annotations

from fastapi.testclient import TestClient
from tests.ws_helpers import HUMANS, client, db_url, receive_state

__all__ = ["client", "db_url"]  # the fixtures (tests/ws_helpers.py), used by name

BOTS_AND_ME = [{"kind": "bot", "bot": "random"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}]


def test_the_creator_is_seated_with_the_table(client: TestClient) -> None:
    res = client.post(
        "/api/tables", json={"name": "Mine", "seats": BOTS_AND_ME, "creator": {"name": " Ani ", "seat": 1}}
    )
    assert res.status_code == 201, res.text
    body = res.json()
    assert body["seat"] == 1 and len(body["token"]) >= 32
    seat = body["table"]["seats"][1]
    assert seat["taken"] and seat["name"] == "Ani"
    # the lobby's first sight of the table already has the seat taken
    listed = next(t for t in client.get("/api/tables").json()["tables"] if t["id"] == body["id"])
    assert listed["seats"][1]["taken"] and listed["seats"][1]["name"] == "Ani"
    # stored with the table: a server rebuilding it from the database has the seat too
    manager = client.app.state.manager  # type: ignore[attr-defined]
    reloaded = manager.store.load(body["id"])
    assert reloaded is not None and reloaded.seats[1].name == "Ani" and reloaded.seats[1].taken
    # the token is the seat's: the page that holds it plays seat 1
    with client.websocket_connect(f"/ws/tables/{body['id']}") as ws:
        ws.send_json({"type": "hello", "token": body["token"]})
        assert receive_state(ws)["you"] == 1
    again = client.post(f"/api/tables/{body['id']}/seats/1", json={"name": "Babken"})
    assert again.status_code == 409 and again.json()["error"]["code"] == "seat-taken"


def test_a_table_without_a_creator_has_its_seats_free(client: TestClient) -> None:
    body = client.post("/api/tables", json={"name": "Open", "seats": HUMANS}).json()
    assert "token" not in body and not any(s["taken"] for s in body["table"]["seats"])


def test_a_creator_cannot_take_a_computer_s_seat_or_a_bad_name(client: TestClient) -> None:
    before = client.get("/api/tables").json()["total"]
    bot_seat = client.post(
        "/api/tables", json={"name": "x", "seats": BOTS_AND_ME, "creator": {"name": "Ani", "seat": 0}}
    )
    assert bot_seat.status_code == 400, bot_seat.text
    assert (
        bot_seat.json()["error"]["code"] == "bad-seat" and "computer" in bot_seat.json()["error"]["message"]
    )
    blank = client.post(
        "/api/tables", json={"name": "x", "seats": HUMANS, "creator": {"name": "   ", "seat": 0}}
    )
    assert blank.status_code == 400 and blank.json()["error"]["code"] == "bad-name"
    for creator in (
        {"name": "Ani", "seat": 3},
        {"name": "", "seat": 0},
        {"name": "Ani"},
        {"seat": True, "name": "A"},
    ):
        res = client.post("/api/tables", json={"name": "x", "seats": HUMANS, "creator": creator})
        assert res.status_code == 422, (creator, res.text)
    assert client.get("/api/tables").json()["total"] == before  # nothing was made
