"""Update messages: after one full state a client gets only what changed, and what it
rebuilds is exactly the full state the server would send; nothing leaks; a client far
behind is dropped instead of holding up its table."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from fastapi.testclient import TestClient
from tests.ws_helpers import HUMANS, client, db_url, known_codes, new_table, receive_state, take

from paston.server.tables.connection import MAX_OUTBOX, Connection

__all__ = ["client", "db_url"]  # the fixtures (tests/ws_helpers.py), used by name

SHARED = ("table", "sheet", "winners", "previous_trick", "last_deal", "next_deal")


def merge(held: dict[str, Any] | None, update: dict[str, Any]) -> dict[str, Any] | None:
    """What the browser client does with an update (``mergeUpdate`` in live.js)."""
    if held is None:
        return None
    if "history" in update["view"]:
        history = update["view"]["history"]
    elif "event" in update:
        if update["version"] != held["version"] + 1:
            return None
        history = [*held["view"]["history"], update["event"]]
    else:
        if update["version"] != held["version"]:
            return None
        history = held["view"]["history"]
    out = {**held, "type": "state", "version": update["version"], "you": update["you"]}
    for key in SHARED:
        if key in update:
            out[key] = update[key]
    if "deals" in update:  # the deals from deals_from on
        start = update.get("deals_from", 0)
        if len(held["deals"]) < start:
            return None
        out["deals"] = [*held["deals"][:start], *update["deals"]]
    out["view"] = {**update["view"], "history": history}
    return out


class Follower:
    """A socket that asked for updates, and the state it rebuilds from them."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.state: dict[str, Any] | None = None
        self.raw: list[dict[str, Any]] = []

    def read_until(self, version: int) -> dict[str, Any]:
        while self.state is None or self.state["version"] < version:
            msg = self.ws.receive_json()
            if msg["type"] == "state":
                self.state = msg
            elif msg["type"] == "update":
                self.raw.append(msg)
                merged = merge(self.state, msg)
                assert merged is not None, f"an update that does not follow: {msg}"
                self.state = merged
        return self.state


def allowed_cards(state: dict[str, Any]) -> set[str]:
    """The cards the audience of a full state may know of."""
    view = state["view"]
    allowed = set(view["hand"])
    allowed |= {h["card"] for h in view["history"] if h["type"] == "play"}
    if view["prikup"] is not None:
        allowed |= set(view["prikup"]) | set(view["discard"] or [])
    if state["previous_trick"]:
        allowed |= {p["card"] for p in state["previous_trick"]["plays"]}
    shown = state.get("last_deal")
    if shown is not None:  # a finished deal's cards, shown once it is over
        assert shown["deal"] < len(state["deals"]) - 1 or view["phase"] in ("over", "redeal")
        allowed |= {c for line in shown["seats"] for c in line["hand"]} | set(shown["prikup"])
    return allowed


def test_updates_rebuild_the_full_state_exactly_and_leak_nothing(client: TestClient) -> None:
    table = new_table(client, HUMANS, target=121)
    tokens = [take(client, table, s, n) for s, n in enumerate(("Ana", "Bo", "Cy"))]
    rng = random.Random(11)
    url = f"/ws/tables/{table}"
    with (
        client.websocket_connect(url) as w0,
        client.websocket_connect(url) as w1,
        client.websocket_connect(url) as w2,
        client.websocket_connect(url) as watcher,
        client.websocket_connect(url) as full_watcher,
    ):
        seats = [Follower(w) for w in (w0, w1, w2)]
        for f, token in zip(seats, tokens, strict=True):
            f.ws.send_json({"type": "hello", "token": token, "updates": True})
        public = Follower(watcher)
        watcher.send_json({"type": "hello", "token": None, "updates": True})
        full_watcher.send_json({"type": "hello", "token": None})
        version = receive_state(full_watcher)["version"]
        for f in [*seats, public]:
            f.read_until(version)
        steps = syncs = 0
        saw_event = saw_new_deal = False
        while True:
            states = [f.read_until(version) for f in seats]
            if states[0]["winners"]:
                break
            seat = states[0]["view"]["to_move"]
            action = rng.choice(states[seat]["view"]["legal"])
            seats[seat].ws.send_json({"type": "act", "action": action, "version": version, "id": f"c{steps}"})
            version += 1
            full = receive_state(full_watcher, version)
            assert public.read_until(version) == full, "the spectator's rebuilt state differs"
            for s, f in enumerate(seats):
                state = f.read_until(version)
                last = f.raw[-1]
                saw_event |= "event" in last
                saw_new_deal |= "history" in last["view"]
                assert known_codes(last) <= allowed_cards(state), f"seat {s} was sent a hidden card"
                assert known_codes(state) <= allowed_cards(state)
            assert known_codes(public.raw[-1]) <= allowed_cards(public.state or {})
            if steps % 20 == 0:  # a resync gives exactly the rebuilt state
                s = steps // 20 % 3
                rebuilt = seats[s].state
                seats[s].ws.send_json({"type": "sync"})
                while (msg := seats[s].ws.receive_json())["type"] != "state":
                    assert msg["type"] != "error", msg  # (a rate limit would show here)
                assert msg == rebuilt
                syncs += 1
            steps += 1
            assert steps < 5000
        assert saw_event and syncs >= 1
        # each new deal came with its whole history (random play may end the game in one deal)
        assert saw_new_deal == (len(full["deals"]) > 1)
        # and without the deals it holds already, which never change again
        assert any(m.get("deals_from", 0) > 0 for m in public.raw) == (len(full["deals"]) > 1)
        sizes = [len(str(m)) for m in public.raw]
        assert max(sizes) < len(str(full)) * 2  # updates stay small


def test_an_update_that_does_not_follow_asks_for_a_resync() -> None:
    held = {"type": "state", "version": 4, "you": 0, "view": {"history": []}, "table": {}}
    assert merge(held, {"type": "update", "version": 6, "you": 0, "view": {}, "event": {}}) is None
    assert merge(held, {"type": "update", "version": 5, "you": 0, "view": {}}) is None
    assert merge(None, {"type": "update", "version": 5, "you": 0, "view": {}, "event": {}}) is None
    merged = merge(held, {"type": "update", "version": 5, "you": 0, "view": {"a": 1}, "event": {"x": 1}})
    assert merged == {**held, "version": 5, "view": {"a": 1, "history": [{"x": 1}]}}


def test_a_client_too_far_behind_is_dropped_and_the_table_goes_on() -> None:
    async def scenario() -> tuple[bool, bool, int]:
        stuck = asyncio.Event()
        hung_up = asyncio.Event()

        async def never_sends(text: str) -> None:
            await stuck.wait()

        async def hangup() -> None:
            hung_up.set()

        conn = Connection(send=never_sends, seat=0)
        conn.hangup = hangup
        conn.start()
        for i in range(MAX_OUTBOX + 5):
            conn.push(f"m{i}")  # never blocks the caller
        await asyncio.wait_for(hung_up.wait(), 1)
        queued = conn.outbox.qsize()
        conn.push("after")
        return conn.closed, hung_up.is_set(), queued

    closed, hung_up, queued = asyncio.run(scenario())
    assert closed and hung_up
    assert queued <= MAX_OUTBOX + 1


def test_a_database_failure_refuses_the_move_and_changes_nothing(client: TestClient) -> None:
    table = new_table(client, HUMANS)
    tokens = [take(client, table, s, n) for s, n in enumerate(("Ana", "Bo", "Cy"))]
    manager = client.app.state.manager  # type: ignore[attr-defined]
    log = manager.log
    working = log.write

    def broken(rows: list[dict[str, Any]]) -> None:
        raise OSError("disk full")

    seat = manager.get(table).match.to_move
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": tokens[seat], "updates": True})
        state = receive_state(ws)
        action = state["view"]["legal"][0]
        log.write = broken
        ws.send_json({"type": "act", "action": action, "version": state["version"], "id": "x1"})
        while (msg := ws.receive_json())["type"] != "error":
            pass
        assert msg["code"] == "storage" and "could not be saved" in msg["message"]
        assert manager.get(table).version == state["version"]
        log.write = working
        ws.send_json({"type": "act", "action": action, "version": state["version"], "id": "x2"})
        while (msg := ws.receive_json())["type"] != "ack":
            assert msg["type"] != "error", msg
        assert msg["version"] == state["version"] + 1
