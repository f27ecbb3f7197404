"""Everyone can play (issue 12 §6–7): the browser client checked with axe-core on every
page and phase (the lobby, a deal, its end, the score sheet, the replay, a refused seat
key), the four-colour deck, the score sheet's whole names. (The creator seated at once,
the live log, the hand by keyboard alone, a lost connection: ``test_browser_access_play.py``.)

axe-core comes from npm at test time (``scripts/test`` installs it under ``.axe/``); it is
evaluated in the page by the test, never served by the application.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

from browser_helpers import (
    HAND_CARDS,
    RANDOM_BOTS,
    TABLE,
    LiveServer,
    Opener,
    Page,
    _discard_by_keyboard,
    board,
    browser,
    create_seated,
    declare,
    defend,
    finished_bots_game,
    open_page,
    server,
    shot,
    wait_my_turn,
    wait_turn_or_deals,
)
from browser_helpers import act as click_move

__all__ = ["browser", "open_page", "server"]  # the fixtures, from browser_helpers


AXE = Path(__file__).resolve().parent.parent / ".axe" / "node_modules" / "axe-core" / "axe.min.js"


# --- axe-core -------------------------------------------------------------------------------------
def axe(page: Page, what: str) -> None:
    """Run every axe-core rule (WCAG A/AA and best practices) over the page as it is; any
    violation fails the test, listed with its elements."""
    if not AXE.exists():
        pytest.fail(f"the accessibility tests need axe-core from npm at {AXE}: run `bash scripts/test`")
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")  # not served: evaluated here
    found = page.evaluate(
        """async () => {
             const r = await axe.run(document, {resultTypes: ['violations']});
             return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
               nodes: v.nodes.map(n => n.target.join(' ') + ' :: ' + n.failureSummary)}));
           }"""
    )
    assert found == [], f"axe-core violations on {what}:\n" + json.dumps(found, indent=1, ensure_ascii=False)


# --- axe over the lobby, every phase of a deal, the score sheet and the replay ------------------------
def test_axe_finds_nothing_in_the_lobby(server: LiveServer, open_page: Opener) -> None:
    for i in range(3):
        server.new_table(RANDOM_BOTS if i else [{"kind": "human"}] * 3)
    for width, height in ((1280, 800), (375, 740)):
        page = open_page(width, height)
        page.goto(server.url + "/")
        page.wait_for_selector("#lobby-lists li")
        page.click("details.rules summary")
        axe(page, f"the lobby at {width} px")
    shot(page, "lobby-phone-access.png")


def _phase_policy(checked: set[str]) -> Any:
    """Declare until the discard and trump have come to the seat, then defend."""
    return declare if not {"discard", "trump"} <= checked else defend


def test_axe_finds_nothing_in_any_phase_of_a_deal_nor_in_the_score_sheet(
    server: LiveServer, open_page: Opener
) -> None:
    page = open_page()
    table_id = create_seated(
        page, server.url, "Ani", 0, ["human", "random", "random"], target=100000, pause="15"
    )
    rng = random.Random(12)
    checked: set[str] = set()
    deadline = time.monotonic() + 240
    while not {"auction", "discard", "trump", "defence", "play", "sheet", "deal-end"} <= checked:
        assert time.monotonic() < deadline, f"only {sorted(checked)} came to Ani's seat"
        wait_my_turn(page)
        if page.locator("[data-testid=next-deal]:not([disabled])").count():  # the end of a deal, on show
            if "deal-end" not in checked:
                axe(page, "the end of a deal")
                shot(page, "deal-end-desktop.png")
                checked.add("deal-end")
            page.click("[data-testid=next-deal]")
            page.wait_for_selector("[data-testid=next-deal]", state="detached")
            continue
        state = board(page)
        deals = int(state["deals"])
        if deals and "sheet" not in checked:
            axe(page, "the score sheet")
            shot(page, "sheet-desktop.png")
            checked.add("sheet")
        phase = state["phase"]
        if phase not in checked:
            axe(page, f"the {phase} phase")
            shot(page, f"phase-{phase}-desktop.png")
            checked.add(phase)
        if phase == "discard":
            if "discard-phone" not in checked:  # the prikup's marks in sight on a phone
                page.set_viewport_size({"width": 375, "height": 740})
                assert_prikup_marks_visible(page)
                axe(page, "the discard on a phone")
                shot(page, "discard-phone.png", full=False)
                page.set_viewport_size({"width": 1280, "height": 800})
                checked.add("discard-phone")
            _discard_by_keyboard(page)
        else:
            click_move(page, _phase_policy(checked), rng)
    assert server.manager.get(table_id).match.deals


def assert_prikup_marks_visible(page: Page) -> None:
    """Each prikup card's mark, at the bottom left of the card, is not covered by the next
    card of the overlapping hand (the topmost element there is the card itself)."""
    marked = page.locator(f"{HAND_CARDS}.from-prikup")
    assert marked.count() >= 1
    for i in range(marked.count()):
        code = marked.nth(i).get_attribute("data-card")
        hit = page.evaluate(
            """code => { const c = document.querySelector(`[data-testid=hand] [data-card="${code}"]`);
                 const r = c.getBoundingClientRect(); const m = getComputedStyle(c, '::after');
                 const x = r.left + parseFloat(m.left) + parseFloat(m.width) / 2;
                 const y = r.bottom - parseFloat(m.bottom) - parseFloat(m.height) / 2;
                 const top = document.elementFromPoint(x, y);
                 const card = top && top.closest('[data-card]');
                 return card ? card.dataset.card : null; }""",
            code,
        )
        assert hit == code, f"the prikup mark of {code} is covered by {hit}"
        label = marked.nth(i).get_attribute("aria-label") or ""
        assert "prikup" in label, label


def finished_game_with_a_seat_out(server: LiveServer) -> tuple[str, int, int]:
    """A finished game of three ``random`` bots with a deal where a seat sits out of the
    play (one whister); returns its table and the first such deal and step."""
    for _ in range(8):
        table_id = finished_bots_game(server)
        replay = server.get(f"/api/tables/{table_id}/replay")
        for d, deal in enumerate(replay["deals"]):
            for s, step in enumerate(deal["steps"]):
                if len(step["active"]) == 2:
                    return table_id, d, s
    raise AssertionError("eight games of random bots had no deal played with one whister")


def test_axe_finds_nothing_in_the_replay_and_its_focus_stays(server: LiveServer, open_page: Opener) -> None:
    table_id, out_deal, out_step = finished_game_with_a_seat_out(server)
    page = open_page()
    page.goto(f"{server.url}/replay")
    page.wait_for_selector("#record-file")
    assert page.locator("h1").count() == 1
    axe(page, "the replay's file picker")
    page.goto(f"{server.url}/replay/{table_id}")
    page.wait_for_selector("[data-testid=replay]")
    assert page.locator("h1").count() == 1
    axe(page, "the replay")
    # a seat out of the deal: its hand is drawn apart, and still readable (WCAG contrast)
    page.focus("[data-testid=next-deal]")
    for _ in range(out_deal):
        page.keyboard.press("PageDown")
    page.wait_for_selector(f"[data-testid=replay][data-deal='{out_deal}']")
    for _ in range(out_step):
        page.keyboard.press("ArrowRight")
    page.wait_for_selector(f"[data-testid=replay][data-step='{out_step}']")
    assert page.locator(".replay-hand.out").count() == 1
    # not faded: axe-core cannot always see through opacity, so the test says it itself
    assert page.eval_on_selector(".replay-hand.out .hand", "e => getComputedStyle(e).opacity") == "1"
    axe(page, "the replay with a seat out of the deal")
    page.goto(f"{server.url}/replay/{table_id}")
    page.wait_for_selector("[data-testid=replay]")
    page.focus("[data-testid=next-step]")
    for _ in range(3):
        before = page.inner_text("[data-testid=next-move]")
        page.keyboard.press("Enter")
        page.wait_for_function(
            "b => document.querySelector('[data-testid=next-move]').innerText !== b", arg=before
        )
        assert page.evaluate("document.activeElement.dataset.testid") == "next-step"
    shot(page, "replay-desktop.png")


def test_a_refused_seat_key_says_so_and_offers_the_free_seats(server: LiveServer, open_page: Opener) -> None:
    table_id = server.new_table([{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}])
    page = open_page()
    page.goto(server.url + "/")
    page.evaluate(f"localStorage.setItem('paston-token-{table_id}', 'not-a-key-of-this-table')")
    page.goto(f"{server.url}/t/{table_id}")
    note = page.wait_for_selector("[data-testid=seat-lost]")
    assert "watching" in note.inner_text()
    offers = page.locator("[data-testid=go-to-seat]")
    assert offers.count() == 2
    axe(page, "the note of a refused seat key")
    shot(page, "seat-lost-desktop.png", full=False)
    offers.nth(1).click()
    assert page.evaluate("document.activeElement.id") == "seat-name-1"
    page.keyboard.type("Babken")
    page.keyboard.press("Enter")
    page.wait_for_selector(f"{TABLE}[data-you='1']")
    assert page.locator("[data-testid=seat-lost]").count() == 0


def _rgb(css: str) -> tuple[float, ...]:
    values = [float(x) for x in re.findall(r"[\d.]+", css)[:3]]
    return tuple(
        c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (v / 255 for v in values)
    )


def _protan(rgb: tuple[float, ...]) -> tuple[float, ...]:
    """Protanopia (Machado, Oliveira and Fernandes 2009, severity 1) in linear RGB."""
    m = ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998))
    return tuple(min(1.0, max(0.0, sum(row[k] * rgb[k] for k in range(3)))) for row in m)


def _lab(rgb: tuple[float, ...]) -> tuple[float, float, float]:
    x = (0.4124 * rgb[0] + 0.3576 * rgb[1] + 0.1805 * rgb[2]) / 0.95047
    y = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
    z = (0.0193 * rgb[0] + 0.1192 * rgb[1] + 0.9505 * rgb[2]) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def _contrast(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    la, lb = sorted(0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2] for c in (a, b))
    return (lb + 0.05) / (la + 0.05)


def test_the_four_colour_deck(server: LiveServer, open_page: Opener) -> None:
    table_id = server.new_table([{"kind": "bot", "bot": "random"}] * 3, target=10)
    deadline = time.monotonic() + 90
    while not server.manager.get(table_id).finished:
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.1)
    page = open_page()
    page.goto(f"{server.url}/replay/{table_id}")  # every suit in sight
    page.wait_for_selector("[data-testid=replay] .card.suit-C")

    def colours() -> dict[str, tuple[float, ...]]:
        got = page.evaluate(
            """() => Object.fromEntries(['S', 'C', 'D', 'H'].map(s => [s,
                 getComputedStyle(document.querySelector(`.replay-hand .card.suit-${s} .rank`)).color]))"""
        )
        return {suit: _rgb(css) for suit, css in got.items()}

    card = _rgb(
        page.evaluate("getComputedStyle(document.querySelector('.replay-hand .card')).backgroundColor")
    )
    two = colours()
    assert two["S"] == two["C"] and two["D"] == two["H"]  # the usual deck: two colours
    page.check("[data-testid=four-colour]")
    four = colours()
    assert len(set(four.values())) == 4
    for suit, rgb in four.items():  # each still reads against the card (WCAG AA)
        assert _contrast(rgb, card) >= 4.5, suit
    # for protanopia red and black are close (about 2.5:1); the four colours stay apart
    assert _contrast(_protan(two["H"]), _protan(two["S"])) < 3
    for a, b in itertools.combinations("SCDH", 2):
        assert math.dist(_lab(_protan(four[a])), _lab(_protan(four[b]))) >= 30, (a, b)
    shot(page, "replay-four-colour.png")
    page.reload()  # remembered by the browser
    page.wait_for_selector("[data-testid=replay] .card.suit-C")
    assert page.is_checked("[data-testid=four-colour]") and colours() == four
    # on a phone the corner's suit symbol is larger
    desktop = page.evaluate(
        "document.querySelector('.replay-hand .card svg.small').getBoundingClientRect().width"
    )
    page.set_viewport_size({"width": 375, "height": 740})
    phone = page.evaluate(
        "document.querySelector('.replay-hand .card svg.small').getBoundingClientRect().width"
    )
    assert phone > desktop
    shot(page, "replay-four-colour-phone.png", full=False)


def test_the_score_sheet_shows_whole_names_and_one_game_over(server: LiveServer, open_page: Opener) -> None:
    page = open_page(1280, 800)
    create_seated(page, server.url, "Gayane Hakobyan", 0, ["human", "random", "random"], target=1)
    rng = random.Random(2)
    deadline = time.monotonic() + 120
    while not page.locator("[data-testid=game-over]").count():
        assert time.monotonic() < deadline, "the game did not end"
        wait_turn_or_deals(page, 1)
        if board(page)["myTurn"] == "true" and not page.locator("[data-testid=game-over]").count():
            click_move(page, declare, rng)
        else:
            page.wait_for_timeout(100)
    page.wait_for_selector("[data-testid=sheet] tbody tr")
    cut = page.eval_on_selector_all(
        "[data-testid=sheet] thead .name",
        "es => es.filter(e => e.scrollWidth > e.clientWidth).map(e => e.textContent)",
    )
    assert cut == []
    fits = """() => { const t = document.querySelector('[data-testid=sheet]');
                      return t.scrollWidth <= t.parentElement.clientWidth; }"""
    assert page.evaluate(fits), "the score sheet is wider than its panel"
    heads = page.eval_on_selector_all("[data-testid=sheet] thead .name", "es => es.map(e => e.innerText)")
    assert [h.replace("\n", " ") for h in heads] == ["Gayane Hakobyan", "Computer 2", "Computer 3"]
    text = page.inner_text("#app")
    assert text.count("Game over") == 1, text
    assert not re.search(r"\bpass\b", text), text  # one casing: "Pass"
    axe(page, "the end of the game")
    shot(page, "game-over-desktop.png")
