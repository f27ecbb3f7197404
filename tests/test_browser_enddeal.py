"""The end-of-deal panel in the browser (static/enddeal.js): a person at seat 0 sees
each finished deal's summary — made, failed, surrendered, uncontested — with the hands as
dealt, presses "Next deal", and sees who is still to press. The other seats (and seat 0's
moves) are played by WebSocket clients from the test, so each outcome can be steered; a
screenshot of each panel (phone and desktop) goes where the other screenshots go."""

from __future__ import annotations

import json
import random
import re
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from browser_helpers import SHOTS, TABLE, LiveServer, Opener, browser, check_png, open_page, server, sit

__all__ = ["browser", "open_page", "server"]  # the fixtures, imported for pytest

PANEL = "[data-testid=end-deal]"
Policy = Callable[[dict[str, Any], random.Random], str]


class Seat:
    """One seat's WebSocket from the test: keeps the newest state it heard."""

    def __init__(self, url: str, table: str, token: str, *, shows: bool) -> None:
        self._cm = connect(url.replace("http", "ws") + f"/ws/tables/{table}")
        self.ws: ClientConnection = self._cm.__enter__()
        self.ws.send(json.dumps({"type": "hello", "token": token, "next": shows}))
        self.states: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for raw in self.ws:
                msg = json.loads(raw)
                if msg["type"] == "state":
                    self.states.append(msg)
                elif msg["type"] == "error":
                    self.errors.append(msg)
        except Exception:
            return

    def wait(self, wanted: Callable[[dict[str, Any]], bool], timeout: float = 15.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for m in reversed(self.states):
                if wanted(m):
                    return m
            time.sleep(0.02)
        raise AssertionError(f"no such state; errors {self.errors}")

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))


def first_bid(view: dict[str, Any]) -> str | None:
    """Auction: the first bidder bids spades, the others pass (None after the auction)."""
    legal = view["legal"]
    if view["phase"] != "auction":
        return None
    if view["high_bid"] is None and "bid spades" in legal and view["in_auction"].count(True) == 3:
        return "bid spades"
    return "pass"


def surrender(view: dict[str, Any], rng: random.Random) -> str:
    return first_bid(view) or ("surrender" if "surrender" in view["legal"] else view["legal"][0])


def uncontested(view: dict[str, Any], rng: random.Random) -> str:
    if view["phase"] == "auction":
        return "pass"  # all three pass: the holder of J♠ (or 7♠) declares (R3.4)
    if view["phase"] == "trump":
        return next(a for a in view["legal"] if a.startswith("trump"))
    return "pass" if "pass" in view["legal"] else view["legal"][0]


def played(view: dict[str, Any], rng: random.Random) -> str:
    bid = first_bid(view)
    if bid:
        return bid
    if view["phase"] == "trump":
        return "trump spades"
    if view["phase"] == "defence":
        return "whist"
    return str(rng.choice(view["legal"]))


class Game:
    """A table of three people: the page at seat 0, and the test's clients at every seat."""

    def __init__(self, server: LiveServer, page: Any) -> None:
        made = server.post(
            "/api/tables",
            {
                "name": "End",
                "rules": {"target": 100_000},
                "seats": [{"kind": "human"}] * 3,
                "next_deal_seconds": 600,
            },
        )
        self.id = str(made["id"])
        page.goto(f"{server.url}/t/{self.id}")
        sit(page, 0, "Ani")
        tokens = [str(page.evaluate(f"localStorage.getItem('paston-token-{self.id}')"))]
        for seat, name in ((1, "Bo"), (2, "Cy")):
            tokens.append(str(server.post(f"/api/tables/{self.id}/seats/{seat}", {"name": name})["token"]))
        # seat 1's client shows the end of a deal too: the page sees it is waited for
        self.seats = [Seat(server.url, self.id, tok, shows=i == 1) for i, tok in enumerate(tokens)]
        self.page = page

    def play_deal(self, policy: Policy, rng: random.Random) -> dict[str, Any]:
        """Play one deal by ``policy`` from the test's clients; returns the state in which
        it is over (the table then waits for Next), or the next deal's (a redeal)."""
        seat0 = self.seats[0]
        m = seat0.wait(lambda s: s["view"]["to_move"] is not None and not s["shuffling"])
        deals = len(m["deals"])
        while True:
            mover = self.seats[m["view"]["to_move"]]
            mine = mover.wait(lambda s, v=m["version"]: s["version"] == v and bool(s["view"]["legal"]))
            assert not self.page.locator(PANEL).count(), (
                "the panel (and its hands) shows before the deal is over"
            )
            mover.send({"type": "act", "action": policy(mine["view"], rng), "version": mine["version"]})
            m = seat0.wait(lambda s, v=m["version"]: s["version"] == v + 1)
            if m["next_deal"] is not None or len(m["deals"]) > deals:
                return m

    def next(self) -> None:
        """Press Next on the page, then for seat 1; the next deal is dealt."""
        before = len(self.seats[0].states[-1]["deals"])
        self.page.click("[data-testid=next-deal]")
        self.page.wait_for_selector("[data-testid=next-deal][disabled]")
        self.seats[1].send({"type": "next"})
        self.page.wait_for_selector(PANEL, state="detached")
        self.seats[0].wait(lambda s: len(s["deals"]) > before and s["view"]["to_move"] is not None)

    def close(self) -> None:
        for s in self.seats:
            s.ws.close()


def shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height, kind in ((375, 812, "phone"), (1280, 900, "desktop")):
        page.set_viewport_size({"width": width, "height": height})
        page.locator(PANEL).scroll_into_view_if_needed()
        path = SHOTS / f"end-deal-{name}-{kind}.png"
        page.screenshot(path=str(path), full_page=True)
        check_png(path)
    page.set_viewport_size({"width": 375, "height": 812})


def check_panel(page: Any, summary: dict[str, Any], outcome: str) -> None:
    panel = page.locator(PANEL)
    panel.wait_for()
    assert panel.get_attribute("data-outcome") == outcome
    assert int(panel.get_attribute("data-deal") or -1) == summary["deal"]
    # the three hands and the prikup as dealt: every card once
    shown = page.eval_on_selector_all(
        f"{PANEL} [data-testid=end-hand] [data-card], {PANEL} [data-testid=end-prikup] [data-card]",
        "es => es.map(e => e.dataset.card)",
    )
    assert len(shown) == 32 and len(set(shown)) == 32
    for line in summary["seats"]:
        row = page.locator(f"{PANEL} [data-testid=end-seats] tr[data-seat='{line['seat']}']")
        text = row.inner_text()
        # no rule code in the way: it comes, with the reason in words, behind "why?"
        assert line["rule"] not in text and (f"{line['score']:+d}" if line["score"] else "0") in text.replace(
            "−", "-"
        )
        why = row.locator("button.why")
        assert why.get_attribute("aria-expanded") == "false"
        why.click()
        assert why.get_attribute("aria-expanded") == "true"
        opened = row.inner_text()
        assert line["rule"] in opened and len(opened) > len(text) + len(line["rule"]), opened
        if line["tricks"] is not None:
            assert f"{line['tricks']} of {line['needed']}" in text
    # who is still to press: Bo's client shows the panel too
    assert "Bo" in page.inner_text("[data-testid=next-waiting]")
    assert page.locator("[data-testid=next-deal]").is_enabled()
    # a place for the analysis: called with the table and the deal when it exists
    page.locator("[data-testid=analysis]").click()
    assert page.evaluate("window.analysisAsked") == [[page.url.rsplit("/", 1)[1], summary["deal"]]]
    page.evaluate("window.analysisAsked = []")


@pytest.mark.parametrize("wanted", ["surrender", "uncontested", "made", "failed"])
def test_the_end_of_deal_panel_for_each_outcome(server: LiveServer, open_page: Opener, wanted: str) -> None:
    """Deals are played (as a surrender, a pass-out or a played deal, as ``wanted`` needs)
    until one ends that way; every end on the way is checked too."""
    page = open_page(375, 812)
    page.add_init_script(
        # the analysis dialog's own module sets the hook too: it keeps this one
        "window.analysisAsked = []; Object.defineProperty(window, 'pastonOpenAnalysis', {configurable: true,"
        " get: () => (t, d) => window.analysisAsked.push([t, d]), set: () => {}});"
    )
    game = Game(server, page)
    rng = random.Random(11)
    play = {"surrender": surrender, "uncontested": uncontested, "made": played, "failed": played}[wanted]
    try:
        seen: set[str] = set()
        for _ in range(40):
            m = game.play_deal(play, rng)
            if m["next_deal"] is None:
                continue  # redealt (no jack, no seven): nothing to show
            summary = m["last_deal"]
            outcome = (
                summary["outcome"]
                if summary["outcome"] != "played"
                else ("made" if summary["made"] else "failed")
            )
            check_panel(page, summary, outcome)
            seen.add(outcome)
            if outcome == wanted:
                if outcome == "uncontested":
                    assert page.locator("[data-testid=end-all-passed]").count() == 1
                if outcome == "failed":
                    assert f"{summary['short']} short of the 6 needed" in page.inner_text(
                        "[data-testid=end-headline]"
                    )
                shoot(page, outcome)
                break
            game.next()
        assert wanted in seen, seen
    finally:
        game.close()


def test_the_panel_speaks_every_language(server: LiveServer, open_page: Opener) -> None:
    page = open_page(375, 812)
    game = Game(server, page)
    try:
        game.play_deal(surrender, random.Random(1))
        page.locator(PANEL).wait_for()
        keys = page.evaluate(
            """async () => { const end = await import('/static/i18n-end.js');
                 const en = Object.keys(end.en).sort().join();
                 return ['hy', 'ru', 'es', 'ja'].map(l => [Object.keys(end[l]).sort().join() === en,
                   Object.keys(end.en).filter(k => end[l][k] === end.en[k]).length]); }"""
        )
        # exactly the keys of English, and translated (a few words are the same: "Total", "whist")
        assert all(same and untranslated <= 2 for same, untranslated in keys), keys
        texts = set()
        rule_words: dict[str, list[str]] = {}  # the R7 lines and the outcome on the rule marks
        for lang in ("en", "hy", "ru", "es", "ja"):
            page.evaluate(f"localStorage.setItem('paston-lang', '{lang}')")
            page.reload()
            page.locator(PANEL).wait_for()
            texts.add(page.inner_text("[data-testid=next-deal]"))
            rule_words[lang] = page.eval_on_selector_all(f"{PANEL} button.why", "es => es.map(e => e.title)")
        assert len(texts) == 5, texts
        assert "surrendered" in " ".join(rule_words["en"]) and len(rule_words["en"]) == 4  # outcome, 3 seats
        for lang in ("hy", "ru", "es", "ja"):
            assert len(rule_words[lang]) == 4 and all(rule_words[lang]), (lang, rule_words[lang])
            assert not set(rule_words[lang]) & set(rule_words["en"]), (lang, rule_words[lang])
            assert not re.search(r"\b(surrendered|declarer|opponent)\b", " ".join(rule_words[lang]))
        page.screenshot(path=str(SHOTS / "end-deal-ja-phone.png"), full_page=True)
    finally:
        game.close()


@pytest.mark.parametrize("width", [375])
def test_a_watcher_sees_the_summary_without_a_next_button(
    server: LiveServer, open_page: Opener, width: int
) -> None:
    page = open_page(width, 812)
    game = Game(server, page)
    try:
        game.play_deal(surrender, random.Random(3))
        watcher = open_page(width, 812)
        watcher.goto(f"{server.url}/t/{game.id}")
        watcher.locator(PANEL).wait_for()
        assert watcher.locator("[data-testid=next-deal]").count() == 0
        assert "Ani" in watcher.inner_text("[data-testid=next-waiting]")
        assert watcher.locator(f"{TABLE}").get_attribute("data-phase") == "over"
    finally:
        game.close()


def test_the_lobby_sets_how_long_a_deal_stays_on_show(server: LiveServer, open_page: Opener) -> None:
    page = open_page(375, 812)
    page.goto(server.url + "/")
    page.locator("details.rules > summary").click()
    assert page.locator("#nextdeal").input_value() == ""  # the server's default unless chosen
    page.select_option("#nextdeal", "60")
    page.fill("[data-testid=my-name]", "Ani")  # seated with the table
    page.click("[data-testid=create]")
    page.wait_for_selector(TABLE)
    table_id = page.url.rsplit("/", 1)[1]
    assert server.get(f"/api/tables/{table_id}")["next_deal_seconds"] == 60
    page.goto(server.url + "/")  # left as it is: the server's default (0 in these tests)
    page.fill("[data-testid=my-name]", "Bo")
    page.click("[data-testid=create]")
    page.wait_for_selector(TABLE)
    again = page.url.rsplit("/", 1)[1]
    assert again != table_id and server.get(f"/api/tables/{again}")["next_deal_seconds"] == 0


def test_next_can_be_pressed_again_on_a_new_socket_when_the_server_forgot_the_press(
    server: LiveServer, open_page: Opener
) -> None:
    """A press belongs to the socket it was sent on: a server that restarted (or a worker
    that took the table over) goes on with the pause without it, and the page, back on a
    new socket, may press Next again."""
    page = open_page(375, 812)
    sockets: list[Any] = []

    def relay(ws: Any) -> None:
        sockets.append(ws)
        ws.connect_to_server()

    page.route_web_socket(re.compile(r"/ws/tables/"), relay)
    game = Game(server, page)
    try:
        m = game.play_deal(surrender, random.Random(3))
        assert m["next_deal"] is not None
        page.locator(PANEL).wait_for()
        page.click("[data-testid=next-deal]")
        page.wait_for_selector("[data-testid=next-deal][disabled]")
        game.seats[1].wait(lambda s: s["next_deal"] is not None and 0 in s["next_deal"]["pressed"])
        pause = server.manager.get(game.id).pause
        pause.pressed.discard(0)  # as a restarted server: the press is gone
        before = len(sockets)
        sockets[-1].close()  # the page's socket drops; it reconnects
        deadline = time.monotonic() + 15
        while len(sockets) == before:  # Playwright's handlers run while the test waits in it
            assert time.monotonic() < deadline, "the page did not reconnect"
            page.wait_for_timeout(50)
        page.wait_for_selector("[data-testid=next-deal]:not([disabled])")
        page.click("[data-testid=next-deal]")
        page.wait_for_selector("[data-testid=next-deal][disabled]")
        game.seats[1].wait(lambda s: s["next_deal"] is not None and s["next_deal"]["waiting"] == [1])
    finally:
        game.close()
