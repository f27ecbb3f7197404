"""The server's facts come from the engine and its registries: ``GET /api/meta`` (the
computer players and the rule switches), the seat schema, the rules of a table held
once, the score sheet's R8.2 resets, the end of the game (R8.3), and views encoded as
they are."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from fastapi.testclient import TestClient
from tests.ws_helpers import HUMANS, client, db_url

from paston.bots.base import PLAYERS, player_choices
from paston.bots.registry import DEFAULT_PLAYER
from paston.match import Match
from paston.rules import PRESETS, Rules
from paston.server.store.db import make_engine, migrate, session_factory
from paston.server.table_error import TableError
from paston.server.tables.manager import TableManager
from paston.server.tables.seating import Seat
from paston.server.tables.serialize import PublicHistory, view_json
from paston.server.tables.table import Table

__all__ = ["client", "db_url"]  # the fixtures (tests/ws_helpers.py), used by name


def test_meta_lists_the_players_and_the_rule_switches_exactly(client: TestClient) -> None:
    res = client.get("/api/meta")
    assert res.status_code == 200
    assert res.json() == {
        "players": [
            {
                "name": "random",
                "description": PLAYERS[0].description,
                "levels": [],
                "default_level": None,
            },
            {
                "name": "heuristic",
                "description": PLAYERS[1].description,
                "levels": [],
                "default_level": None,
            },
            {
                "name": "amu",
                "description": PLAYERS[2].description,
                "levels": [1, 2, 3, 4, 5],
                "default_level": 3,
            },
            {
                "name": "pimc",
                "description": PLAYERS[3].description,
                "levels": [1, 2, 3, 4, 5],
                "default_level": 3,
            },
            {
                "name": "infer",
                "description": PLAYERS[4].description,
                "levels": [1, 2, 3, 4, 5],
                "default_level": 3,
            },
        ],
        "player_choices": list(player_choices()),
        "rules": {
            "switches": {
                "lone_defender": ["graded", "flat"],
                "surrender_bonus": [2, 0],
                "all_pass_declarer": ["spade-jack", "first-bidder"],
                "second_dealer": ["first-bidder", "rotate"],
            },
            "target": {"min": 1, "max": 100000, "default": 121},
            "defaults": Rules().to_dict(),
            "presets": {name: rules.to_dict() for name, rules in PRESETS.items()},
        },
    }
    assert res.json()["player_choices"][:6] == ["random", "heuristic", "amu", "pimc", "infer", "amu:1"]


def test_every_player_of_the_registry_may_sit_and_no_other(client: TestClient) -> None:
    for info in PLAYERS:
        level = info.levels[-1] if info.levels else None
        seats = [{"kind": "bot", "bot": info.name, "level": level}, *HUMANS[:2]]
        res = client.post("/api/tables", json={"name": "Reg", "seats": seats})
        assert res.status_code == 201, res.text
        expected = info.name if level is None else f"{info.name}:{level}"
        assert res.json()["table"]["seats"][0]["bot"] == expected
    bad = client.post(
        "/api/tables", json={"name": "x", "seats": [{"kind": "bot", "bot": "oracle"}, *HUMANS[:2]]}
    )
    assert bad.status_code == 422
    # a level the player does not have: refused with the registry's reason
    seats = [{"kind": "bot", "bot": "heuristic", "level": 2}, *HUMANS[:2]]
    bad = client.post("/api/tables", json={"name": "x", "seats": seats})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad-seats"
    assert "heuristic has no strength levels" in bad.json()["error"]["message"]


def test_a_bot_seat_without_a_name_gets_the_default_player(client: TestClient) -> None:
    # (it used to be refused as "unknown player 'none'")
    res = client.post("/api/tables", json={"name": "D", "seats": [{"kind": "bot"}, *HUMANS[:2]]})
    assert res.status_code == 201, res.text
    assert res.json()["table"]["seats"][0]["bot"] == DEFAULT_PLAYER == "infer"


def test_the_rules_of_a_table_are_its_matchs_and_survive_storage(client: TestClient) -> None:
    body = {"name": "R", "rules": {"target": 61, "lone_defender": "flat"}, "seats": HUMANS}
    table_id = str(client.post("/api/tables", json=body).json()["id"])
    manager = client.app.state.manager  # type: ignore[attr-defined]
    table = manager.get(table_id)
    assert table.rules is table.match.rules
    assert table.rules == Rules(target=61, lone_defender="flat")
    expected = Rules(target=61, lone_defender="flat").to_dict()
    assert client.get(f"/api/tables/{table_id}").json()["rules"] == expected
    reloaded = manager.store.load(table_id)
    assert reloaded is not None and reloaded.rules == table.rules
    bad = client.post("/api/tables", json={"name": "x", "rules": {"speed": 1}, "seats": HUMANS})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad-rules"


def _finished_match(target: int, seed: int) -> Match:
    rng = random.Random(seed)
    match = Match(first_dealer=0, rules=Rules(target=target), rng=random.Random(seed))
    while not match.is_over:
        match.apply(rng.choice(match.legal_actions()), match.to_move)
    return match


def test_the_sheet_marks_the_resets_of_r8_2() -> None:
    match = _finished_match(6, 51)  # a game with a total brought to exactly -6
    table = Table("t", "Sheet", [Seat("human")] * 3, match)
    rows = table.sheet()
    assert any(row["resets"] for row in rows)
    previous = [0, 0, 0]
    for row in rows:
        for s in range(3):
            reset = previous[s] + row["scores"][s] == -6
            assert (s in row["resets"]) == reset
            if reset:
                assert row["totals"][s] == 0
        previous = row["totals"]
    assert {row["outcome"] for row in rows} <= {"played", "uncontested", "surrender"}


def test_an_action_after_the_game_is_refused_with_r8_3(tmp_path: Path) -> None:
    async def scenario() -> TableError:
        engine = make_engine(f"sqlite:///{tmp_path / 'over.db'}")
        migrate(engine)
        manager = TableManager(session_factory(engine), bot_delay=0.0)
        rng = random.Random(2)
        table = manager.create("Over", Rules(target=5), HUMANS)
        try:
            while not table.finished:
                seat = table.match.to_move
                assert seat is not None
                action = rng.choice(table.match.view(seat).legal_actions)
                await manager.act(table.id, seat, str(action), table.version, None)
            try:
                await manager.act(table.id, 0, "pass", table.version, None)
            except TableError as err:
                return err
            raise AssertionError("an action after the game was accepted")
        finally:
            manager.log.close()
            engine.dispose()

    err = asyncio.run(scenario())
    assert (err.code, err.rule) == ("game-over", "R8.3")


def test_views_are_encoded_as_they_are_whatever_history_is_shared() -> None:
    # Sharing the public history's encoding never changes what a view says: every
    # audience's encoding equals its own view encoded alone, discards hidden only where
    # the view hides them.
    match = _finished_match(10, 3)
    saw_shown = saw_hidden = False
    for deal in match.deals:
        for state, _ in deal.states():
            public = PublicHistory.of(state.public_view())
            for seat in (0, 1, 2, None):
                view = state.public_view() if seat is None else state.view(seat)
                encoded = view_json(view, public)
                assert encoded == view_json(view)
                for entry in encoded["history"]:
                    if entry["type"] == "discard":
                        shown = "cards" in entry
                        assert shown == (seat is not None and seat == view.declarer)
                        saw_shown |= shown
                        saw_hidden |= not shown
    assert saw_shown and saw_hidden
