"""A real table checks its own seeds in the browser (docs/FAIRNESS.md, "Checked in your
browser"): a person plays a deal against computer players and the end-of-deal panel says
their seed was used (after a reload too: the seeds are kept in localStorage); a seed
kept that is not the one the server used is shown as a failure; and a person seated
early sees no hand until everyone seated has seeded the deal (decision F6)."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

from browser_helpers import (
    HAND_CARDS,
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
    open_page,
    play_until,
    server,
    sit,
)
from cli_helpers import assert_ok, invoke

__all__ = ["browser", "open_page", "server"]  # the fixtures, imported for pytest

CHECK = "[data-testid=fair-check]"
BOTS = [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]


def paused_table(server: LiveServer, seats: list[dict[str, object]]) -> str:
    """A table whose finished deals stay on show (a minute), so the panel can be read."""
    body = {"name": "Fair", "rules": {"target": 121}, "seats": seats, "next_deal_seconds": 60}
    return str(server.post("/api/tables", body)["id"])


def kept(page: Page, table: str) -> list[dict[str, object]]:
    raw = page.evaluate("id => localStorage.getItem('paston-seeds-' + id)", table)
    return list(json.loads(raw)["seeds"])


def first_deal_over(server: LiveServer, page: Page, table: str) -> dict[str, Any]:
    """Sit at seat 0, play one deal against the computers; the fairness object of the
    deal the panel shows."""
    page.goto(f"{server.url}/t/{table}")
    sit(page, 0, "Ana")
    play_until([page], 1, defend, random.Random(5))
    page.wait_for_selector(f"{CHECK}:not([data-result=pending])")
    deal = int(page.get_attribute("[data-testid=end-deal]", "data-deal") or "")
    return dict(server.manager.get(table).fairness[deal])


def test_a_deal_against_bots_says_your_seed_was_used(server: LiveServer, open_page: Opener) -> None:
    page = open_page()
    table = paused_table(server, BOTS)
    entry = first_deal_over(server, page, table)
    assert entry["seeds"][0]["by"] == "seat"
    seeds = {s["commit"]: s["seed"] for s in kept(page, table)}
    assert seeds[entry["commitment"]] == entry["seeds"][0]["seed"]  # the seed this browser sent
    assert page.get_attribute(CHECK, "data-result") == "ok"
    assert "Your seed was used" in page.inner_text(CHECK) and "✓" in page.inner_text(CHECK)
    # said once, politely, in the live log
    log = page.locator("[data-testid=live-log] [data-type=fairness]")
    assert log.count() == 1 and log.get_attribute("data-result") == "ok"
    assert page.get_attribute("[data-testid=live-log]", "aria-live") == "polite"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("[data-testid=end-deal]").screenshot(path=str(SHOTS / "end-deal-fair-check.png"))
    check_png(SHOTS / "end-deal-fair-check.png")
    # after a reload the seed is still known, and checked again
    page.reload()
    page.wait_for_selector(f"{CHECK}[data-result=ok]")
    page.evaluate("() => localStorage.setItem('paston-lang', 'ja')")
    page.reload()
    page.wait_for_selector(f"{CHECK}[data-result=ok]")
    assert "あなたのシードが使われました" in page.inner_text(CHECK)


def test_a_seed_the_server_did_not_use_is_shown_as_a_failure(server: LiveServer, open_page: Opener) -> None:
    page = open_page()
    table = paused_table(server, BOTS)
    first_deal_over(server, page, table)
    assert page.get_attribute(CHECK, "data-result") == "ok"
    # this browser remembers another seed for the deal than the one the deck used
    page.evaluate(
        """id => { const key = 'paston-seeds-' + id, got = JSON.parse(localStorage.getItem(key));
                   for (const s of got.seeds) s.seed = '00'.repeat(32);
                   localStorage.setItem(key, JSON.stringify(got)); }""",
        table,
    )
    page.reload()
    page.wait_for_selector(f"{CHECK}[data-result=not-used]")
    text = page.inner_text(CHECK)
    assert "did not use your seed" in text and "report it" in text and "✗" in text
    log = page.locator("[data-testid=live-log] [data-type=fairness]")
    assert log.get_attribute("data-result") == "not-used"
    # a browser with no seed kept (another browser or tab on the seat sent it): sound, not "yours"
    page.evaluate("id => localStorage.removeItem('paston-seeds-' + id)", table)
    page.reload()
    page.wait_for_selector(f"{CHECK}[data-result=other-seed]")
    assert "another browser or tab" in page.inner_text(CHECK) and "✗" not in page.inner_text(CHECK)


def test_a_person_seated_early_sees_no_hand_until_everyone_seeded_the_deal(
    server: LiveServer, open_page: Opener
) -> None:
    table = paused_table(server, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}])
    first, second = open_page(), open_page()
    first.goto(f"{server.url}/t/{table}")
    sit(first, 0, "Ana")
    first.wait_for_selector("[data-testid=hand-sealed]")
    assert first.locator(HAND_CARDS).count() == 0
    assert first.get_attribute(TABLE, "data-my-turn") == "false"
    second.goto(f"{server.url}/t/{table}")
    sit(second, 1, "Ben")
    for page in (first, second):
        page.wait_for_function("n => document.querySelectorAll(n).length === 10", arg=HAND_CARDS)
        assert page.locator("[data-testid=hand-sealed]").count() == 0
    entry = server.manager.get(table).fairness[0]
    assert [s["by"] for s in entry["seeds"]] == ["seat", "seat", "server"]
    for seat, page in enumerate((first, second)):
        seeds = {s["commit"]: s["seed"] for s in kept(page, table)}
        assert seeds[entry["commitment"]] == entry["seeds"][seat]["seed"]


# the page's first seed never leaves it, and its socket drops: the server asks again
DROP_FIRST_SEED = """
(() => {
  const Base = window.WebSocket;
  window.seeds = { dropped: null, sent: [] };
  window.WebSocket = class extends Base {
    send(data) {
      const m = JSON.parse(data);
      if (m.type === 'seed' && window.seeds.dropped === null) {
        window.seeds.dropped = m;
        setTimeout(() => this.close(), 20);
        return undefined;
      }
      if (m.type === 'seed') window.seeds.sent.push(m);
      return super.send(data);
    }
  };
})();
"""


def test_asked_again_after_a_reconnection_the_page_sends_the_same_seed(
    server: LiveServer, open_page: Opener
) -> None:
    page = open_page()
    table = paused_table(server, BOTS)
    page.add_init_script(DROP_FIRST_SEED)
    page.goto(f"{server.url}/t/{table}")
    sit(page, 0, "Ana")
    page.wait_for_function("() => window.seeds.sent.length > 0", timeout=10_000)
    got = page.evaluate("() => window.seeds")
    assert got["dropped"]["commit"] == got["sent"][0]["commit"]
    assert got["dropped"]["seed"] == got["sent"][0]["seed"]  # the same seed, asked again
    page.wait_for_function("n => document.querySelectorAll(n).length === 10", arg=HAND_CARDS)
    entry = server.manager.get(table).fairness[0]
    assert entry["commitment"] == got["dropped"]["commit"]
    assert entry["seeds"][0] == {"seed": got["dropped"]["seed"], "by": "seat"}


def test_at_the_end_of_the_game_the_record_is_offered_for_paston_verify(
    server: LiveServer, open_page: Opener, tmp_path: Path
) -> None:
    page = open_page()
    body = {"name": "Short", "rules": {"target": 10}, "seats": BOTS, "next_deal_seconds": 60}
    table = str(server.post("/api/tables", body)["id"])
    page.goto(f"{server.url}/t/{table}")
    sit(page, 0, "Ana")
    rng = random.Random(7)
    deadline = time.monotonic() + 120
    while not page.locator("[data-testid=game-over]").count():
        assert time.monotonic() < deadline, "the game did not end"
        if page.locator("[data-testid=next-deal]:not([disabled])").count():
            page.click("[data-testid=next-deal]")
        elif board(page)["myTurn"] == "true":
            act(page, declare, rng)
        else:
            time.sleep(0.05)
    page.wait_for_selector(f"{CHECK}:not([data-result=pending])")
    assert page.get_attribute(CHECK, "data-result") == "ok"
    link = page.locator("[data-testid=fair-record]")
    href = link.get_attribute("href")
    assert href == f"/api/tables/{table}/record" and "paston verify" in link.inner_text()
    got = page.request.get(server.url + href)
    assert got.ok
    path = tmp_path / "game.json"
    path.write_bytes(got.body())
    record = json.loads(got.body())
    assert "OK" in assert_ok(invoke("verify", path))
    # the record shows this browser's seeds for seat 0, every deal of the game
    seeds = {s["commit"]: s["seed"] for s in kept(page, table)}
    for deal in record["deals"]:
        f = deal["fairness"]
        assert f["seeds"][0] == {"seed": seeds[f["commitment"]], "by": "seat"}
