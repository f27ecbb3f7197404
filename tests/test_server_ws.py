"""The web server in process: lobby API, WebSocket play, errors, reconnection, no leaks."""

from __future__ import annotations

import json
import random
import time

import pytest
from fastapi.testclient import TestClient
from tests.ws_helpers import (
    HUMANS,
    act_in_turn,
    client,
    db_url,
    new_table,
    play_three_humans,
    receive_state,
    take,
)

from paston.cards import ALL_CARDS
from paston.record import from_record
from paston.server.web.app import create_app

__all__ = ["client", "db_url"]  # the fixtures (tests/ws_helpers.py), used by name


def test_lobby_lists_open_tables_and_refuses_bad_requests(client: TestClient) -> None:
    table = new_table(client, HUMANS)
    listed = client.get("/api/tables").json()["tables"]
    assert [t["id"] for t in listed] == [table]
    assert client.get(f"/api/tables/{table}").json()["seats"][0]["taken"] is False
    assert client.get("/api/tables/nope").status_code == 404
    bad = client.post("/api/tables", json={"name": "x", "rules": {"target": "abc"}, "seats": HUMANS})
    assert bad.status_code == 400 and "target" in bad.json()["error"]["message"]
    bad = client.post("/api/tables", json={"name": "x", "seats": HUMANS[:2]})
    assert bad.status_code == 422
    take(client, table, 0, "Ana")
    again = client.post(f"/api/tables/{table}/seats/0", json={"name": "Bo"})
    assert again.status_code == 409
    assert client.get(f"/api/tables/{table}/record").status_code == 409


def test_three_clients_play_a_whole_game_and_nothing_leaks(client: TestClient) -> None:
    table = new_table(client, HUMANS)
    tokens = [take(client, table, s, n) for s, n in enumerate(("Ana", "Bo", "Cy"))]
    final = play_three_humans(client, table, tokens, random.Random(3))
    assert final["winners"]
    record = client.get(f"/api/tables/{table}/record")
    assert record.status_code == 200
    match = from_record(record.json())
    assert list(match.winners) == final["winners"]
    assert [t["id"] for t in client.get("/api/games").json()] == [table]


def test_illegal_stale_out_of_turn_and_malformed_messages_change_nothing(client: TestClient) -> None:
    table = new_table(client, HUMANS)
    tokens = [take(client, table, s, n) for s, n in enumerate(("Ana", "Bo", "Cy"))]
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": tokens[0]})
        state = receive_state(ws)
        view = state["view"]
        mover = view["to_move"]
        version = state["version"]
        cases = [
            ({"type": "act", "action": "bid clubs", "version": version}, None),
            ({"type": "act", "action": "bid notrump", "version": version}, "parse-contract"),
            ({"type": "act", "action": "ZZ", "version": version}, "parse-action"),
            ({"type": "act", "action": "pass", "version": version + 5}, "stale"),
            ({"type": "act", "action": "pass", "version": version, "extra": 1}, "malformed"),
            ({"type": "act"}, "malformed"),
            ({"type": "fly"}, "malformed"),
            ({"type": "hello", "token": None}, "already-joined"),
        ]
        for message, code in cases:
            ws.send_json(message)
            reply = ws.receive_json()
            assert reply["type"] == "error", reply
            if code is not None:
                assert reply["code"] == code, reply
            else:
                # seat 0 is either out of turn or bidding clubs first: a rule is named
                assert reply.get("rule") in ("R3.2",) or reply["code"] == "not-your-turn", reply
        ws.send_text("{not json")
        assert ws.receive_json()["code"] == "malformed"
        ws.send_text("x" * 5000)
        assert ws.receive_json()["code"] == "too-large"
        ws.send_json({"type": "sync"})
        again = receive_state(ws)
        assert again["version"] == version and again["view"] == view
        if mover != 0:
            ws.send_json({"type": "act", "action": "pass", "version": version})
            reply = ws.receive_json()
            assert reply["code"] == "not-your-turn" and reply["rule"] == "R3.2"


def test_bad_token_and_spectator_cannot_act(client: TestClient) -> None:
    table = new_table(client, HUMANS)
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": "forged"})
        assert ws.receive_json()["code"] == "bad-token"
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": None})
        state = receive_state(ws)
        assert state["you"] is None and state["view"]["hand"] == []
        ws.send_json({"type": "act", "action": "pass", "version": state["version"], "id": "x"})
        assert ws.receive_json()["code"] == "spectator"


def test_two_tabs_on_one_seat_and_duplicate_command_ids(client: TestClient) -> None:
    table = new_table(client, HUMANS)
    tokens = [take(client, table, s, n) for s, n in enumerate(("Ana", "Bo", "Cy"))]
    with client.websocket_connect(f"/ws/tables/{table}") as probe:
        probe.send_json({"type": "hello", "token": None})
        mover = receive_state(probe)["view"]["to_move"]
    with (
        client.websocket_connect(f"/ws/tables/{table}") as tab1,
        client.websocket_connect(f"/ws/tables/{table}") as tab2,
    ):
        tab1.send_json({"type": "hello", "token": tokens[mover]})
        s1 = receive_state(tab1)
        tab2.send_json({"type": "hello", "token": tokens[mover]})
        s2 = receive_state(tab2)
        assert s1["view"]["hand"] == s2["view"]["hand"]
        version = s2["version"]
        tab1.send_json({"type": "act", "action": "pass", "version": version, "id": "same"})
        after = receive_state(tab1, version + 1)
        assert receive_state(tab2, version + 1)["view"] == after["view"]
        while (msg := tab1.receive_json())["type"] != "ack":
            pass
        assert msg == {"type": "ack", "id": "same", "version": version + 1}
        # the same command again: answered from memory, applied once
        tab2.send_json({"type": "act", "action": "pass", "version": version, "id": "same"})
        while (msg := tab2.receive_json())["type"] != "ack":
            pass
        assert msg["version"] == version + 1


def test_reconnect_resumes_the_seat_and_restart_keeps_every_table(db_url: str) -> None:
    rng = random.Random(5)
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        table = new_table(client, HUMANS)
        tokens = [take(client, table, s, n) for s, n in enumerate(("Ana", "Bo", "Cy"))]
        before = act_in_turn(client, table, tokens, rng, 6)
    # the server stops; a new one on the same database continues the table
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        seat = before["view"]["to_move"]
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            ws.send_json({"type": "hello", "token": tokens[seat]})
            resumed = receive_state(ws)
        assert resumed["version"] == before["version"]
        assert resumed["view"]["history"] == before["view"]["history"]
        assert resumed["deals"] == before["deals"]
        final = play_three_humans(client, table, tokens, rng)
        assert final["winners"]


def test_bots_fill_seats_and_play_on_the_server(client: TestClient) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "random"}]
    table = new_table(client, seats, target=15)
    token = take(client, table, 0, "Ana")
    rng = random.Random(9)
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": token})
        state = receive_state(ws)
        for _ in range(3000):
            if state["winners"]:
                break
            view = state["view"]
            if view["to_move"] == 0:
                ws.send_json(
                    {"type": "act", "action": rng.choice(view["legal"]), "version": state["version"]}
                )
            state = receive_state(ws, state["version"] + 1)
        assert state["winners"]
        assert all(s["online"] for s in state["table"]["seats"])


def test_deck_commitments_are_revealed_after_each_deal(client: TestClient) -> None:
    import hashlib

    from paston.fairness import derive_deck

    table = new_table(client, [{"kind": "bot", "bot": "random"}] * 3, target=10)
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": None})
        state = receive_state(ws)
        while not state["winners"]:
            state = receive_state(ws, state["version"] + 1)
    record = client.get(f"/api/tables/{table}/record").json()
    assert len(state["deals"]) == len(record["deals"])
    for published, deal in zip(state["deals"], record["deals"], strict=True):
        assert hashlib.sha256(bytes.fromhex(published["seed"])).hexdigest() == published["commit"]
        fair = deal["fairness"]
        assert (fair["secret"], fair["commitment"]) == (published["seed"], published["commit"])
        seeds = [s["seed"] for s in fair["seeds"]]
        deck = derive_deck(published["seed"], table, fair["deal"], fair["previous"], seeds)
        assert [str(ALL_CARDS[i]) for i in deck] == deal["deck"]


def test_websocket_origin_is_checked(client: TestClient) -> None:
    table = new_table(client, HUMANS)
    from starlette.websockets import WebSocketDisconnect

    evil = {"origin": "http://evil.example"}
    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect(f"/ws/tables/{table}", headers=evil) as ws,
    ):
        ws.receive_json()


def test_a_bot_plays_for_an_absent_person_until_they_return(client: TestClient) -> None:
    import time

    res = client.post(
        "/api/tables", json={"name": "T", "rules": {"target": 30}, "seats": HUMANS, "takeover_seconds": 1}
    )
    table = res.json()["id"]
    tokens = [take(client, table, s, n) for s, n in enumerate(("Ana", "Bo", "Cy"))]
    with client.websocket_connect(f"/ws/tables/{table}") as watcher:
        watcher.send_json({"type": "hello", "token": None})
        state = receive_state(watcher)
        # nobody is connected: after a second, stand-ins play for all three
        state = receive_state(watcher, state["version"] + 3)
        assert any(s["standin"] for s in state["table"]["seats"])
    # Ana comes back: when it is her turn, nothing happens until she acts
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": tokens[0]})
        mine = receive_state(ws)
        assert mine["table"]["seats"][0]["standin"] is False
        for _ in range(200):
            if mine["view"]["to_move"] == 0 or mine["winners"]:
                break
            mine = receive_state(ws, mine["version"] + 1)
        if not mine["winners"]:
            time.sleep(1.5)
            ws.send_json({"type": "sync"})
            still = receive_state(ws)
            assert still["version"] == mine["version"] and still["view"]["to_move"] == 0


def test_rematch_after_the_game(client: TestClient) -> None:
    table = new_table(
        client,
        [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}],
        target=10,
    )
    token = take(client, table, 0, "Ana")
    assert client.post(f"/api/tables/{table}/rematch", json={}).status_code == 409
    rng = random.Random(2)
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": token})
        state = receive_state(ws)
        while not state["winners"]:
            if state["view"]["to_move"] == 0:
                ws.send_json(
                    {"type": "act", "action": rng.choice(state["view"]["legal"]), "version": state["version"]}
                )
            state = receive_state(ws, state["version"] + 1)
    first = client.post(f"/api/tables/{table}/rematch", json={"token": token}).json()
    assert first["token"] and first["id"] != table
    again = client.post(f"/api/tables/{table}/rematch", json={}).json()
    assert again["id"] == first["id"] and again["token"] is None
    assert client.get(f"/api/tables/{table}").json()["rematch"] == first["id"]
    seats = client.get(f"/api/tables/{first['id']}").json()["seats"]
    assert seats[0]["name"] == "Ana" and seats[0]["taken"] and seats[1]["kind"] == "bot"


def test_replay_of_a_finished_game_and_of_an_opened_record(client: TestClient) -> None:
    unfinished = new_table(client, HUMANS)
    assert client.get(f"/api/tables/{unfinished}/replay").status_code == 409  # hands stay hidden
    table = new_table(client, [{"kind": "bot", "bot": "random"}] * 3, target=10)
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": None})
        state = receive_state(ws)
        while not state["winners"]:
            state = receive_state(ws, state["version"] + 1)
    replay = client.get(f"/api/tables/{table}/replay").json()
    record = client.get(f"/api/tables/{table}/record").json()
    assert len(replay["deals"]) == len(record["deals"])
    for deal, steps in zip(record["deals"], replay["deals"], strict=True):
        assert len(steps["steps"]) == len(deal["actions"]) + 1
        first = steps["steps"][0]
        assert [sorted(h) for h in first["hands"]] == [sorted(h) for h in deal["hands"]]  # all hands shown
        assert [s["next"]["action"] for s in steps["steps"][:-1]] == [
            {
                "bid": lambda a: f"bid {a['value']}",
                "trump": lambda a: f"trump {a['value']}",
                "play": lambda a: f"play {a['card']}",
                "discard": lambda a: "discard " + " ".join(a["cards"]),
            }.get(a["type"], lambda a: a["type"])(a)
            for a in deal["actions"]
        ]
    opened = client.post("/api/replay", content=json.dumps(record))
    assert opened.status_code == 200 and opened.json() == replay
    record["deals"][0]["deck"][0], record["deals"][0]["deck"][1] = record["deals"][0]["deck"][1], "ZZ"
    bad = client.post("/api/replay", content=json.dumps(record))
    assert bad.status_code == 400 and "deal 0" in bad.json()["error"]["message"]
    assert client.post("/api/replay", content=b"{").status_code == 400


def test_a_flood_of_messages_is_rate_limited_and_changes_nothing(client: TestClient) -> None:
    table = new_table(client, HUMANS)
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": None})
        state = receive_state(ws)
        for _ in range(300):
            ws.send_json({"type": "ping"})
        replies = [ws.receive_json() for _ in range(300)]
        codes = {r.get("code") for r in replies if r["type"] == "error"}
        assert codes == {"rate-limited"}
        assert sum(r["type"] == "pong" for r in replies) >= 100  # the burst allowance
        time.sleep(0.2)  # the allowance refills
        ws.send_json({"type": "sync"})
        while (msg := ws.receive_json())["type"] != "state":
            pass
        assert msg["version"] == state["version"]


def test_the_final_trick_of_a_deal_stays_visible_in_the_next_deal(client: TestClient) -> None:
    table = new_table(client, [{"kind": "bot", "bot": "heuristic"}] * 3, target=10)
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": None})
        state = receive_state(ws)
        while not state["winners"]:
            state = receive_state(ws, state["version"] + 1)
    record = client.get(f"/api/tables/{table}/record").json()
    played = [d for d in record["deals"] if d.get("result") and d["result"]["outcome"] == "played"]
    if not played:
        assert state["previous_trick"] is None
        return
    plays = [a for a in played[-1]["actions"] if a["type"] == "play"]
    n = len(played[-1]["result"]["defenders"]) + 1
    assert [p["card"] for p in state["previous_trick"]["plays"]] == [a["card"] for a in plays[-n:]]
    assert [p["seat"] for p in state["previous_trick"]["plays"]] == [a["seat"] for a in plays[-n:]]


def test_computer_players_move_at_once_when_the_creator_arrives_at_a_takeover_table(
    client: TestClient,
) -> None:
    """A table with a long ``takeover_seconds``, made with its creator's seat, whose first
    move is a computer player's: the wait for a stand-in (nobody connected yet) used to
    block the computer players until it ran out, although the person came at once (found
    by the abuse suite). Now the person's arrival replaces the wait."""
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}]
    for attempt in range(20):
        body = {
            "name": f"T{attempt}",
            "seats": seats,
            "takeover_seconds": 3600,
            "creator": {"seat": 0, "name": "Ana"},
        }
        made = client.post("/api/tables", json=body).json()
        live = client.app.state.manager.get(made["id"])  # type: ignore[attr-defined]
        if live.match.to_move != 0:
            break
    else:
        pytest.fail("no table whose first move is a computer player's")
    with client.websocket_connect(f"/ws/tables/{made['id']}") as ws:
        ws.send_json({"type": "hello", "token": made["token"]})
        first = receive_state(ws)
        deadline = time.monotonic() + 5
        while live.version == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert live.version > 0, "the computer players waited for the takeover time"
        assert first["version"] == 0
