"""Hints in the browser: a practice table made from the lobby's form, its Hint button
and key ``h`` on every kind of decision (bid, discard, trump or surrender, whist, card),
the options best first with the computer player's choice marked; a screenshot of each.
The hint in words (issue 23, item 4): the best option's sentence with its chance and
expected score, in two languages; equally good options said together; the recommended
card marked in the hand (and button among the actions) and cleared once played; axe
finds nothing in the hint panel.

Reuses the server and browser fixtures of ``tests/browser_helpers.py``.
"""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

import browser_helpers
from browser_helpers import (
    HAND_CARDS,
    RANDOM_BOTS,
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
CARDS = "es => es.map(e => e.dataset.card)"
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
    page.wait_for_selector(HINT_ROWS, state="attached", timeout=20_000)  # under "details"
    rows: list[dict[str, str]] = page.eval_on_selector_all(
        HINT_ROWS,
        "rs => rs.map(r => ({action: r.dataset.action, chosen: r.dataset.chosen, text: r.textContent}))",
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


AXE = Path(__file__).resolve().parent.parent / ".axe" / "node_modules" / "axe-core" / "axe.min.js"


def axe(page: Any, what: str) -> None:
    """Every axe-core rule (as tests/test_browser_access.py runs them) over the page: no violation."""
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


HEURISTIC_BOTS = [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}]
MARKED = "[data-hint]"


def marks(page: Any) -> list[dict[str, str]]:
    """Every button the hint marks: its card or action, the mark, the badge, and the
    words of its description."""
    found: list[dict[str, str]] = page.eval_on_selector_all(
        MARKED,
        """bs => bs.map(b => ({card: b.dataset.card || '', action: b.dataset.action || '',
                 hint: b.dataset.hint, badge: getComputedStyle(b, '::before').content.split('"')[1] || '',
                 described: document.getElementById(b.getAttribute('aria-describedby'))
                   ?.textContent || ''}))""",
    )
    return found


def chosen_of(page: Any) -> str:
    return str(page.get_attribute("[data-testid=hint-options] tr[data-chosen=true]", "data-action"))


def real_hint(page: Any) -> str:
    """Ask for the hint of this decision; its choice once the sentence is shown."""
    page.click("[data-testid=hint-button]")
    page.wait_for_selector("[data-testid=hint-best]", timeout=20_000)
    return chosen_of(page)


def inject(page: Any, options: list[dict[str, Any]], chosen: str, goal: str = "make") -> None:
    """A hint message for the decision on show, as the server would send it (the page's
    own socket handler takes it), with the options given."""
    page.evaluate(
        """async ([options, chosen, goal]) => {
             const src = document.querySelector('script[type=module]').src;
             const { live } = await import(new URL('live.js', src));
             const s = live.state;
             live.onHint({ type: 'hint', version: s.version, seat: s.you, goal, options, chosen,
                           level: 3, worlds: 16 }); }""",
        [options, chosen, goal],
    )


def test_hint_in_words_marks_the_recommended_card_and_clears_it(
    server: LiveServer, open_page: Opener
) -> None:
    practice = server.post(
        "/api/tables", {"name": "Words", "rules": {"target": 121}, "seats": HEURISTIC_BOTS, "hints": True}
    )
    page = open_page()
    page.goto(f"{server.url}/t/{practice['id']}")
    sit(page, 0, "Ani")
    rng = random.Random(5)
    checked_button = False
    deadline = time.monotonic() + 150
    while True:  # on to a card to play; on the way, a bid, whist or trump hint marks its button
        assert time.monotonic() < deadline, "never Ani's turn in the card play"
        page.wait_for_function(
            "() => document.querySelector('[data-testid=table]').dataset.myTurn === 'true'"
        )
        phase = board(page)["phase"]
        if phase == "play":
            break
        if phase != "discard" and not checked_button:
            chosen = real_hint(page)
            [mark] = marks(page)
            assert mark == {
                "card": "",
                "action": chosen,
                "hint": "recommended",
                "badge": "hint",
                "described": "recommended by the hint",
            }
            checked_button = True
        act_plainly(page, phase, declare, rng)
    assert checked_button

    # a card: the sentence says its chance and expected score, the hand marks it
    chosen = real_hint(page)
    assert chosen.startswith("play ")
    best = page.inner_text("[data-testid=hint-best]")
    assert re.search(
        r"(makes|beats) the contract in \d+% of the ways the other hands could be dealt", best
    ), best
    assert "expected score" in best
    assert page.locator("[data-testid=hint-options]").is_hidden()  # the numbers wait under "details"
    page.click("[data-testid=hint-details] summary")
    assert page.locator("[data-testid=hint-options]").is_visible()
    recommended = [m for m in marks(page) if m["hint"] == "recommended"]
    assert recommended == [
        {
            "card": chosen.split()[1],
            "action": "",
            "hint": "recommended",
            "badge": "hint",
            "described": "recommended by the hint",
        }
    ]
    shot_path = SHOTS / "hint-words-en.png"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shot_path), full_page=True)
    check_png(shot_path)
    axe(page, "the hint panel, its details open and the recommended card marked")

    # another language: the same hint in Russian words
    page.select_option("[data-testid=lang]", "ru")
    page.wait_for_function("document.documentElement.lang === 'ru'")
    russian = page.inner_text("[data-testid=hint-best]")
    assert re.search(r"контракт (выполняется|садится) в \d+\s?% возможных раскладов", russian), russian
    assert "ожидаемый счёт" in russian and "contract" not in russian
    assert [m["badge"] for m in marks(page) if m["hint"] == "recommended"] == ["совет"]
    assert page.inner_text("[data-testid=hint-details] summary").startswith("Подробности")
    page.select_option("[data-testid=lang]", "en")
    page.wait_for_function("document.documentElement.lang === 'en'")

    # equal options said together: three cards as good as each other, then the rest
    legal = page.eval_on_selector_all(f"{HAND_CARDS}:not([aria-disabled=true])", CARDS)
    if len(legal) >= 2:
        trio = legal[:3]
        options = [
            {"action": f"play {c}", "score": -40.0, "tricks": 1.0, "chance": 0.25, "group": 0} for c in trio
        ]
        options += [
            {"action": f"play {c}", "score": -50.0 - i, "tricks": 0.5, "chance": 0.0, "group": 1 + i}
            for i, c in enumerate(legal[3:])
        ]
        inject(page, options, f"play {trio[0]}")
        page.wait_for_function(
            "() => document.querySelector('[data-testid=hint-best]')?.textContent.includes('equally good')"
        )
        labels = page.evaluate(
            """async (codes) => { const src = document.querySelector('script[type=module]').src;
                 const { cardText } = await import(new URL('cards.js', src));
                 return codes.map(cardText); }""",
            trio,
        )
        listed = labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]
        best = page.inner_text("[data-testid=hint-best]")
        assert best.startswith(f"{listed} are equally good: each makes the contract in 25% of the ways"), best
        assert "expected score −40" in best
        others = page.locator("[data-testid=hint-others] li")
        assert others.count() == len(legal) - len(trio)
        groups = page.eval_on_selector_all(HINT_ROWS, "rs => rs.map(r => r.dataset.group)")
        assert groups == [str(o["group"]) for o in options]
        got = {m["card"]: (m["hint"], m["badge"]) for m in marks(page)}
        assert got == {trio[0]: ("recommended", "hint"), **{c: ("equal", "=") for c in trio[1:]}}
        assert {m["described"] for m in marks(page) if m["hint"] == "equal"} == {
            "as good as the recommended option"
        }
        axe(page, "the hint panel with equally good options")
        if len(legal) > 3:  # every option as good as the others: said as "all N options"
            inject(
                page, [{**o, "score": -40.0, "chance": 0.25, "group": 0} for o in options], f"play {trio[0]}"
            )
            page.wait_for_function(
                "() => document.querySelector('[data-testid=hint-best]')?.textContent.startsWith('All ')"
            )
            assert page.inner_text("[data-testid=hint-best]").startswith(
                f"All {len(legal)} options are equally good"
            )
            assert page.locator("[data-testid=hint-others]").count() == 0
        chosen = f"play {trio[0]}"

    # playing the recommended card clears the marks: the hint was for that decision only
    version = board(page)["version"]
    page.click(f"{HAND_CARDS}[data-card='{chosen.split()[1]}']")
    wait_version_change(page, version)
    assert page.locator(MARKED).count() == 0
    assert page.locator("[data-testid=hint-best]").count() == 0


def test_a_stale_hint_marks_nothing(server: LiveServer, open_page: Opener) -> None:
    """A hint for another version of the table (the decision has passed) is not shown and
    marks no card."""
    practice = server.post(
        "/api/tables", {"name": "Stale", "rules": {"target": 121}, "seats": RANDOM_BOTS, "hints": True}
    )
    page = open_page()
    page.goto(f"{server.url}/t/{practice['id']}")
    sit(page, 0, "Ani")
    page.wait_for_function("() => document.querySelector('[data-testid=table]').dataset.myTurn === 'true'")
    action = page.eval_on_selector_all(
        "[data-testid=actions] button[data-action]", "es => es.map(e => e.dataset.action)"
    )
    if not action:  # a discard: any two cards
        action = [f"discard {' '.join(page.eval_on_selector_all(HAND_CARDS, CARDS)[:2])}"]
    page.evaluate(
        """async ([chosen]) => { const src = document.querySelector('script[type=module]').src;
             const { live } = await import(new URL('live.js', src));
             const s = live.state;
             live.onHint({ type: 'hint', version: s.version + 1, seat: s.you, goal: 'make', chosen,
               options: [{ action: chosen, score: 1, tricks: null, chance: 0.5, group: 0 }],
               level: 3, worlds: 16 }); }""",
        [action[0]],
    )
    page.wait_for_timeout(200)
    assert page.locator(MARKED).count() == 0 and page.locator("[data-testid=hint-best]").count() == 0
