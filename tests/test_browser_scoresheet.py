"""The score sheet for games played with real cards in the browser (``/sheet``, issue 23
item 6): a whole game to 121 entered by taps on a 320 px phone and at 1280 px, with no
horizontal scrolling, the totals on the page the server's after every deal, a reset of
R8.2 marked, undo, the keyboard alone, names shown as text, the share link read-only, and
axe-core finding nothing. One server and one chromium for the module."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from browser_helpers import LiveServer, Opener, browser, live, open_page, shot

__all__ = ["browser", "live", "open_page"]  # the fixtures, from browser_helpers

AXE = Path(__file__).resolve().parent.parent / ".axe" / "node_modules" / "axe-core" / "axe.min.js"
WIDTHS = (320, 1280)
NAMES = ["Ana", "<b>Bo</b>", "Cy"]  # markup in a name is shown as text
#: Bo: −40, −80, −112, then −121 reset to 0 (R8.2); a made glitch against two defenders,
#: a surrender, and Ana wins with two uncontested gupa (142, R8.3).
GAME: list[dict[str, Any]] = [
    {"outcome": "played", "declarer": 0, "contract": "best-spades", "defenders": [1], "tricks": [10, 0, 0]},
    {"outcome": "played", "declarer": 0, "contract": "best-spades", "defenders": [1], "tricks": [10, 0, 0]},
    {"outcome": "played", "declarer": 0, "contract": "best-spades", "defenders": [1], "tricks": [8, 2, 0]},
    {"outcome": "played", "declarer": 0, "contract": "spades", "defenders": [1], "tricks": [9, 1, 0]},
    {"outcome": "played", "declarer": 2, "contract": "clubs", "defenders": [0, 1], "tricks": [3, 1, 6]},
    {"outcome": "surrender", "declarer": 1},
] + [{"outcome": "uncontested", "declarer": 0, "contract": "hearts"}] * 2


def axe(page: Page, what: str) -> None:
    """Every axe-core rule over the page as it is: no violation."""
    if not AXE.exists():
        pytest.fail(f"the accessibility tests need axe-core from npm at {AXE}: run `bash scripts/test`")
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")
    found = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
             .map(v => ({id: v.id,
                         nodes: v.nodes.map(n => n.target.join(' ') + ' :: ' + n.failureSummary)}))"""
    )
    assert found == [], f"axe-core violations on {what}:\n" + json.dumps(found, indent=1, ensure_ascii=False)


def no_sideways_scroll(page: Page, what: str) -> None:
    widths = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert widths[0] <= widths[1], f"{what}: the page is {widths[0]} px wide in a {widths[1]} px window"


def shown(page: Page) -> dict[str, Any]:
    """What the page shows: its deals, the totals, whether it is the owner's."""
    return dict(
        page.evaluate(
            """() => { const p = document.querySelector('[data-testid=rs-page]');
                 return {deals: Number(p.dataset.deals), owner: p.dataset.owner === 'true',
                   totals: [...document.querySelectorAll('[data-testid=rs-totals] .rs-total')]
                     .map(e => Number(e.dataset.total))}; }"""
        )
    )


def start_sheet(page: Page, url: str, lobby: bool = False) -> str:
    """A new sheet of NAMES (``lobby``: reached by the lobby's link); its id."""
    if lobby:
        page.goto(url + "/")
        page.click("[data-testid=sheet-link]")
    else:
        page.goto(url + "/sheet")
    page.wait_for_selector("[data-testid=rs-new]")
    for i, name in enumerate(NAMES):
        page.fill(f"#rs-name{i}", name)
    page.click("[data-testid=rs-create]")
    page.wait_for_selector("[data-testid=rs-entry]")
    return page.url.rsplit("/", 1)[1]


def enter(page: Page, deal: dict[str, Any]) -> None:
    """Enter a deal by taps: how it ended, the declarer, the contract, whist, tricks."""
    before = shown(page)["deals"]
    page.click(f"label[for=rs-outcome-{deal['outcome']}]")
    page.click(f"label[for=rs-declarer-{deal['declarer']}]")
    if deal["outcome"] != "surrender":
        page.click(f"label[for=rs-contract-{deal['contract']}]")
    if deal["outcome"] == "played":
        for seat in (s for s in range(3) if s != deal["declarer"] and s not in deal["defenders"]):
            page.click(f"label[for=rs-whist-{seat}]")  # both are ticked at first
        page.select_option("#rs-tricks", str(deal["tricks"][deal["declarer"]]))
        if len(deal["defenders"]) == 2:
            page.select_option("#rs-first", str(deal["tricks"][deal["defenders"][0]]))
    page.click("[data-testid=rs-add]")
    page.wait_for_selector(f"[data-testid=rs-page][data-deals='{before + 1}']")


def test_a_whole_game_is_entered_scored_by_the_server_and_shared_read_only(
    live: LiveServer, open_page: Opener
) -> None:
    """The deals are entered at 320 and 1280 px in turn; after each, neither width scrolls
    sideways and the page's totals are the server's."""
    page = open_page(320, 720)
    sheet = start_sheet(page, live.url, lobby=True)
    assert page.locator("[data-testid=rs-page] h1 b").count() == 0
    assert NAMES[1] in page.inner_text("[data-testid=rs-page] h1")
    axe(page, "a new sheet on a phone")
    for i, deal in enumerate(GAME):
        width = WIDTHS[i % 2]
        page.set_viewport_size({"width": width, "height": 720})
        enter(page, deal)
        server = live.get(f"/api/sheets/{sheet}")
        assert shown(page) == {"deals": i + 1, "owner": True, "totals": server["totals"]}
        for w in WIDTHS:
            page.set_viewport_size({"width": w, "height": 720})
            no_sideways_scroll(page, f"deal {i + 1} at {w} px")
        if i == 3:  # Bo's −121 reset to 0 (R8.2), marked in the sheet
            assert server["deals"][3]["resets"] == [1]
            assert page.locator("tr[data-deal='4'] td.reset .rs-reset").count() == 1
            page.click("[data-testid=rs-undo]")  # undo: the deal is taken back, and is in the form again
            page.wait_for_selector("[data-testid=rs-page][data-deals='3']")
            assert shown(page)["totals"] == live.get(f"/api/sheets/{sheet}")["totals"] == [30, -112, 0]
            assert page.is_checked("#rs-contract-spades") and page.is_checked("#rs-declarer-0")
            page.click("[data-testid=rs-add]")
            page.wait_for_selector("[data-testid=rs-page][data-deals='4']")
            axe(page, "a sheet with a reset at 1280 px")
    final = live.get(f"/api/sheets/{sheet}")
    assert final["over"] and final["winners"] == [0]
    assert shown(page)["totals"] == final["totals"] == [142, -28, 22]
    assert page.locator("[data-testid=rs-over]").inner_text().startswith("Game over: Ana")
    assert page.locator("[data-testid=rs-entry]").count() == 0  # the game is over (R8.3)
    page.set_viewport_size({"width": 320, "height": 720})
    axe(page, "the game over on a phone")
    shot(page, "scoresheet-320.png")
    # the share link, opened by someone else (another browser: no owner token)
    link = page.get_attribute("[data-testid=rs-share-link]", "href")
    assert link == f"/sheet/{sheet}"
    guest = open_page(320, 720)
    guest.goto(live.url + link)
    guest.wait_for_selector("[data-testid=rs-page]")
    assert shown(guest) == {"deals": len(GAME), "owner": False, "totals": final["totals"]}
    assert guest.locator("[data-testid=rs-entry], [data-testid=rs-undo]").count() == 0
    no_sideways_scroll(guest, "the share link at 320 px")
    axe(guest, "the share link on a phone")
    exported = guest.evaluate("async (u) => (await fetch(u)).json()", f"/api/sheets/{sheet}/export")
    assert exported["format"] == "paston-sheet/1" and exported["totals"] == final["totals"]
    guest.goto(live.url + "/sheet/no-such-sheet")
    assert "no such score sheet" in guest.inner_text("[data-testid=rs-missing]")


def test_a_deal_is_entered_by_the_keyboard_alone_and_read_only_visitors_follow(
    live: LiveServer, open_page: Opener
) -> None:
    page = open_page(320, 720)
    sheet = start_sheet(page, live.url)
    guest = open_page(320, 720)
    guest.clock.install()  # its timers run when the test moves its clock on
    guest.goto(f"{live.url}/sheet/{sheet}")
    guest.wait_for_selector("[data-testid=rs-page][data-deals='0']")
    page.focus("#rs-outcome-played")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")  # the arrows move through the group: surrender
    assert page.is_checked("#rs-outcome-surrender")
    page.keyboard.press("Tab")  # into the declarers: Ana
    page.keyboard.press("ArrowRight")  # Bo
    assert page.evaluate("document.activeElement.id") == "rs-declarer-1"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.testid") == "rs-add"
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=rs-page][data-deals='1']")
    assert shown(page)["totals"] == live.get(f"/api/sheets/{sheet}")["totals"] == [2, -10, 2]
    # the read-only page asks again by itself (every few seconds) and shows the new deal
    guest.clock.run_for(6000)
    guest.wait_for_selector("[data-testid=rs-page][data-deals='1']")
    assert shown(guest)["totals"] == [2, -10, 2]
