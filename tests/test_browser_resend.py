"""A move whose answer never came is sent again after the browser reconnects
(static/resend.js): the page's socket is cut right after it sent a move — once after
the move reached the server (applied, its answer lost: the resend is answered as a
duplicate), once before (never applied: the resend applies it) — and the move is in the
action log exactly once, under the command id the page first gave it, and the page
shows it."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from sqlalchemy import select
from tests.test_browser import (  # noqa: F401 (fixtures)
    HAND_CARDS,
    RANDOM_BOTS,
    LiveServer,
    Opener,
    act,
    board,
    browser,
    declare,
    hand_codes,
    open_page,
    reach_play,
    server,
    sit,
)

from paston.server.db import ActionRow

try:
    from playwright.sync_api import WebSocketRoute
except ImportError:  # the browser fixture says what to do
    WebSocketRoute = Any  # type: ignore[misc,assignment]


class CutOnce:
    """Relays the page's table sockets to the server, and cuts the first one on which the
    page sends an act once armed: the act reaches the server (``deliver``) or not, and
    no answer reaches the page."""

    def __init__(self, deliver: bool) -> None:
        self.deliver = deliver
        self.armed = False
        self.acts: list[dict[str, Any]] = []  # every act the page sent, in order
        self.heard: list[list[dict[str, Any]]] = []  # what the server sent, per socket

    def route(self, ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()
        heard: list[dict[str, Any]] = []
        self.heard.append(heard)
        cut = {"done": False}

        def from_page(message: str | bytes) -> None:
            data = json.loads(message) if isinstance(message, str) else {}
            if data.get("type") == "act":
                self.acts.append(data)
                if self.armed:
                    self.armed = False
                    cut["done"] = True
                    if self.deliver:
                        upstream.send(message)
                    ws.close(code=1012)  # the page's socket drops before any answer
                    return
            if not cut["done"]:
                upstream.send(message)

        def from_server(message: str | bytes) -> None:
            if cut["done"]:
                return  # lost with the socket
            if isinstance(message, str):
                heard.append(json.loads(message))
            ws.send(message)

        ws.on_message(from_page)
        upstream.on_message(from_server)


def logged(server: LiveServer, command_id: str) -> list[tuple[int, str]]:  # noqa: F811
    with server.manager.store.sessions() as session:
        rows = session.execute(
            select(ActionRow.seq, ActionRow.action).where(ActionRow.command_id == command_id)
        ).all()
    return [(int(seq), str(action)) for seq, action in rows]


@pytest.mark.parametrize("deliver", [True, False], ids=["applied-answer-lost", "never-arrived"])
def test_a_move_without_an_answer_is_sent_again_after_reconnecting_and_applied_once(
    server: LiveServer,  # noqa: F811
    open_page: Opener,  # noqa: F811
    deliver: bool,
) -> None:
    table_id = server.new_table(RANDOM_BOTS)
    cutter = CutOnce(deliver)
    page = open_page()
    page.route_web_socket(re.compile(r"/ws/tables/"), cutter.route)
    page.goto(f"{server.url}/t/{table_id}")
    sit(page, 0, "Ani")
    reach_play(page, random.Random(5))
    before = board(page)
    hand = hand_codes(page)
    sockets = len(cutter.heard)
    cutter.armed = True
    phase = act(page, declare, random.Random(2))  # returns once the page shows the move

    assert len(cutter.heard) > sockets  # it reconnected
    sent = cutter.acts[-2:]
    assert sent[0] == sent[1], sent  # the same act again: same action, version and id
    command_id = str(sent[0]["id"])
    assert logged(server, command_id) == [(int(before["version"]), sent[0]["action"])]
    answers = [m for m in cutter.heard[-1] if m.get("id") == command_id]
    assert [m["type"] for m in answers] == ["ack"], answers
    assert answers[0].get("duplicate", False) is deliver  # applied before the cut: a duplicate
    assert answers[0]["version"] == int(before["version"]) + 1
    after = board(page)
    assert int(after["version"]) > int(before["version"])
    if phase == "play":  # the card left the hand, once
        card = str(sent[0]["action"]).split()[-1]
        assert card in hand and card not in hand_codes(page)
        assert page.locator(f"{HAND_CARDS}[data-card='{card}']").count() == 0
