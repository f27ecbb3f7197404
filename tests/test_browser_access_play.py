"""Everyone can play (issue 12 §6–7), in play: the creator seated at once, a seat that
needs a name, the live log against the server's record (in the language chosen), the
hand by keyboard alone, a lost connection dimming the table (Playwright with Debian's
chromium; see ``browser_helpers.py``)."""

from __future__ import annotations

import random
import re
import time

from browser_helpers import (
    HAND_CARDS,
    TABLE,
    LiveServer,
    Opener,
    Page,
    _discard_by_keyboard,
    board,
    browser,
    create_seated,
    declare,
    open_page,
    server,
    shot,
    wait_my_turn,
    wait_turn_or_deals,
    wait_version_change,
)
from browser_helpers import act as click_move
from paston.record import to_record

__all__ = ["browser", "open_page", "server"]  # the fixtures, from browser_helpers


LOG = "[data-testid=live-log] p.entry"
MOVES = ("bid", "pass", "discard", "trump", "surrender", "whist", "play")
USABLE = ":not([disabled]):not([aria-disabled=true])"


def test_the_creator_is_seated_at_once(server: LiveServer, open_page: Opener) -> None:
    watcher = open_page()
    watcher.goto(server.url + "/")
    watcher.wait_for_selector("[data-testid=create]")
    page = open_page()
    table_id = create_seated(page, server.url, "Ani", 1, ["random", "human", "random"])
    table = server.manager.get(table_id)
    assert table.seats[1].name == "Ani" and table.seats[1].taken
    assert page.locator("[data-seat='1']").get_attribute("data-status") == "online"
    assert page.locator("[data-testid=seat-form]").count() == 0  # nothing left to take
    assert "Ani" in page.inner_text("[data-testid=table] [data-seat='1'] .seat-name")
    # another browser's lobby hears of the table with the seat taken, never free
    row = f"#lobby-lists li:has(a[href='/t/{table_id}'])"
    watcher.wait_for_selector(row)
    assert "Ani" in watcher.inner_text(row) and "free seat" not in watcher.inner_text(row)
    # the seat's page plays: the hand is there, and a reload keeps the seat
    page.wait_for_selector(HAND_CARDS)
    page.reload()
    page.wait_for_selector(f"{TABLE}[data-you='1']")


def test_a_person_s_seat_needs_a_name_and_watching_needs_none(server: LiveServer, open_page: Opener) -> None:
    page = open_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#seat2 option", state="attached")
    page.fill("[data-testid=my-name]", "  ")
    page.click("[data-testid=create]")
    page.wait_for_function("() => document.getElementById('status').textContent.includes('name')")
    assert page.evaluate("document.activeElement.id") == "my-name"
    assert server.get("/api/tables")["total"] == 0
    # a computer in seat 1 takes it out of the choices; "only watch" opens the table unseated
    page.select_option("#seat1", "human")
    page.select_option("#seat2", "human")
    page.select_option("#seat0", "random")
    assert page.eval_on_selector_all("#my-seat option", "es => es.map(e => e.value)") == ["1", "2", ""]
    assert page.input_value("#my-seat") == "1"
    page.select_option("[data-testid=my-seat]", "")
    page.click("[data-testid=create]")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    page.wait_for_selector(f"{TABLE}[data-you='']")
    assert page.locator("[data-testid=seat-form]").count() == 2


# --- the live log ------------------------------------------------------------------------------------
def log_entries(page: Page) -> list[dict[str, str]]:
    return list(page.eval_on_selector_all(LOG, "es => es.map(e => ({...e.dataset, text: e.textContent}))"))


def test_the_live_log_announces_every_action_of_a_deal(server: LiveServer, open_page: Opener) -> None:
    page = open_page()
    table_id = create_seated(page, server.url, "Ani", 0, ["human", "random", "random"])
    region = page.locator("[data-testid=live-log]")
    assert region.get_attribute("role") == "log" and region.get_attribute("aria-live") == "polite"
    rng = random.Random(4)
    deadline = time.monotonic() + 120
    played = False
    while not played:  # deals until one is played out with cards (the computers may pass)
        assert time.monotonic() < deadline, "no deal was played out"
        target = int(board(page)["deals"]) + 1
        while int(board(page)["deals"]) < target:
            wait_turn_or_deals(page, target)
            if board(page)["myTurn"] == "true" and int(board(page)["deals"]) < target:
                click_move(page, declare, rng)
        page.wait_for_selector(f"{LOG}[data-type=deal-over][data-deal='{target}']", state="attached")
        record = to_record(server.manager.get(table_id).match)
        played = any(a["type"] == "play" for d in record["deals"] for a in d["actions"])
    entries = log_entries(page)
    record = to_record(server.manager.get(table_id).match)
    finished = [d for d in record["deals"] if d.get("result") or d.get("redeal")]
    # every action of every finished deal, in order, with its seat; a discard shows its
    # cards to the declarer's page only (Ani is seat 0)
    heard = [e for e in entries if e["type"] in MOVES]
    expected = [a for d in finished for a in d["actions"]]
    assert len(heard) >= len(expected)
    for got, want in zip(heard, expected, strict=False):
        assert (int(got["seat"]), got["type"]) == (want["seat"], want["type"]), (got, want)
        assert got.get("value") == want.get("value") and got.get("card") == want.get("card"), (got, want)
        if want["type"] == "discard":
            assert got.get("cards") == (" ".join(want["cards"]) if want["seat"] == 0 else None), got
    # who took each trick, and each deal's end with its scores
    tricks = [0, 0, 0]
    for e in entries:
        if e["type"] == "trick":
            tricks[int(e["seat"])] += 1
    results = [d["result"] for d in finished if d.get("result")]
    assert tricks == [sum(r["tricks"][s] for r in results if r["outcome"] == "played") for s in range(3)]
    ends = [e for e in entries if e["type"] == "deal-over"]
    assert [int(e["deal"]) for e in ends] == list(range(1, len(results) + 1))
    sheet = server.manager.get(table_id).sheet()
    names = ["Ani", "Computer 2", "Computer 3"]
    for e, row in zip(ends, sheet, strict=False):
        for seat in range(3):
            score = f"{'+' if row['scores'][seat] > 0 else ''}{row['scores'][seat]}".replace("-", "−")
            assert f"{names[seat]} {score}" in e["text"], (e["text"], row)
    plays = [e for e in heard if e["type"] == "play"]
    assert plays and re.fullmatch(
        r"(Ani|Computer \d) plays the (\d+|ace|king|queen|jack) of \w+", plays[0]["text"]
    )

    # in the chosen language: the entries are reworded in place (not added again), and so
    # is the turn announcement
    english = log_entries(page)
    page.select_option("[data-testid=lang]", "ru")
    page.wait_for_function("() => document.documentElement.lang === 'ru'")
    russian = log_entries(page)[: len(english)]  # the game goes on meanwhile
    strip = [{k: v for k, v in e.items() if k != "text"} for e in english]
    assert [{k: v for k, v in e.items() if k != "text"} for e in russian] == strip  # the same entries
    # every entry in Russian words ("Ani: whist" is the same in both: a name and a game word)
    assert all(r["text"] != e["text"] or r["type"] == "whist" for r, e in zip(russian, english, strict=True))
    assert all(not re.search(r"\b(plays|bids|passes|takes)\b", e["text"]) for e in russian)
    assert any("берёт взятку" in e["text"] for e in russian) or not any(tricks)
    turns = [e["text"] for e in russian if e["type"] == "turn"]
    assert turns and not any(re.search(r"\b(Your|turn|Waiting)\b", text) for text in turns), turns


def test_the_turn_is_announced_again_when_it_stays_with_the_seat(
    server: LiveServer, open_page: Opener
) -> None:
    """After the discard the same seat names trump: a screen reader hears "your turn" again
    (it heard nothing while the turn never left the seat)."""
    page = open_page()
    # a long game: the random computer players may outbid Ani for many deals first
    create_seated(page, server.url, "Ani", 0, ["human", "random", "random"], target=500)
    rng = random.Random(4)
    deadline = time.monotonic() + 90
    while True:
        assert time.monotonic() < deadline, "Ani never declared"
        wait_my_turn(page)
        if board(page)["phase"] == "discard":
            break
        click_move(page, declare, rng)
    turns = page.locator(f"{LOG}[data-type=turn]").count()
    _discard_by_keyboard(page)
    page.wait_for_selector(f"{LOG}[data-type=turn] >> nth={turns}", state="attached")
    last = log_entries(page)[-2:]
    assert [e["type"] for e in last] == ["discard", "turn"], last  # her discard, then her turn again
    assert last[-1]["text"] == "Your turn: name trump or surrender"


#: Records, in order, every text added to a live region of the page: its politeness, its
#: id, the text, the entry's type and which batch of changes (one task) added it.
HEARD = """
window.__heard = [];
let batch = 0;
new MutationObserver((changes) => {
  batch += 1;
  for (const m of changes) {
    const at = m.target.nodeType === 1 ? m.target : m.target.parentElement;
    const region = at && at.closest('[aria-live]');
    if (!region) continue;
    for (const n of m.addedNodes) {
      const text = n.textContent.trim();
      if (text) window.__heard.push({ live: region.getAttribute('aria-live'), id: region.id, text, batch,
                                      type: (n.dataset && n.dataset.type) || '' });
    }
  }
}).observe(document, { childList: true, subtree: true });
"""


def test_the_turn_cue_follows_the_card_led_in_one_polite_region(
    server: LiveServer, open_page: Opener
) -> None:
    """An assertive "your turn" cut off the polite line naming the card just led; now the
    cue is the next entry of the same polite log, added with that line (X12)."""
    page = open_page()
    page.add_init_script(HEARD)
    create_seated(page, server.url, "Ani", 0, ["human", "random", "random"])
    rng = random.Random(6)
    deadline = time.monotonic() + 120
    while True:  # until a computer leads a trick and Ani plays next
        assert time.monotonic() < deadline, "no computer led a trick before Ani's turn"
        wait_turn_or_deals(page, 99)
        state = board(page)
        entries = log_entries(page)
        if state["phase"] == "play" and len(entries) >= 2 and entries[-1]["type"] == "turn":
            before = entries[-2]
            if before["type"] == "play" and before["seat"] != "0":
                break
        click_move(page, declare, rng)
    heard = page.evaluate("window.__heard")
    assert not [h for h in heard if h["live"] == "assertive"], heard  # nothing cuts in
    turn = next(i for i in range(len(heard) - 1, -1, -1) if heard[i]["type"] == "turn")
    led, cue = heard[turn - 1], heard[turn]
    assert led["type"] == "play" and led["id"] == cue["id"] == "live-log" and led["live"] == "polite"
    assert re.fullmatch(r"Computer \d plays the .+", led["text"]) and cue["text"] == "Your turn: play a card"
    assert led["batch"] == cue["batch"]  # one change of the page: read one after the other


# --- the keyboard, the notes, four colours --------------------------------------------------------------
def test_the_hand_by_keyboard_alone(server: LiveServer, open_page: Opener) -> None:
    page = open_page()
    create_seated(page, server.url, "Ani", 0, ["human", "random", "random"])
    rng = random.Random(9)
    deadline = time.monotonic() + 120
    while True:  # on to Ani's turn in the play
        assert time.monotonic() < deadline, "never Ani's turn in the play"
        wait_my_turn(page)
        if board(page)["phase"] == "play":
            break
        if board(page)["phase"] == "discard":
            _discard_by_keyboard(page)
        else:
            click_move(page, declare, rng)
    cards = page.locator(HAND_CARDS)
    n = cards.count()
    assert page.locator(f"{HAND_CARDS}[tabindex='0']").count() == 1  # one tab stop in the hand
    assert page.locator(f"{HAND_CARDS}[disabled]").count() == 0  # out of turn: still focusable
    # the skip link comes first and goes to the hand's tab stop, a card that can be played
    page.reload()  # the focus at the top of the page
    page.wait_for_selector(f"{TABLE}[data-my-turn=true]")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.testid") == "skip-hand"
    page.keyboard.press("Enter")
    first = page.evaluate("document.activeElement.dataset.card")
    assert first and page.evaluate("document.activeElement.getAttribute('aria-disabled')") is None
    codes = cards.evaluate_all("es => es.map(e => e.dataset.card)")
    page.keyboard.press("Home")
    assert page.evaluate("document.activeElement.dataset.card") == codes[0]
    for i in range(1, n):
        page.keyboard.press("ArrowRight")
        assert page.evaluate("document.activeElement.dataset.card") == codes[i]
    page.keyboard.press("ArrowRight")  # the last card stays
    assert page.evaluate("document.activeElement.dataset.card") == codes[-1]
    page.keyboard.press("Home")
    page.keyboard.press("End")
    assert page.evaluate("document.activeElement.dataset.card") == codes[-1]
    assert page.locator(f"{HAND_CARDS}[tabindex='0']").get_attribute("data-card") == codes[-1]
    # a card that cannot be played: Enter does nothing; one that can: Enter plays it
    disabled = page.eval_on_selector_all(
        f"{HAND_CARDS}[aria-disabled=true]", "es => es.map(e => e.dataset.card)"
    )
    version = board(page)["version"]
    if disabled:
        page.focus(f"{HAND_CARDS}[data-card='{disabled[0]}']")
        page.keyboard.press("Enter")
        time.sleep(0.3)
        assert board(page)["version"] == version
    page.keyboard.press("Home")
    while page.evaluate("document.activeElement.getAttribute('aria-disabled')") == "true":
        page.keyboard.press("ArrowRight")
    card = page.evaluate("document.activeElement.dataset.card")
    page.keyboard.press("Enter")
    wait_version_change(page, version)
    assert card not in page.eval_on_selector_all(HAND_CARDS, "es => es.map(e => e.dataset.card)")
    assert page.evaluate("Boolean(document.activeElement.closest('[data-testid=hand]'))")  # still in the hand


def test_a_lost_connection_dims_the_table_and_says_so(server: LiveServer, open_page: Opener) -> None:
    page = open_page()
    create_seated(page, server.url, "Ani", 0, ["human", "random", "random"])
    wait_turn_or_deals(page, 99)
    assert page.locator(f"{HAND_CARDS}.legal, [data-testid=actions] button{USABLE}").count() > 0
    page.context.set_offline(True)  # the socket cannot come back meanwhile
    page.evaluate(
        """async () => { const src = document.querySelector('script[type=module]').src;
                         const m = await import(new URL('live.js', src));
                         m.live.socket.close(); }"""
    )
    page.wait_for_selector(f"{TABLE}[data-connected=false]", timeout=20_000)
    note = page.locator("[data-testid=reconnecting]")
    assert note.is_visible() and "reconnecting" in note.inner_text().lower()
    assert page.locator(f"{HAND_CARDS}.legal").count() == 0
    assert page.locator(f"[data-testid=actions] button{USABLE}").count() == 0
    shot(page, "reconnecting-desktop.png", full=False)
    page.context.set_offline(False)
    page.wait_for_selector(f"{TABLE}[data-connected=true]", timeout=30_000)
    assert page.locator("[data-testid=reconnecting]").count() == 0
