"""Every seat helps to shuffle (docs/FAIRNESS.md), over the WebSocket: the browser-like
clients answer each ``seed-request``, the record's fairness data re-derive every deck
(``paston verify``, the reader, the doc's verifier), a client that stays silent gets the
server's seed after the timeout, and a restarted server deals a waiting deal with the
secret it committed to."""

from __future__ import annotations

import json
import os
import queue
import random
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.fairness_helpers import run_doc_verifier

from cli_helpers import assert_ok, invoke
from paston.cards import ALL_CARDS
from paston.fairness import derive_deck, server_seed
from paston.record import from_record, read_record, to_record
from paston.server.web.app import create_app

HUMANS = [{"kind": "human"}] * 3
TIMEOUT = 0.3  # seconds a deal waits for seeds in these tests


class Client:
    """A seated (or watching) WebSocket client that, like the browser, answers every
    ``seed-request`` at once from its own thread (unless ``answer`` is off) and keeps
    every other message for the test."""

    def __init__(self, client: TestClient, table: str, token: str | None, *, answer: bool = True) -> None:
        self._cm = client.websocket_connect(f"/ws/tables/{table}")
        self.ws = self._cm.__enter__()
        self.answer = answer
        self.sent: dict[str, str] = {}  # commitment -> seed sent
        self.requests: list[dict[str, Any]] = []
        self._sending = threading.Lock()
        self._next_send = 0.0
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
                self.requests.append(msg)
                if self.answer:
                    seed = os.urandom(32).hex()
                    self.sent[msg["commit"]] = seed
                    self.send({"type": "seed", "commit": msg["commit"], "seed": seed})
                continue
            self.inbox.put(msg)

    def send(self, message: dict[str, Any]) -> None:
        """Send at most 40 messages a second (the server refuses more than 50)."""
        with self._sending:
            wait = self._next_send - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            self._next_send = max(self._next_send, time.monotonic()) + 1 / 40
            self.ws.send_json(message)

    def asked(self, commit: str, timeout: float = 5.0) -> bool:
        """Whether this client was asked for a seed for ``commit`` (waiting for its reader)."""
        deadline = time.monotonic() + timeout
        while not any(r["commit"] == commit for r in self.requests):
            if time.monotonic() > deadline:
                return False
            time.sleep(0.01)
        return True

    def until(self, wanted: Callable[[dict[str, Any]], bool], timeout: float = 20.0) -> dict[str, Any]:
        """The next message that is ``wanted`` (others are dropped)."""
        while True:
            msg = self.inbox.get(timeout=timeout)
            if wanted(msg):
                return msg

    def close(self) -> None:
        self._cm.__exit__(None, None, None)
        self._thread.join(timeout=5)


def settled(m: dict[str, Any]) -> bool:
    """Not shuffling the first deal again, and, before the first move, every person's
    seat taken and online (so no one's arrival will shuffle it again)."""
    return not m["shuffling"] and (
        m["version"] > 0 or all(s["online"] for s in m["table"]["seats"] if s["kind"] == "human")
    )


def ready(version: int) -> Callable[[dict[str, Any]], bool]:
    """A settled state at ``version`` with someone to move (a deal dealt) or the game won."""
    return lambda m: (
        m["type"] == "state"
        and m["version"] == version
        and settled(m)
        and (m["view"]["to_move"] is not None or m["winners"])
    )


@pytest.fixture()
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'paston.db'}"


@pytest.fixture()
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, bot_delay=0.0, seed_timeout=TIMEOUT)) as c:
        yield c


def seated(client: TestClient, seats: list[dict[str, Any]], target: int) -> tuple[str, list[str | None]]:
    res = client.post("/api/tables", json={"name": "Fair", "rules": {"target": target}, "seats": seats})
    table = str(res.json()["id"])
    tokens: list[str | None] = []
    for i, s in enumerate(seats):
        if s["kind"] == "human":
            got = client.post(f"/api/tables/{table}/seats/{i}", json={"name": f"P{i}"})
            tokens.append(str(got.json()["token"]))
        else:
            tokens.append(None)
    return table, tokens


def play(
    clients: list[Client | None], rng: random.Random, *, until_deals: int | None = None
) -> dict[str, Any]:
    """Random legal actions by the seated clients (a ``None`` seat is a computer player)
    until the game is won (or the match has ``until_deals`` deals); returns the last state."""
    last = next(c for c in clients if c is not None)

    def persons_turn(m: dict[str, Any]) -> bool:  # nothing happens until that person acts
        seat = m["view"]["to_move"] if m["type"] == "state" else None
        return (
            m["type"] == "state"
            and settled(m)
            and (bool(m["winners"]) or (seat is not None and clients[seat] is not None))
        )

    state = last.until(persons_turn)
    while not state["winners"] and (until_deals is None or len(state["deals"]) < until_deals):
        me = clients[state["view"]["to_move"]]
        if me is None:  # a computer player's turn: wait for the next state someone can act in
            version = state["version"]
            state = last.until(lambda m, v=version: ready(m["version"])(m) and m["version"] > v)
            continue
        mine = state if me is last else me.until(ready(state["version"]))
        last = me
        me.send({"type": "act", "action": rng.choice(mine["view"]["legal"]), "version": mine["version"]})
        state = me.until(ready(state["version"] + 1))
    return state


def codes(deck: list[int]) -> list[str]:
    return [str(ALL_CARDS[c]) for c in deck]


def test_a_game_with_seeds_from_every_seat_verifies(client: TestClient, db_url: str, tmp_path: Path) -> None:
    table, tokens = seated(client, HUMANS, target=330)  # a deal scores at most 320: two deals at least
    clients = [Client(client, table, t) for t in tokens]
    try:
        play(clients, random.Random(5))
    finally:
        for c in clients:
            c.close()
    record = client.get(f"/api/tables/{table}/record").json()
    deals = record["deals"]
    assert len(deals) >= 2
    # the first deal, dealt when the table was made, was shuffled again as each person came
    for i, deal in enumerate(deals):
        fairness = deal["fairness"]
        assert [s["by"] for s in fairness["seeds"]] == ["seat"] * 3, i
        for seat, c in enumerate(clients):  # each seat's seed is the one its client sent
            assert c.sent[fairness["commitment"]] == fairness["seeds"][seat]["seed"]
        assert any(r["commit"] == fairness["commitment"] and r["deal"] == i for r in clients[0].requests)
    again, fairness = read_record(record)  # read and written back whole, fairness included
    assert to_record(again, fairness) == record
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert f"OK ({len(deals)} deals verified)" in assert_ok(invoke("verify", path))
    assert "OK (1 game)" in assert_ok(invoke("check", path))
    done = run_doc_verifier(tmp_path, record)  # the doc's listing verifies a server's record
    assert done.returncode == 0 and done.stdout.count(": ok") == len(deals), done.stdout + done.stderr
    # a restarted server rebuilds the same game and the same record
    with TestClient(create_app(db_url, bot_delay=0.0, seed_timeout=TIMEOUT)) as again:
        assert again.get(f"/api/tables/{table}/record").json() == record


def test_a_silent_seat_gets_the_servers_seed_after_the_timeout(client: TestClient) -> None:
    table, tokens = seated(
        client, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}], 200
    )
    silent = Client(client, table, tokens[1], answer=False)
    clients: list[Client | None] = [Client(client, table, tokens[0]), silent, None]
    live = client.app.state.manager.get(table)  # type: ignore[attr-defined]
    first = len(live.match.deals)  # dealt when the table was made
    started = time.monotonic()
    try:
        play(clients, random.Random(8), until_deals=first + 1)
        # the clients may see the new deal's state a moment before the test reads the
        # table's fairness list (a busy machine)
        deadline = time.monotonic() + 30
        while len(live.fairness) <= first and time.monotonic() < deadline:
            time.sleep(0.01)
        fairness = live.fairness[first]
        assert silent.asked(fairness["commitment"])
    finally:
        for c in clients:
            if c is not None:
                c.close()
    assert time.monotonic() - started >= TIMEOUT  # the deal waited for the silent seat
    seeds = fairness["seeds"]
    assert [s["by"] for s in seeds] == ["seat", "server", "server"]
    assert seeds[1]["seed"] == server_seed(fairness["secret"], 1)
    assert seeds[2]["seed"] == server_seed(fairness["secret"], 2)  # the bot's: at once, from the secret
    assert not silent.sent
    from_record(to_record(live.match, live.fairness))  # an unfinished game's fairness data are checked too


def test_bots_and_offline_people_never_hold_a_deal_up(db_url: str) -> None:
    """With a long timeout, two bots and a seated person who is not connected (a
    stand-in plays for them) deal on at once, even with a spectator whose client sends
    seeds: only seated, connected clients that send seeds are waited for."""
    with TestClient(create_app(db_url, bot_delay=0.0, seed_timeout=600)) as c:
        seats = [{"kind": "bot", "bot": "random"}] * 2 + [{"kind": "human"}]
        # a target no three deals can reach (a lone defender's 9 tricks in hearts score 200)
        body = {"name": "F", "rules": {"target": 1000}, "seats": seats, "takeover_seconds": 1}
        res = c.post("/api/tables", json=body)
        table = str(res.json()["id"])
        c.post(f"/api/tables/{table}/seats/2", json={"name": "Away"})
        watcher = Client(c, table, None)
        try:
            # (a liveness check: on a loaded machine a message may be seconds apart)
            watcher.until(lambda m: m["type"] == "state" and len(m["deals"]) >= 3, timeout=60.0)
        finally:
            watcher.close()
        live = c.app.state.manager.get(table)  # type: ignore[attr-defined]
        assert not watcher.requests
        assert all(s["by"] == "server" for f in live.fairness for s in f["seeds"])


def test_seed_messages_are_checked(client: TestClient) -> None:
    table, tokens = seated(client, HUMANS, target=10)
    commit = client.app.state.manager.get(table).seeds[0][1]  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": None, "seeds": True})
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "seed", "commit": "a" * 64, "seed": "b" * 64})
        assert ws.receive_json()["code"] == "spectator"
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": tokens[0], "seeds": True})
        assert ws.receive_json()["shuffling"]  # the first person came: the first deal is shuffled again
        assert ws.receive_json()["type"] == "seed-request"  # (this client does not answer)
        ws.send_json({"type": "seed", "commit": "a" * 64, "seed": "b" * 64})
        assert ws.receive_json()["code"] == "no-seed-wanted"
        for bad in (
            {"type": "seed", "commit": "a" * 64, "seed": "B" * 64},
            {"type": "seed", "commit": "a" * 64, "seed": "b" * 63},
            {"type": "seed", "commit": "a" * 64},
            {"type": "seed", "commit": "a" * 64, "seed": "b" * 64, "deal": 1},
            {"type": "seed", "commit": "a" * 64, "seed": 5},
        ):
            ws.send_json(bad)
            reply = ws.receive_json()
            assert reply["code"] == "malformed", (bad, reply)
        ws.send_json({"type": "seed", "commit": commit, "seed": "b" * 64})  # that deal is dealt: ignored
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


def test_a_deal_waiting_for_seeds_is_dealt_after_a_restart_with_the_same_secret(db_url: str) -> None:
    rng = random.Random(3)
    with TestClient(create_app(db_url, bot_delay=0.0, seed_timeout=600)) as c:
        table, tokens = seated(c, HUMANS, target=10)
        clients = [Client(c, table, t) for t in tokens]
        try:
            live = c.app.state.manager.get(table)  # type: ignore[attr-defined]
            state, last = clients[0].until(ready(0)), clients[0]
            for cl in clients:  # the first deal is in: the next deal's seeds never come
                cl.answer = False
            while live.round is None:  # play the first deal out: the second waits for seeds
                me = clients[state["view"]["to_move"]]
                mine = state if me is last else me.until(ready(state["version"]))
                last, version = me, mine["version"]
                me.send({"type": "act", "action": rng.choice(mine["view"]["legal"]), "version": version})
                state = me.until(lambda m, v=version + 1: m["type"] == "state" and m["version"] == v)
            waiting = live.round
            assert waiting.deal == len(live.match.deals) and waiting.expected == {0, 1, 2}
            assert all(cl.asked(waiting.commit) for cl in clients)
        finally:
            for cl in clients:
                cl.close()
    decks = []
    for _ in range(2):  # started again (twice: the second rebuild gives the same deck)
        with TestClient(create_app(db_url, bot_delay=0.0, seed_timeout=600)) as c:
            live = c.app.state.manager.get(table)  # type: ignore[attr-defined]
            assert live.round is None
            fairness = live.fairness[waiting.deal]
            assert (fairness["secret"], fairness["commitment"]) == (waiting.secret, waiting.commit)
            assert [s["by"] for s in fairness["seeds"]] == ["server"] * 3
            seeds = [s["seed"] for s in fairness["seeds"]]
            deck = derive_deck(waiting.secret, table, waiting.deal, fairness["previous"], seeds)
            assert list(live.match.deals[waiting.deal].deck) == deck
            from_record(to_record(live.match, live.fairness))
            decks.append(deck)
    assert decks[0] == decks[1]


def test_a_table_dealt_before_paston_deck_1_goes_on_after_the_upgrade(db_url: str, tmp_path: Path) -> None:
    """A database at migration 0001 with a deal shuffled the old way (random.Random(seed)):
    after the upgrade that deal keeps its deck and has no fairness data; the next deals
    have them, their chain starting again."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import text

    from paston.server.store import db
    from paston.server.tables.decks import deck_from_seed, legacy_commitment

    engine = db.make_engine(db_url)
    config = Config()
    config.set_main_option("script_location", str(Path(db.__file__).parent / "migrations"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
        connection.execute(
            text(
                "INSERT INTO tables (id, name, rules, settings, first_dealer, created) "
                "VALUES ('old', 'Old', '{\"target\": 330}', '{}', 0, '2024-01-01 00:00:00')"
            )
        )
        for seat in range(3):
            connection.execute(
                text("INSERT INTO seats (table_id, seat, kind, bot) VALUES ('old', :s, 'bot', 'random')"),
                {"s": seat},
            )
        connection.execute(
            text("INSERT INTO deals (table_id, number, seed, \"commit\") VALUES ('old', 0, 'abc', :c)"),
            {"c": legacy_commitment("abc")},
        )
    engine.dispose()
    with TestClient(create_app(db_url, bot_delay=0.0)) as c:
        watcher = Client(c, "old", None)
        try:
            watcher.until(lambda m: m["type"] == "state" and len(m["deals"]) >= 3)
        finally:
            watcher.close()
        live = c.app.state.manager.get("old")  # type: ignore[attr-defined]
        assert list(live.match.deals[0].deck) == deck_from_seed("abc")
        assert live.fairness[0] is None and live.fairness[1]["previous"] is None
        record = to_record(live.match, live.fairness)
    from_record(record)
    path = tmp_path / "old.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out = assert_ok(invoke("verify", path))
    assert "no fairness data for deals 0: not verified" in out and "deals verified" in out


def test_the_first_deal_is_shuffled_again_once_per_person_and_bots_wait(client: TestClient) -> None:
    """The first deal is dealt when the table is made (the server's seeds only), so it is
    provisional: the computer players wait for the person, whose arrival shuffles it
    again with their seed; coming back does not shuffle it again."""
    seats = [{"kind": "bot", "bot": "random"}] * 2 + [{"kind": "human"}]
    table, tokens = seated(client, seats, target=100)
    live = client.app.state.manager.get(table)  # type: ignore[attr-defined]
    time.sleep(0.3)  # time enough for a bot to move, were it allowed to
    assert live.version == 0 and live.waits_for_people()
    assert [s["by"] for s in live.fairness[0]["seeds"]] == ["server"] * 3
    provisional = live.fairness[0]["commitment"]
    person = Client(client, table, tokens[2])
    try:
        # the bots play once the person is in, until it is the person's turn
        person.until(lambda m: m["type"] == "state" and settled(m) and m["view"]["to_move"] == 2)
        first = live.fairness[0]
        assert first["commitment"] != provisional
        assert [s["by"] for s in first["seeds"]] == ["server", "server", "seat"]
        assert person.sent[first["commitment"]] == first["seeds"][2]["seed"]
    finally:
        person.close()
    again = Client(client, table, tokens[2])  # back again: no new shuffle
    try:
        again.until(lambda m: m["type"] == "state")
        assert live.fairness[0] == first and not live.reshuffling
    finally:
        again.close()


def test_an_action_while_the_first_deal_is_shuffled_again_is_refused(db_url: str) -> None:
    """While the first deal is shuffled again (waiting for a silent seat's seed), an
    action gets the error ``shuffling`` and nothing changes."""
    with TestClient(create_app(db_url, bot_delay=0.0, seed_timeout=600)) as c:
        table, tokens = seated(c, HUMANS, target=100)
        live = c.app.state.manager.get(table)  # type: ignore[attr-defined]
        with c.websocket_connect(f"/ws/tables/{table}") as ws:
            ws.send_json({"type": "hello", "token": tokens[0], "seeds": True})
            state = ws.receive_json()
            assert state["type"] == "state" and state["shuffling"] and state["version"] == 0
            request = ws.receive_json()
            assert request["type"] == "seed-request" and request["deal"] == 0 and request["previous"] is None
            before = [(d.deck, d.events) for d in live.match.deals]
            for action in ("pass", "whist"):
                ws.send_json({"type": "act", "action": action, "version": 0})
                reply = ws.receive_json()
                assert reply["type"] == "error" and reply["code"] == "shuffling", reply
            assert [(d.deck, d.events) for d in live.match.deals] == before and live.version == 0
            ws.send_json({"type": "seed", "commit": request["commit"], "seed": "c" * 64})
            dealt = ws.receive_json()
            assert dealt["type"] == "state" and not dealt["shuffling"]
            assert live.fairness[0]["commitment"] == request["commit"]
            assert live.fairness[0]["seeds"][0] == {"seed": "c" * 64, "by": "seat"}
