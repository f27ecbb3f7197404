"""No one sees a hand of a deal that a seated person has not seeded (decision F6): while
the provisional first deal waits for people, or is shuffled again, the views sent to
clients that send seeds carry no cards and no moves (``"sealed": true``); the hands come
with the deal shuffled with everyone's seeds, or with the server's seed for a person
whose seed timed out. Clients that send no seeds see the provisional deal as before."""

from __future__ import annotations

import os
import queue
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from paston.cards import ALL_CARDS
from paston.dealing import deal_cards
from paston.fairness import derive_deck
from paston.server.web.app import create_app

HUMANS = [{"kind": "human"}] * 3
TIMEOUT = 0.3  # seconds a deal waits for seeds in these tests


class Client:
    """A seated WebSocket client that sends seeds: like the browser, it answers every
    ``seed-request`` at once from its own thread (unless ``answer`` is off), and keeps
    every other message for the test."""

    def __init__(self, client: TestClient, table: str, token: str | None, *, answer: bool = True) -> None:
        self._cm = client.websocket_connect(f"/ws/tables/{table}")
        self.ws = self._cm.__enter__()
        self.answer = answer
        self.sent: dict[str, str] = {}  # commitment -> seed sent
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self.ws.send_json({"type": "hello", "token": token, "seeds": True})
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while True:
            try:
                msg = self.ws.receive_json()
            except Exception:
                return
            if msg["type"] == "seed-request":
                if self.answer:
                    seed = os.urandom(32).hex()
                    self.sent[msg["commit"]] = seed
                    self.ws.send_json({"type": "seed", "commit": msg["commit"], "seed": seed})
                continue
            self.inbox.put(msg)

    def until(self, wanted: Callable[[dict[str, Any]], bool], timeout: float = 20.0) -> dict[str, Any]:
        """The next message that is ``wanted`` (others are dropped)."""
        while True:
            msg = self.inbox.get(timeout=timeout)
            if wanted(msg):
                return msg

    def close(self) -> None:
        self._cm.__exit__(None, None, None)
        self._thread.join(timeout=5)


def seated(client: TestClient, seats: list[dict[str, Any]]) -> tuple[str, list[str | None]]:
    """A table whose people's seats are all taken (nobody connected yet); its id and tokens."""
    res = client.post("/api/tables", json={"name": "Sealed", "rules": {"target": 100}, "seats": seats})
    table = str(res.json()["id"])
    tokens: list[str | None] = []
    for i, s in enumerate(seats):
        got = (
            client.post(f"/api/tables/{table}/seats/{i}", json={"name": f"P{i}"})
            if s["kind"] == "human"
            else None
        )
        tokens.append(None if got is None else str(got.json()["token"]))
    return table, tokens


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'p.db'}", bot_delay=0.0, seed_timeout=TIMEOUT)) as c:
        yield c


def states_so_far(c: Client) -> list[dict[str, Any]]:
    """Every state and update the client has heard so far (its inbox emptied)."""
    got = []
    while not c.inbox.empty():
        m = c.inbox.get()
        if m["type"] in ("state", "update"):
            got.append(m)
    return got


def wait_dealt(c: Client) -> dict[str, Any]:
    """The first unsealed state at version 0 with someone to move."""
    return c.until(lambda m: m["type"] == "state" and not m["sealed"] and m["view"]["to_move"] is not None)


def dealt_hand(live: Any, seat: int) -> list[str]:
    """The seat's hand as the server's first deal (re-derived from its fairness object) deals it."""
    f = live.fairness[0]
    deck = derive_deck(f["secret"], f["table"], 0, f["previous"], [s["seed"] for s in f["seeds"]])
    masks, _ = deal_cards(deck, live.match.deals[0].dealer)
    return sorted(str(c) for i, c in enumerate(ALL_CARDS) if masks[seat] >> i & 1)


def test_no_seeding_person_sees_a_hand_before_everyone_seeded_it(client: TestClient) -> None:
    table, tokens = seated(client, HUMANS)
    live = client.app.state.manager.get(table)  # type: ignore[attr-defined]
    people: list[Client] = []
    try:
        for seat in range(3):
            people.append(Client(client, table, tokens[seat]))
            time.sleep(3 * TIMEOUT)  # its shuffle done (or waiting): the others heard everything
            if seat < 2:  # someone is still to come: every view so far is sealed
                for c in people:
                    for m in states_so_far(c):
                        assert m["sealed"] and m["view"]["hand"] == [] and m["view"]["legal"] == [], m
                        assert m["view"]["prikup"] is None and m["view"]["discard"] is None
        for seat, c in enumerate(people):
            m = wait_dealt(c)
            commit = m["deals"][0]["commit"]
            assert commit == live.fairness[0]["commitment"]
            # everyone seeded the deal whose hand is shown, and the hand is the one it deals
            seeds = [s["seed"] for s in live.fairness[0]["seeds"]]
            assert [p.sent.get(commit) for p in people] == seeds
            assert [s["by"] for s in live.fairness[0]["seeds"]] == ["seat"] * 3
            assert sorted(m["view"]["hand"]) == dealt_hand(live, seat)
            mover = m["view"]["to_move"]
            assert (m["view"]["legal"] != []) == (mover == seat)
    finally:
        for c in people:
            c.close()


def test_a_person_whose_seed_timed_out_sees_the_deal_dealt_without_it(client: TestClient) -> None:
    """The documented exception: a client that does not answer in time gets the server's
    seed, and the deal is shown to everyone, that person included."""
    table, tokens = seated(client, HUMANS)
    live = client.app.state.manager.get(table)  # type: ignore[attr-defined]
    people = [Client(client, table, tokens[0], answer=False)]
    try:
        people += [Client(client, table, tokens[s]) for s in (1, 2)]
        for seat, c in enumerate(people):
            m = wait_dealt(c)
            assert sorted(m["view"]["hand"]) == dealt_hand(live, seat)
        assert [s["by"] for s in live.fairness[0]["seeds"]] == ["server", "seat", "seat"]
    finally:
        for c in people:
            c.close()


def test_a_client_that_sends_no_seeds_sees_the_provisional_deal(client: TestClient) -> None:
    """Older clients (no ``"seeds": true``) never shuffle the deal again, so they see it
    as before, even while another seat is empty."""
    table, tokens = seated(client, HUMANS)
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": tokens[0]})
        m = ws.receive_json()
        assert m["type"] == "state" and not m["sealed"] and len(m["view"]["hand"]) == 10


def test_a_person_who_comes_while_the_seeds_are_collected_is_asked_too(tmp_path: Path) -> None:
    """A person back while a shuffle waits for another seat's seed is asked as well: the
    deal they will see has their seed (the silent seat gets the server's)."""
    app = create_app(f"sqlite:///{tmp_path / 'p.db'}", bot_delay=0.0, seed_timeout=2.0)
    with TestClient(app) as client:
        table, tokens = seated(
            client, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}]
        )
        live = client.app.state.manager.get(table)  # type: ignore[attr-defined]
        first = Client(client, table, tokens[1])
        first.until(
            lambda m: m["type"] == "state" and not m["shuffling"] and m["deals"][0]["commit"] in first.sent
        )
        first.close()  # seat 1 has seeded a shuffle of the first deal, and goes
        silent = Client(client, table, tokens[0], answer=False)  # shuffles it again, asking seat 0 only
        try:
            deadline = time.monotonic() + 5
            while not (live.reshuffling and live.round.expected == {0}):
                assert time.monotonic() < deadline
                time.sleep(0.01)
            back = Client(client, table, tokens[1])  # back while the shuffle waits for seat 0
            try:
                m = back.until(lambda m: m["type"] == "state" and not m["shuffling"] and not m["sealed"])
                commit = m["deals"][0]["commit"]
                seeds = live.fairness[0]["seeds"]
                assert seeds[1] == {"seed": back.sent[commit], "by": "seat"}
                assert seeds[0]["by"] == "server"  # timed out
                assert len(m["view"]["hand"]) == 10
            finally:
                back.close()
        finally:
            silent.close()


def test_a_seeding_person_cannot_act_blind_on_a_sealed_deal(client: TestClient) -> None:
    """The page offers no move on a sealed deal, and the server refuses one from a client
    that ignores ``legal``: acting would make the deal final without the seed of the
    person still to come. The state is unchanged."""
    table, tokens = seated(client, HUMANS)
    live = client.app.state.manager.get(table)  # type: ignore[attr-defined]
    seat = live.match.to_move
    action = str(live.match.legal_actions()[0])
    c = Client(client, table, tokens[seat])
    try:
        m = c.until(lambda m: m["type"] == "state")
        assert m["sealed"] and m["view"]["legal"] == []
        deadline = time.monotonic() + 10
        while live.reshuffling and time.monotonic() < deadline:  # its arrival shuffles the deal again
            time.sleep(0.05)
        assert not live.reshuffling and live.waits_for_people()  # sealed: the others are still to come
        c.ws.send_json({"type": "act", "action": action, "version": m["version"], "id": "blind"})
        err = c.until(lambda m: m["type"] == "error")
        assert err["code"] == "sealed" and err["id"] == "blind", err
        assert live.version == 0 and not any(d.events for d in live.match.deals)
    finally:
        c.close()
