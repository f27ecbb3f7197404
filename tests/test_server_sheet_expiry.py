"""How long score sheets are kept (issue 23): a sheet nobody changed for
``SheetLimits.keep_days`` (``paston serve --sheet-days``, 180 by default) is deleted when
the server starts and then hourly; reading it does not keep it (docs/rules-decisions.md
W22)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from tests.server_process import free_port

from cli_helpers import invoke
from paston.server.store.db import ScoreSheetRow
from paston.server.web.app import create_app
from paston.server.web.sheets import SheetLimits

NAMES = ["Ana", "Bo", "Cy"]
DEAL = {"outcome": "played", "declarer": 0, "contract": "spades", "defenders": [1], "tricks": [6, 4, 0]}
OPEN = {"create_burst": 10**6, "create_every": 0.0, "sheets_per_day": 10**6}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("sheets") / "paston.db"
    app = create_app(f"sqlite:///{db}", bot_delay=0.0, bot_workers=0, analysis_workers=0)
    with TestClient(app) as c:
        yield c


def keep(client: TestClient, days: float) -> None:
    """Keep sheets ``days`` days after their last change (no other limit)."""
    client.app.state.sheets.limits = SheetLimits(keep_days=days, **OPEN)  # type: ignore[attr-defined]


def new_sheet(client: TestClient) -> tuple[str, str]:
    res = client.post("/api/sheets", json={"players": NAMES})
    assert res.status_code == 201, res.text
    return str(res.json()["id"]), str(res.json()["token"])


def age(client: TestClient, sheet: str, days: float, *, made: float | None = None) -> None:
    """Make ``sheet`` look last changed ``days`` ago (and made ``made`` days ago)."""
    when = datetime.now(UTC) - timedelta(days=days)
    values: dict[str, Any] = {"updated": when}
    if made is not None:
        values["created"] = datetime.now(UTC) - timedelta(days=made)
    with client.app.state.sheets.store.sessions.begin() as session:  # type: ignore[attr-defined]
        session.execute(update(ScoreSheetRow).where(ScoreSheetRow.id == sheet).values(**values))


def test_a_sheet_untouched_for_its_keeping_time_is_deleted(client: TestClient) -> None:
    """Untouched means not changed: a sheet made long ago but changed lately stays, a
    change keeps an old sheet, reading does not (docs/rules-decisions.md W22)."""
    keep(client, 180)
    sheets = client.app.state.sheets  # type: ignore[attr-defined]
    old, _ = new_sheet(client)
    read, _ = new_sheet(client)
    recent, _ = new_sheet(client)
    changed, token = new_sheet(client)
    age(client, old, 181)
    age(client, read, 181)
    age(client, recent, 179, made=400)
    age(client, changed, 300)
    assert client.get(f"/api/sheets/{read}").status_code == 200  # a read keeps nothing
    change = client.post(f"/api/sheets/{changed}/deals", json={"token": token, **DEAL})
    assert change.status_code == 201  # a change does
    assert sheets.sweep() == 2
    for sheet, status in ((old, 404), (read, 404), (recent, 200), (changed, 200)):
        assert client.get(f"/api/sheets/{sheet}").status_code == status, sheet
    gone = client.get(f"/api/sheets/{old}/export")
    assert gone.status_code == 404 and gone.json()["error"]["code"] == "no-sheet"
    assert sheets.sweep() == 0
    # a shorter keeping time, as `paston serve --sheet-days 100` sets it
    keep(client, 100)
    assert sheets.sweep() == 1
    assert client.get(f"/api/sheets/{recent}").status_code == 404
    assert client.get(f"/api/sheets/{changed}").status_code == 200


def test_the_server_deletes_old_sheets_when_it_starts(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'paston.db'}"
    with TestClient(create_app(url, bot_delay=0.0, bot_workers=0, analysis_workers=0)) as c:
        old, _ = new_sheet(c)
        kept, _ = new_sheet(c)
        age(c, old, 11)
        age(c, kept, 9)
    app = create_app(
        url, bot_delay=0.0, bot_workers=0, analysis_workers=0, sheet_limits=SheetLimits(keep_days=10)
    )
    with TestClient(app) as c:
        deadline = time.monotonic() + 10
        while c.get(f"/api/sheets/{old}").status_code != 404:
            assert time.monotonic() < deadline, "the old sheet was not deleted at start"
            time.sleep(0.02)
        assert c.get(f"/api/sheets/{kept}").status_code == 200


def test_paston_serve_sets_how_long_sheets_are_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--sheet-days`` and ``--sheets-per-day`` reach the app's sheet limits."""
    from paston.server.web import app as web_app

    given: dict[str, Any] = {}

    def fake_app(*args: Any, **kwargs: Any) -> None:
        given.update(kwargs)
        raise SystemExit(0)

    monkeypatch.setattr(web_app, "create_app", fake_app)
    serve = ("serve", "--port", free_port(), "--database-url", f"sqlite:///{tmp_path / 'paston.db'}")
    invoke(*serve, "--sheet-days", "30", "--sheets-per-day", "7")
    assert given["sheet_limits"] == SheetLimits(keep_days=30.0, sheets_per_day=7)
    given.clear()
    invoke(*serve)
    assert given["sheet_limits"] == SheetLimits()
