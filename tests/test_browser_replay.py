"""The replay viewer tells the story of a game: the auction by seat name, the contract
and the trump, each trick with its winner, the tricks taken so far, the deal's scores and
the running totals (with the resets of R8.2), the prikup and the discard apart, the
table's names for its seats; it fits a phone and is driven by the keyboard; the marks of
an analysis, when a finished table has one.

Every fact shown is checked against the record and against the engine's own rule
functions (``tricks.trick_winner`` for R6.3, the record's totals for R8), never against the
replay JSON the page was drawn from.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from browser_helpers import (
    SHOTS,
    LiveServer,
    Opener,
    browser,
    check_png,
    finished_bots_game,
    open_page,
    server,
)
from paston.bots.runner import seeded_game
from paston.cards import ALL_CARDS
from paston.record import to_record
from paston.rules import Rules
from paston.scoring import reset_seats
from paston.tricks import trick_winner

__all__ = ["browser", "open_page", "server"]  # the fixtures, from browser_helpers.py

REPLAY = "[data-testid=replay]"
INDEX = {str(c): c.index for c in ALL_CARDS}
TRUMP_SUIT = {"spades": "S", "clubs": "C", "diamonds": "D", "hearts": "H", "best-spades": "S"}
COMPUTERS = ["Computer 1", "Computer 2", "Computer 3"]


# --- what the record says, worked out here ------------------------------------------------------------
def action_text(a: dict[str, Any]) -> str:
    if a["type"] in ("bid", "trump"):
        return f"{a['type']} {a['value']}"
    if a["type"] == "discard":
        return "discard " + " ".join(a["cards"])
    if a["type"] == "play":
        return f"play {a['card']}"
    return str(a["type"])


def tricks_of(deal: dict[str, Any]) -> list[tuple[list[tuple[int, str]], int, int]]:
    """R6.3 with the engine's ``trick_winner``: each trick's plays, winner, and the index
    of the action after which it is complete."""
    result = deal["result"]
    active = 1 + len(result["defenders"])
    trump_letter = TRUMP_SUIT[result["contract"]]
    trump = next(c.index >> 3 for c in ALL_CARDS if str(c)[1] == trump_letter)
    plays = [(k, a["seat"], a["card"]) for k, a in enumerate(deal["actions"]) if a["type"] == "play"]
    out = []
    for start in range(0, len(plays), active):
        trick = plays[start : start + active]
        won = trick_winner([INDEX[card] for _k, _s, card in trick], trump)
        out.append(([(s, card) for _k, s, card in trick], trick[won][1], trick[-1][0]))
    return out


def totals_before(record: dict[str, Any], index: int) -> list[int]:
    earlier = [d["totals"] for d in record["deals"][:index] if "totals" in d]
    return earlier[-1] if earlier else [0, 0, 0]


def signed(x: int) -> str:
    return f"+{x}" if x > 0 else (f"−{-x}" if x < 0 else "0")


def finished_game(server: LiveServer) -> tuple[str, dict[str, Any]]:
    """A finished game of three computers (random players: they defend, so cards are
    played) with at least one played deal; its table id and record."""
    for _ in range(4):
        table_id = finished_bots_game(server)
        record = server.manager.record(table_id)
        if any(d.get("result", {}).get("outcome") == "played" for d in record["deals"]):
            return table_id, record
    raise AssertionError("no deal was played in four games")


# --- reading the page -------------------------------------------------------------------------------
def shown(page: Any) -> dict[str, Any]:
    """Everything the step shows, in one read."""
    return dict(
        page.evaluate(
            """() => {
          const q = (s) => document.querySelector(s), qa = (s) => [...document.querySelectorAll(s)];
          const cards = (e) => e ? [...e.querySelectorAll('[data-card]')].map(c => c.dataset.card) : [];
          const r = q('[data-testid=replay]');
          return {
            deal: Number(r.dataset.deal), step: Number(r.dataset.step), phase: r.dataset.phase,
            h1: qa('h1').map(h => h.innerText),
            names: qa('.replay-hand h3 .name').map(e => e.innerText),
            hands: qa('.replay-hand').map(h => cards(h.querySelector('.hand'))),
            prikup: cards(q('[data-testid=replay-prikup]')),
            discard: cards(q('[data-testid=replay-discard]')),
            auction: qa('[data-testid=replay-auction] li').map(li => ({seat: Number(li.dataset.seat),
              action: li.dataset.action, who: li.querySelector('.who').innerText})),
            trump: q('[data-testid=replay-trump]').dataset.trump,
            trumpText: q('[data-testid=replay-trump]').innerText,
            declarer: q('[data-testid=replay-declarer]')
              ? Number(q('[data-testid=replay-declarer]').dataset.seat) : null,
            soFar: qa('[data-testid=replay-tricks-so-far] li').map(li => Number(li.dataset.tricks)),
            tricks: qa('[data-testid=replay-tricks] li').map(li => ({
              winner: Number(li.dataset.winner), cards: cards(li),
              seats: [...li.querySelectorAll('.play')].map(p => Number(p.dataset.seat)),
              won: li.querySelector('.won').innerText})),
            before: qa('[data-testid=total-before]').map(e => e.innerText),
            scores: qa('[data-testid=deal-score]').map(e => e.innerText),
            after: qa('[data-testid=total-after] .total').map(e => e.innerText),
            resets: qa('[data-testid=total-after][data-reset=true]')
              .map(e => Number(e.closest('tr').dataset.seat)),
            marks: qa('[data-mark]')
              .map(m => ({index: Number(m.dataset.mark), label: m.getAttribute('aria-label')})),
            text: document.body.innerText,
          }; }"""
        )
    )


def go_to_deal(page: Any, index: int) -> None:
    page.keyboard.press("Home")
    while int(page.get_attribute(REPLAY, "data-deal") or 0) != index:
        current = int(page.get_attribute(REPLAY, "data-deal") or 0)
        page.keyboard.press("PageDown" if current < index else "PageUp")
        page.wait_for_function(f"() => document.querySelector('{REPLAY}').dataset.deal !== '{current}'")


def step_to(page: Any, step: int) -> None:
    current = int(page.get_attribute(REPLAY, "data-step") or 0)
    if current != step:
        page.keyboard.press("ArrowRight" if current < step else "ArrowLeft")
        page.wait_for_function(f"() => document.querySelector('{REPLAY}').dataset.step !== '{current}'")
        step_to(page, step)


def check_step(got: dict[str, Any], record: dict[str, Any], index: int, k: int) -> None:
    """What step ``k`` (before action ``k``) of deal ``index`` shows, against the record."""
    deal = record["deals"][index]
    actions = deal["actions"]
    said = [(a["seat"], action_text(a)) for a in actions[:k] if a["type"] != "play"]
    assert [(a["seat"], a["action"]) for a in got["auction"]] == said
    assert [a["who"] for a in got["auction"]] == [COMPUTERS[s] for s, _ in said]
    assert sorted(got["prikup"]) == sorted(deal["prikup"])
    discards = [a["cards"] for a in actions[:k] if a["type"] == "discard"]
    assert sorted(got["discard"]) == sorted(discards[0] if discards else [])
    trumps = [a["value"] for a in actions[:k] if a["type"] == "trump"]
    assert got["trump"] == (trumps[0] if trumps else "")
    if deal.get("result") and deal["result"]["outcome"] == "played":
        done = [t for t in tricks_of(deal) if t[2] < k]
        assert [t["winner"] for t in got["tricks"]] == [w for _p, w, _e in done]
        assert [list(zip(t["seats"], t["cards"], strict=True)) for t in got["tricks"]] == [
            p for p, _w, _e in done
        ]
        assert [t["won"] for t in got["tricks"]] == [f"won by {COMPUTERS[w]}" for _p, w, _e in done]
        assert got["soFar"] == [sum(w == s for _p, w, _e in done) for s in range(3)]
    assert got["before"] == [signed(x).lstrip("+") for x in totals_before(record, index)]


# --- the tests ---------------------------------------------------------------------------------------
def test_replay_tells_the_auction_contract_tricks_scores_and_totals(
    server: LiveServer, open_page: Opener, tmp_path: Path
) -> None:
    table_id, record = finished_game(server)
    page = open_page(1280, 900)
    page.goto(f"{server.url}/replay/{table_id}")
    page.wait_for_selector(REPLAY)
    index = next(i for i, d in enumerate(record["deals"]) if d.get("result", {}).get("outcome") == "played")
    deal = record["deals"][index]
    go_to_deal(page, index)
    got = shown(page)
    assert got["h1"] and "Replay" in got["h1"][0]
    assert got["names"] == COMPUTERS  # the table's names, not the record's "random (0)"
    assert "random (" not in got["text"]
    assert [sorted(h) for h in got["hands"]] == [sorted(h) for h in deal["hands"]]
    for k in range(len(deal["actions"]) + 1):  # every step of the deal, forward
        step_to(page, k)
        check_step(shown(page), record, index, k)
    end = shown(page)
    result = deal["result"]
    assert end["trump"] == result["contract"] and end["declarer"] == result["declarer"]
    assert end["soFar"] == result["tricks"]
    assert len(end["tricks"]) == 10
    assert end["scores"] == [signed(x) for x in result["scores"]]
    assert end["after"] == [signed(x).lstrip("+") for x in deal["totals"]]
    assert end["resets"] == list(
        reset_seats(totals_before(record, index), result["scores"], rules=Rules(target=10))
    )
    assert end["prikup"] != end["discard"] or sorted(end["prikup"]) == sorted(end["discard"])  # two rows
    assert page.locator("[data-testid=replay-prikup]").count() == 1
    assert page.locator("[data-testid=replay-discard]").count() == 1
    assert "gupa" in end["trumpText"] or result["contract"] != "hearts"
    SHOTS.mkdir(parents=True, exist_ok=True)
    step_to(page, len(deal["actions"]) - 4)  # mid-trick, late in the play
    page.screenshot(path=str(SHOTS / "replay-desktop.png"), full_page=True)
    check_png(SHOTS / "replay-desktop.png")

    # the last deal: the game's winners
    go_to_deal(page, len(record["deals"]) - 1)
    page.keyboard.press("End")
    page.wait_for_selector("[data-testid=replay-winners]")
    assert all(COMPUTERS[w] in page.inner_text("[data-testid=replay-winners]") for w in record["winners"])


def test_replay_keyboard_keeps_the_focus_on_the_control(server: LiveServer, open_page: Opener) -> None:
    table_id, record = finished_game(server)
    page = open_page()
    page.goto(f"{server.url}/replay/{table_id}")
    page.wait_for_selector(REPLAY)
    focused = "() => document.activeElement && document.activeElement.dataset.testid"
    page.click("[data-testid=next-step]")
    page.wait_for_selector(f"{REPLAY}[data-step='1']")
    assert page.evaluate(focused) == "next-step"
    page.keyboard.press("Enter")  # the button pressed again from the keyboard
    page.wait_for_selector(f"{REPLAY}[data-step='2']")
    assert page.evaluate(focused) == "next-step"
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(f"{REPLAY}[data-step='1']")
    assert page.evaluate(focused) == "next-step"
    page.keyboard.press("End")  # the end of the deal: forward is disabled, the focus moves back
    last = len(record["deals"][0]["actions"])
    page.wait_for_selector(f"{REPLAY}[data-step='{last}']")
    page.click("[data-testid=prev-step]")
    page.wait_for_selector(f"{REPLAY}[data-step='{last - 1}']")
    page.click("[data-testid=next-step]")
    page.wait_for_selector(f"{REPLAY}[data-step='{last}']")
    assert page.evaluate(focused) == "prev-step"
    if len(record["deals"]) > 1:
        page.focus("[data-testid=next-deal]")
        page.keyboard.press("Space")
        page.wait_for_selector(f"{REPLAY}[data-deal='1'][data-step='0']")
        assert page.evaluate(focused) in ("next-deal", "prev-deal")
    assert page.locator("h1").count() == 1


def test_replay_fits_a_phone_at_every_step(server: LiveServer, open_page: Opener) -> None:
    table_id, record = finished_game(server)
    index = next(i for i, d in enumerate(record["deals"]) if d.get("result", {}).get("outcome") == "played")
    page = open_page(375, 740)
    page.goto(f"{server.url}/replay/{table_id}")
    page.wait_for_selector(REPLAY)
    go_to_deal(page, index)
    steps = len(record["deals"][index]["actions"]) + 1
    width = "() => document.scrollingElement.scrollWidth"
    for k in range(steps):
        step_to(page, k)
        assert page.evaluate(width) <= 375, f"step {k} is {page.evaluate(width)} px wide"
        if k == 0:  # every card of every hand on the screen, none cut off
            boxes = page.eval_on_selector_all(
                ".replay-hand [data-card]", "es => es.map(e => e.getBoundingClientRect().right)"
            )
            assert len(boxes) == 30 and max(boxes) <= 375
        if k == 14:
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / "replay-phone.png"), full_page=True)
            check_png(SHOTS / "replay-phone.png")
    page.screenshot(path=str(SHOTS / "replay-phone-end.png"), full_page=True)


def test_r8_2_an_opened_record_shows_the_reset_and_no_marks(
    open_page: Opener, server: LiveServer, tmp_path: Path
) -> None:
    # a game whose totals hit exactly −target (reset to 0): found by seed, deterministically
    rules = Rules(target=10)
    for seed in range(200):
        match = seeded_game(f"reset-{seed}", ["random", "heuristic", "random"], rules=rules)
        record = to_record(match)
        found = [
            (i, reset_seats(totals_before(record, i), d["result"]["scores"], rules=rules))
            for i, d in enumerate(record["deals"])
            if "result" in d
        ]
        found = [(i, seats) for i, seats in found if seats]
        if found:
            break
    else:
        raise AssertionError("no game with a reset in 200 seeds")
    index, seats = found[0]
    asked: list[str] = []
    page = open_page()
    page.on("request", lambda r: asked.append(r.url) if "/api/" in r.url and "/analysis" in r.url else None)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    empty = tmp_path / "empty.json"  # a game stopped before its first deal: nothing to step through
    empty.write_text(json.dumps({**record, "deals": [], "winners": []}), encoding="utf-8")
    page.goto(f"{server.url}/replay")
    page.wait_for_selector("#record-file")
    page.set_input_files("#record-file", str(empty))
    page.wait_for_selector(REPLAY)
    assert "no deal" in page.inner_text(REPLAY)
    page.keyboard.press("ArrowRight")  # nothing to do, and no error
    page.goto(f"{server.url}/replay")
    page.wait_for_selector("#record-file")
    assert page.locator("h1").count() == 1
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector(REPLAY)
    go_to_deal(page, index)
    page.keyboard.press("End")
    page.wait_for_selector("[data-testid=total-after][data-reset=true]")
    got = shown(page)
    assert got["resets"] == list(seats)
    assert all(got["after"][s] == "0" for s in seats)
    # the record's names: no table, so the names as written ("random", "heuristic")
    assert got["names"] == ["random", "heuristic", "random"]
    assert got["marks"] == [] and asked == []
    assert page.locator("[data-testid=open-analysis]").count() == 0


def test_analysis_marks_the_costly_moves_and_opens_the_analysis(
    server: LiveServer, open_page: Opener
) -> None:
    table_id, record = finished_game(server)
    index = next(i for i, d in enumerate(record["deals"]) if d.get("result", {}).get("outcome") == "played")
    deal = record["deals"][index]
    plays = [k for k, a in enumerate(deal["actions"]) if a["type"] == "play"]
    bid = next(k for k, a in enumerate(deal["actions"]) if a["type"] in ("bid", "pass"))
    costly, free = plays[4], plays[5]
    analysis = {
        "cards": [
            {
                "index": costly,
                "seat": deal["actions"][costly]["seat"],
                "card": deal["actions"][costly]["card"],
                "cost_tricks": 1,
                "cost_points": 10,
                "best": ["AH"],
                "bot": "AH",
            },
            {
                "index": free,
                "seat": 0,
                "card": "7S",
                "cost_tricks": 0,
                "cost_points": 0,
                "best": [],
                "bot": "7S",
            },
            {"index": "bad"},
            None,
        ],
        "decisions": [
            {
                "index": bid,
                "seat": deal["actions"][bid]["seat"],
                "phase": "auction",
                "chosen": action_text(deal["actions"][bid]),
                "options": [{"action": "pass", "score": -1.5}, {"action": "bid spades", "score": 2.0}],
                "bot": "bid spades",
            }
        ],
        "totals": [],
        "mistakes": [  # the real shape: cards and decisions that cost points, costliest first
            {"index": costly, "seat": 0, "what": "AH", "cost_points": 10},
            {"index": bid, "seat": 0, "what": "pass", "cost_points": 3.456},
        ],
    }
    garbage = {
        "cards": "x",
        "decisions": [None, 5],
        "mistakes": [{"index": -1, "cost_points": 5}, {"index": 2}],
    }
    answers = {"status": 202}

    def reply(route: Any) -> None:
        if route.request.url.endswith("/deals/0/analysis") and index != 0:
            route.fulfill(status=200, content_type="application/json", body=json.dumps(garbage))
        elif f"/deals/{index}/analysis" in route.request.url and answers["status"] == 200:
            route.fulfill(status=200, content_type="application/json", body=json.dumps(analysis))
        elif f"/deals/{index}/analysis" in route.request.url:
            route.fulfill(status=202, content_type="application/json", body="{}")
        else:
            route.fulfill(
                status=404,
                content_type="application/json",
                body='{"error": {"code": "no-deal", "message": "none"}}',
            )

    page = open_page()
    page.add_init_script(
        # the analysis dialog's own module sets the hook too: it keeps this one
        "window.opened = []; Object.defineProperty(window, 'pastonOpenAnalysis', {configurable: true,"
        " get: () => (...args) => window.opened.push(args), set: () => {}});"
    )
    page.route("**/api/tables/*/deals/*/analysis", reply)
    page.goto(f"{server.url}/replay/{table_id}")
    page.wait_for_selector(REPLAY)
    if index != 0:  # deal 0's analysis is garbage: no marks, no error, no button
        page.wait_for_function("() => document.querySelector('[data-testid=replay]').dataset.marks === '0'")
        assert shown(page)["marks"] == []
    if index > 1:  # deal 1 has none (404): likewise
        go_to_deal(page, 1)
        assert shown(page)["marks"] == [] and page.locator("[data-testid=open-analysis]").count() == 0
    go_to_deal(page, index)
    page.wait_for_selector("[data-testid=analysis-pending]")
    answers["status"] = 200  # asked again a few seconds later
    page.wait_for_selector("[data-testid=open-analysis]", timeout=10_000)
    step_to(page, costly)
    got = shown(page)
    marks = {m["index"]: m["label"] for m in got["marks"]}
    assert sorted(marks) == [bid, costly]  # the bid said; the card to play next (not played yet)
    assert "10 points (1 trick)" in marks[costly] and "A♥" in marks[costly]
    assert "3.5 points" in marks[bid] and "Bid paston ♠" in marks[bid]
    step_to(page, costly + 1)
    assert {m["index"] for m in shown(page)["marks"]} == {bid, costly}  # now on the card in the trick
    page.keyboard.press("End")
    page.wait_for_function(f"() => document.querySelector('{REPLAY}').dataset.phase === 'over'")
    assert sorted(m["index"] for m in shown(page)["marks"]) == [bid, costly]  # auction, list of tricks
    page.click("[data-testid=open-analysis]")
    assert page.evaluate("window.opened") == [[table_id, index, deal_number(record, index)]]


def deal_number(record: dict[str, Any], index: int) -> int:
    """A deal's number on the score sheet: the scored deals counted (redeals are not)."""
    return sum("result" in d for d in record["deals"][: index + 1])
