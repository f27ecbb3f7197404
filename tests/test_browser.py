"""The browser client, end to end: a deal against two computers, three people at one table
each seeing only their own hand, a reload mid-deal, screenshots, the game over, the
language picker and the replay viewer. Playwright for Python drives Debian's chromium
(the server, the fixtures and the helpers: ``browser_helpers.py``).
"""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path

from browser_helpers import (
    AUCTION,
    CARDS_IN,
    GAME_WORDS,
    GAME_WORDS_IN,
    HAND_CARDS,
    RANDOM_BOTS,
    SHOTS,
    TABLE,
    LiveServer,
    Opener,
    act,
    board,
    browser,
    check_png,
    declare,
    defend,
    expected_order,
    hand_codes,
    open_page,
    play_until,
    reach_play,
    server,
    sit,
    visible_codes,
    wait_turn_or_deals,
    wait_version_change,
)
from paston.cards import CardSet

__all__ = ["browser", "open_page", "server"]  # the fixtures, from browser_helpers


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
    # text, less the player's name and rule numbers (and in Japanese the game's words,
    # which Armenian and Russian write in their own letters), has no Latin words.
    game = "paston grkha|paston|glitch|dineri|gupa|prikup|whist|Paston"
    for lang in ("ja", "hy", "ru"):
        allowed = re.compile(rf"\b({game + '|' if lang == 'ja' else ''}Ani|Browser test|R\d[.\d]*)\b")
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
             return {keys: Object.fromEntries(keys), game: m.GAME_WORDS,
                     langs: Object.keys(m.LANGUAGES)}; }"""
    )
    assert found["langs"] == ["en", "hy", "ru", "es", "ja"]
    for lang, keys in found["keys"].items():
        assert keys == found["keys"]["en"], lang
    order = ("spades", "clubs", "diamonds", "hearts", "best-spades", "prikup", "whist")
    assert found["game"].keys() == set(found["langs"])
    for lang, words in found["game"].items():  # the game's words, in each language's script
        assert tuple(words[k] for k in order) == GAME_WORDS_IN[lang], lang
    assert tuple(found["game"]["en"][k] for k in order) == GAME_WORDS


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
    # a screen reader hears the move now shown (not the next one), in words, no suit symbols
    said = page.inner_text("#announce")
    assert not said.startswith("Next") and not re.search("[♠♣♦♥]", said), said
    assert before.split("—")[-1].strip().split(" ")[0].lower() in said.lower(), (before, said)
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
