"""Command ids and strict messages on the live table WebSocket: an id belongs to the
seat that sent it, a resend is answered truthfully (a duplicate, applied once) even
after a restart on SQLite and PostgreSQL, and a message of the wrong type (``true``
for a version) is refused naming the field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.db_helpers import any_db
from tests.ws_helpers import HUMANS, new_table, receive_state, take

from paston.server.web.app import create_app

__all__ = ["any_db"]  # the fixture (tests/db_helpers.py): SQLite and PostgreSQL


def answer(ws: Any) -> dict[str, Any]:
    """The next ack or error (states in between are skipped)."""
    while (msg := ws.receive_json())["type"] not in ("ack", "error"):
        pass
    return dict(msg)


def act(client: TestClient, table: str, token: str, message: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """Send one act as the seat of ``token``; the answer and the table's version after it."""
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": token})
        receive_state(ws)
        ws.send_json({"type": "act", **message})
        reply = answer(ws)
        ws.send_json({"type": "sync"})
        return reply, receive_state(ws)["version"]


def to_move(client: TestClient, table: str) -> tuple[int, dict[str, Any]]:
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": None})
        state = receive_state(ws)
    return state["view"]["to_move"], state


def test_command_ids_belong_to_their_seat_and_resends_are_known_after_a_restart(any_db: str) -> None:
    with TestClient(create_app(any_db, bot_delay=0.0)) as client:
        table = new_table(client, HUMANS)
        tokens = [take(client, table, s, n) for s, n in enumerate(("Ana", "Bo", "Cy"))]
        first, state = to_move(client, table)
        v = state["version"]
        reply, version = act(client, table, tokens[first], {"action": "pass", "version": v, "id": "k1"})
        assert reply == {"type": "ack", "id": "k1", "version": v + 1} and version == v + 1
        # another seat's "k1" is another command: it is applied
        second, _ = to_move(client, table)
        assert second != first
        reply, version = act(client, table, tokens[second], {"action": "pass", "version": v + 1, "id": "k1"})
        assert reply == {"type": "ack", "id": "k1", "version": v + 2} and version == v + 2
    # the server stops; a new one on the same database still knows the ids
    with TestClient(create_app(any_db, bot_delay=0.0)) as client:
        reply, version = act(client, table, tokens[first], {"action": "pass", "version": v, "id": "k1"})
        assert reply == {"type": "ack", "id": "k1", "version": v + 1, "duplicate": True}
        assert version == v + 2  # applied once
        reply, version = act(client, table, tokens[second], {"action": "pass", "id": "k1"})
        assert reply == {"type": "ack", "id": "k1", "version": v + 2, "duplicate": True}
        # the same id for another action is refused, not acknowledged
        reply, version = act(client, table, tokens[first], {"action": "bid spades", "id": "k1"})
        assert reply["type"] == "error" and reply["code"] == "id-reused" and reply["id"] == "k1", reply
        assert version == v + 2


@pytest.mark.parametrize(
    ("message", "field"),
    [
        ({"type": "act", "action": "pass", "version": True}, "act.version"),
        ({"type": "act", "action": "pass", "version": False}, "act.version"),
        ({"type": "act", "action": "pass", "version": "0"}, "act.version"),
        ({"type": "act", "action": "pass", "version": 0.0}, "act.version"),
        ({"type": "act", "action": 7, "version": 0}, "act.action"),
        ({"type": "act", "action": "pass", "id": 12}, "act.id"),
        ({"type": "act", "action": ["pass"]}, "act.action"),
    ],
)
def test_a_value_of_the_wrong_type_is_refused_naming_the_field(
    tmp_path: Path, message: dict[str, Any], field: str
) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'p.db'}", bot_delay=0.0)) as client:
        table = new_table(client, HUMANS)
        tokens = [take(client, table, s, n) for s, n in enumerate(("Ana", "Bo", "Cy"))]
        seat, state = to_move(client, table)
        reply, version = act(client, table, tokens[seat], {k: v for k, v in message.items() if k != "type"})
        assert reply["type"] == "error" and reply["code"] == "malformed", reply
        assert field in reply["message"], reply
        assert set(reply) <= {"type", "code", "message"}
        assert version == state["version"]  # nothing happened


@pytest.mark.parametrize(
    "hello",
    [
        {"type": "hello", "token": 5},
        {"type": "hello", "token": None, "updates": 1},
        {"type": "hello", "token": None, "updates": "yes"},
    ],
)
def test_a_hello_of_the_wrong_type_is_refused_naming_the_field(tmp_path: Path, hello: dict[str, Any]) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'p.db'}", bot_delay=0.0)) as client:
        table = new_table(client, HUMANS)
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            ws.send_json(hello)
            reply = ws.receive_json()
            assert set(reply) == {"type", "code", "message"}
            assert reply["code"] == "bad-hello", reply
            wrong = next(k for k in ("token", "updates") if k in hello and hello[k] not in (None,))
            assert f"hello.{wrong}" in reply["message"], reply
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1008
