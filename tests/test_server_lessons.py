"""Lesson tables (the Learn page's course, paston.server.lessons) at the server: made for
their learner only (seat 0, two seeded computer players, hints on), dealt the lesson's
fixed deal, absent from the lobby, refused to strangers (no seat, no watching), and
closed and forgotten when the learner leaves or after a short idle time."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, func, select
from starlette.websockets import WebSocketDisconnect
from tests.ws_helpers import client, db_url, receive_state

from paston.cards import CardSet
from paston.server.lessons.course import LESSONS, lesson_by_id
from paston.server.store.db import ActionRow, DealRow, SeatRow, TableRow

__all__ = ["client", "db_url"]  # the fixtures (tests/ws_helpers.py), used by name

LESSON_SEATS = [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}]


def lesson_body(lesson: str = "bid", **extra: Any) -> dict[str, Any]:
    return {
        "name": "Lesson",
        "seats": LESSON_SEATS,
        "lesson": lesson,
        "creator": {"seat": 0, "name": "Ann"},
        **extra,
    }


def make_lesson(client: TestClient, lesson: str = "bid") -> tuple[str, str]:
    res = client.post("/api/tables", json=lesson_body(lesson))
    assert res.status_code == 201, res.text
    return res.json()["id"], res.json()["token"]


def rows_of(db_url: str, table_id: str) -> int:
    engine = create_engine(db_url)
    with engine.connect() as c:
        n = sum(
            c.execute(select(func.count()).select_from(m).where(m.table_id == table_id)).scalar_one()
            for m in (SeatRow, DealRow, ActionRow)
        )
        n += c.execute(select(func.count()).select_from(TableRow).where(TableRow.id == table_id)).scalar_one()
    engine.dispose()
    return int(n)


def test_the_course_is_served_in_order(client: TestClient) -> None:
    got = client.get("/api/lessons").json()
    assert [x["id"] for x in got] == [lesson.id for lesson in LESSONS]
    assert [x["number"] for x in got] == list(range(1, len(LESSONS) + 1))
    assert "hands" not in got[0]  # the deal stays at the server until it is dealt


def test_a_lesson_table_deals_the_lesson_and_stays_out_of_the_lobby(client: TestClient) -> None:
    listed = client.post("/api/tables", json={"name": "Open", "seats": LESSON_SEATS}).json()["id"]
    table_id, token = make_lesson(client, "lone")
    lobby = client.get("/api/tables").json()
    assert [t["id"] for t in lobby["tables"]] == [listed] and lobby["total"] == 1
    info = client.get(f"/api/tables/{table_id}").json()
    assert info["lesson"] == "lone" and info["hints"] is True
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "hello", "token": token, "seeds": True})
        state = receive_state(ws)
    lesson = lesson_by_id("lone")
    assert lesson is not None
    assert CardSet.parse(" ".join(state["view"]["hand"])) == CardSet.parse(lesson.hands[0])
    assert state["view"]["dealer"] == lesson.dealer
    table = client.app.state.manager.tables[table_id]  # type: ignore[attr-defined]
    assert list(table.match.deals[0].deck) == lesson.deck() and table.fairness == [None]
    assert not table.reshuffling  # the learner's arrival does not shuffle the lesson's deal
    # rebuilt from the database (a restart): the same lesson deal
    again = client.app.state.manager.store.load(table_id)  # type: ignore[attr-defined]
    assert list(again.match.deals[0].deck) == lesson.deck() and again.lesson == "lone" and not again.listed


def test_a_private_table_refuses_strangers(client: TestClient) -> None:
    table_id, _ = make_lesson(client)
    for seat in (0, 1, 2):
        res = client.post(f"/api/tables/{table_id}/seats/{seat}", json={"name": "Eve"})
        assert res.status_code == 403 and res.json()["error"]["code"] == "private-table", res.text
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:  # no watching either
        ws.send_json({"type": "hello", "token": None})
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["code"] == "private-table", msg
    private = client.post("/api/tables", json={"name": "Mine", "seats": LESSON_SEATS, "private": True})
    assert private.status_code == 201
    assert client.get("/api/tables").json()["total"] == 0


def test_a_lesson_table_is_gone_once_its_learner_leaves(client: TestClient, db_url: str) -> None:
    table_id, token = make_lesson(client)
    assert rows_of(db_url, table_id) > 0
    other_id, other_token = make_lesson(client)
    res = client.post(f"/api/tables/{table_id}/leave", json={"token": other_token})
    assert res.status_code in (400, 403), res.text  # another table's token closes nothing
    assert client.post(f"/api/tables/{table_id}/leave", json={"token": token}).status_code == 200
    assert client.get(f"/api/tables/{table_id}").status_code == 404
    assert rows_of(db_url, table_id) == 0  # forgotten: nothing of it is kept
    assert client.get(f"/api/tables/{other_id}").status_code == 200
    open_table = client.post("/api/tables", json={"name": "Open", "seats": LESSON_SEATS}).json()
    res = client.post(f"/api/tables/{open_table['id']}/leave", json={"token": other_token})
    assert res.status_code == 400 and res.json()["error"]["code"] == "not-private"


def test_an_idle_lesson_table_is_forgotten(client: TestClient, db_url: str) -> None:
    table_id, token = make_lesson(client)
    retirer = client.app.state.retirer  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "hello", "token": token})
        receive_state(ws)
        now = time.monotonic()
        assert table_id not in retirer.sweep(now)  # connected: kept, and last seen now
    assert table_id not in retirer.sweep(now + retirer.private_after / 2)  # a reload keeps it
    assert table_id in retirer.sweep(now + retirer.private_after + 1)
    assert rows_of(db_url, table_id) == 0


def test_a_lesson_table_is_made_only_as_the_lesson_was_rehearsed(client: TestClient) -> None:
    assert client.post("/api/tables", json=lesson_body("nope")).status_code == 404
    bad = [
        lesson_body(creator={"seat": 1, "name": "Ann"}),
        lesson_body(
            seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "heuristic"}]
        ),
        lesson_body(rules={"target": 50}),
        {k: v for k, v in lesson_body().items() if k != "creator"},
    ]
    for body in bad:
        res = client.post("/api/tables", json=body)
        assert res.status_code == 400 and res.json()["error"]["code"] == "bad-lesson", res.text


def test_the_websocket_of_a_forgotten_table_closes(client: TestClient) -> None:
    table_id, token = make_lesson(client)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "hello", "token": token})
        receive_state(ws)
        assert client.post(f"/api/tables/{table_id}/leave", json={"token": token}).status_code == 200
        try:
            while True:
                ws.receive_json()
        except WebSocketDisconnect:
            pass
