"""Hints over the table WebSocket: ``{"type": "hint"}`` from the seated person to move at
a practice table gets the ``pimc`` player's options for that decision, from that seat's
view only, each with its chance to make (or beat) the contract and its group of equally
good options; every other asker gets an error in the usual shape. The chances themselves:
tests/test_server_hint_chances.py."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient
from tests.ws_helpers import HUMANS, client, db_url, new_table, receive_state, take

__all__ = ["client", "db_url"]  # the fixtures, used by name

from paston.actions import Action, Kind
from paston.bots.explain import explain
from paston.server.tables.hints import HINT_SEED
from paston.server.web.app import create_app
from paston.server.work.botjobs import decision_seed

KINDS = {
    "auction": {Kind.BID, Kind.PASS},
    "discard": {Kind.DISCARD},
    "trump": {Kind.TRUMP, Kind.SURRENDER},
    "defence": {Kind.WHIST, Kind.PASS},
    "play": {Kind.PLAY},
}


def practice_table(client: TestClient, seats: list[dict[str, Any]] = HUMANS) -> str:
    body = {"name": "Practice", "rules": {"target": 20}, "seats": seats, "hints": True}
    res = client.post("/api/tables", json=body)
    assert res.status_code == 201, res.text
    assert res.json()["table"]["hints"] is True
    return str(res.json()["id"])


def answer(ws: Any, kind: str) -> dict[str, Any]:
    """Read messages until one of ``kind`` (``hint`` or ``error``) arrives."""
    while True:
        msg = ws.receive_json()
        if msg["type"] == kind:
            return dict(msg)


def mover(client: TestClient, table: str) -> dict[str, Any]:
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": None})
        return receive_state(ws)


def test_hints_are_off_by_default_and_the_summary_says_so(client: TestClient) -> None:
    table = new_table(client, HUMANS)
    assert client.get(f"/api/tables/{table}").json()["hints"] is False
    token = take(client, table, mover(client, table)["view"]["to_move"], "Ana")
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": token})
        receive_state(ws)
        ws.send_json({"type": "hint"})
        err = answer(ws, "error")
        assert err["code"] == "hints-off" and "hints" in err["message"]
    practice = practice_table(client)
    assert client.get(f"/api/tables/{practice}").json()["hints"] is True
    lobby = client.get("/api/tables").json()["tables"]
    assert {t["id"]: t["hints"] for t in lobby} == {table: False, practice: True}


def test_create_table_refuses_a_hints_setting_that_is_not_a_boolean(client: TestClient) -> None:
    body = {"name": "P", "seats": HUMANS, "hints": "yes"}
    res = client.post("/api/tables", json=body)
    assert res.status_code == 422 and res.json()["error"]["field"] == "hints"


def test_a_hint_for_every_kind_of_decision_is_the_seats_own(client: TestClient) -> None:
    """Three people play a deal, following the hints; each decision's hint lists legal
    actions of its kind, the choice first, and equals the hint of the seat's view."""
    table = practice_table(client)
    tokens = [take(client, table, s, n) for s, n in enumerate(("Ana", "Bo", "Cy"))]
    manager = client.app.state.manager  # type: ignore[attr-defined]
    seen: set[str] = set()
    for _ in range(40):
        seat = mover(client, table)["view"]["to_move"]
        if seat is None:
            break
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            ws.send_json({"type": "hello", "token": tokens[seat]})
            state = receive_state(ws)
            view = state["view"]
            ws.send_json({"type": "hint"})
            hint = answer(ws, "hint")
            assert set(hint) == {"type", "version", "seat", "goal", "options", "chosen", "level", "worlds"}
            assert hint["version"] == state["version"] and hint["seat"] == seat and hint["level"] == 3
            defending = view["phase"] == "defence" or (view["phase"] == "play" and view["declarer"] != seat)
            assert hint["goal"] == ("beat" if defending else "make")
            actions = [o["action"] for o in hint["options"]]
            assert actions[0] == hint["chosen"] and set(actions) <= set(view["legal"])
            phase = view["phase"]
            assert {Action.parse(a).kind for a in actions} <= KINDS[phase]
            for o in hint["options"]:
                assert set(o) == {"action", "score", "tricks", "chance", "group"}
                assert isinstance(o["score"], float)
                assert (o["tricks"] is None) == (phase != "play")
                # a chance: a whole number of the worlds sampled (none for pass, surrender)
                assert (o["chance"] is None) == (o["action"] in ("pass", "surrender"))
                if o["chance"] is not None and hint["worlds"]:
                    assert 0 <= o["chance"] <= 1
                    assert abs(o["chance"] * hint["worlds"] - round(o["chance"] * hint["worlds"])) < 1e-9
            groups = [o["group"] for o in hint["options"]]
            assert groups[0] == 0 and groups == sorted(groups)
            # the seat's own view, the table's seed: the very hint
            live = manager.tables[table]
            local = explain(live.match.view(seat), level=3, seed=decision_seed(HINT_SEED, state["version"]))
            assert hint["chosen"] == str(local.chosen)
            assert actions == [str(o.action) for o in local.options]
            assert [o["chance"] for o in hint["options"]] == [o.chance for o in local.options]
            assert groups == list(local.groups) and hint["worlds"] == local.worlds
            seen.add(phase)
            # follow the hint, except that the deal must reach its play: never surrender
            # (R4.3) nor leave the declarer uncontested (R5)
            act = hint["chosen"]
            if phase in ("trump", "defence"):
                keep = (Kind.TRUMP, Kind.WHIST)
                act = next((a for a in view["legal"] if Action.parse(a).kind in keep), act)
            ws.send_json({"type": "act", "action": act, "version": state["version"]})
            receive_state(ws, state["version"] + 1)
        if seen == set(KINDS):
            break
    assert {"auction", "discard", "trump", "play"} <= seen


def test_hint_refusals_not_your_turn_spectator_malformed(client: TestClient) -> None:
    table = practice_table(client)
    tokens = [take(client, table, s, n) for s, n in enumerate(("Ana", "Bo", "Cy"))]
    to_move = mover(client, table)["view"]["to_move"]
    other = (to_move + 1) % 3
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": tokens[other]})
        state = receive_state(ws)
        ws.send_json({"type": "hint"})
        err = answer(ws, "error")
        assert err["code"] == "not-your-turn" and set(err) == {"type", "code", "message"}
        ws.send_json({"type": "hint", "level": 5})
        assert answer(ws, "error")["code"] == "malformed"
        ws.send_json({"type": "sync"})
        assert receive_state(ws)["version"] == state["version"]  # nothing changed
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": None})
        receive_state(ws)
        ws.send_json({"type": "hint"})
        assert answer(ws, "error")["code"] == "spectator"


def test_a_flood_of_hint_requests_is_rate_limited_and_computed_once(client: TestClient) -> None:
    table = practice_table(client)
    seat = mover(client, table)["view"]["to_move"]
    token = take(client, table, seat, "Ana")
    manager = client.app.state.manager  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": token})
        receive_state(ws)
        for _ in range(150):
            ws.send_json({"type": "hint"})
        replies = [ws.receive_json() for _ in range(150)]
        hints = [r for r in replies if r["type"] == "hint"]
        assert {r.get("code") for r in replies if r["type"] == "error"} == {"rate-limited"}
        assert len(hints) >= 100 and all(h == hints[0] for h in hints)
    assert len(manager.hints._done) == 1 and not manager.hints._running


def test_hints_setting_survives_a_restart(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        table = practice_table(client)
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        assert client.get(f"/api/tables/{table}").json()["hints"] is True


def test_hint_answers_while_the_socket_keeps_reading(client: TestClient) -> None:
    """A hint is computed in the pool: a ping sent after it is answered at once, and
    the hint follows."""
    table = practice_table(client)
    seat = mover(client, table)["view"]["to_move"]
    token = take(client, table, seat, "Ana")
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": token})
        receive_state(ws)
        start = time.perf_counter()
        ws.send_json({"type": "hint"})
        ws.send_json({"type": "ping"})
        kinds = [ws.receive_json()["type"] for _ in range(2)]
        assert sorted(kinds) == ["hint", "pong"]
        assert time.perf_counter() - start < 30  # a bound for a busy machine, not a speed claim
