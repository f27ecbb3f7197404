"""Every page and every phase of a deal fits a phone: at 320, 375, 768 and 1280 px wide,
and on a landscape phone (812×375) and tablet (1024×768), in all five languages, nothing
is wider than the screen (``scrollWidth <= innerWidth``: no sideways scrolling), and at
the table the hand and the actions are inside the first screen. Screenshots of each phase
at 320, 375, 1280 and 812×375 are kept under artifacts/screenshots/fit/.

One server and one browser for the module; the language is switched in place (the
picker), which redraws the page without a reload."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

from browser_helpers import (
    SHOTS,
    TABLE,
    LiveServer,
    board,
    browser,
    check_png,
    click_move,
    live,
    wait_version_change,
)

__all__ = ["browser", "live"]  # the fixtures, imported for pytest

SLOW = True  # shares one server and one browser: the services group
#: Phones and tablets upright, a desktop, then a landscape phone and a landscape tablet.
SIZES = ((320, 640), (375, 740), (768, 1024), (1280, 800), (812, 375), (1024, 768))
LANGS = ("en", "hy", "ru", "es", "ja")
SHOT_AT = {(320, 640): "320", (375, 740): "375", (1280, 800): "1280", (812, 375): "812x375"}
FIT = SHOTS / "fit"

#: Everything wider than the page, named (for a readable failure).
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const wide = [...document.querySelectorAll('body *')].filter(e => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && (r.right > width + 1 || r.left < -1) && getComputedStyle(e).position !== 'fixed'
      && !e.closest('.sr-only');
  }).slice(0, 6).map(e => {
    const name = `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}`;
    return `${name} ${Math.round(e.getBoundingClientRect().right)}`;
  });
  return {scroll: document.documentElement.scrollWidth, inner: window.innerWidth, wide};
}"""


BOXES = "es => es.map(e => { const r = e.getBoundingClientRect(); return [r.top, r.bottom]; })"


@pytest.fixture(scope="module")
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, service_workers="block")
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    context.close()
    assert not errors, errors


def set_language(page: Any, lang: str) -> None:
    page.evaluate("l => localStorage.setItem('paston-lang', l)", lang)
    picker = page.locator("[data-testid=lang]")
    if picker.count():
        picker.select_option(lang)
        page.wait_for_function("l => document.documentElement.lang === l", arg=lang)


def check_fit(page: Any, where: str, *, first_screen: tuple[str, ...] = ()) -> None:
    """At every width and in every language: nothing wider than the screen, and the
    ``first_screen`` selectors (where present) inside the first screen."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        for lang in LANGS:
            set_language(page, lang)
            page.evaluate("window.scrollTo(0, 0)")
            try:
                got = page.evaluate(OVERFLOW)
                assert got["scroll"] <= got["inner"], (where, width, lang, got)
                for selector in first_screen:
                    boxes = page.eval_on_selector_all(selector, BOXES)
                    assert boxes, (where, selector)
                    bottom = max(b for _, b in boxes)
                    assert bottom <= height + 1, (where, width, height, lang, selector, bottom)
            except AssertionError:
                FIT.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(FIT / f"failed-{where}-{width}x{height}-{lang}.png"))
                raise
        if (width, height) in SHOT_AT:  # in English: the machine may lack the fonts of the other scripts
            set_language(page, "en")
            page.evaluate("window.scrollTo(0, 0)")
            page.wait_for_timeout(900)  # the cards' motion over (motion.js: three steps of 260 ms)
            FIT.mkdir(parents=True, exist_ok=True)
            path = FIT / f"{where}-{SHOT_AT[width, height]}.png"
            page.screenshot(path=str(path), full_page=width < 700)
            check_png(path)
    set_language(page, "en")
    page.set_viewport_size({"width": 1280, "height": 800})


def test_the_lobby_and_the_learn_page_fit_every_width(live: LiveServer, page: Any) -> None:
    page.goto(live.url + "/")
    page.wait_for_selector("[data-testid=new-table]")
    page.click("details.rules summary")
    check_fit(page, "lobby")
    page.goto(live.url + "/learn")
    page.wait_for_selector("[data-testid=scores]")
    check_fit(page, "learn")


HAND = "[data-testid=hand] button[data-card]"
ACTIONS = "[data-testid=actions] button[data-action]"


def test_every_phase_of_a_deal_fits_with_the_hand_and_actions_in_the_first_screen(
    live: LiveServer, page: Any
) -> None:
    """A person and two computers, dealt on until each phase has been the person's turn:
    the auction, the discard, naming trump, whist or pass, the play, the end of a deal."""
    rng = random.Random(23)
    body = {
        "name": "Fit",
        "rules": {"target": 121},
        "seats": [{"kind": "human"}, *[{"kind": "bot", "bot": "heuristic"}] * 2],
        "next_deal_seconds": 120,
    }
    created = live.post("/api/tables", body)
    table = created["id"]
    page.goto(f"{live.url}/t/{table}")
    page.fill("[data-seat='0'] [data-testid=seat-name]", "Ani")
    page.click("[data-seat='0'] [data-testid=take-seat]")
    page.wait_for_selector(f"{TABLE}[data-you='0']")
    wanted = {"auction", "discard", "trump", "defence", "play", "end"}
    seen: set[str] = set()
    deadline = time.monotonic() + 90
    while seen != wanted:
        assert time.monotonic() < deadline, f"phases never reached: {wanted - seen}"
        page.wait_for_function(
            """() => { const t = document.querySelector('[data-testid=table]');
                       return (t && t.dataset.myTurn === 'true')
                         || document.querySelector('[data-testid=next-deal]:not([disabled])'); }""",
            timeout=30_000,
        )
        nxt = page.locator("[data-testid=next-deal]:not([disabled])")
        if nxt.count():
            if "end" not in seen:
                check_fit(page, "end", first_screen=("[data-testid=next-deal]",))
                seen.add("end")
            nxt.click()
            page.wait_for_function("() => !document.querySelector('[data-testid=next-deal]:not([disabled])')")
            continue
        phase = board(page)["phase"]
        if phase not in seen:
            first = (HAND,) if phase in ("play", "discard") else (HAND, ACTIONS)
            check_fit(page, phase, first_screen=first)
            seen.add(phase)
        # bid while the discard is still to see, then pass: a computer declares and asks for whist
        declare = "discard" not in seen

        def policy(ph: str, actions: list[str], declare: bool = declare) -> str:
            if ph == "auction":
                bid = next((a for a in actions if a.startswith("bid")), "pass")
                return bid if declare else "pass"
            if ph == "defence":
                return "whist" if "whist" in actions else actions[0]
            return next((a for a in actions if a.startswith("trump")), actions[0])

        version = board(page)["version"]
        click_move(page, policy, rng)
        wait_version_change(page, version)
