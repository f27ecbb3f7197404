"""A request refused because its table is changing hands (``not-owner``: the owner died
or lost its lease, and nothing was written; ``table-moved``: forwarded to a worker that
no longer owns it) is tried again by the browser (static/api.js) while another worker
takes the table over, and counts once; refused for longer than that, the page says so."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Route

from browser_helpers import TABLE, LiveServer, Opener, browser, open_page, server  # noqa: F401  (fixtures)

PEOPLE = [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
MESSAGE = "the table is changing hands; try again"
TRIES = 6  # api.js: the first, then one after each of NOT_OWNER_WAITS


def refuse(times: int, code: str, asked: list[str]) -> object:
    """A route handler that refuses the first ``times`` requests as the cluster does."""

    def handle(route: Route) -> None:
        asked.append(route.request.method)
        if len(asked) <= times:
            body = {
                "error": {"type": "error", "code": code, "message": "the table is changing hands; try again"}
            }
            route.fulfill(status=503, content_type="application/json", body=json.dumps(body))
        else:
            route.continue_()

    return handle


@pytest.mark.parametrize("code", ["not-owner", "table-moved"])
def test_a_seat_refused_while_its_table_changes_hands_is_taken_once_it_has_a_new_owner(
    server: LiveServer,  # noqa: F811
    open_page: Opener,  # noqa: F811
    code: str,
) -> None:
    table_id = server.new_table(PEOPLE)
    page = open_page()
    asked: list[str] = []
    page.route(f"**/api/tables/{table_id}/seats/0", refuse(2, code, asked))
    page.goto(f"{server.url}/t/{table_id}")
    page.fill("[data-seat='0'] [data-testid=seat-name]", "Ani")
    page.click("[data-seat='0'] [data-testid=take-seat]")
    page.wait_for_selector(f"{TABLE}[data-you='0']")
    assert asked == ["POST"] * 3  # two refusals, then the seat
    assert server.get(f"/api/tables/{table_id}")["seats"][0]["name"] == "Ani"
    assert "changing hands" not in page.inner_text("#status")


def test_a_request_refused_longer_than_a_takeover_takes_is_shown_as_an_error(
    server: LiveServer,  # noqa: F811
    open_page: Opener,  # noqa: F811
) -> None:
    table_id = server.new_table(PEOPLE)
    page = open_page()
    asked: list[str] = []
    page.route(f"**/api/tables/{table_id}/seats/0", refuse(10**6, "not-owner", asked))
    page.goto(f"{server.url}/t/{table_id}")
    page.fill("[data-seat='0'] [data-testid=seat-name]", "Ani")
    page.click("[data-seat='0'] [data-testid=take-seat]")
    page.wait_for_function("() => document.getElementById('status').className === 'error'", timeout=15_000)
    assert "changing hands" in page.inner_text("#status")
    assert asked == ["POST"] * TRIES
    assert page.locator(f"{TABLE}[data-you='0']").count() == 0
