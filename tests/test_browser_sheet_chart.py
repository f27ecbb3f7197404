"""The score sheet and chart of a table (``static/sheet.js``, issue 23): the chart's value
axis in "nice" steps (1, 2 or 5 × 10^k) ending on a tick (``static/chartaxis.js``), tied
players' lines drawn apart with their own dashes and marks and a legend showing them, and
the sheet saying which number is the deal's score and which the total, on the page and to
screen readers (Playwright with Debian's chromium; see ``browser_helpers.py``)."""

from __future__ import annotations

from typing import Any

from browser_helpers import LiveServer, Opener, Page, browser, live, open_page, shot

__all__ = ["browser", "live", "open_page"]  # the fixtures, from browser_helpers

NAMES = ["Ana", "Bo", "Cy"]


def axis(page: Page, low: int, high: int) -> dict[str, Any]:
    return dict(
        page.evaluate(
            "async ([low, high]) => (await import('/static/chartaxis.js')).niceAxis(low, high)", [low, high]
        )
    )


def test_the_value_axis_has_nice_ticks_ending_on_the_top(live: LiveServer, open_page: Opener) -> None:
    page = open_page()
    page.goto(live.url + "/")
    page.wait_for_selector("[data-testid=create]")
    # the old axis ended 15 % over the highest total: 23 for 20, 46 for 40
    assert axis(page, 0, 20)["ticks"] == [0, 5, 10, 15, 20]
    assert axis(page, 0, 40)["ticks"] == [0, 10, 20, 30, 40]
    assert axis(page, 0, 121)["ticks"] == [0, 50, 100, 150]  # the goal line of a game to 121 inside
    assert axis(page, -40, 121)["ticks"] == [-50, 0, 50, 100, 150]
    assert axis(page, -112, 10)["ticks"] == [-150, -100, -50, 0, 50]
    assert axis(page, 0, 10)["ticks"] == [0, 5, 10]
    assert axis(page, 0, 1000)["ticks"] == [0, 500, 1000]
    # any range: a step of 1, 2 or 5 × 10^k, the ends ticks holding the range, 0 a tick when inside
    bad = page.evaluate(
        """async () => {
          const { niceAxis } = await import('/static/chartaxis.js');
          const bad = [];
          for (let low = -300; low <= 0; low += 7) for (let high = 10; high <= 2000; high += 13) {
            const a = niceAxis(low, high);
            const k = 10 ** Math.floor(Math.log10(a.step)), f = a.step / k;
            const ok = [1, 2, 5].includes(f) && a.bottom <= low && a.top >= high
              && a.ticks[0] === a.bottom && a.ticks.at(-1) === a.top && a.ticks.includes(0)
              && a.ticks.length >= 3 && a.ticks.length <= 7
              && a.ticks.every((v, i) => i === 0 || v - a.ticks[i - 1] === a.step);
            if (!ok) bad.push([low, high, a]);
          }
          return bad.slice(0, 5);
        }"""
    )
    assert bad == []


#: Bo and Cy tied all game; Ana ahead, then level with them after deal 4.
TIED = [
    ([10, 0, 0], [10, 0, 0]),
    ([0, -10, -10], [10, -10, -10]),
    ([10, 0, 0], [20, -10, -10]),
    ([-30, 0, 0], [-10, -10, -10]),
]


def draw_sheet(page: Page, rows: list[tuple[list[int], list[int]]], target: int = 121) -> None:
    """Draw ``sheetView`` of a table whose sheet has ``rows`` (scores, totals) into the page."""
    page.evaluate(
        """async ([rows, names, target]) => {
          const { sheetView } = await import('/static/sheet.js');
          const sheet = rows.map(([scores, totals], i) => ({
            deal: i + 1, outcome: 'played', declarer: 0, contract: 'spades', scores, totals, resets: [],
          }));
          const state = { table: { id: 'test', rules: { target } }, sheet };
          const box = document.getElementById('app');
          box.replaceChildren(sheetView(state, names));
        }""",
        [rows, NAMES, target],
    )


def chart_lines(page: Page) -> list[dict[str, Any]]:
    return list(
        page.eval_on_selector_all(
            "[data-testid=chart] g.series",
            """gs => gs.map(g => { const p = g.querySelector('polyline');
                 return { seat: g.dataset.seat, dash: p.getAttribute('stroke-dasharray') || '',
                          ys: p.getAttribute('points').split(' ').map(xy => Number(xy.split(',')[1])),
                          marks: [...g.children].slice(1).map(m => m.localName) }; })""",
        )
    )


def test_tied_players_lines_all_stay_visible_with_a_legend(live: LiveServer, open_page: Opener) -> None:
    page = open_page(320, 800)
    page.goto(live.url + "/")
    page.wait_for_selector("[data-testid=create]")
    draw_sheet(page, TIED)
    lines = chart_lines(page)
    assert [line["seat"] for line in lines] == ["0", "1", "2"]
    # each line its own dash and its own mark at every point (the start and each deal)
    assert len({line["dash"] for line in lines}) == 3
    assert [set(line["marks"]) for line in lines] == [{"circle"}, {"rect"}, {"polygon"}]
    assert all(len(line["marks"]) == len(TIED) + 1 for line in lines)
    # tied at every point: Bo's and Cy's lines apart everywhere, by a few pixels only
    bo, cy, ana = lines[1]["ys"], lines[2]["ys"], lines[0]["ys"]
    assert all(2 <= abs(b - c) <= 6 for b, c in zip(bo, cy, strict=True)), (bo, cy)
    # Ana alone between the start and the end keeps her true place; all three tied at 0
    # and at −10 are spread in seat order
    assert ana[0] < bo[0] < cy[0] and ana[-1] < bo[-1] < cy[-1]
    assert abs(ana[2] - (bo[2] + cy[2]) / 2) > 20
    # the value axis: nice ticks; the legend: each name with its line's dash
    ticks = page.eval_on_selector_all("[data-testid=chart] text.tick", "ts => ts.map(t => t.textContent)")
    assert ticks[:4] == ["−10", "0", "10", "20"], ticks
    legend = page.eval_on_selector_all(
        "[data-testid=chart-legend] .legend",
        """ls => ls.map(l => ({ name: l.textContent,
            hidden: l.querySelector('svg').getAttribute('aria-hidden'),
            dash: l.querySelector('polyline').getAttribute('stroke-dasharray') || '' }))""",
    )
    assert [e["name"] for e in legend] == NAMES
    assert [e["dash"] for e in legend] == [line["dash"] for line in lines]
    assert all(e["hidden"] == "true" for e in legend)
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    shot(page, "sheet-chart-tied-320.png")


def test_the_sheet_says_which_number_is_the_deal_s_score_and_which_the_total(
    live: LiveServer, open_page: Opener
) -> None:
    page = open_page(320, 800)
    page.goto(live.url + "/")
    page.wait_for_selector("[data-testid=create]")
    draw_sheet(page, TIED)
    key = page.inner_text("[data-testid=sheet-key]")
    assert "+10" in key and "the deal's score" in key and "30" in key and "the total after it" in key
    # each seat's cell names its two numbers for screen readers (the column: the seat's name)
    cell = page.locator("[data-testid=sheet] tbody tr[data-deal='3'] td").nth(1)
    assert " ".join(cell.text_content().split()) == "deal score +10, total 20"
    assert cell.locator(".score").inner_text() == "+10" and cell.locator(".total").inner_text() == "20"
    role = page.evaluate(
        """() => { const c = document.querySelectorAll("[data-testid=sheet] tbody tr[data-deal='3'] td")[1];
             return [...c.querySelectorAll('.sr-only')].map(s => getComputedStyle(s).position); }"""
    )
    assert role == ["absolute", "absolute"]  # read, not shown
    # a sheet wider than its box (long names in Armenian) scrolls in the box: the numbers'
    # names for screen readers stay in their cells and never widen the page
    page.evaluate("document.querySelector('[data-testid=sheet]').style.width = '640px'")
    assert page.evaluate("document.querySelector('.sheet-wrap').scrollWidth") >= 600
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    # in another language
    page.evaluate("localStorage.setItem('paston-lang', 'ru')")
    page.reload()
    page.wait_for_selector("[data-testid=create]")
    draw_sheet(page, TIED)
    key = page.inner_text("[data-testid=sheet-key]")
    assert "очки за сдачу" in key and "итог после неё" in key
    cell = page.locator("[data-testid=sheet] tbody tr[data-deal='3'] td").nth(1)
    assert " ".join(cell.text_content().split()) == "очки за сдачу +10, итог 20"
