"""The analysis of a finished deal in the browser (analysis.js): opened from the score
sheet, it shows what ``paston analyze --scores`` prints for the same record."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from tests.browser_helpers import SHOTS, LiveServer, Opener, browser, check_png, open_page, server
from tests.cli_helpers import invoke

from paston.actions import Kind

__all__ = ["browser", "open_page", "server"]  # the fixtures, used by name

BOTS = [{"kind": "bot", "bot": "random"}] * 3
DIALOG = "#analysis-dialog"


def _shown(page: Any) -> dict[str, Any]:
    """What the dialog shows, read from its elements' data attributes."""
    return dict(
        page.evaluate(
            """() => {
        const d = document.getElementById('analysis-dialog');
        const all = (sel) => [...d.querySelectorAll(sel)].map((e) => ({...e.dataset}));
        return {
          totals: all('[data-testid=an-totals] tbody tr'),
          mistakes: all('ol[data-testid=an-mistakes] li'),
          cards: all('.an-card'),
          decisions: [...d.querySelectorAll('[data-testid=an-decisions] tbody tr')].map((r) => ({
            ...r.dataset,
            options: [...r.querySelectorAll('.an-options li')].map((o) => ({...o.dataset})),
          })),
        };
      }"""
        )
    )


def _ready(server: LiveServer, table_id: str, index: int) -> dict[str, Any]:
    for _ in range(600):
        got = server.get(f"/api/tables/{table_id}/deals/{index}/analysis")
        if got.get("status") != "pending":
            return dict(got)
        time.sleep(0.1)
    raise AssertionError(f"deal {index} was not analysed within a minute")


def test_the_analysis_in_the_browser_matches_paston_analyze(
    server: LiveServer, open_page: Opener, tmp_path: Path
) -> None:
    table_id = server.new_table(BOTS, target=10)
    page = open_page(1280, 900)
    page.goto(f"{server.url}/t/{table_id}")
    page.wait_for_selector("[data-testid=game-over]", timeout=120_000)
    match = server.manager.get(table_id).match
    with_play = [
        i
        for i, d in enumerate(match.deals)
        if d.result is not None and any(e.action.kind is Kind.PLAY for e in d.events)
    ]
    scored = [i for i, d in enumerate(match.deals) if d.result is not None]
    # the deal with the most mistakes (the server has analysed every deal by now, or soon)
    index = max(with_play or scored, key=lambda i: (len(_ready(server, table_id, i)["mistakes"]), -i))
    record = tmp_path / "game.json"
    record.write_text(json.dumps(server.get(f"/api/tables/{table_id}/record")), encoding="utf-8")

    page.click(f"[data-testid=an-open][data-deal-index='{index}']")
    page.wait_for_selector(f"{DIALOG}[data-state=ready]", timeout=60_000)
    assert page.evaluate("typeof window.pastonOpenAnalysis") == "function"
    shown = _shown(page)

    result = invoke("analyze", record, "--scores", "--deal", index, "--json", "--quiet")
    assert result.exit_code == 0, result.output
    expected = json.loads(result.stdout)
    assert expected["deal"] == index

    assert [float(r["lost"]) for r in shown["totals"]] == [float(x) for x in expected["totals"]]
    assert [(int(m["index"]), int(m["seat"]), m["what"], float(m["cost"])) for m in shown["mistakes"]] == [
        (m["index"], m["seat"], m["what"], float(m["cost_points"])) for m in expected["mistakes"]
    ]
    assert [
        (
            int(c["index"]),
            int(c["seat"]),
            c["card"],
            int(c["costTricks"]),
            float(c["costPoints"]),
            c["best"],
            c["bot"],
        )
        for c in shown["cards"]
    ] == [
        (
            c["index"],
            c["seat"],
            c["card"],
            c["cost_tricks"],
            float(c["cost_points"]),
            " ".join(c["best"]),
            c["bot"],
        )
        for c in expected["cards"]
    ]
    assert [
        (
            int(d["index"]),
            int(d["seat"]),
            d["phase"],
            d["chosen"],
            d["bot"],
            [(o["action"], float(o["score"])) for o in d["options"]],
        )
        for d in shown["decisions"]
    ] == [
        (
            d["index"],
            d["seat"],
            d["phase"],
            d["chosen"],
            d["bot"],
            [(o["action"], float(o["score"])) for o in d["options"]],
        )
        for d in expected["decisions"]
    ]
    if expected["cards"]:
        assert page.locator(f"{DIALOG} .an-trick").count() == -(
            -len(expected["cards"]) // len({c["seat"] for c in expected["cards"]})
        )
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "analysis-desktop.png"), full_page=False)
    check_png(SHOTS / "analysis-desktop.png")
    page.set_viewport_size({"width": 375, "height": 740})
    page.screenshot(path=str(SHOTS / "analysis-phone.png"))
    check_png(SHOTS / "analysis-phone.png")
    page.click("[data-testid=an-close]")
    page.wait_for_selector(DIALOG, state="hidden")


def test_an_unknown_deal_says_so(server: LiveServer, open_page: Opener) -> None:
    table_id = server.new_table([{"kind": "human"}] * 3)
    page = open_page(375, 740)
    page.goto(f"{server.url}/t/{table_id}")
    page.wait_for_selector("[data-testid=table]")
    page.evaluate(f"window.pastonOpenAnalysis({json.dumps(table_id)}, 0)")
    page.wait_for_selector(f"{DIALOG}[data-state=error]")
    assert page.locator(f"{DIALOG} [role=alert]").count() == 1
