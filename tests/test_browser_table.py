"""The card table's design (issue 23 §1): opponents with a fan of backs (decorative, the
count said in words), their role and their score; the cards' motion, which finishes
(hand to trick, and the trick to its winner's seat) and never runs with reduced motion;
the optional sounds, off by default: no audio context while off, one used when on."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from browser_helpers import (
    TABLE,
    LiveServer,
    board,
    browser,
    click_move,
    declare,
    live,
    reach_play,
    sit,
    wait_version_change,
)

__all__ = ["browser", "live"]  # the fixtures, imported for pytest

SLOW = True  # one server and one browser for the module: the services group
BOTS = [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]

#: Every Element.animate call's id, kept in the page (window.__anims).
RECORD_ANIMATIONS = """(() => {
  window.__anims = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (frames, options) {
    window.__anims.push((options && options.id) || "?");
    return animate.call(this, frames, options);
  };
})();"""

#: A stand-in for the Web Audio API that counts contexts and tones (window.__audio).
FAKE_AUDIO = """(() => {
  const audio = window.__audio = {contexts: 0, tones: 0};
  const param = () => ({value: 0, setValueAtTime() {}, exponentialRampToValueAtTime() {}});
  const node = () => ({connect() {}, start() { audio.tones += 1; }, stop() {},
                       frequency: param(), gain: param(), type: ""});
  class FakeContext {
    constructor() {
      audio.contexts += 1; this.state = "running"; this.currentTime = 0; this.destination = {};
    }
    resume() { return Promise.resolve(); }
    createOscillator() { return node(); }
    createGain() { return node(); }
  }
  window.AudioContext = FakeContext;
  window.webkitAudioContext = FakeContext;
})();"""


@pytest.fixture(scope="module")
def slow(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """Computer players that think 1.5 s a move: the motion has time to finish."""
    server = LiveServer(f"sqlite:///{tmp_path_factory.mktemp('slow') / 'paston.db'}", bot_delay=1.5)
    server.start()
    yield server
    server.stop()


def new_page(browser: Any, errors: list[str], **options: Any) -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, service_workers="block", **options)
    context.set_default_timeout(30_000)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def seated(page: Any, server: LiveServer) -> None:
    table = server.new_table(BOTS)
    page.goto(f"{server.url}/t/{table}")
    sit(page, 0, "Ani")


def play_a_trick(page: Any, rng: random.Random) -> None:
    """Click this seat's cards until the table's trick count goes up (or a deal ends)."""
    state = board(page)
    tricks, deals = int(state["tricks"]), state["deals"]
    while True:
        page.wait_for_function(
            """([n, d]) => { const t = document.querySelector('[data-testid=table]');
                 return t.dataset.myTurn === 'true' || Number(t.dataset.tricks) > n
                   || t.dataset.deals !== d; }""",
            arg=[tricks, deals],
        )
        state = board(page)
        if int(state["tricks"]) > tricks or state["deals"] != deals:
            return
        version = state["version"]
        click_move(page, declare, rng)
        wait_version_change(page, version)


def test_opponents_have_a_fan_of_backs_their_role_and_score(live: LiveServer, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, errors)
    seated(page, live)
    reach_play(page, random.Random(3))
    seats = page.eval_on_selector_all(
        f"{TABLE} .seat-panel",
        """ps => ps.map(p => ({seat: p.dataset.seat, mine: p.classList.contains('mine'),
              fan: p.querySelector('.fan') && {hidden: p.querySelector('.fan').getAttribute('aria-hidden'),
                     backs: p.querySelectorAll('.fan .card.back').length,
                     count: p.querySelector('.fan-count')?.textContent,
                     said: p.querySelector('.fan + .sr-only')?.textContent},
              total: p.querySelector('[data-testid=seat-total]')?.textContent,
              role: p.querySelector('[data-role]')?.dataset.role}))""",
    )
    assert len(seats) == 3 and sum(s["mine"] for s in seats) == 1
    for s in seats:
        assert s["total"], s  # the score at a glance, every seat
        if s["mine"]:
            assert s["fan"] is None  # this hand is shown face up instead
            continue
        fan = s["fan"]
        assert fan["hidden"] == "true" and fan["backs"] == int(fan["count"]), s
        assert fan["count"] in fan["said"], s  # the count in words for screen readers
    if board(page)["phase"] == "play":
        assert {s["role"] for s in seats} <= {"declarer", "whister", "out"}
        assert "declarer" in {s["role"] for s in seats}
    assert not errors, errors


def test_the_cards_motion_finishes_and_the_won_trick_goes_to_its_winner(
    slow: LiveServer, browser: Any
) -> None:
    errors: list[str] = []
    page = new_page(browser, errors)
    page.add_init_script(RECORD_ANIMATIONS)
    seated(page, slow)
    rng = random.Random(8)
    reach_play(page, rng)
    if board(page)["phase"] != "play":
        pytest.skip("the computers kept passing: no play to watch")
    page.evaluate("window.__anims = []")
    version = board(page)["version"]
    click_move(page, declare, rng)  # this seat's card travels to the trick
    wait_version_change(page, version)
    # motion.js starts on the redraw; it ends within its 260 ms (a computer waits 1.5 s)
    page.wait_for_function("() => window.__anims.length > 0")
    page.wait_for_function("() => document.getAnimations().length === 0", timeout=2_000)
    play_a_trick(page, rng)
    if board(page)["phase"] == "play":
        page.wait_for_selector("[data-testid=trick].previous.piled")
        assert "to-winner" in page.evaluate("window.__anims")
        # three steps of 260 ms, over while the pile still rests by the winner's seat
        page.wait_for_function(
            """() => document.getAnimations().length === 0
                     && document.querySelector('[data-testid=trick].previous.piled')""",
            timeout=2_500,
        )
        winner = page.get_attribute("[data-testid=trick]", "data-winner-at")
        at = page.eval_on_selector_all(
            "[data-testid=trick] .play", "ps => ps.map(p => getComputedStyle(p).gridArea)"
        )
        assert all(a.startswith(winner) for a in at), (winner, at)
    assert not errors, errors


def test_no_motion_with_reduced_motion(live: LiveServer, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, reduced_motion="reduce")
    page.add_init_script(RECORD_ANIMATIONS)
    seated(page, live)
    rng = random.Random(4)
    reach_play(page, rng)
    for _ in range(2):
        play_a_trick(page, rng)
        assert page.evaluate("document.getAnimations().length") == 0
    assert page.evaluate("window.__anims") == []
    assert not errors, errors


def test_sounds_are_off_by_default_and_play_when_chosen(live: LiveServer, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, errors)
    page.add_init_script(FAKE_AUDIO)
    seated(page, live)
    rng = random.Random(6)
    assert not page.is_checked("[data-testid=sounds]")
    reach_play(page, rng)
    play_a_trick(page, rng)
    assert page.evaluate("window.__audio") == {"contexts": 0, "tones": 0}  # never while off
    page.check("[data-testid=sounds]")
    assert page.evaluate("localStorage.getItem('paston-sounds')") == "1"
    assert page.evaluate("window.__audio.contexts") == 1  # made on the click that chose sounds
    play_a_trick(page, rng)
    got = page.evaluate("window.__audio")
    assert got["contexts"] == 1 and got["tones"] > 0, got
    page.reload()
    page.wait_for_selector(TABLE)
    assert page.is_checked("[data-testid=sounds]")  # remembered
    page.uncheck("[data-testid=sounds]")
    before = page.evaluate("window.__audio")
    play_a_trick(page, rng)
    assert page.evaluate("window.__audio") == before
    assert not errors, errors
