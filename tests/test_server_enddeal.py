"""The end of a deal over the WebSocket (paston.server.tables.pause): the table shows the
finished deal's summary until each person whose client shows it presses Next, or the
table's ``next_deal_seconds`` pass; computer players never hold it up; the hands come
only once the deal is over; a restart goes on with the pause for the time it had left."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from paston.server.store.db import ActionRow, make_engine, now
from paston.server.tables import pause
from paston.server.web.app import create_app

HUMANS = [{"kind": "human"}] * 3
CODES = {r + s for r in "789TJQKA" for s in "SCDH"}


class Client:
    """A WebSocket client on a table that keeps every message (a reader thread), sends
    ``next`` in its hello when it ``shows`` the end of a deal, and answers seed requests."""

    def __init__(
        self, client: TestClient, table: str, token: str | None, *, shows: bool = True, seeds: bool = False
    ) -> None:
        self._cm = client.websocket_connect(f"/ws/tables/{table}")
        self.ws = self._cm.__enter__()
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self.ws.send_json({"type": "hello", "token": token, "next": shows, "seeds": seeds})
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while True:
            try:
                msg = self.ws.receive_json()
            except Exception:
                return
            self.seen.append(msg)
            if msg["type"] == "seed-request":  # answered at once, as the browser does
                self.send({"type": "seed", "commit": msg["commit"], "seed": "ab" * 32})
                continue
            self.inbox.put(msg)

    def send(self, message: dict[str, Any]) -> None:
        with self._lock:
            self.ws.send_json(message)
        time.sleep(0.01)

    def until(self, wanted: Callable[[dict[str, Any]], bool], timeout: float = 15.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            msg = self.inbox.get(timeout=max(0.01, deadline - time.monotonic()))
            if wanted(msg):
                return msg

    def latest(self, wanted: Callable[[dict[str, Any]], bool], timeout: float = 15.0) -> dict[str, Any]:
        """The newest message heard so far that is ``wanted`` (waiting for one)."""
        deadline = time.monotonic() + timeout
        while True:
            for m in reversed(self.seen):
                if wanted(m):
                    return m
            assert time.monotonic() < deadline, "no such message"
            time.sleep(0.01)

    def close(self) -> None:
        self._cm.__exit__(None, None, None)
        self._thread.join(timeout=5)


def state(pred: Callable[[dict[str, Any]], bool]) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["type"] == "state" and pred(m)


def to_move(m: dict[str, Any]) -> bool:
    """Someone may move, and the seat's cards are shown (not shuffled again, nor sealed
    while a person has still to seed the deal, F6)."""
    return m["view"]["to_move"] is not None and not m["shuffling"] and not m.get("sealed")


def paused(m: dict[str, Any]) -> bool:
    return m["next_deal"] is not None


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'p.db'}", bot_delay=0.0, seed_timeout=0.2)) as c:
        yield c


def seated(client: TestClient, seats: list[dict[str, Any]], **extra: Any) -> tuple[str, list[str | None]]:
    body = {"name": "End", "rules": {"target": 100_000}, "seats": seats, **extra}
    res = client.post("/api/tables", json=body)
    assert res.status_code == 201, res.text
    table = str(res.json()["id"])
    tokens: list[str | None] = []
    for i, s in enumerate(seats):
        if s["kind"] == "human":
            got = client.post(f"/api/tables/{table}/seats/{i}", json={"name": f"P{i}"})
            tokens.append(str(got.json()["token"]))
        else:
            tokens.append(None)
    return table, tokens


def surrender_policy(view: dict[str, Any]) -> str:
    """The quickest end of a deal: the first bidder bids spades, the others pass, the
    declarer discards and surrenders (R4.3)."""
    legal = view["legal"]
    if "surrender" in legal:
        return "surrender"
    if view["high_bid"] is None and "bid spades" in legal and view["in_auction"].count(True) == 3:
        return "bid spades"
    if "pass" in legal:
        return "pass"
    return str(legal[0])


def finish_deal(clients: list[Client], first: dict[str, Any]) -> dict[str, Any]:
    """Let the seats' clients end the current deal by surrender; returns the state
    in which it is over, or the next deal dealt at once (as client 0 sees it)."""
    m = first
    deal = len(m["deals"])
    while True:
        seat = m["view"]["to_move"]
        now = state(lambda s, v=m["version"], n=len(m["deals"]): s["version"] == v and len(s["deals"]) == n)
        mine = m if seat == 0 else clients[seat].latest(now)  # the state of the deal on the table
        if not mine["view"]["legal"]:  # the seat's view still sealed, its seed not in yet (F6)
            mine = clients[seat].until(state(lambda s: bool(s["view"]["legal"])))
        clients[seat].send(
            {"type": "act", "action": surrender_policy(mine["view"]), "version": mine["version"]}
        )
        m = clients[0].until(state(lambda s, v=mine["version"]: s["version"] > v))
        if m["view"]["to_move"] is None or len(m["deals"]) > deal:
            return m


def test_the_next_deal_waits_for_each_person_who_sees_the_summary(client: TestClient) -> None:
    table, tokens = seated(client, HUMANS)
    people = [Client(client, table, tokens[0]), Client(client, table, tokens[1])]
    older = Client(client, table, tokens[2], shows=False)  # a client without the panel never holds it up
    watcher = Client(client, table, None)
    clients = [*people, older]
    try:
        first = clients[0].until(state(to_move))
        over = finish_deal(clients, first)
        deal = len(over["deals"]) - 1
        m = over
        assert m["next_deal"]["deal"] == deal and m["next_deal"]["waiting"] == [0, 1]
        assert m["next_deal"]["seconds"] == 30 and 0 < m["next_deal"]["ends_in"] <= 30
        summary = m["last_deal"]
        assert summary["deal"] == deal and summary["outcome"] == "surrender" and summary["made"] is None
        assert [s["rule"] for s in summary["seats"]] == ["R7.7"] * 3
        assert sorted(c for s in summary["seats"] for c in s["hand"]) + summary["prikup"] != []
        assert {c for s in summary["seats"] for c in s["hand"]} | set(summary["prikup"]) == CODES

        watcher.send({"type": "next"})  # a spectator does not press
        assert watcher.until(lambda x: x["type"] == "error")["code"] == "spectator"
        people[0].send({"type": "next", "deal": deal + 5})  # not the deal on show
        assert people[0].until(lambda x: x["type"] == "error")["code"] == "not-paused"

        people[0].send({"type": "next", "deal": deal})
        m = clients[1].until(state(lambda s: paused(s) and s["next_deal"]["waiting"] == [1]))
        assert m["next_deal"]["pressed"] == [0] and len(m["deals"]) == deal + 1  # nothing dealt yet
        people[1].send({"type": "next"})
        m = clients[0].until(state(lambda s: len(s["deals"]) == deal + 2 and to_move(s)))
        assert m["next_deal"] is None and m["last_deal"]["deal"] == deal  # still there, for a look back
        people[1].send({"type": "next"})  # too late: no pause now
        assert people[1].until(lambda x: x["type"] == "error")["code"] == "not-paused"
    finally:
        for c in [*clients, watcher]:
            c.close()


def test_the_pause_ends_when_the_tables_seconds_pass(client: TestClient) -> None:
    table, tokens = seated(client, HUMANS, next_deal_seconds=1)
    assert client.get(f"/api/tables/{table}").json()["next_deal_seconds"] == 1
    clients = [Client(client, table, t) for t in tokens]
    try:
        over = finish_deal(clients, clients[0].until(state(to_move)))
        deal = len(over["deals"]) - 1
        began = time.monotonic()
        assert paused(over)
        clients[0].until(state(lambda s: len(s["deals"]) == deal + 2 and to_move(s)), timeout=10)
        assert 0.5 < time.monotonic() - began < 6
    finally:
        for c in clients:
            c.close()


def test_no_pause_at_a_table_that_says_0_seconds(client: TestClient) -> None:
    table, tokens = seated(client, HUMANS, next_deal_seconds=0)
    clients = [Client(client, table, t) for t in tokens]
    try:
        first = clients[0].until(state(to_move))
        m = finish_deal(clients, first)
        assert len(m["deals"]) > len(first["deals"]) and to_move(m)  # dealt at once
        assert all(x["next_deal"] is None for x in clients[0].seen if x["type"] == "state")
        assert m["last_deal"]["outcome"] == "surrender"
    finally:
        for c in clients:
            c.close()


def test_computer_players_never_hold_the_next_deal_up(client: TestClient) -> None:
    bots = [{"kind": "bot", "bot": "random"}] * 3
    table, _ = seated(client, bots)
    watcher = Client(client, table, None)
    try:
        watcher.until(state(lambda s: len(s["deals"]) >= 4 and len(s["sheet"]) >= 2), timeout=60)
        assert all(x["next_deal"] is None for x in watcher.seen if x["type"] == "state")
    finally:
        watcher.close()
    # one person and two computers: only the person is waited for
    table, tokens = seated(client, [{"kind": "human"}, *bots[:2]])
    person = Client(client, table, tokens[0])
    try:
        m = person.until(state(lambda s: to_move(s) or paused(s)))
        while not paused(m):
            if m["view"]["legal"]:
                person.send({"type": "act", "action": surrender_policy(m["view"]), "version": m["version"]})
            m = person.until(state(lambda s, v=m["version"]: s["version"] > v))
        assert m["next_deal"]["waiting"] == [0]
        person.send({"type": "next"})
        person.until(state(lambda s: s["next_deal"] is None and len(s["deals"]) > m["next_deal"]["deal"] + 1))
    finally:
        person.close()


def test_no_hand_is_shown_before_its_deal_is_over(client: TestClient) -> None:
    table, tokens = seated(client, HUMANS, next_deal_seconds=1)
    clients = [Client(client, table, t) for t in tokens]
    watcher = Client(client, table, None)
    try:
        m = clients[0].until(state(to_move))
        for _ in range(3):
            over = finish_deal(clients, m)
            m = clients[0].until(state(lambda s, n=len(over["deals"]): len(s["deals"]) > n and to_move(s)))
        time.sleep(0.3)
        states = [x for c in [*clients, watcher] for x in c.seen if x["type"] == "state"]
        assert sum(1 for x in states if x["last_deal"] is not None) > 10
        for x in states:
            current = len(x["deals"]) - 1
            shown = x["last_deal"]
            if shown is None:
                continue
            # only a deal that is over: an earlier one, or the current one once over
            assert shown["deal"] < current or x["view"]["phase"] in ("over", "redeal"), x
            assert x["deals"][shown["deal"]]["seed"] is not None  # its secret is revealed too
            if x["view"]["phase"] not in (
                "over",
                "redeal",
            ):  # a deal in progress: hands of earlier deals only
                hand = set(x["view"]["hand"])
                assert not hand or hand != set(shown["seats"][x["you"] or 0]["hand"])
    finally:
        for c in [*clients, watcher]:
            c.close()


def paused_then_stopped(url: str, seconds: float) -> tuple[str, list[str | None], int]:
    """A server whose table of three people ends a deal (its pause begins) and stops;
    the table, the seat tokens and the number of deals."""
    with TestClient(create_app(url, bot_delay=0.0, seed_timeout=0.2)) as c:
        table, tokens = seated(c, HUMANS, next_deal_seconds=seconds)
        clients = [Client(c, table, t) for t in tokens]
        try:
            over = finish_deal(clients, clients[0].until(state(to_move)))
            assert paused(over)
            return table, tokens, len(over["deals"])
        finally:
            for x in clients:
                x.close()


def test_a_restart_during_the_pause_goes_on_with_it_for_the_time_it_had_left(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'r.db'}"
    table, tokens, deals = paused_then_stopped(url, 45)
    with TestClient(create_app(url, bot_delay=0.0, seed_timeout=0.2)) as c:
        live = c.app.state.manager.get(table)  # type: ignore[attr-defined]
        assert live.next_deal_seconds == 45
        assert live.pause is not None and len(live.match.deals) == deals  # nothing dealt: still on show
        assert live.pause.deal == deals - 1 and live.pause.expected == {0, 1, 2}  # everyone seated
        assert 30 < live.pause.ends_in() < 45
        watcher = Client(c, table, None)
        people = [Client(c, table, t) for t in tokens]
        try:
            m = watcher.until(state(paused))
            assert m["last_deal"]["deal"] == deals - 1 and m["next_deal"]["deal"] == deals - 1
            assert m["next_deal"]["waiting"] == [0, 1, 2] and m["table"]["next_deal_seconds"] == 45
            for person in people:
                person.send({"type": "next", "deal": deals - 1})
            m = watcher.until(state(lambda s: len(s["deals"]) == deals + 1 and to_move(s)))
            assert m["next_deal"] is None
        finally:
            for x in [watcher, *people]:
                x.close()


def test_a_resumed_pause_holds_only_those_back_after_its_grace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Everyone seated holds a resumed pause for RESUME_GRACE seconds; then only those
    back with a client that shows the end of a deal: one person who never comes back
    and one whose client does not show it no longer hold it up."""
    monkeypatch.setattr(pause, "RESUME_GRACE", 1.0)
    url = f"sqlite:///{tmp_path / 'r.db'}"
    table, tokens, deals = paused_then_stopped(url, 45)
    with TestClient(create_app(url, bot_delay=0.0, seed_timeout=0.2)) as c:
        back = Client(c, table, tokens[0])
        older = Client(c, table, tokens[2], shows=False)
        try:
            m = back.until(state(paused))
            assert m["next_deal"]["waiting"] == [0, 1, 2]  # within the grace: everyone seated
            m = back.until(state(lambda s: paused(s) and s["next_deal"]["waiting"] == [0]), timeout=10)
            assert m["next_deal"]["deal"] == deals - 1 and len(m["deals"]) == deals
            back.send({"type": "next", "deal": deals - 1})
            back.until(state(lambda s: len(s["deals"]) == deals + 1 and s["next_deal"] is None))
        finally:
            back.close()
            older.close()


def test_a_restart_after_the_pauses_time_deals_on_and_keeps_the_setting(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'r.db'}"
    table, _, deals = paused_then_stopped(url, 45)
    engine = make_engine(url)
    with engine.begin() as conn:  # the server was down longer than the pause
        conn.execute(update(ActionRow).values(created=now() - timedelta(seconds=46)))
    engine.dispose()
    with TestClient(create_app(url, bot_delay=0.0, seed_timeout=0.2)) as c:
        live = c.app.state.manager.get(table)  # type: ignore[attr-defined]
        assert live.pause is None and len(live.match.deals) == deals + 1  # dealt at the start
        assert live.next_deal_seconds == 45
        watcher = Client(c, table, None)
        try:
            m = watcher.until(state(lambda s: True))
            assert m["last_deal"]["deal"] == deals - 1 and m["next_deal"] is None
            assert m["table"]["next_deal_seconds"] == 45
        finally:
            watcher.close()


@pytest.mark.parametrize("bad", [-1, 3601, "30", True])
def test_a_bad_next_deal_seconds_is_refused(client: TestClient, bad: object) -> None:
    body = {"name": "x", "seats": HUMANS, "next_deal_seconds": bad}
    res = client.post("/api/tables", json=body)
    assert res.status_code == 422 and "next_deal_seconds" in res.text


def test_a_malformed_next_is_refused(client: TestClient) -> None:
    table, tokens = seated(client, HUMANS)
    person = Client(client, table, tokens[0])
    try:
        person.until(state(lambda s: True))
        person.send({"type": "next", "deal": "3"})
        err = person.until(lambda x: x["type"] == "error")
        assert err["code"] == "malformed" and "next.deal" in err["message"]
    finally:
        person.close()


def test_a_person_stood_in_for_no_longer_holds_the_pause(client: TestClient) -> None:
    table, tokens = seated(client, HUMANS, takeover_seconds=1, next_deal_seconds=600)
    clients = [Client(client, table, t) for t in tokens]
    watcher = Client(client, table, None)
    try:
        over = finish_deal(clients, clients[0].until(state(to_move)))
        assert over["next_deal"]["waiting"] == [0, 1, 2]
        for c in clients[1:]:
            c.send({"type": "next"})
        clients[0].until(state(lambda s: paused(s) and s["next_deal"]["waiting"] == [0]))
        clients[0].close()  # seat 0 goes away: after a second a stand-in plays for it
        began = time.monotonic()
        m = watcher.until(state(lambda s: s["next_deal"] is None and len(s["deals"]) > len(over["deals"])))
        assert time.monotonic() - began < 8 and m["table"]["seats"][0]["standin"]
    finally:
        for c in [*clients[1:], watcher]:
            c.close()


def test_the_next_deals_seed_round_begins_only_after_the_pause(client: TestClient) -> None:
    table, tokens = seated(client, HUMANS, next_deal_seconds=600)
    clients = [Client(client, table, t, seeds=True) for t in tokens]
    live = client.app.state.manager.get(table)  # type: ignore[attr-defined]
    try:
        everyone = state(lambda s: to_move(s) and all(x["online"] for x in s["table"]["seats"]))
        over = finish_deal(clients, clients[0].until(everyone))
        assert paused(over)
        time.sleep(0.5)  # (a seed round would have asked by now)
        asked = [m for c in clients for m in c.seen if m["type"] == "seed-request"]
        assert live.round is None and all(m["deal"] < len(over["deals"]) for m in asked)
        for c in clients:
            c.send({"type": "next"})
        clients[0].until(state(lambda s: len(s["deals"]) > len(over["deals"]) and to_move(s)))
        asked = [m for c in clients for m in c.seen if m["type"] == "seed-request"]
        assert any(r["deal"] == len(over["deals"]) for r in asked)  # asked once the pause ended
        assert all(f is None or [s["by"] for s in f["seeds"]] == ["seat"] * 3 for f in live.fairness[1:])
    finally:
        for c in clients:
            c.close()
