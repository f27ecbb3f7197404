"""Helpers for the browser tests (``test_browser*.py``): Playwright for Python driving
Debian's chromium.

The server runs in process (uvicorn in a background thread, a fresh SQLite file per
test), so the tests can compare what each page shows with the server's full state.
Chromium comes from Debian (``bash .ci/run`` installs it); no browser is downloaded.

The fixtures (``server``, ``browser``: one per test module, ``open_page``) are used by
each test module that imports them.
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

from paston.server.web.app import create_app
from paston.server.web.limits import Limits

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
#: The same words as each language writes them (i18n.js GAME_WORDS; docs/rules-decisions.md L7).
GAME_WORDS_IN = {
    "en": GAME_WORDS,
    "es": GAME_WORDS,
    "ja": GAME_WORDS,
    "hy": ("պաստոն", "գլիչ", "դիների", "գուպա", "պաստոն գրխա", "պրիկուպ", "վիստ"),
    "ru": ("пастон", "глитч", "динери", "гупа", "пастон грха", "прикуп", "вист"),
}
SUITS, RANKS = "SCDH", "AKQJT987"

Policy = Callable[[str, list[str]], str]
Opener = Callable[..., "Page"]
RANDOM_BOTS = [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
CARDS_IN = "es => es.map(e => e.dataset.card)"


# --- the server and the browser ----------------------------------------------------------------
class LiveServer:
    """The real application on a free port, served by uvicorn in a thread."""

    def __init__(self, db_url: str, limits: Limits | None = None, bot_delay: float = 0.05) -> None:
        # next_deal_seconds=0: these tests play on through the ends of deals (the end-of-deal
        # panel is tested in test_browser_enddeal.py, whose tables say how long they pause)
        self.app = create_app(db_url, bot_delay=bot_delay, limits=limits, next_deal_seconds=0)
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
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server for a module's tests (each makes tables or sheets of its own)."""
    server = LiveServer(f"sqlite:///{tmp_path_factory.mktemp('live') / 'paston.db'}")
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's chromium, launched once per module (a module's tests run in one xdist
    worker: tests/conftest.py groups them). Not once per session: Playwright's sync API
    keeps its event loop running on the thread while it is open, which would break every
    other test of the worker that runs an event loop of its own."""
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
        # no service worker (tests/test_browser_pwa.py is about it): each new context would
        # otherwise fetch the whole app shell into its cache
        context = browser.new_context(viewport={"width": width, "height": height}, service_workers="block")
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


# --- the accessibility tests' helpers (test_browser_access*.py) ---------------------------------
def shot(page: Page, name: str, full: bool = True) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=full)
    check_png(SHOTS / name)


def create_seated(
    page: Page, url: str, name: str, seat: int, seats: list[str], target: int | None = None, pause: str = "0"
) -> str:
    """Create a table from the lobby's form as ``name`` in ``seat`` (a finished deal on show
    ``pause`` seconds); returns its id."""
    page.goto(url + "/")
    page.wait_for_selector("#seat2 option", state="attached")
    for i, choice in enumerate(seats):
        page.select_option(f"#seat{i}", choice)
    page.fill("[data-testid=my-name]", name)
    page.select_option("[data-testid=my-seat]", str(seat))
    page.click("details.rules summary")
    page.select_option("#nextdeal", pause)
    if target is not None:
        page.fill("#target", str(target))
    page.click("[data-testid=create]")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    page.wait_for_selector(f"{TABLE}[data-you='{seat}']")
    return page.url.rsplit("/", 1)[1]


def wait_my_turn(page: Page) -> None:
    """Until it is this page's turn (the game must not end meanwhile)."""
    try:
        page.wait_for_function(
            """() => document.querySelector('[data-testid=table]')?.dataset.myTurn === 'true'
                     || document.querySelector('[data-testid=game-over]')
                     || document.querySelector('[data-testid=next-deal]:not([disabled])')""",
            timeout=45_000,
        )
    except Exception as err:
        raise AssertionError(
            f"never the page's turn: {board(page)} {page.inner_text('[data-testid=turn]')!r}"
        ) from err
    assert not page.locator("[data-testid=game-over]").count(), "the game ended first"


def _discard_by_keyboard(page: Page) -> None:
    """Choose two cards with the keyboard; the focus then goes to "Discard these two"."""
    page.locator(f"{HAND_CARDS}[tabindex='0']").focus()
    page.keyboard.press("Home")
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    page.wait_for_selector(f"{HAND_CARDS}[aria-pressed=true] >> nth=1")
    assert page.evaluate("document.activeElement.dataset.action") == "discard"
    before = board(page)["version"]
    page.keyboard.press("Enter")
    wait_version_change(page, before)
