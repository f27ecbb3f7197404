"""A table whose owner dies while a finished deal is on show (the pause after a deal,
server/tables/pause.py): the worker that takes it over goes on with the pause for the time it
had left, so the players still see the deal's account, and deals on once they press Next."""

from __future__ import annotations

import json
import time
from typing import Any

from tests.cluster_helpers import (  # noqa: F401 (fixtures)
    RedisServer,
    Worker,
    database,
    owners,
    redis_server,
    wait_for,
    workers,
)
from websockets.sync.client import ClientConnection, connect


class Person:
    """One seat's socket at a worker; its hello says the client shows the end of a deal."""

    def __init__(self, worker: Worker, table: str, token: str | None) -> None:
        self._cm = connect(f"{worker.ws_base}/ws/tables/{table}", open_timeout=10)
        self.ws: ClientConnection = self._cm.__enter__()
        self.ws.send(json.dumps({"type": "hello", "token": token, "next": True}))
        self.seen: list[dict[str, Any]] = []

    def state(self, wanted: Any = lambda s: True, timeout: float = 20) -> dict[str, Any]:
        """The first state heard (now or earlier) that is ``wanted``."""
        deadline = time.monotonic() + timeout
        while True:
            found = next((s for s in self.seen if wanted(s)), None)
            if found is not None:
                return found
            message = json.loads(self.ws.recv(timeout=max(0.01, deadline - time.monotonic())))
            if message["type"] == "state":
                self.seen.append(message)

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))


def surrender(view: dict[str, Any]) -> str:
    """The quickest scored deal: spades bid by the first, passes, then a surrender."""
    legal = view["legal"]
    if "surrender" in legal:
        return "surrender"
    if view["high_bid"] is None and "bid spades" in legal and view["in_auction"].count(True) == 3:
        return "bid spades"
    return "pass" if "pass" in legal else str(legal[0])


def test_a_table_taken_over_during_its_pause_goes_on_with_it(
    workers: list[Worker],  # noqa: F811
    redis_server: RedisServer,  # noqa: F811
) -> None:
    body = {
        "name": "Pause",
        "rules": {"target": 1000},
        "seats": [{"kind": "human"}] * 3,
        "next_deal_seconds": 120,
    }
    status, made = workers[0].request("POST", "/api/tables", body)
    assert status == 201, made
    table = str(made["id"])
    tokens = [
        str(workers[0].request("POST", f"/api/tables/{table}/seats/{s}", {"name": f"P{s}"})[1]["token"])
        for s in range(3)
    ]
    names = [w.request("GET", "/api/cluster")[1]["worker"] for w in workers]
    assert owners(redis_server, [table]) == [names[0]]
    people = [Person(workers[0], table, t) for t in tokens]
    m = people[0].state(lambda s: s["view"]["to_move"] is not None)
    while m["next_deal"] is None:  # play the first deal to its end, by surrender
        seat = m["view"]["to_move"]
        mine = people[seat].state(lambda s, v=m["version"]: s["version"] == v)
        people[seat].send({"type": "act", "action": surrender(mine["view"]), "version": m["version"]})
        m = people[0].state(lambda s, v=m["version"]: s["version"] == v + 1)
    deal, deals = m["next_deal"]["deal"], len(m["deals"])
    assert m["last_deal"]["outcome"] == "surrender"

    workers[0].kill()
    killed = time.monotonic()
    wait_for(lambda: owners(redis_server, [table])[0] in (names[1], names[2]), 10)
    print(f"taken over {time.monotonic() - killed:.2f} s after the kill")
    back = [Person(workers[1 + s % 2], table, t) for s, t in enumerate(tokens)]
    m = back[0].state(lambda s: s["next_deal"] is not None)
    assert m["next_deal"]["deal"] == deal and len(m["deals"]) == deals  # still on show: nothing dealt
    assert m["last_deal"]["deal"] == deal and m["last_deal"]["outcome"] == "surrender"
    assert 100 < m["next_deal"]["ends_in"] <= 120  # the time it had left, not a fresh pause of 120 s
    for person in back:
        person.send({"type": "next", "deal": deal})
    m = back[0].state(lambda s: len(s["deals"]) == deals + 1 and s["next_deal"] is None)
    assert m["view"]["to_move"] is not None
    for person in [*people, *back]:
        person.ws.close()
