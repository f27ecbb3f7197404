"""Hints in the browser: a practice table made from the lobby's form, its Hint button
and key ``h`` on every kind of decision (bid, discard, trump or surrender, whist, card),
the options best first with the computer player's choice marked; a screenshot of each.

Reuses the server and browser fixtures of ``tests/browser_helpers.py``.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

import browser_helpers
from browser_helpers import (
    HAND_CARDS,
    SHOTS,
    TABLE,
    LiveServer,
    Opener,
    board,
    check_png,
    declare,
    defend,
    sit,
    wait_version_change,
)
from paston.actions import Action, Kind

# the fixtures of tests/browser_helpers.py: the live server, the browser, its pages
server = browser_helpers.server
browser = browser_helpers.browser
open_page = browser_helpers.open_page

HINT_ROWS = "[data-testid=hint-options] tbody tr"
KINDS = {
    "auction": {Kind.BID, Kind.PASS},
    "discard": {Kind.DISCARD},
    "trump": {Kind.TRUMP, Kind.SURRENDER},
    "defence": {Kind.WHIST, Kind.PASS},
    "play": {Kind.PLAY},
}
BOTS = [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}]


def legal_on_page(page: Any, phase: str) -> set[str]:
    """What the page offers now: its action buttons, its playable cards, or (to discard)
    every pair of its cards."""
    if phase == "discard":
        cards = sorted(page.eval_on_selector_all(HAND_CARDS, "es => es.map(e => e.dataset.card)"))
        return {Action.parse(f"discard {a} {b}").__str__() for a in cards for b in cards if a < b}
    if phase == "play":
        cards = page.eval_on_selector_all(
            f"{HAND_CARDS}:not([aria-disabled=true])", "es => es.map(e => e.dataset.card)"
        )
        return {f"play {c}" for c in cards}
    return set(
        page.eval_on_selector_all(
            "[data-testid=actions] button[data-action]", "es => es.map(e => e.dataset.action)"
        )
    )


def show_hint(page: Any, by_key: bool) -> list[dict[str, str]]:
    """Ask for the hint (the key h or the button) and read its rows."""
    if by_key:
        page.locator("body").press("h")
    else:
        page.click("[data-testid=hint-button]")
    page.wait_for_selector(HINT_ROWS, timeout=20_000)
    rows: list[dict[str, str]] = page.eval_on_selector_all(
        HINT_ROWS,
        "rs => rs.map(r => ({action: r.dataset.action, chosen: r.dataset.chosen, text: r.innerText}))",
    )
    return rows


def test_hint_on_every_kind_of_decision_at_a_practice_table(server: LiveServer, open_page: Opener) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = open_page()
    page.goto(server.url + "/")
    page.fill("#tname", "Practice")
    page.select_option("#seat1", "heuristic")
    page.select_option("#seat2", "heuristic")
    page.check("[data-testid=hints]")
    page.fill("[data-testid=my-name]", "Ani")  # seated with the table
    page.screenshot(path=str(SHOTS / "hint-lobby-form.png"))
    page.click("[data-testid=create]")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    page.wait_for_selector(f"{TABLE}[data-you='0']")
    table_id = page.url.rsplit("/", 1)[1]
    assert server.get(f"/api/tables/{table_id}")["hints"] is True
    page.wait_for_selector("[data-testid=hint-panel]")

    rng = random.Random(3)
    shots: dict[str, str] = {}
    deadline = time.monotonic() + 240
    deal_policy = [declare, defend]
    while set(shots) != set(KINDS):
        assert time.monotonic() < deadline, f"hints shown for {sorted(shots)} only"
        try:
            page.wait_for_function(
                """() => document.querySelector('[data-testid=table]')?.dataset.myTurn === 'true'
                         || !!document.querySelector('[data-testid=next-deal]:not([disabled])')""",
                timeout=30_000,
            )
        except Exception as err:  # say where it stood: the table, the turn line, the end panel
            where = {**board(page), "turn": page.inner_text("[data-testid=turn]")}
            ended = page.locator("[data-testid=end-deal]")
            panel = ended.count() and ended.inner_text()
            raise AssertionError(f"no turn for 30 s: {where}, end panel: {panel!r}") from err
        if page.locator("[data-testid=next-deal]:not([disabled])").count():  # a deal's end on show
            page.click("[data-testid=next-deal]")
            continue
        state = board(page)
        phase = state["phase"]
        policy = deal_policy[int(state["deals"]) % 2] if "defence" not in shots else declare
        if phase in shots and rng.random() < 0.7:
            act_plainly(page, phase, policy, rng)
            continue
        page.wait_for_selector("[data-testid=hint-button]:not([disabled])")
        rows = show_hint(page, by_key=len(shots) % 2 == 0)
        offered = legal_on_page(page, phase)
        actions = [r["action"] for r in rows]
        assert rows[0]["chosen"] == "true" and [r["chosen"] for r in rows[1:]] == ["false"] * (len(rows) - 1)
        assert set(actions) <= offered, (actions, offered)
        assert {Action.parse(a).kind for a in actions} <= KINDS[phase]
        assert "its choice" in rows[0]["text"]
        if phase == "play":
            assert set(actions) == offered  # every playable card is valued
        if phase not in shots:
            path = SHOTS / f"hint-{phase}.png"
            page.screenshot(path=str(path), full_page=True)
            check_png(path)
            shots[phase] = actions[0]
        # follow the hint in the play and the discard; elsewhere the deal's policy, so the
        # person both declares and defends over a few deals
        if phase in ("play", "discard"):
            follow(page, phase, actions[0], state["version"])
        else:
            choice = policy(phase, sorted(offered))
            page.click(f"[data-testid=actions] [data-action='{choice}']")
            wait_version_change(page, state["version"])


def follow(page: Any, phase: str, action: str, version: str) -> None:
    """Play the hinted card, or discard the hinted two cards, by clicking."""
    cards = action.split(" ")[1:]
    for card in cards:
        page.click(f"{HAND_CARDS}[data-card='{card}']")
    if phase == "discard":
        page.click("[data-action=discard]")
    wait_version_change(page, version)


def act_plainly(page: Any, phase: str, policy: Any, rng: random.Random) -> None:
    """One move without a hint."""
    version = board(page)["version"]
    if phase == "play":
        cards = page.locator(f"{HAND_CARDS}:not([aria-disabled=true])")
        cards.nth(rng.randrange(cards.count())).click()
    elif phase == "discard":
        cards = page.locator(f"{HAND_CARDS}:not([aria-disabled=true])")
        first, second = rng.sample(range(cards.count()), 2)
        cards.nth(first).click()
        cards.nth(second).click()
        page.click("[data-action=discard]")
    else:
        page.click(
            f"[data-testid=actions] [data-action='{policy(phase, sorted(legal_on_page(page, phase)))}']"
        )
    wait_version_change(page, version)


def test_no_hint_at_a_table_without_hints_and_not_out_of_turn(server: LiveServer, open_page: Opener) -> None:
    plain = server.new_table(BOTS)
    page = open_page()
    page.goto(f"{server.url}/t/{plain}")
    sit(page, 0, "Ani")
    page.wait_for_function("() => document.querySelector('[data-testid=table]').dataset.myTurn === 'true'")
    assert page.locator("[data-testid=hint-panel]").count() == 0
    page.locator("body").press("h")  # nothing is asked: no error appears
    page.wait_for_timeout(300)
    assert page.locator("[data-testid=hint-options]").count() == 0

    practice = server.post(
        "/api/tables", {"name": "P", "rules": {"target": 121}, "seats": BOTS, "hints": True}
    )
    watcher = open_page()
    watcher.goto(f"{server.url}/t/{practice['id']}")
    watcher.wait_for_selector(TABLE)
    assert watcher.locator("[data-testid=hint-button]").count() == 0  # a spectator has no button
    assert "Practice table" in watcher.inner_text("[data-testid=hint-panel]")


def test_hint_strings_in_every_language(server: LiveServer, open_page: Opener) -> None:
    page = open_page()
    page.goto(server.url + "/")
    page.wait_for_selector("[data-testid=hints]")
    keys = page.evaluate(
        """async () => { const m = await import('/static/i18n-hint.js');
            const langs = ['en', 'hy', 'ru', 'es', 'ja'];
            return Object.fromEntries(langs.map(l => [l, Object.keys(m[l]).sort()])); }"""
    )
    assert keys["en"] and all(keys[lang] == keys["en"] for lang in keys)
    texts = page.evaluate(
        """async () => { const m = await import('/static/i18n-hint.js');
            return ['hy','ru','es','ja'].map(l => m[l].hintButton); }"""
    )
    assert len(set(texts)) == 4 and "Hint" not in texts
