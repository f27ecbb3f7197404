"""``GET /api/scores``: the Learn page's ladder and R7 table, computed by the engine's
scoring (R7, R8.2) under the default rules or a preset; and the ``/learn`` page."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from tests.ws_helpers import client, db_url

from paston.contracts import LADDER, Contract
from paston.rules import PRESETS, Rules
from paston.scoring import apply_totals, declarer_score, defender_score, surrender_scores, uncontested_scores
from paston.server.web.learn import score_table

__all__ = ["client", "db_url"]  # the fixtures (tests/ws_helpers.py), used by name


def rows_of(facts: dict[str, object]) -> dict[tuple[str, int | None], list[int]]:
    return {(r["key"], r.get("tricks")): r["scores"] for r in facts["rows"]}  # type: ignore[attr-defined]


def test_r7_the_scores_are_the_engine_s(client: TestClient) -> None:
    res = client.get("/api/scores")
    assert res.status_code == 200
    facts = res.json()
    rows = rows_of(facts)
    assert rows[("declarer-made", None)] == [declarer_score(c, True) for c in LADDER] == [10, 20, 30, 40, 10]
    assert rows[("declarer-failed", None)] == [-10 * c.multiplier for c in LADDER]
    assert rows[("uncontested", None)] == [uncontested_scores(c, declarer=1)[1] for c in LADDER]
    for t in range(6):
        assert rows[("two-defenders", t)] == [defender_score(c, t, lone=False) for c in LADDER]
    for t in range(7):
        assert rows[("lone-defender", t)] == [defender_score(c, t, lone=True) for c in LADDER]
    assert [(c["contract"], c["word"], c["multiplier"], c["trump"]) for c in facts["contracts"]] == [
        (c.name_in_record, c.word, c.multiplier, "SCDH"[c.trump_suit]) for c in LADDER
    ]
    assert facts["quotas"] == {"declarer": 6, "two-defenders": 2, "lone-defender": 4}  # R6.3, R5.2
    surrender = facts["surrender"]
    assert (surrender["declarer"], surrender["opponent"]) == surrender_scores(declarer=0)[:2]
    assert facts["passer"]["score"] == 0  # R7.4
    assert [d["scores"] for d in facts["example"]["deals"]] == [[10, 40, -36], [10, 10, -9]]  # R7.8


def test_r8_2_the_reset_example_is_the_engine_s(client: TestClient) -> None:
    reset = client.get("/api/scores").json()["reset"]
    assert reset["before"] + reset["score"] == -Rules().target
    assert reset["after"] == apply_totals((reset["before"], 0, 0), (reset["score"], 0, 0))[0] == 0
    below = reset["below"]
    assert below["after"] == below["before"] + below["score"] < -Rules().target


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_r7_3_a_preset_s_scores_follow_its_switches(client: TestClient, preset: str) -> None:
    facts = client.get(f"/api/scores?preset={preset}").json()
    rules = PRESETS[preset]
    assert facts == score_table(rules) and facts["rules"] == rules.to_dict()
    lone = rows_of(facts)
    assert [lone[("lone-defender", t)][0] for t in range(4)] == [
        defender_score(Contract.SPADES, t, lone=True, rules=rules) for t in range(4)
    ]
    assert facts["surrender"]["opponent"] == rules.surrender_bonus
    assert facts["reset"]["before"] + facts["reset"]["score"] == -rules.target


def test_an_unknown_preset_is_refused_by_name(client: TestClient) -> None:
    res = client.get("/api/scores?preset=nonsense")
    assert res.status_code == 400
    error = res.json()["error"]
    assert error["code"] == "bad-rules" and "nonsense" in error["message"]
    assert client.get("/api/scores?preset=" + "x" * 41).json()["error"]["code"] == "malformed"


def test_the_learn_page_is_the_client(client: TestClient) -> None:
    res = client.get("/learn")
    assert res.status_code == 200 and "text/html" in res.headers["content-type"]
    assert '<script type="module"' in res.text
