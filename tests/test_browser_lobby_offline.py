"""The lobby when the server cannot be reached (issue 23): a translated sentence on the
status line, never the browser's "Failed to fetch", and the lists fetched again a little
later each time until the server answers; the other requests' failures (making a table)
in words too (docs/rules-decisions.md X13). Requests fail through Playwright's routing
(Debian's chromium; see ``browser_helpers.py``)."""

from __future__ import annotations

import itertools
import time

from playwright.sync_api import Route

from browser_helpers import LiveServer, Opener, Page, browser, live, open_page

__all__ = ["browser", "live", "open_page"]  # the fixtures, from browser_helpers

API = "**/api/**"
RAW = ("Failed to fetch", "NetworkError", "TypeError", "HTTP 502", "Refused")


def status(page: Page) -> str:
    return str(page.inner_text("#status"))


def wait_status(page: Page, text: str) -> None:
    page.wait_for_function("t => document.getElementById('status').textContent.includes(t)", arg=text)


def test_the_lobby_offline_says_so_in_words_and_retries_with_backoff(
    live: LiveServer, open_page: Opener
) -> None:
    page = open_page(320, 700)
    tries: list[float] = []
    page.on("request", lambda r: tries.append(time.monotonic()) if "/api/tables?" in r.url else None)
    page.route(API, lambda route: route.abort())
    page.goto(live.url + "/")
    wait_status(page, "Retrying")
    said = status(page)
    assert said == "Cannot reach the server; check your connection. Retrying…", said
    assert not any(raw in said for raw in RAW)
    assert page.get_attribute("#status", "class") == "error"
    # tried again after 1 s, then 2 s: waits that grow
    deadline = time.monotonic() + 10
    while len(tries) < 3:
        assert time.monotonic() < deadline, tries
        page.wait_for_timeout(100)
    gaps = [b - a for a, b in itertools.pairwise(tries)]
    assert 0.7 <= gaps[0] <= 2.0 and gaps[1] >= gaps[0] + 0.5, gaps
    assert page.locator("#seat1 option").count() <= 1  # /api/meta failed too: no computers to choose
    page.fill("[data-testid=my-name]", "Ani")
    # the server back: the note goes, the form gets its choices, what was typed stays
    page.unroute(API)
    page.wait_for_function("() => document.getElementById('status').textContent === ''", timeout=20_000)
    page.wait_for_selector("#seat1 option >> nth=1", state="attached")
    assert page.input_value("[data-testid=my-name]") == "Ani"
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")


def test_a_proxy_s_error_and_a_failed_creation_are_said_in_words(live: LiveServer, open_page: Opener) -> None:
    page = open_page()
    page.goto(live.url + "/")
    page.wait_for_selector("#seat2 option", state="attached")

    def bad_gateway(route: Route) -> None:
        route.fulfill(status=502, body="<html>Bad Gateway</html>", content_type="text/html")

    page.route("**/api/tables?*", bad_gateway)
    page.route("**/api/tables", lambda route: route.abort())  # the creation
    page.fill("[data-testid=my-name]", "Ani")
    page.click("[data-testid=create]")
    wait_status(page, "Cannot reach the server")
    assert status(page) == "Cannot reach the server; check your connection."
    assert live.get("/api/tables")["total"] == 0
    # a refresh of the lists answered by something between: words again, and a retry
    page.evaluate(
        """async () => { const src = document.querySelector('script[type=module]').src;
                         await import(new URL('lobby.js', src)).then((m) => m.lobby()); }"""
    )
    wait_status(page, "Retrying")
    assert status(page) == "The server is not answering properly. Retrying…"


def test_the_offline_lobby_in_russian_and_armenian(live: LiveServer, open_page: Opener) -> None:
    for lang, words in (
        ("ru", "Нет связи с сервером; проверьте подключение. Пробуем снова…"),
        ("hy", "Հնարավոր չէ կապվել սերվերի հետ. ստուգեք ինտերնետ կապը։ Նորից փորձում ենք…"),
    ):
        page = open_page(320, 700)
        page.add_init_script(f"localStorage.setItem('paston-lang', '{lang}')")
        page.route(API, lambda route: route.abort())
        page.goto(live.url + "/")
        wait_status(page, words[-6:])
        assert status(page) == words
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), lang
