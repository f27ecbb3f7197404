"""The score sheet of a game played with real cards over HTTP (``/api/sheets``, issue 23
item 6): made with an owner token, deals added and undone by it alone, read by anyone
through the share id, exported as the ``paston-sheet/1`` file the CLI reads; totals and
resets (R8.2) as ``paston.sheet`` and ``paston sheet show`` give them; bad input refused
with a 4xx naming the problem (and the rule), nothing changed; the limits."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import inspect
from tests.db_helpers import any_db

from cli_helpers import assert_ok, invoke
from paston.cli.score import _load
from paston.contracts import Contract
from paston.server.store.db import make_engine
from paston.server.store.sheetstore import SheetStore
from paston.server.tables.seating import hash_token
from paston.server.web.app import create_app
from paston.server.web.sheets import SheetLimits
from paston.sheet import SHEET_FORMAT, ScoreSheet, score_deal

__all__ = ["any_db"]  # the fixture (tests/db_helpers.py): SQLite and PostgreSQL

NAMES = ["Ana", "Bo", "Cy"]
OPEN = SheetLimits(create_burst=10**6, create_every=0.0, sheets_per_day=10**6)
#: Bo's total goes 0 → −40 → −80 → −112 → −121, reset to 0 (R8.2); Ana then wins with
#: three uncontested gupa (+40 each: 40 → 160, R8.3).
RESET_GAME: list[dict[str, Any]] = [
    {"outcome": "played", "declarer": 0, "contract": "best-spades", "defenders": [1], "tricks": [10, 0, 0]},
    {"outcome": "played", "declarer": 0, "contract": "best-spades", "defenders": [1], "tricks": [10, 0, 0]},
    {"outcome": "played", "declarer": 0, "contract": "best-spades", "defenders": [1], "tricks": [8, 2, 0]},
    {"outcome": "played", "declarer": 0, "contract": "spades", "defenders": [1], "tricks": [9, 1, 0]},
] + [{"outcome": "uncontested", "declarer": 0, "contract": "hearts"}] * 3


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One app for the module (its sheets apart by id); no limit unless a test sets one."""
    db = tmp_path_factory.mktemp("sheets") / "paston.db"
    app = create_app(f"sqlite:///{db}", bot_delay=0.0, bot_workers=0, analysis_workers=0)
    with TestClient(app) as c:
        app.state.sheets.limits = OPEN
        yield c
        app.state.sheets.limits = OPEN


@pytest.fixture()
def limits(client: TestClient) -> Iterator[Any]:
    """Set the sheets' limits for one test (the open ones come back after it)."""
    sheets = client.app.state.sheets  # type: ignore[attr-defined]

    def use(**given: Any) -> None:
        sheets.limits = SheetLimits(**given)

    yield use
    sheets.limits = OPEN


def new_sheet(client: TestClient, names: list[str] = NAMES, **rules: Any) -> tuple[str, str]:
    res = client.post("/api/sheets", json={"players": names, "rules": rules})
    assert res.status_code == 201, res.text
    made = res.json()
    assert made["share"] == f"/sheet/{made['id']}" and made["sheet"]["deals"] == []
    return str(made["id"]), str(made["token"])


def add(client: TestClient, sheet: str, token: str, deal: dict[str, Any], **extra: Any) -> Any:
    return client.post(f"/api/sheets/{sheet}/deals", json={"token": token, **deal, **extra})


def refused(res: Any, status: int, code: str, *needles: str) -> dict[str, Any]:
    assert res.status_code == status, res.text
    error = res.json()["error"]
    assert error["code"] == code, error
    for needle in needles:
        assert needle in error["message"], error
    return dict(error)


def engine_sheet(deals: list[dict[str, Any]], **rules: Any) -> ScoreSheet:
    """The same deals scored by paston.sheet directly (the CLI's scoring)."""
    sheet = ScoreSheet(players=("Ana", "Bo", "Cy"))
    if rules:
        sheet = ScoreSheet.from_dict({"format": SHEET_FORMAT, "players": NAMES, "rules": rules, "deals": []})
    for d in deals:
        contract = Contract.parse(d["contract"]) if d.get("contract") else None
        sheet.add(
            score_deal(
                d["outcome"],
                declarer=d["declarer"],
                contract=contract,
                defenders=d.get("defenders", ()),
                tricks=d.get("tricks"),
                rules=sheet.rules,
            )
        )
    return sheet


# --- the way through: make, add, undo, read, export -------------------------------------------------
def test_a_whole_game_with_a_reset_is_scored_as_paston_sheet_scores_it(
    client: TestClient, tmp_path: Path
) -> None:
    sheet, token = new_sheet(client)
    for i, deal in enumerate(RESET_GAME):
        res = add(client, sheet, token, deal, deals=i)
        assert res.status_code == 201, res.text
    view = res.json()
    expected = engine_sheet(RESET_GAME)
    assert view["totals"] == list(expected.totals) == [160, 0, 0]
    assert [d["totals"] for d in view["deals"]] == [list(t) for t in expected.totals_history]
    assert view["deals"][3]["totals"][1] == 0 and view["deals"][3]["resets"] == [1]  # −121 → 0 (R8.2)
    assert view["winners"] == [0] and view["over"] is True
    refused(add(client, sheet, token, RESET_GAME[-1]), 409, "game-over", "R8.3")
    # the file: the CLI's own loader reads it, and ``paston sheet show`` shows the same totals
    exported = client.get(f"/api/sheets/{sheet}/export")
    assert exported.status_code == 200 and "attachment" in exported.headers["content-disposition"]
    path = tmp_path / "game.json"
    path.write_text(exported.text, encoding="utf-8")
    loaded = _load(path)
    assert loaded.players == ("Ana", "Bo", "Cy") and loaded.totals == expected.totals
    assert ScoreSheet.from_dict(json.loads(exported.text)).to_dict() == exported.json()
    shown = assert_ok(invoke("sheet", "show", path))
    assert "Totals: Ana 160, Bo 0, Cy 0" in shown and "↺0" in shown and "Ana wins" in shown


def test_undo_takes_back_the_last_deal_and_only_that(client: TestClient) -> None:
    sheet, token = new_sheet(client)
    refused(client.post(f"/api/sheets/{sheet}/undo", json={"token": token}), 409, "empty-sheet", "R8.1")
    add(client, sheet, token, {"outcome": "surrender", "declarer": 1})
    add(client, sheet, token, RESET_GAME[0])
    res = client.post(f"/api/sheets/{sheet}/undo", json={"token": token, "deals": 2})
    assert res.status_code == 200, res.text
    view = res.json()
    assert [d["outcome"] for d in view["deals"]] == ["surrender"] and view["totals"] == [2, -10, 2]
    assert client.get(f"/api/sheets/{sheet}").json() == view


def test_the_exported_file_goes_on_in_the_cli(client: TestClient, tmp_path: Path) -> None:
    """``paston sheet add`` and ``undo`` take the downloaded file as their own."""
    sheet, token = new_sheet(client, target=61)
    add(client, sheet, token, {"outcome": "surrender", "declarer": 1})
    path = tmp_path / "evening.json"
    path.write_text(client.get(f"/api/sheets/{sheet}/export").text, encoding="utf-8")
    out = assert_ok(
        invoke("sheet", "add", path, "gupa", "--declarer", "Ana", "--defenders", "Bo", "--tricks", "7,3,0")
    )
    assert "Totals: Ana 42, Bo -38, Cy 2" in out
    assert _load(path).rules.target == 61
    assert "Totals: Ana 2, Bo -10, Cy 2" in assert_ok(invoke("sheet", "undo", path))


def test_the_share_link_reads_but_never_changes(client: TestClient) -> None:
    sheet, token = new_sheet(client)
    add(client, sheet, token, RESET_GAME[0])
    before = client.get(f"/api/sheets/{sheet}").json()
    assert "token" not in json.dumps(before) and before["share"] == f"/sheet/{sheet}"
    _, other = new_sheet(client)  # the token of another sheet is no key to this one
    for bad in ("", "x", other, token + "x"):
        res = add(client, sheet, bad, {"outcome": "surrender", "declarer": 0})
        assert res.status_code in (403, 422), res.text
        res = client.post(f"/api/sheets/{sheet}/undo", json={"token": bad})
        assert res.status_code in (403, 422), res.text
    refused(add(client, sheet, other, RESET_GAME[0]), 403, "not-sheet-owner", "read-only")
    refused(client.post(f"/api/sheets/{sheet}/deals", json=RESET_GAME[0]), 422, "malformed", "token")
    assert client.get(f"/api/sheets/{sheet}").json() == before
    assert client.get(f"/sheet/{sheet}").status_code == 200 and client.get("/sheet").status_code == 200
    refused(client.get("/api/sheets/nope"), 404, "no-sheet")
    refused(client.get("/api/sheets/" + "a" * 40), 404, "no-sheet")


def test_a_tap_sent_twice_adds_one_deal(client: TestClient) -> None:
    sheet, token = new_sheet(client)
    assert add(client, sheet, token, RESET_GAME[0], deals=0).status_code == 201
    refused(add(client, sheet, token, RESET_GAME[0], deals=0), 409, "sheet-changed", "1 deals")
    refused(client.post(f"/api/sheets/{sheet}/undo", json={"token": token, "deals": 0}), 409, "sheet-changed")
    assert len(client.get(f"/api/sheets/{sheet}").json()["deals"]) == 1


def test_a_change_from_a_stale_version_is_refused(client: TestClient) -> None:
    sheet, _ = new_sheet(client)
    store = client.app.state.sheets.store  # type: ignore[attr-defined]
    read = store.load(sheet)
    assert store.replace_deals(sheet, read.version, []) is True
    assert store.replace_deals(sheet, read.version, [{"x": 1}]) is False  # the other change came first
    assert store.load(sheet).deals == [] and store.load(sheet).version == read.version + 1


# --- every legal game, scored as the engine scores it ------------------------------------------------
@st.composite
def legal_deal(draw: st.DrawFn) -> dict[str, Any]:
    """A deal as a person enters it: any legal outcome, declarer, contract, whisters, tricks."""
    outcome = draw(st.sampled_from(["played", "played", "played", "uncontested", "surrender"]))
    declarer = draw(st.integers(0, 2))
    if outcome == "surrender":
        return {"outcome": outcome, "declarer": declarer}
    contract = draw(st.sampled_from([c.name_in_record for c in Contract]))
    if outcome == "uncontested":
        return {"outcome": outcome, "declarer": declarer, "contract": contract}
    others = [s for s in range(3) if s != declarer]
    defenders = draw(st.sampled_from([others[:1], others[1:], others]))
    tricks = [0, 0, 0]
    tricks[declarer] = draw(st.integers(0, 10))
    left = 10 - tricks[declarer]
    if len(defenders) == 1:
        tricks[defenders[0]] = left
    else:
        tricks[defenders[0]] = draw(st.integers(0, left))
        tricks[defenders[1]] = left - tricks[defenders[0]]
    return {
        "outcome": outcome,
        "declarer": declarer,
        "contract": contract,
        "defenders": defenders,
        "tricks": tricks,
    }


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    deals=st.lists(legal_deal(), max_size=25),
    rules=st.sampled_from([{}, {"lone_defender": "flat"}, {"surrender_bonus": 0}, {"target": 61}]),
)
def test_the_totals_of_any_whole_game_equal_the_engines(
    client: TestClient, deals: list[dict[str, Any]], rules: dict[str, Any]
) -> None:
    """Random legal deals, then uncontested gupa for Ana until someone reaches the target:
    after every deal the server's totals and resets are paston.sheet's, and at the end the
    exported file loads in the CLI with the same totals and winners."""
    sheet, token = new_sheet(client, **rules)
    entered: list[dict[str, Any]] = []
    finish = {"outcome": "uncontested", "declarer": 0, "contract": "hearts"}
    view: dict[str, Any] = {"over": False}
    for deal in deals + [finish] * 400:
        if view["over"]:
            break
        res = add(client, sheet, token, deal, deals=len(entered))
        assert res.status_code == 201, res.text
        entered.append(deal)
        view = res.json()
        expected = engine_sheet(entered, **rules)
        assert view["totals"] == list(expected.totals)
        assert view["deals"][-1]["resets"] == list(expected.resets(len(entered) - 1))
    assert view["over"] and view["winners"] == list(expected.winners)
    loaded = ScoreSheet.from_dict(client.get(f"/api/sheets/{sheet}/export").json())
    assert loaded.totals == expected.totals and loaded.winners == expected.winners


# --- bad input: refused, naming the problem, nothing changed ----------------------------------------------
BAD_DEALS = [
    ({"outcome": "won", "declarer": 0}, 400, "parse-outcome", "outcome must be one of"),
    ({"outcome": "surrender", "declarer": 3}, 400, "bad-seat", "R0.1"),
    ({"outcome": "played", "declarer": 0, "defenders": [1], "tricks": [6, 4, 0]}, 400, "no-contract", "R4.2"),
    ({"outcome": "surrender", "declarer": 0, "tricks": [6, 4, 0]}, 400, "surrender-no-play", "R4.3"),
    (
        {"outcome": "uncontested", "declarer": 0, "contract": "clubs", "defenders": [1]},
        400,
        "uncontested-no-play",
        "R5.3",
    ),
    (
        {"outcome": "played", "declarer": 0, "contract": "clubs", "tricks": [6, 4, 0]},
        400,
        "bad-defenders",
        "R5.2",
    ),
    (
        {"outcome": "played", "declarer": 0, "contract": "clubs", "defenders": [0], "tricks": [6, 4, 0]},
        400,
        "bad-defenders",
        "R5.2",
    ),
    (
        {"outcome": "played", "declarer": 0, "contract": "clubs", "defenders": [1], "tricks": [6, 3, 0]},
        400,
        "bad-tricks",
        "R6.3",
    ),
    (
        {"outcome": "played", "declarer": 0, "contract": "clubs", "defenders": [1], "tricks": [6, 3, 1]},
        400,
        "passer-took-tricks",
        "R5.2",
    ),
    (
        {"outcome": "played", "declarer": 0, "contract": "no-trump", "defenders": [1], "tricks": [6, 4, 0]},
        400,
        "parse-contract",
        "no no-trump",
    ),
    ({"outcome": "surrender", "declarer": "0"}, 422, "malformed", "declarer"),
    ({"outcome": "surrender", "declarer": 0, "extra": 1}, 422, "malformed", "extra"),
    ({"outcome": "surrender", "declarer": 0, "deals": -1}, 422, "malformed", "deals"),
    (
        {"outcome": "played", "declarer": 0, "contract": "clubs", "defenders": [1], "tricks": [6, 4, 0, 0]},
        422,
        "malformed",
        "tricks",
    ),
]


@pytest.mark.parametrize(
    ("deal", "status", "code", "needle"),
    BAD_DEALS,
    ids=[b[2] + "-" + str(i) for i, b in enumerate(BAD_DEALS)],
)
def test_a_bad_deal_is_refused_naming_the_problem_and_changes_nothing(
    client: TestClient, deal: dict[str, Any], status: int, code: str, needle: str
) -> None:
    sheet, token = new_sheet(client)
    add(client, sheet, token, RESET_GAME[0])
    before = client.get(f"/api/sheets/{sheet}").json()
    error = refused(add(client, sheet, token, deal), status, code, needle)
    if needle.startswith("R"):
        assert error["rule"] == needle
    assert client.get(f"/api/sheets/{sheet}").json() == before


def test_a_body_that_is_not_json_or_too_large_is_refused(client: TestClient) -> None:
    sheet, token = new_sheet(client)
    before = client.get(f"/api/sheets/{sheet}").json()
    headers = {"content-type": "application/json"}
    refused(
        client.post(f"/api/sheets/{sheet}/deals", content=b"{nope", headers=headers), 422, "malformed", "JSON"
    )
    huge = json.dumps({"token": token, "outcome": "surrender", "declarer": 0, "contract": "x" * 20_000})
    refused(client.post(f"/api/sheets/{sheet}/deals", content=huge, headers=headers), 413, "too-large")
    refused(
        client.post("/api/sheets", content=json.dumps({"players": ["a" * 9000] * 3}), headers=headers),
        413,
        "too-large",
    )
    assert client.get(f"/api/sheets/{sheet}").json() == before


@pytest.mark.parametrize(
    ("names", "status", "needle"),
    [
        (["Ana", "Bo"], 422, "players"),
        (["Ana", "Bo", "Cy", "Di"], 422, "players"),
        (["Ana", "Bo", "  "], 400, "1 to 40 characters"),
        (["Ana", "Bo", "C" * 41], 400, "1 to 40 characters"),
        (["Ana", "ANA", "Cy"], 400, "must differ"),
        (["Ana", "Bo", "C,y"], 400, "comma"),
        (["Ana", "Bo", "C\u0000y"], 400, "control character"),
        (["Ana", "Bo", "1"], 400, "seat number"),
        (["Ana", "Bo", 7], 422, "players"),
    ],
)
def test_bad_player_names_are_refused(client: TestClient, names: list[Any], status: int, needle: str) -> None:
    res = client.post("/api/sheets", json={"players": names})
    refused(res, status, "malformed" if status == 422 else "bad-player-name", needle)


def test_names_are_kept_as_text_and_rules_are_checked(client: TestClient) -> None:
    markup = ["<b>Ana</b>", "Bo & <i>co</i>", "<script>x</script>"]
    sheet, _ = new_sheet(client, markup)
    assert client.get(f"/api/sheets/{sheet}").json()["players"] == markup
    refused(
        client.post("/api/sheets", json={"players": NAMES, "rules": {"target": 0}}),
        400,
        "bad-rules",
        "target",
    )
    refused(
        client.post("/api/sheets", json={"players": NAMES, "rules": {"bogus": 1}}), 400, "bad-rules", "bogus"
    )
    sheet, token = new_sheet(client, target=61, lone_defender="flat")
    view = add(
        client,
        sheet,
        token,
        {"outcome": "played", "declarer": 0, "contract": "hearts", "defenders": [1], "tricks": [7, 3, 0]},
    ).json()
    assert view["rules"]["target"] == 61 and view["totals"] == [40, -36, 0]  # the flat table (R7.3)


# --- limits ------------------------------------------------------------------------------------------
def test_a_sheet_holds_a_bounded_number_of_deals(client: TestClient, limits: Any) -> None:
    limits(create_burst=10**6, create_every=0.0, sheets_per_day=10**6, deals_per_sheet=2)
    sheet, token = new_sheet(client)
    surrender = {"outcome": "surrender", "declarer": 0}
    assert add(client, sheet, token, surrender).status_code == 201
    assert add(client, sheet, token, surrender).json()["max_deals"] == 2
    refused(add(client, sheet, token, surrender), 409, "sheet-full", "at most 2 deals")
    assert len(client.get(f"/api/sheets/{sheet}").json()["deals"]) == 2


def test_sheets_made_per_address_are_limited(client: TestClient, limits: Any) -> None:
    limits(create_burst=2, create_every=3600.0, sheets_per_day=10**6)
    body = {"players": NAMES}
    assert client.post("/api/sheets", json=body).status_code == 201
    assert client.post("/api/sheets", json=body).status_code == 201
    res = client.post("/api/sheets", json=body)
    refused(res, 429, "sheet-rate-limited", "try again")
    assert int(res.headers["retry-after"]) > 0
    made = client.app.state.sheets.store.made_since  # type: ignore[attr-defined]
    limits(create_burst=10**6, create_every=0.0, sheets_per_day=1)
    assert made(hash_token("testclient"), datetime.now(UTC) - timedelta(days=1)) >= 2
    refused(client.post("/api/sheets", json=body), 429, "too-many-sheets", "today")
    limits(create_burst=10**6, create_every=0.0, sheets_per_day=10**6, sheets=1)
    refused(client.post("/api/sheets", json=body), 429, "server-full", "maximum of 1 sheets")


# --- the database ------------------------------------------------------------------------------------
def test_a_database_of_the_previous_revision_upgrades_and_keeps_sheets(any_db: str) -> None:
    """A database made by migration 0005 gains the score_sheets table at start; a sheet
    made then is there after a restart (SQLite and PostgreSQL)."""
    from alembic import command
    from alembic.config import Config

    from paston.server.store import db

    engine = make_engine(any_db)
    config = Config()
    config.set_main_option("script_location", str(Path(db.__file__).parent / "migrations"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0005_fence")
    assert "score_sheets" not in inspect(engine).get_table_names()
    engine.dispose()
    app = create_app(any_db, bot_delay=0.0, bot_workers=0, analysis_workers=0)
    with TestClient(app) as c:
        sheet, token = new_sheet(c)
        assert add(c, sheet, token, RESET_GAME[0]).status_code == 201
    engine = make_engine(any_db)
    assert "score_sheets" in inspect(engine).get_table_names()
    stored = SheetStore(engine).load(sheet)
    engine.dispose()
    assert stored is not None and stored.sheet().totals == (10, -40, 0)
    with TestClient(create_app(any_db, bot_delay=0.0, bot_workers=0, analysis_workers=0)) as c:
        assert c.get(f"/api/sheets/{sheet}").json()["totals"] == [10, -40, 0]
