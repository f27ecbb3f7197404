"""The Learn page's course in the browser (Playwright, Debian's chromium): lessons played
to their end following the coach's advice (the hint's choice), in two languages; the
goal reached, the progress kept after a reload (localStorage), the lesson's table
private and gone once left, and one screen-reader message per card of a guided deal."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from browser_helpers import HAND_CARDS, TABLE, LiveServer, Opener, board, browser, open_page, server

__all__ = ["browser", "open_page", "server"]  # the fixtures, from browser_helpers

COACH_TEXT = "[data-testid=coach-text]"
VERDICT = "[data-testid=lesson-verdict]"

# every change of a live region of the page: the live log's entries, the turn cue, and
# any region of the coach's own (there must be none)
WATCH = """() => {
  window.spoken = [];
  const seen = (region, text) => window.spoken.push({ region, text });
  new MutationObserver((records) => {
    for (const r of records) {
      const node = r.target.nodeType === 1 ? r.target : r.target.parentElement;
      const box = node && node.closest("[aria-live]");
      if (!box) continue;
      if (box.id !== "live-log") seen(box.id, box.textContent);
      else for (const n of r.addedNodes) seen("log:" + (n.dataset?.type || ""), n.textContent);
    }
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
}"""


def follow(page: Any, action: str) -> None:
    """Make the move the coach advises, as a person would: cards by clicking them."""
    kind, *cards = action.split(" ")
    if kind == "discard":
        for card in cards:
            page.click(f"{HAND_CARDS}[data-card='{card}']")
        page.wait_for_selector(f"{HAND_CARDS}[aria-pressed=true] >> nth=1")
        page.click("[data-action=discard]")
    elif kind == "play":
        page.click(f"{HAND_CARDS}[data-card='{cards[0]}']")
    else:
        page.click(f"[data-testid=actions] [data-action='{action}']")


def play_lesson(page: Any) -> list[str]:
    """Follow the coach's advice on every move until the lesson's verdict; the moves made."""
    page.wait_for_selector(f"{TABLE}[data-you='0']")
    moves: list[str] = []
    deadline = time.monotonic() + 150
    while not page.locator(VERDICT).count():
        assert time.monotonic() < deadline, moves
        page.wait_for_function(
            """() => document.querySelector('[data-testid=lesson-verdict]')
              || document.querySelector('[data-testid=coach-text][data-advice]')""",
            timeout=60_000,
        )
        if page.locator(VERDICT).count():
            break
        version = board(page)["version"]
        advice = page.get_attribute(COACH_TEXT, "data-advice")
        assert advice
        chosen = page.get_attribute("[data-testid=hint-options] tr[data-chosen=true]", "data-action")
        assert chosen == advice  # the coach says what the hint marks: they never disagree
        follow(page, advice)
        moves.append(advice)
        page.wait_for_function(
            "v => document.querySelector('[data-testid=table]').dataset.version !== v", arg=version
        )
    return moves


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_two_lessons_of_the_course_followed_to_their_goal(
    server: LiveServer, open_page: Opener, lang: str
) -> None:
    page = open_page()
    page.goto(server.url + "/learn")
    page.select_option("[data-testid=lang]", lang)
    page.wait_for_selector("[data-testid=course] [data-testid=lesson]")
    assert page.locator("[data-testid=lesson][data-done=true]").count() == 0
    page.click("[data-testid=start-practice]")  # the next lesson: the first
    page.wait_for_url(re.compile(r"/t/[\w-]+\?coach=1$"))
    first = page.url.split("/t/")[1].split("?")[0]
    page.evaluate(WATCH)
    assert server.get("/api/tables")["total"] == 0  # the lesson's table is not in the lobby
    moves = play_lesson(page)
    assert moves[0] == "bid spades", moves
    assert page.get_attribute(VERDICT, "data-reached") == "true"
    spoken = page.evaluate("window.spoken")
    cards = [s for s in spoken if s["region"] == "log:play"]
    turns = [s for s in spoken if s["region"] == "announce"]
    assert len(cards) >= 20, spoken
    assert not [
        s for s in spoken if s["region"] not in ("announce", "status") and not s["region"].startswith("log:")
    ]
    assert page.locator("#coach-live").count() == 0  # the coach speaks with the turn cue, not on its own
    learner_cards = sum(1 for m in moves if m.startswith("play "))
    # one message per card played (the live log's); the turn cue only on the learner's turns
    assert len(turns) <= len(moves) + 1, (len(turns), len(moves))
    assert len(cards) + len(turns) <= len(cards) + learner_cards + 4 + 1

    page.click("[data-testid=next-lesson]")  # leaves the first lesson's table: forgotten
    page.wait_for_url(lambda url: "/t/" in url and first not in url)
    assert first not in server.manager.tables
    moves = play_lesson(page)
    assert moves[0] == "pass", moves
    assert page.get_attribute(VERDICT, "data-reached") == "true"
    page.click("[data-testid=back-to-course]")
    page.wait_for_url(re.compile(r"/learn"))
    page.reload()
    page.wait_for_selector("[data-testid=course] [data-testid=lesson]")
    done = page.eval_on_selector_all(
        "[data-testid=lesson][data-done=true]", "es => es.map(e => e.dataset.lesson)"
    )
    assert done == ["bid", "pass"]
    assert page.get_attribute("[data-testid=start-practice]", "data-lesson") == "ladder"
    assert not server.manager.tables  # both lesson tables are gone
    page.click("[data-testid=course-reset]")
    assert page.locator("[data-testid=lesson][data-done=true]").count() == 0
