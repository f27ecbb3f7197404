"""The replay the server tells (``server/work/replay_story.py``), its endpoints (``GET
/api/tables/<id>/replay``, ``POST /api/replay``) and how they are built away from the event
loop (``server/web/replayjobs.py``): bad records are refused naming the problem, large ones by
the size limit of :class:`~paston.server.web.limits.Limits`.

The story's facts are checked against the record and the engine's rule functions
(``tricks.trick_winner`` for R6.3, ``scoring.reset_seats`` for R8.2), not against itself.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from paston.bots.runner import seeded_game
from paston.cards import ALL_CARDS
from paston.record import to_record
from paston.rules import Rules
from paston.scoring import reset_seats
from paston.server.web.app import create_app
from paston.server.web.limits import LimitError, Limits
from paston.server.web.replayjobs import RecordRefused, ReplayBuilder, story_of_record
from paston.server.work.replay_story import players_of_names, replay_story
from paston.tricks import trick_winner

INDEX = {str(c): c.index for c in ALL_CARDS}
SUIT_OF = {"spades": "S", "clubs": "C", "diamonds": "D", "hearts": "H", "best-spades": "S"}


def action_text(a: dict[str, Any]) -> str:
    return {
        "bid": lambda: f"bid {a['value']}",
        "trump": lambda: f"trump {a['value']}",
        "play": lambda: f"play {a['card']}",
        "discard": lambda: "discard " + " ".join(a["cards"]),
    }.get(a["type"], lambda: str(a["type"]))()


def check_story(record: dict[str, Any], story: dict[str, Any]) -> int:
    """Every fact of the story against the record; returns how many tricks were checked."""
    rules = Rules.from_dict(record["rules"])
    assert story["seats"] == record["seats"] and story["winners"] == record["winners"]
    assert len(story["deals"]) == len(record["deals"])
    before = [0, 0, 0]
    checked = 0
    for entry, deal in zip(record["deals"], story["deals"], strict=True):
        actions = entry["actions"]
        assert [(a["seat"], a["action"]) for a in deal["actions"]] == [
            (a["seat"], action_text(a)) for a in actions
        ]
        assert len(deal["steps"]) == len(actions) + 1
        assert sorted(deal["prikup"]) == sorted(entry["prikup"])
        assert deal["totals_before"] == before
        result = entry.get("result")
        assert deal["result"] == result
        if result is None:
            assert deal["totals"] is None and deal["resets"] == []
            continue
        # R7/R8: the deal's scores, the running totals and the resets of exactly −target
        resets = reset_seats(before, result["scores"], rules=rules)
        assert deal["resets"] == list(resets)
        expected = [0 if s in resets else before[s] + result["scores"][s] for s in range(3)]
        assert deal["totals"] == entry["totals"] == expected
        before = entry["totals"]
        # R4: the discard, and the trump named
        discards = [a["cards"] for a in actions if a["type"] == "discard"]
        assert sorted(deal["discard"]) == sorted(discards[0] if discards else [])
        assert deal["contract"] == result["contract"] and deal["declarer"] == result["declarer"]
        if result["outcome"] != "played":
            assert deal["tricks"] == []
            continue
        # R6.3: each trick's winner by the engine's rule function; tricks so far at each step
        trump = INDEX["7" + SUIT_OF[result["contract"]]] >> 3
        plays = [(k, a["seat"], a["card"]) for k, a in enumerate(actions) if a["type"] == "play"]
        n = 1 + len(result["defenders"])
        counts = [0, 0, 0]
        for number, start in enumerate(range(0, len(plays), n), 1):
            trick = plays[start : start + n]
            winner = trick[trick_winner([INDEX[c] for _k, _s, c in trick], trump)][1]
            told = deal["tricks"][number - 1]
            assert told["winner"] == winner and told["number"] == number
            assert [(p["index"], p["seat"], p["card"]) for p in told["plays"]] == trick
            for k in range(trick[0][0], trick[-1][0] + 1):  # before the trick's last card: not yet won
                assert deal["steps"][k]["tricks"] == counts
            counts[winner] += 1
            assert deal["steps"][trick[-1][0] + 1]["tricks"] == counts
            checked += 1
        assert counts == result["tricks"] == deal["steps"][-1]["tricks"]
    return checked


@pytest.mark.parametrize("seed", range(6))
def test_r6_r8_the_story_matches_the_record(seed: int) -> None:
    rules = Rules(target=30)
    match = seeded_game(f"story-{seed}", ["random", "heuristic", "random"], rules=rules)
    record = to_record(match)
    assert check_story(record, replay_story(match)) > 0 or not any(
        d.get("result", {}).get("outcome") == "played" for d in record["deals"]
    )


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), target=st.integers(1, 60))
def test_r8_2_story_totals_and_resets_property(seed: int, target: int) -> None:
    match = seeded_game(seed, ["random"] * 3, rules=Rules(target=target))
    check_story(to_record(match), replay_story(match))


def test_r8_2_a_reset_is_told() -> None:
    rules = Rules(target=10)
    for seed in range(200):
        match = seeded_game(f"reset-{seed}", ["random", "heuristic", "random"], rules=rules)
        story = replay_story(match)
        if any(d["resets"] for d in story["deals"]):
            check_story(to_record(match), story)
            told = next(d for d in story["deals"] if d["resets"])
            assert all(told["totals"][s] == 0 for s in told["resets"])
            return
    raise AssertionError("no reset in 200 games")


def test_players_of_names_reads_the_server_s_computer_seats() -> None:
    got = players_of_names(["Ana", "pimc:2 (1)", "random (2)"])
    assert [(p["kind"], p["bot"]) for p in got] == [("human", None), ("bot", "pimc:2"), ("bot", "random")]
    # a number that is not the seat's, or a name no computer player has: a person's name
    assert [p["kind"] for p in players_of_names(["random (1)", "nobody (1)", "random"])] == ["human"] * 3


# --- the endpoints -----------------------------------------------------------------------------------
@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(
        f"sqlite:///{tmp_path / 'p.db'}", bot_delay=0.0, bot_workers=0, limits=Limits(replay_bytes=50_000)
    )
    with TestClient(app) as c:
        yield c


def finished_table(client: TestClient, seats: list[dict[str, Any]]) -> str:
    made = client.post("/api/tables", json={"name": "R", "rules": {"target": 10}, "seats": seats}).json()
    table = str(made["id"])
    manager = client.app.state.manager  # type: ignore[attr-defined]
    deadline = time.monotonic() + 60
    while not manager.get(table).finished:
        assert time.monotonic() < deadline, "the computers did not finish the game"
        time.sleep(0.05)
    return table


def test_table_replay_tells_the_record_with_the_table_s_seats(client: TestClient) -> None:
    table = finished_table(client, [{"kind": "bot", "bot": "random"}] * 3)
    replay = client.get(f"/api/tables/{table}/replay")
    assert replay.status_code == 200 and replay.headers["content-type"] == "application/json"
    story = replay.json()
    record = client.get(f"/api/tables/{table}/record").json()
    check_story(record, story)
    seats = client.get(f"/api/tables/{table}").json()["seats"]
    assert [(p["kind"], p["bot"], p["name"]) for p in story["players"]] == [
        (s["kind"], s["bot"], s["name"]) for s in seats
    ]
    assert client.get(f"/api/tables/{table}/replay").content == replay.content  # kept, the same bytes
    # the same record opened as a file tells the same story
    opened = client.post("/api/replay", content=json.dumps(record))
    assert opened.status_code == 200 and opened.json() == story


def test_opened_record_errors_name_the_problem(client: TestClient) -> None:
    match = seeded_game("bad", ["random"] * 3, rules=Rules(target=10))
    record = to_record(match)
    assert client.post("/api/replay", content=json.dumps(record)).status_code == 200
    broken = json.loads(json.dumps(record))
    play = (
        next(a for a in broken["deals"][0]["actions"] if a["type"] == "play")
        if any(a["type"] == "play" for a in broken["deals"][0]["actions"])
        else None
    )
    broken["deals"][0]["prikup"] = ["AS", "AS"]
    res = client.post("/api/replay", content=json.dumps(broken))
    error = res.json()["error"]
    assert res.status_code == 400 and "deal 0" in error["message"] and error["code"]
    if play is not None:
        broken = json.loads(json.dumps(record))
        first = next(a for a in broken["deals"][0]["actions"] if a["type"] == "play")
        first["card"] = "ZZ"
        res = client.post("/api/replay", content=json.dumps(broken))
        assert res.status_code == 400 and "deal 0" in res.json()["error"]["message"]
    for body, words in [
        (b"{", "JSON"),
        (b"[]", "object"),
        (b'{"format": "paston/9"}', "format"),
        (b"\xff\xfe", ""),
        # a number too long to read was once a 500
        (b'{"format": "paston/1", "first_dealer": ' + b"9" * 5000 + b"}", "more than 4300 digits"),
    ]:
        res = client.post("/api/replay", content=body)
        assert res.status_code == 400, body
        assert words in res.json()["error"]["message"], res.json()


def test_opened_record_size_limit(client: TestClient) -> None:
    big = b'{"format": "paston/1", "pad": "' + b"x" * 60_000 + b'"}'
    res = client.post("/api/replay", content=big)
    assert res.status_code == 413 and res.json()["error"]["code"] == "too-large"
    assert "50000 bytes" in res.json()["error"]["message"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: stopped once past the limit
        for _ in range(100):
            yield b" " * 1000

    res = client.post("/api/replay", content=chunks())
    assert res.status_code == 413


def test_a_finished_table_s_replay_needs_the_game_over(client: TestClient) -> None:
    made = client.post(
        "/api/tables", json={"name": "R", "rules": {}, "seats": [{"kind": "human"}] * 3}
    ).json()
    res = client.get(f"/api/tables/{made['id']}/replay")
    assert res.status_code == 409 and res.json()["error"]["code"] == "game-not-over"
    assert client.get("/api/tables/nope/replay").status_code == 404


def test_replays_are_built_in_a_worker_process_and_refused_when_too_many_wait() -> None:
    record = json.dumps(to_record(seeded_game("pool", ["random"] * 3, rules=Rules(target=10))))

    async def run() -> None:
        builder = ReplayBuilder(workers=1)
        try:
            body = await builder.build(record)
            assert json.loads(body)["deals"]
            with pytest.raises(RecordRefused) as refused:
                await builder.build('{"format": "paston/1"}')
            assert refused.value.code == "keys"
            busy = ReplayBuilder(workers=0, waiting=0)
            with pytest.raises(LimitError) as limited:
                await busy.build(record)
            assert limited.value.code == "replays-busy" and limited.value.retry_after == 2
        finally:
            builder.close()

    asyncio.run(run())


def test_story_of_record_answers_broken_records_as_data() -> None:
    ok, body = story_of_record("not json", None)
    assert not ok and json.loads(body)["code"]
    rng = random.Random(1)
    ok, body = story_of_record(json.dumps(to_record(seeded_game(rng.random(), ["random"] * 3))), None)
    assert ok and json.loads(body)["winners"]
