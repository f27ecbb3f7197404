"""The browser client, end to end: Playwright for Python driving Debian's chromium.

The server runs in process (uvicorn in a background thread, a fresh SQLite file per
test), so the tests can compare what each page shows with the server's full state.
Chromium comes from Debian (``bash .ci/run`` installs it); no browser is downloaded.
"""

from __future__ import annotations

import json
import os
import random
import re
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from paston.bots.base import PLAYERS, player_choices
from paston.cards import CardSet
from paston.rules import PRESETS, Rules
from paston.server.app import create_app
from paston.server.limits import Limits

try:
    from playwright.sync_api import Browser, Page, sync_playwright
except ImportError:  # reported by the browser fixture, with what to do
    sync_playwright = None

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "screenshots"
TABLE = "[data-testid=table]"
HAND_CARDS = "[data-testid=hand] button[data-card]"
AUCTION = "[data-testid=auction]"
GAME_WORDS = ("paston", "glitch", "dineri", "gupa", "paston grkha", "prikup", "whist")
SUITS, RANKS = "SCDH", "AKQJT987"

Policy = Callable[[str, list[str]], str]
Opener = Callable[..., "Page"]
RANDOM_BOTS = [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
CARDS_IN = "es => es.map(e => e.dataset.card)"


# --- the server and the browser ----------------------------------------------------------------
class LiveServer:
    """The real application on a free port, served by uvicorn in a thread."""

    def __init__(self, db_url: str, limits: Limits | None = None) -> None:
        # next_deal_seconds=0: these tests play on through the ends of deals (the end-of-deal
        # panel is tested in test_browser_enddeal.py, whose tables say how long they pause)
        self.app = create_app(db_url, bot_delay=0.05, limits=limits, next_deal_seconds=0)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=0, log_level="warning", lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="paston-test-server", daemon=True)
        self.url = ""

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        with urllib.request.urlopen(self.url + "/api/tables", timeout=5) as res:
            assert res.status == 200

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)

    @property
    def manager(self) -> Any:
        return self.app.state.manager

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        req = urllib.request.Request(
            self.url + path, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=5) as res:
            return dict(json.loads(res.read()))

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=5) as res:
            return json.loads(res.read())

    def new_table(self, seats: list[dict[str, Any]], target: int = 121) -> str:
        made = self.post("/api/tables", {"name": "Browser test", "rules": {"target": target}, "seats": seats})
        return str(made["id"])


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(f"sqlite:///{tmp_path / 'paston.db'}")
    live.start()
    yield live
    live.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if sync_playwright is None:
        pytest.fail("the browser tests need Playwright for Python: run `bash .ci/run` (it installs .[test])")
    if not os.path.exists(CHROMIUM):
        pytest.fail(
            f"the browser tests drive Debian's chromium, and {CHROMIUM} is missing: "
            "run `bash .ci/run`, which installs it (do not run `playwright install`)"
        )
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture()
def open_page(browser: Browser) -> Iterator[Callable[..., Page]]:
    """New pages, each in its own context (its own storage: one person each); any
    JavaScript error on them, or anything the Content-Security-Policy refuses, fails the test."""
    contexts = []
    errors: list[str] = []

    def make(width: int = 1280, height: int = 800) -> Page:
        context = browser.new_context(viewport={"width": width, "height": height})
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"


# --- driving a page -------------------------------------------------------------------------------
def board(page: Page) -> dict[str, str]:
    """The table's data attributes: phase, version, you, to-move, my-turn, tricks, deals."""
    return dict(page.eval_on_selector(TABLE, "e => ({...e.dataset})"))


def finished_bots_game(server: LiveServer, seconds: float = 90) -> str:
    """A game to 10 of three ``random`` computers, played to its end; its table id."""
    table_id = server.new_table([{"kind": "bot", "bot": "random"}] * 3, target=10)
    deadline = time.monotonic() + seconds
    while not server.manager.get(table_id).finished:
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.1)
    return table_id


def sit(page: Page, seat: int, name: str) -> None:
    """Take a free seat through the inline form."""
    page.fill(f"[data-seat='{seat}'] [data-testid=seat-name]", name)
    page.click(f"[data-seat='{seat}'] [data-testid=take-seat]")
    page.wait_for_selector(f"{TABLE}[data-you='{seat}']")


def wait_turn_or_deals(page: Page, deals: int) -> None:
    page.wait_for_function(
        """n => { const t = document.querySelector('[data-testid=table]');
                  return t && (t.dataset.myTurn === 'true' || Number(t.dataset.deals) >= n); }""",
        arg=deals,
    )


def hand_codes(page: Page) -> list[str]:
    return list(page.eval_on_selector_all(HAND_CARDS, CARDS_IN))


def act(page: Page, policy: Policy, rng: random.Random) -> str:
    """Make one move on a page whose turn it is, by clicking; returns the phase it was in
    once the page shows the move."""
    version = board(page)["version"]
    phase = click_move(page, policy, rng)
    wait_version_change(page, version)
    return phase


def click_move(page: Page, policy: Policy, rng: random.Random) -> str:
    """Click one move on a page whose turn it is, without waiting for its answer; returns
    the phase it was in."""
    state = board(page)
    assert state["myTurn"] == "true"
    phase = state["phase"]
    if phase == "discard":
        cards = page.locator(f"{HAND_CARDS}:not([aria-disabled=true])")
        assert cards.count() == 12
        first, second = rng.sample(range(12), 2)
        cards.nth(first).click()
        cards.nth(second).click()
        page.wait_for_selector(f"{HAND_CARDS}[aria-pressed=true] >> nth=1")
        page.click("[data-action=discard]")
    elif phase == "play":
        cards = page.locator(f"{HAND_CARDS}:not([aria-disabled=true])")
        cards.nth(rng.randrange(cards.count())).click()
    else:
        actions = page.eval_on_selector_all(
            "[data-testid=actions] button[data-action]", "es => es.map(e => e.dataset.action)"
        )
        page.click(f"[data-action='{policy(phase, actions)}']")
    return phase


def wait_version_change(page: Page, version: str) -> None:
    page.wait_for_function(
        "v => document.querySelector('[data-testid=table]').dataset.version !== v", arg=version
    )


def defend(phase: str, actions: list[str]) -> str:
    """Pass in the auction, say whist, name the lowest trump: likely to play cards."""
    for wanted in ("whist", "pass"):
        if wanted in actions and (phase != "auction" or wanted == "pass"):
            return wanted
    return next((a for a in actions if a.startswith("trump")), actions[0])


def declare(phase: str, actions: list[str]) -> str:
    """Bid whenever possible, then name the lowest trump; whist as an opponent."""
    for a in actions:
        if a.startswith(("bid", "trump")) or a == "whist":
            return a
    return actions[0]


def play_until(pages: list[Page], deals: int, policy: Policy, rng: random.Random) -> dict[str, int]:
    """Click through the game on every page until the sheet has ``deals`` rows; counts the
    moves made per phase."""
    made: dict[str, int] = {}
    deadline = time.monotonic() + 60
    while True:
        if all(int(board(p)["deals"]) >= deals for p in pages):
            return made
        assert time.monotonic() < deadline, "the deal did not finish in time"
        moved = False
        for page in pages:
            state = board(page)
            if state["myTurn"] == "true" and int(state["deals"]) < deals:
                phase = act(page, policy, rng)
                made[phase] = made.get(phase, 0) + 1
                moved = True
        if not moved and len(pages) == 1:
            wait_turn_or_deals(pages[0], deals)
        elif not moved:
            time.sleep(0.02)


def expected_order(codes: list[str]) -> list[str]:
    return sorted(codes, key=lambda c: (SUITS.index(c[1]), RANKS.index(c[0])))


def reach_play(page: Page, rng: random.Random) -> None:
    """Play on (declaring) until it is this page's turn in the play phase after a trick,
    or, should the opponents keep passing, at least its turn in a later deal."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        wait_turn_or_deals(page, 99)
        state = board(page)
        if state["phase"] == "play" and int(state["tricks"]) >= 1:
            return
        if int(state["deals"]) >= 3 and int(state["version"]) > 0:
            return  # the computers passed three times: any turn mid-deal will do
        act(page, declare, rng)
    raise AssertionError("never reached the play phase")


def visible_codes(page: Page) -> tuple[set[str], int]:
    """Every card code on the page, and how many deals its sheet shows (one atomic read)."""
    got = page.evaluate(
        """() => ({codes: [...document.querySelectorAll('[data-card]')].map(e => e.dataset.card),
                   deals: Number(document.querySelector('[data-testid=table]').dataset.deals)})"""
    )
    return set(got["codes"]), int(got["deals"])


def check_png(path: Path) -> None:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    assert len(data) > 10_000, f"{path} looks empty ({len(data)} bytes)"


# --- the tests ---------------------------------------------------------------------------------------
def test_one_person_plays_a_deal_against_two_computers(server: LiveServer, open_page: Opener) -> None:
    page = open_page()
    received: list[str] = []  # the type of every WebSocket message the page gets
    page.on(
        "websocket",
        lambda ws: ws.on("framereceived", lambda payload: received.append(json.loads(payload)["type"])),
    )
    page.goto(server.url + "/")
    page.fill("#tname", "Kitchen table")
    page.select_option("#seat1", "heuristic")
    page.select_option("#seat2", "random")
    page.fill("[data-testid=my-name]", "Ani")  # she sits down with the table (seat 1, the first person's)
    page.click("[data-testid=create]")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    page.wait_for_selector(f"{TABLE}[data-you='0']")
    assert page.locator("[data-seat='1']").get_attribute("data-status") == "bot"
    page.wait_for_selector("[data-seat='0'][data-status=online]")
    page.wait_for_selector("[data-testid=turn]")
    hand = hand_codes(page)
    assert len(hand) == 10 and hand == expected_order(hand), hand

    # The first move by keyboard alone: Tab to an enabled card or action button, then Enter.
    wait_turn_or_deals(page, 1)
    before = board(page)["version"]
    for _ in range(80):
        page.keyboard.press("Tab")
        focused = page.evaluate(
            """() => { const a = document.activeElement;
                       const key = a && (a.dataset.action || a.dataset.card);
                       const usable = ':not([disabled]):not([aria-disabled=true])';
                       return key && a.matches(`button${usable}:focus-visible`) ? key : null; }"""
        )
        if focused and focused != "discard":
            break
    else:
        raise AssertionError("no action reachable with the Tab key")
    if board(page)["phase"] == "discard":  # a card was chosen by keyboard: choose a second and confirm
        page.locator(f"{HAND_CARDS}[aria-pressed=false]").first.click()
        page.click("[data-action=discard]")
    else:
        page.keyboard.press("Enter")
    wait_version_change(page, before)

    rng = random.Random(7)
    made: dict[str, int] = {}
    for deals in range(1, 5):  # until Ani has played cards (the computers may pass her contract)
        for phase, n in play_until([page], deals, defend, rng).items():
            made[phase] = made.get(phase, 0) + n
        if made.get("play"):
            break
    assert made.get("play", 0) >= 1, made

    sheet = server.manager.get(page.url.rsplit("/", 1)[1]).sheet()
    page.wait_for_selector(f"[data-testid=sheet] tbody tr[data-deal='{len(sheet)}']")
    rows = page.locator("[data-testid=sheet] tbody tr")
    assert rows.count() == len(sheet)
    first = rows.first.locator("td .total").all_inner_texts()
    assert [int(x.replace("−", "-")) for x in first] == sheet[0]["totals"]
    assert page.locator("[data-testid=chart] polyline").count() == 3
    # one full state when the page connected, two as her arrival shuffled the provisional
    # first deal again (shuffling, then dealt), then only updates (no resyncs were needed)
    assert received.count("update") > 20 and received.count("state") <= 3, received
    assert received.index("seed-request") < 5, received
    live = server.manager.get(page.url.rsplit("/", 1)[1])  # her browser's seeds are in the decks
    assert all([s["by"] for s in f["seeds"]].count("seat") == 1 for f in live.fairness if f), live.fairness


def test_three_people_each_see_only_their_own_hand(server: LiveServer, open_page: Opener) -> None:
    pages = [open_page() for _ in range(3)]
    pages[0].goto(server.url + "/")
    for i in range(3):
        pages[0].select_option(f"#seat{i}", "human")
    pages[0].fill("[data-testid=my-name]", "Ani")  # seated with the table
    pages[0].click("[data-testid=create]")
    pages[0].wait_for_url(re.compile(r"/t/[\w-]+$"))
    table_id = pages[0].url.rsplit("/", 1)[1]
    for seat, (page, name) in enumerate(zip(pages, ["Ani", "Babken", "Gayane"], strict=True)):
        if seat:
            page.goto(pages[0].url)
            page.wait_for_selector(TABLE)
            sit(page, seat, name)
    for page in pages:  # everyone sees everyone online
        for seat in range(3):
            page.wait_for_selector(f"[data-seat='{seat}'][data-status=online]")

    deal = server.manager.get(table_id).match.deal
    dealt = [set(CardSet(m).codes()) for m in deal.dealt]
    prikup = set(CardSet(deal.prikup).codes())
    checks = 0

    def check_pages() -> None:
        nonlocal checks
        for seat, page in enumerate(pages):
            codes, deals = visible_codes(page)
            if deals:
                continue  # this page already shows the next deal
            played = set(CardSet(deal.played_mask).codes())
            mine = dealt[seat] | (prikup if deal.declarer == seat else set())
            others = (set().union(*(dealt[s] for s in range(3) if s != seat)) | prikup) - mine
            assert codes <= mine | played, (seat, codes - mine - played)
            assert not codes & (others - played), (seat, codes & others)
            checks += 1

    def opening(phase: str, actions: list[str]) -> str:
        """The first bidder bids paston, the others pass; both opponents whist."""
        if "bid spades" in actions:
            return "bid spades"
        if "whist" in actions:
            return "whist"
        return next((a for a in actions if a.startswith("trump")), "pass")

    rng = random.Random(3)
    check_pages()
    deadline = time.monotonic() + 60
    made: dict[str, int] = {}
    while not all(visible_codes(p)[1] >= 1 for p in pages):
        assert time.monotonic() < deadline, "the deal did not finish in time"
        moved = False
        for page in pages:
            state = board(page)
            if state["myTurn"] == "true" and state["deals"] == "0":
                phase = act(page, opening, rng)
                made[phase] = made.get(phase, 0) + 1
                moved = True
                check_pages()
                if made == {"auction": 1}:  # paston, in the ladder's words, on every page
                    for p in pages:
                        p.wait_for_function(
                            f"() => document.querySelector({AUCTION!r})?.innerText.includes('paston ♠')"
                        )
        if not moved:
            time.sleep(0.02)
    assert made.get("discard") == 1 and made.get("trump") == 1 and made.get("defence") == 2, made
    assert made.get("play") == 30, made
    assert checks >= 30 * 3
    for page in pages:
        page.wait_for_selector("[data-testid=sheet] tbody tr[data-deal='1']")
        assert page.locator("[data-testid=sheet] tbody tr").count() == 1


def test_reloading_mid_deal_resumes_the_seat(server: LiveServer, open_page: Opener) -> None:
    table_id = server.new_table(RANDOM_BOTS)
    page = open_page()
    page.goto(f"{server.url}/t/{table_id}")
    sit(page, 0, "Ani")
    reach_play(page, random.Random(11))
    before = board(page)
    hand = hand_codes(page)
    turn = page.inner_text("[data-testid=turn]")
    trick = page.eval_on_selector_all("[data-testid=trick] [data-card]", CARDS_IN)
    assert before["myTurn"] == "true"
    if int(before["tricks"]) >= 1:  # the last trick, on demand
        page.click("[data-testid=last-trick-toggle]")
        shown = page.eval_on_selector_all("[data-testid=last-trick] [data-card]", CARDS_IN)
        assert len(shown) in (2, 3) and not set(shown) & set(hand)
        page.click("[data-testid=last-trick-toggle]")
        assert page.locator("[data-testid=last-trick]").count() == 0

    page.reload()
    page.wait_for_selector(f"{TABLE}[data-you='0'][data-version='{before['version']}']")
    after = board(page)
    assert after["phase"] == before["phase"] and after["myTurn"] == "true"
    assert hand_codes(page) == hand
    assert page.inner_text("[data-testid=turn]") == turn
    assert page.eval_on_selector_all("[data-testid=trick] [data-card]", CARDS_IN) == trick
    act(page, declare, random.Random(1))  # and the seat still plays


def test_screenshots_on_desktop_and_phone(server: LiveServer, open_page: Opener) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    table_id = server.new_table(RANDOM_BOTS)
    page = open_page(1280, 800)
    page.goto(f"{server.url}/t/{table_id}")
    sit(page, 0, "Ani")
    reach_play(page, random.Random(5))
    desktop = SHOTS / "table-desktop.png"
    page.screenshot(path=str(desktop), full_page=True)
    check_png(desktop)

    phone_page = open_page(375, 740)
    phone_page.goto(f"{server.url}/t/{table_id}")  # a spectator on a phone, then the seated view
    phone_page.wait_for_selector(TABLE)
    page.set_viewport_size({"width": 375, "height": 740})
    phone = SHOTS / "table-phone.png"
    page.screenshot(path=str(phone))
    check_png(phone)
    page.screenshot(path=str(SHOTS / "table-phone-full.png"), full_page=True)
    check_png(SHOTS / "table-phone-full.png")
    for p in (page, phone_page):  # nothing wider than the phone's screen
        assert p.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    phone_page.screenshot(path=str(SHOTS / "table-phone-spectator.png"))

    lobby = open_page(375, 740)
    lobby.goto(server.url + "/")
    lobby.wait_for_selector("[data-testid=create]")
    lobby.screenshot(path=str(SHOTS / "lobby-phone.png"), full_page=True)
    assert lobby.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_game_over_shows_the_winners_and_the_record(server: LiveServer, open_page: Opener) -> None:
    # Target 1: whoever scores after the first deal wins (someone always does).
    table_id = server.new_table(
        [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "random"}], target=1
    )
    page = open_page(375, 740)
    page.goto(f"{server.url}/t/{table_id}")
    sit(page, 0, "Ani")
    play_until([page], 1, declare, random.Random(2))
    page.wait_for_selector("[data-testid=game-over]")
    winners = server.manager.get(table_id).match.winners
    names = ["Ani", "Computer 2", "Computer 3"]
    text = page.inner_text("[data-testid=winners]")
    assert all(names[w] in text for w in winners), text
    assert page.inner_text("[data-testid=turn]") == "Game over"
    link = page.get_attribute("[data-testid=record-link]", "href")
    assert link == f"/api/tables/{table_id}/record"
    record = page.request.get(server.url + link).json()
    assert record["format"] == "paston/1" and record["winners"] == list(winners)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "game-over-phone.png"), full_page=True)
    check_png(SHOTS / "game-over-phone.png")

    page.click("[data-testid=rematch]")  # a new game, Ani in the same seat
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    page.wait_for_selector(f"{TABLE}[data-you='0'][data-deals='0']")
    assert page.url.rsplit("/", 1)[1] != table_id


def test_language_picker_switches_to_japanese_and_back(server: LiveServer, open_page: Opener) -> None:
    table_id = server.new_table(RANDOM_BOTS)
    page = open_page()
    page.goto(f"{server.url}/t/{table_id}")
    sit(page, 0, "Ani")
    wait_turn_or_deals(page, 1)
    assert board(page)["phase"] == "auction"

    def labels() -> dict[str, str]:
        return dict(
            page.eval_on_selector_all(
                "[data-testid=actions] button[data-action]",
                "es => es.map(e => [e.dataset.action, e.innerText])",
            )
        )

    english = labels()
    english_turn = page.inner_text("[data-testid=turn]")
    assert english_turn == "Your turn: bid or pass"
    bids = [a for a in english if a.startswith("bid")]
    assert bids, english
    ladder = {
        "spades": "paston ♠",
        "clubs": "glitch ♣",
        "diamonds": "dineri ♦",
        "hearts": "gupa ♥",
        "best-spades": "paston grkha ♠★",
    }

    page.select_option("[data-testid=lang]", "ja")
    page.wait_for_function("() => document.documentElement.lang === 'ja'")
    assert page.inner_text("[data-testid=turn]") == "あなたの番：入札かパス"
    japanese = labels()
    assert japanese.keys() == english.keys()
    for bid in bids:
        word = ladder[bid.split()[1]]
        assert word in english[bid] and word in japanese[bid], (english[bid], japanese[bid])
    assert japanese["pass"] == "パス"
    assert page.inner_text(".prikup-backs .label") == "prikup"
    assert page.inner_text(".log h2") == "入札"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 375, "height": 740})
    page.screenshot(path=str(SHOTS / "table-phone-ja.png"), full_page=True)  # to look at the glyphs
    check_png(SHOTS / "table-phone-ja.png")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.set_viewport_size({"width": 1280, "height": 800})

    page.reload()  # remembered
    page.wait_for_selector(TABLE)
    assert page.evaluate("document.documentElement.lang") == "ja"
    assert page.inner_text("[data-testid=turn]") == "あなたの番：入札かパス"

    # No English left on the page in the languages with their own script: the visible
    # text, less the game's words, the player's name, rule numbers, has no Latin words.
    game = "paston grkha|paston|glitch|dineri|gupa|prikup|whist|Paston"
    allowed = re.compile(rf"\b({game}|Ani|Browser test|R\d[.\d]*)\b")
    for lang in ("ja", "hy", "ru"):
        page.select_option("[data-testid=lang]", lang)
        page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
        text = allowed.sub("", page.inner_text("#app") + page.inner_text("#status"))
        assert not re.findall(r"[A-Za-z]{2,}", text), (lang, re.findall(r"[A-Za-z]{2,}", text))

    page.select_option("[data-testid=lang]", "en")
    page.wait_for_function("document.documentElement.lang === 'en'")
    assert page.inner_text("[data-testid=turn]") == english_turn
    assert labels() == english

    # Every language has every string, and the game's words are the same everywhere.
    found = page.evaluate(
        """async () => {
             const page = document.querySelector('script[type=module]').src;
             const m = await import(new URL('i18n.js', page));
             const keys = Object.entries(m.MESSAGES).map(([l, d]) => [l, Object.keys(d).sort()]);
             return {keys: Object.fromEntries(keys), game: m.GAME, langs: Object.keys(m.LANGUAGES)}; }"""
    )
    assert found["langs"] == ["en", "hy", "ru", "es", "ja"]
    for lang, keys in found["keys"].items():
        assert keys == found["keys"]["en"], lang
    assert {found["game"][k] for k in ("spades", "clubs", "diamonds", "hearts", "best-spades")} | {
        found["game"]["prikup"],
        found["game"]["whist"],
    } == set(GAME_WORDS)


def test_replay_viewer_of_a_finished_game_and_of_an_opened_record(
    server: LiveServer, open_page: Opener, tmp_path: Path
) -> None:
    table_id = server.new_table([{"kind": "bot", "bot": "random"}] * 3, target=10)
    deadline = time.monotonic() + 60
    while not server.manager.get(table_id).finished:
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.1)
    record = server.manager.record(table_id)
    page = open_page()
    page.goto(f"{server.url}/replay/{table_id}")
    page.wait_for_selector("[data-testid=replay]")
    first = record["deals"][0]
    # every hand is shown, as dealt
    for seat in range(3):
        shown = page.eval_on_selector_all(
            f".replay-hand[data-seat='{seat}'] [data-card]", "els => els.map(e => e.dataset.card)"
        )
        assert sorted(shown) == sorted(first["hands"][seat])
    before = page.inner_text("[data-testid=next-move]")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "b => document.querySelector('[data-testid=next-move]').innerText !== b", arg=before
    )
    # the lobby lists it among the finished games, with its record and replay
    page.goto(f"{server.url}/")
    page.wait_for_selector(f"#lobby-lists a[href='/replay/{table_id}']")
    assert page.locator(f"#lobby-lists a[href='/api/tables/{table_id}/record']").count() == 1
    # a record file can be opened
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    page.goto(f"{server.url}/replay")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("[data-testid=replay]")
    assert page.eval_on_selector_all("[data-card]", "els => els.length") >= 30


# --- the create-table form, from GET /api/meta ----------------------------------------------------
def options_of(page: Page, selector: str) -> list[dict[str, str]]:
    return list(
        page.eval_on_selector_all(
            f"{selector} option", "es => es.map(e => ({value: e.value, title: e.title, text: e.innerText}))"
        )
    )


def test_the_seat_choices_are_the_registry_s(server: LiveServer, open_page: Opener) -> None:
    meta = server.get("/api/meta")
    assert meta["players"] == [p.to_dict() for p in PLAYERS]
    assert meta["player_choices"] == list(player_choices())
    assert meta["rules"]["defaults"] == Rules().to_dict()
    assert meta["rules"]["presets"] == {name: rules.to_dict() for name, rules in PRESETS.items()}
    page = open_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#seat2 option", state="attached")
    leveled = {p["name"]: p for p in meta["players"] if p["levels"]}
    # every choice once: a leveled player's bare name is its default level, listed as such
    expected = ["human", *(c for c in meta["player_choices"] if c not in leveled)]
    descriptions = {p["name"]: p["description"] for p in meta["players"]}
    for seat in range(3):
        options = options_of(page, f"#seat{seat}")
        assert [o["value"] for o in options] == expected
        for o in options[1:]:
            assert o["title"] == descriptions[o["value"].split(":")[0]]
    assert all(f"{name}:{p['default_level']}" in expected for name, p in leveled.items())
    texts = {o["value"]: o["text"] for o in options_of(page, "#seat1")}
    assert texts["pimc:4"] == "Computer (strong, level 4)" and texts["heuristic"] == "Computer (simple)"
    strongest = meta["players"][-1]
    default = f"{strongest['name']}:{strongest['default_level']}"
    assert [page.input_value(f"#seat{i}") for i in range(3)] == ["human", default, default]
    # the presets, the defaults' one chosen; a player with no translation is shown by its name
    assert [o["value"] for o in options_of(page, "#preset")] == ["", *meta["rules"]["presets"]]
    assert page.input_value("#preset") == "spanish"
    labels = page.evaluate(
        """async () => { const page = document.querySelector('script[type=module]').src;
                         const m = await import(new URL('players.js', page));
                         return [m.botLabel('pimc'), m.botLabel('pimc:2'), m.botLabel('newbot'),
                                 m.botLabel('newbot:2'), m.botLabel('')]; }"""
    )
    assert labels == ["strong, level 3", "strong, level 2", "newbot", "newbot 2", ""]
    page.select_option("[data-testid=lang]", "ru")
    page.wait_for_function("document.documentElement.lang === 'ru'")
    texts = {o["value"]: o["text"] for o in options_of(page, "#seat1")}
    assert texts["pimc:5"] == "Компьютер (сильный, уровень 5)"
    assert page.input_value("#seat1") == default  # the choices survive a change of language


def test_choosing_a_preset_sets_the_switches_and_the_target(server: LiveServer, open_page: Opener) -> None:
    presets = server.get("/api/meta")["rules"]["presets"]
    page = open_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#preset")

    def chosen() -> dict[str, object]:
        got: dict[str, object] = {
            key: page.input_value(f"#rule-{key}") for key in Rules().to_dict() if key != "target"
        }
        got["surrender_bonus"] = int(str(got["surrender_bonus"]))
        got["target"] = int(page.input_value("#target"))
        return got

    assert chosen() == presets["spanish"]
    for name in ("preference", "short", "flat", "no-surrender-bonus"):
        page.select_option("#preset", name)
        page.wait_for_function("n => document.getElementById('preset').value === n", arg=name)
        assert chosen() == presets[name], name
    # a switch changed by hand: the rules are no preset, until they are one again
    page.click("details.rules summary")
    page.select_option("#rule-surrender_bonus", "2")
    assert page.input_value("#preset") == "spanish"
    page.select_option("#rule-second_dealer", "rotate")
    assert page.input_value("#preset") == ""
    page.select_option("#rule-all_pass_declarer", "first-bidder")
    assert page.input_value("#preset") == "preference"
    page.fill("#target", "61")
    assert page.input_value("#preset") == ""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "lobby-desktop.png"), full_page=True)
    check_png(SHOTS / "lobby-desktop.png")


def test_a_table_made_with_a_preset_and_a_level_has_them(server: LiveServer, open_page: Opener) -> None:
    presets = server.get("/api/meta")["rules"]["presets"]
    page = open_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#preset")
    page.select_option("#preset", "no-surrender-bonus")
    page.select_option("#seat1", "pimc:1")
    page.select_option("#seat2", "heuristic")
    page.fill("[data-testid=my-name]", "Ani")
    page.click("[data-testid=create]")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    info = server.get(f"/api/tables/{page.url.rsplit('/', 1)[1]}")
    assert info["rules"] == presets["no-surrender-bonus"]
    assert [(s["kind"], s["bot"]) for s in info["seats"]] == [
        ("human", None),
        ("bot", "pimc:1"),
        ("bot", "heuristic"),
    ]
    page.wait_for_selector("[data-seat='1'][data-status=bot]")
    assert page.inner_text("[data-seat='1'] .presence") == "computer · strong, level 1"
    assert page.inner_text("[data-seat='2'] .presence") == "computer · simple"


def test_the_lobby_shows_a_page_of_tables_and_hears_of_changes(tmp_path: Path, open_page: Opener) -> None:
    live = LiveServer(f"sqlite:///{tmp_path / 'lobby.db'}", Limits(create_burst=100, tables_per_client=100))
    live.start()
    try:
        made = [
            live.post("/api/tables", {"name": f"Lobby {i}", "seats": [{"kind": "human"}] * 3})["id"]
            for i in range(22)
        ]
        page = open_page()
        page.goto(live.url + "/")
        rows = "#lobby-lists ul.table-list >> nth=0 >> li"
        page.wait_for_function(
            "() => document.querySelectorAll('#lobby-lists ul.table-list li').length === 20"
        )
        assert page.locator(rows).first.inner_text().startswith("Lobby 21")
        pager = page.inner_text("[data-testid=pager]")
        assert "1–20" in pager and "22" in pager
        page.click("[data-testid=older]")
        page.wait_for_function(
            "() => document.querySelectorAll('#lobby-lists ul.table-list li').length === 2"
        )
        page.click("[data-testid=newer]")
        page.wait_for_function(
            "() => document.querySelectorAll('#lobby-lists ul.table-list li').length === 20"
        )
        page.evaluate("window.stillTheSamePage = true")
        # pushed, not polled: a new table and a seat taken show up without a reload
        live.post("/api/tables", {"name": "Pushed", "seats": [{"kind": "human"}] * 3})
        page.wait_for_function(
            "() => document.querySelector('#lobby-lists ul.table-list li').textContent.startsWith('Pushed')"
        )
        live.post(f"/api/tables/{made[20]}/seats/0", {"name": "Zed"})
        page.wait_for_function(
            "() => [...document.querySelectorAll('#lobby-lists li')]"
            ".some(li => li.textContent.includes('Zed'))"
        )
        assert page.evaluate("window.stillTheSamePage") is True
        assert "23" in page.inner_text("[data-testid=pager]")
    finally:
        live.stop()
