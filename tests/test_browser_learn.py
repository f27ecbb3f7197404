"""The Learn to play page and the guided practice deal, end to end in the browser
(Playwright with Debian's chromium; the fixtures are in browser_helpers.py).

The page's R7 table is compared with the engine's scoring functions, not with the
endpoint that serves it; the coach's words are checked to follow the phase and the
language chosen."""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from browser_helpers import (
    GAME_WORDS_IN,
    SHOTS,
    TABLE,
    LiveServer,
    Opener,
    act,
    board,
    browser,
    check_png,
    defend,
    open_page,
    server,
    wait_turn_or_deals,
)
from paston.contracts import LADDER
from paston.scoring import declarer_score, defender_score, uncontested_scores

__all__ = ["browser", "open_page", "server"]  # the fixtures, from browser_helpers

SECTIONS = ["intro", "deck", "deal", "ladder", "prikup", "whist", "play", "scores", "game", "practice"]
GAME = "paston grkha|paston|glitch|dineri|gupa|prikup|whist|Paston"
NOT_LATIN = re.compile(rf"(?<![A-Za-z])({GAME}|R\d[.\d]*)(?![A-Za-z])")  # Japanese letters are \w: no \b


def latin_words(text: str) -> list[str]:
    """Latin words of a text in a language with its own script, less the game's words."""
    return re.findall(r"[A-Za-z]{2,}", NOT_LATIN.sub("", text))


def number(text: str) -> int:
    return int(text.strip().replace("−", "-").replace("+", ""))


def expected_scores() -> dict[tuple[str, int | None], list[int]]:
    """R7 straight from the engine: each row of the page's table, by contract of the ladder."""
    rows: dict[tuple[str, int | None], list[int]] = {
        ("declarer-made", None): [declarer_score(c, True) for c in LADDER],
        ("declarer-failed", None): [declarer_score(c, False) for c in LADDER],
        ("uncontested", None): [uncontested_scores(c, declarer=0)[0] for c in LADDER],
    }
    for t in range(6):
        rows[("two-defenders", t)] = [defender_score(c, t, lone=False) for c in LADDER]
    for t in range(7):
        rows[("lone-defender", t)] = [defender_score(c, t, lone=True) for c in LADDER]
    return rows


def choose_language(page: Any, lang: str) -> None:
    page.select_option("[data-testid=lang]", lang)
    page.wait_for_function("l => document.documentElement.lang === l", arg=lang)


# each language: the page's title and the text alternative of the ace of spades
LEARN = {
    "en": ("Learn to play Paston", "ace of spades"),
    "hy": ("Ինչպես խաղալ Պաստոն", "պիկի տուզ"),
    "ru": ("Как играть в Пастон", "туз пик"),
    "es": ("Aprende a jugar al Paston", "as de picas"),
    "ja": ("パストンの遊び方", "スペードのエース"),
}


@pytest.mark.parametrize("lang", list(LEARN))
def test_r7_the_learn_page_shows_every_section_and_the_engine_s_scores(
    server: LiveServer, open_page: Opener, lang: str
) -> None:
    page = open_page()
    page.goto(server.url + "/")
    choose_language(page, lang)
    page.click("[data-testid=learn-link]")
    page.wait_for_url(re.compile(r"/learn$"))
    page.wait_for_selector("[data-testid=scores] tbody tr")

    sections = page.locator("[data-testid=learn-section]")
    assert sections.evaluate_all("es => es.map(e => e.dataset.section)") == SECTIONS
    for i in range(sections.count()):  # each a region named by its heading, with something in it
        heading = sections.nth(i).locator("h2")
        assert heading.inner_text().strip()
        assert sections.nth(i).get_attribute("aria-labelledby") == heading.get_attribute("id")
        assert len(sections.nth(i).inner_text()) > len(heading.inner_text()) + 40
    assert page.locator("h1").count() == 1
    assert page.locator("nav a").count() == len(SECTIONS)

    # the ladder: the five contracts in order, by the game's own words, with their multipliers
    ladder = page.locator("[data-testid=ladder] tbody tr")
    assert ladder.evaluate_all("es => es.map(e => e.dataset.contract)") == [c.name_in_record for c in LADDER]
    names = [ladder.nth(i).locator("th").inner_text() for i in range(5)]
    words = GAME_WORDS_IN[lang][:5]  # the ladder in this language's letters, low to high
    assert GAME_WORDS_IN["en"][:5] == tuple(c.word for c in LADDER)
    longest_first = sorted(words, key=len, reverse=True)  # paston grkha before paston
    assert [next(w for w in longest_first if n.startswith(w)) for n in names] == list(words)
    multipliers = [ladder.nth(i).locator("td").last.inner_text() for i in range(5)]
    assert multipliers == [f"×{c.multiplier}" for c in LADDER]

    # R7 as a table with headers: one column per contract, each row as the engine scores it
    table = page.locator("[data-testid=scores]")
    assert table.locator("thead th[scope=col]").count() == 1 + len(LADDER)
    assert table.locator("tbody th[scope=row]").count() == len(expected_scores())
    shown = table.locator("tbody tr").evaluate_all(
        """rs => rs.map(r => [r.dataset.row, r.dataset.tricks === undefined ? null : Number(r.dataset.tricks),
                              [...r.querySelectorAll('td')].map(td => td.textContent)])"""
    )
    got = {(key, tricks): [number(x) for x in cells] for key, tricks, cells in shown}
    assert got == expected_scores()
    quotas = page.locator("[data-testid=quotas] tbody tr")
    assert quotas.count() == 4 and "6" in quotas.first.inner_text()

    # cards as pictures with text alternatives, in the language shown
    cards = page.locator(".learn [data-card]")
    assert cards.count() >= 15
    labels = cards.evaluate_all("es => es.map(e => [e.getAttribute('role'), e.getAttribute('aria-label')])")
    assert all(role == "img" and label for role, label in labels), labels
    title, ace = LEARN[lang]
    assert ["img", ace] in labels

    text = page.inner_text("#app")
    assert "{" not in text and "…" not in text, text  # every placeholder filled, every fact arrived
    assert f"−{121}" in text  # the −target reset of R8.2
    assert page.inner_text("h1") == title
    if lang in ("hy", "ru", "ja"):  # languages with their own script: no English left
        assert not latin_words(text), latin_words(text)
    for word in GAME_WORDS_IN[lang]:
        assert word in text, (lang, word)
    shot = SHOTS / f"learn-{lang}.png"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shot), full_page=True)
    check_png(shot)
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: the page does not scroll sideways
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.screenshot(path=str(SHOTS / f"learn-phone-{lang}.png"), full_page=True)


COACH = "[data-testid=coach]"


def coach_now(page: Any) -> tuple[str, str]:
    got = page.eval_on_selector(
        COACH, "e => [e.dataset.step, e.querySelector('[data-testid=coach-text]').innerText]"
    )
    return str(got[0]), str(got[1])


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_guided_practice_deal_from_the_learn_page_to_its_end(
    server: LiveServer, open_page: Opener, lang: str
) -> None:
    page = open_page()
    page.goto(server.url + "/learn")
    choose_language(page, lang)
    page.click("[data-testid=start-practice]")
    page.wait_for_url(re.compile(r"/t/[\w-]+\?coach=1$"))
    page.wait_for_selector(f"{TABLE}[data-you='0']")
    page.wait_for_selector(COACH)
    table = server.manager.get(page.url.split("/t/")[1].split("?")[0])
    SHOTS.mkdir(parents=True, exist_ok=True)
    for old in SHOTS.glob(f"coach-*-{lang}.png"):
        old.unlink()
    assert [s.kind for s in table.seats] == ["human", "bot", "bot"]  # a person against two computers
    assert table.lesson == "bid" and not table.listed  # the course's first lesson, at a private table
    assert table.hints  # a practice table: the Hint button is there on the seat's turns

    said: dict[str, str] = {}  # what the coach said at each step
    hinted = 0  # steps at which the hint opened by itself
    rng = random.Random(3)
    played = None  # the deal (by sheet rows before it) in which this seat played a card
    deadline = time.monotonic() + 120
    while played is None or int(board(page)["deals"]) <= played:
        assert time.monotonic() < deadline, said
        deals = int(board(page)["deals"])
        wait_turn_or_deals(page, deals + 1)
        state = board(page)
        if int(state["deals"]) > deals or state["myTurn"] != "true":
            continue
        step, text = coach_now(page)
        if step == "wait":  # the first deal is being shuffled again with this page's seed
            page.wait_for_selector(f"{COACH}:not([data-step=wait])")
            continue
        assert step.startswith(state["phase"]), (step, state)  # the coach speaks of the phase at hand
        assert page.locator("[data-testid=hint-button]").is_visible()
        if step not in said:  # the coach asks for the hint by itself on the learner's moves
            page.wait_for_selector("[data-testid=hint-best], [data-testid=hint-button][disabled]")
            try:  # the answer comes from the bot pool: on a busy machine it may time out
                page.wait_for_selector("[data-testid=hint-best]", timeout=8_000)
                hinted += 1
            except PlaywrightTimeout:
                pass
        shot = SHOTS / f"coach-{step.split('-')[0]}-{lang}.png"
        if step not in said and not shot.exists():
            page.screenshot(path=str(shot), full_page=True)
        said[step] = text
        first = page.eval_on_selector("[data-testid=coach-text] p", "e => e.textContent")
        page.wait_for_function(  # read out with the turn cue, as one entry of the live log
            """(first) => [...document.querySelectorAll('[data-testid=live-log] p.entry[data-type=turn]')]
                          .some((e) => e.textContent.includes(first))""",
            arg=first,
            timeout=10_000,
        )
        if act(page, defend, rng) == "play" and played is None:
            played = deals

    assert "auction-mine" in said and any(s.startswith("play-") for s in said), said
    assert hinted >= 1, "the hint never opened by itself"
    assert len(set(said.values())) == len(said) >= 3, said  # a new text for each kind of step
    page.wait_for_selector("[data-testid=lesson-verdict]")  # a lesson's deal: its verdict
    result = page.locator("[data-testid=coach-lesson]").inner_text()
    everything = " ".join(said.values()) + " " + page.inner_text(COACH)
    assert "{" not in everything, everything
    if lang == "en":
        assert "Your turn to bid" in said["auction-mine"]
        assert "Lesson 1" in result
    else:
        assert re.search(r"[\u3040-\u30ff]", said["auction-mine"])
        assert not latin_words(everything), latin_words(everything)
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: the coach and the table fit its width
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.screenshot(path=str(SHOTS / f"coach-phone-{lang}.png"))
    for name in (f"coach-play-{lang}.png", f"coach-auction-{lang}.png", f"coach-phone-{lang}.png"):
        check_png(SHOTS / name)
