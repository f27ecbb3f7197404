"""The lobby without its pushed changes: when the server-sent event stream fails, the
page polls the lists slowly, and listens again once the stream is back."""

from __future__ import annotations

from playwright.sync_api import Route

from browser_helpers import LiveServer, Opener, browser, open_page, server  # noqa: F401  (fixtures)

BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "human"}, {"kind": "human"}]


def test_the_lobby_polls_when_its_event_stream_fails_and_listens_again(
    server: LiveServer,  # noqa: F811
    open_page: Opener,  # noqa: F811
) -> None:
    page = open_page()
    page.clock.install()
    refused = {"on": True, "asked": 0}

    def events(route: Route) -> None:
        refused["asked"] += 1
        if refused["on"]:  # not an event stream: the browser gives the stream up (CLOSED)
            route.fulfill(status=503, content_type="text/plain", body="down")
        else:
            route.continue_()

    page.route("**/api/lobby/events", events)
    page.goto(server.url + "/")
    page.wait_for_selector("[data-testid=create]")
    for _ in range(200):  # the stream is opened just after the form is drawn (a busy machine)
        if refused["asked"]:
            break
        page.wait_for_timeout(25)
    assert refused["asked"] == 1
    table = server.new_table(BOTS)
    page.clock.run_for(5_000)  # nothing is pushed, and the slow poll is not due yet
    assert page.locator(f"#lobby-lists a[href='/t/{table}']").count() == 0
    page.clock.run_for(30_000)  # the slow poll: the lists again, and the stream tried again
    page.wait_for_selector(f"#lobby-lists a[href='/t/{table}']")
    assert refused["asked"] == 2
    refused["on"] = False
    page.clock.run_for(30_000)  # the stream is back: changes are pushed again
    page.wait_for_function("() => true")
    assert refused["asked"] == 3
    second = server.new_table(BOTS)
    page.wait_for_selector(f"#lobby-lists a[href='/t/{second}']", timeout=5_000)
