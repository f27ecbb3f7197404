"""A move whose answer never came is sent again after the browser reconnects
(static/resend.js): the page's socket is cut right after it sent a move — once after
the move reached the server (applied, its answer lost: the resend is answered as a
duplicate), once before (never applied: the resend applies it), and in a cluster of
three workers by killing the table's owner once the move is committed, before its
answer reaches the page — and the move is in the action log exactly once, under the
command id the page first gave it, and the page shows it. A move whose socket swallowed
it (or its answer) is sent again by the page after a reload (kept in sessionStorage)."""

from __future__ import annotations

import json
import random
import re
import threading
import time
from typing import Any

import pytest
from sqlalchemy import select
from tests.browser_helpers import (  # noqa: F401 (fixtures)
    HAND_CARDS,
    RANDOM_BOTS,
    LiveServer,
    Opener,
    Page,
    act,
    board,
    browser,
    click_move,
    declare,
    hand_codes,
    open_page,
    reach_play,
    server,
    sit,
)
from tests.cluster_helpers import RedisServer, Worker, action_rows, database, redis_server, workers  # noqa: F401

from paston.server.store.db import ActionRow

try:
    from playwright.sync_api import WebSocketRoute
except ImportError:  # the browser fixture says what to do
    WebSocketRoute = Any  # type: ignore[misc,assignment]


class CutOnce:
    """Relays the page's table sockets to the server, and cuts the first one on which the
    page sends an act once armed: the act reaches the server (``deliver``) or not, and
    no answer reaches the page."""

    def __init__(self, deliver: bool, *, close: bool = True) -> None:
        self.deliver = deliver
        self.close = close  # cut the page's socket here (else: the server closes it)
        self.armed = False
        self.acts: list[dict[str, Any]] = []  # every act the page sent, in order
        self.heard: list[list[dict[str, Any]]] = []  # what the server sent, per socket
        self.hold_after: str | None = None  # a command id: its answer and what follows is held
        self.hold_version = 0  # the version it was sent at: states before it pass
        self.held: list[tuple[WebSocketRoute, str | bytes]] = []

    def answers(self, message: str | bytes) -> bool:
        """Whether a message of the server's answers the held command or comes after it
        (the state answering the socket's hello, sent before, passes)."""
        data = json.loads(message) if isinstance(message, str) else {}
        if data.get("id") == self.hold_after:
            return True
        return data.get("type") in ("state", "update") and int(data.get("version", 0)) > self.hold_version

    def release(self) -> None:
        """Let through what the server sent after the held command (call from the test,
        inside whose Playwright calls the relay runs)."""
        self.hold_after = None
        held, self.held = self.held, []
        for ws, message in held:
            ws.send(message)

    def route(self, ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()
        heard: list[dict[str, Any]] = []
        self.heard.append(heard)
        cut = {"done": False, "holding": False}

        def from_page(message: str | bytes) -> None:
            data = json.loads(message) if isinstance(message, str) else {}
            if data.get("type") == "act":
                self.acts.append(data)
                if self.hold_after is not None and data.get("id") == self.hold_after:
                    cut["holding"] = True  # its answer, and all after it, wait for release()
                if self.armed:
                    self.armed = False
                    cut["done"] = True
                    if self.deliver:
                        upstream.send(message)
                    if self.close:
                        ws.close(code=1012)  # the page's socket drops before any answer
                    return
            if not cut["done"]:
                upstream.send(message)

        def from_server(message: str | bytes) -> None:
            if cut["done"]:
                return  # lost with the socket
            if isinstance(message, str):
                heard.append(json.loads(message))
            if cut["holding"] and self.hold_after is not None and self.answers(message):
                self.held.append((ws, message))
                return
            ws.send(message)

        ws.on_message(from_page)
        upstream.on_message(from_server)


def answers_to(page: Page, cutter: CutOnce, sockets: int, command_id: str) -> list[dict[str, Any]]:
    """The server's answers to ``command_id`` on the page's sockets from number ``sockets``
    on, once there is one (the page may show the move, from a state, before its ack)."""

    def found() -> list[dict[str, Any]]:
        return [m for socket in cutter.heard[sockets:] for m in socket if m.get("id") == command_id]

    deadline = time.monotonic() + 20
    while not found() and time.monotonic() < deadline:
        page.wait_for_timeout(50)  # Playwright relays the sockets while the test waits in it
    return found()


def logged(server: LiveServer, command_id: str) -> list[tuple[int, str]]:  # noqa: F811
    with server.manager.store.sessions() as session:
        rows = session.execute(
            select(ActionRow.seq, ActionRow.action).where(ActionRow.command_id == command_id)
        ).all()
    return [(int(seq), str(action)) for seq, action in rows]


def seated_at_a_turn(server: LiveServer, open_page: Opener, cutter: CutOnce) -> Page:  # noqa: F811
    """A page seated at a table of two computers, its sockets through ``cutter``, at the
    first turn of its seat."""
    table_id = server.new_table(RANDOM_BOTS)
    page = open_page()
    page.route_web_socket(re.compile(r"/ws/tables/"), cutter.route)
    page.goto(f"{server.url}/t/{table_id}")
    sit(page, 0, "Ani")
    reach_play(page, random.Random(5))
    return page


@pytest.mark.parametrize("deliver", [True, False], ids=["applied-answer-lost", "never-arrived"])
def test_a_move_without_an_answer_is_sent_again_after_reconnecting_and_applied_once(
    server: LiveServer,  # noqa: F811
    open_page: Opener,  # noqa: F811
    deliver: bool,
) -> None:
    cutter = CutOnce(deliver)
    page = seated_at_a_turn(server, open_page, cutter)
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
    answers = answers_to(page, cutter, len(cutter.heard) - 1, command_id)
    assert [m["type"] for m in answers] == ["ack"], answers
    assert answers[0].get("duplicate", False) is deliver  # applied before the cut: a duplicate
    assert answers[0]["version"] == int(before["version"]) + 1
    after = board(page)
    assert int(after["version"]) > int(before["version"])
    if phase == "play":  # the card left the hand, once
        card = str(sent[0]["action"]).split()[-1]
        assert card in hand and card not in hand_codes(page)
        assert page.locator(f"{HAND_CARDS}[data-card='{card}']").count() == 0


def swallowed_move(
    server: LiveServer,  # noqa: F811
    open_page: Opener,  # noqa: F811
    deliver: bool,
) -> tuple[Page, CutOnce, dict[str, str], int]:
    """A page at its seat's turn makes a move whose socket stays open but swallows it
    (``deliver``: the server gets it, its answer is lost): the page, its cutter, the
    table before the move, and the move's index in ``cutter.acts``."""
    cutter = CutOnce(deliver, close=False)
    page = seated_at_a_turn(server, open_page, cutter)
    before = board(page)
    earlier = len(cutter.acts)
    cutter.armed = True
    click_move(page, declare, random.Random(2))
    page.wait_for_function("() => !!sessionStorage.getItem('paston.unanswered')")
    deadline = time.monotonic() + 5
    while len(cutter.acts) == earlier:
        assert time.monotonic() < deadline, "the page sent no move"
        page.wait_for_timeout(20)  # Playwright relays the sockets while the test waits in it
    return page, cutter, before, earlier


@pytest.mark.parametrize("deliver", [True, False], ids=["applied-answer-lost", "never-arrived"])
def test_a_move_without_an_answer_is_sent_again_after_the_page_is_reloaded(
    server: LiveServer,  # noqa: F811
    open_page: Opener,  # noqa: F811
    deliver: bool,
) -> None:
    """The move's socket stays open but swallows it (or its answer): the page waits. The
    person reloads the page; the new page sends the kept move again, once, under its
    first command id, and it is in the action log exactly once."""
    page, cutter, before, earlier = swallowed_move(server, open_page, deliver)
    command_id = str(cutter.acts[earlier]["id"])
    first = [(int(before["version"]), cutter.acts[earlier]["action"])]
    deadline = time.monotonic() + 10
    while deliver and logged(server, command_id) != first:  # it reached the server: applied
        assert time.monotonic() < deadline, "the delivered move was not applied"
        time.sleep(0.02)
    assert logged(server, command_id) == (first if deliver else [])
    sockets = len(cutter.heard)

    page.reload()
    page.wait_for_function(
        "v => { const t = document.querySelector('[data-testid=table]');"
        " return t && Number(t.dataset.version) > v; }",
        arg=int(before["version"]),
    )
    resent = [a for a in cutter.acts if a["id"] == command_id]
    assert len(resent) == 2 and resent[0] == resent[1], cutter.acts[-3:]
    assert logged(server, command_id) == [(int(before["version"]), resent[0]["action"])]
    answers = answers_to(page, cutter, sockets, command_id)
    assert [(m["type"], m.get("duplicate", False)) for m in answers] == [("ack", deliver)], answers
    page.wait_for_function("() => sessionStorage.getItem('paston.unanswered') === null")


@pytest.mark.parametrize("wait", ["answered", "held-too-long"])
def test_the_reloaded_page_sends_no_other_move_until_the_resent_one_is_answered(
    server: LiveServer,  # noqa: F811
    open_page: Opener,  # noqa: F811
    wait: str,
) -> None:
    """After the reload the table is shown at the seat's turn (the move never arrived)
    while the resent move's answer is held back: every move is shown unusable and a
    click sends nothing; once the answer comes the move is shown, applied once. An
    answer held back longer than 15 s (the page's clock run on) lets the page go."""
    page, cutter, before, earlier = swallowed_move(server, open_page, deliver=False)
    command_id = str(cutter.acts[earlier]["id"])
    cutter.hold_after, cutter.hold_version = command_id, int(before["version"])

    page.clock.install()  # the page's timers, from the reload on, run on a clock the test may move
    page.reload()
    page.wait_for_function(
        "v => { const t = document.querySelector('[data-testid=table]');"
        " return t && t.dataset.version === String(v) && t.dataset.myTurn === 'true'; }",
        arg=int(before["version"]),
    )
    deadline = time.monotonic() + 10
    while len([a for a in cutter.acts if a["id"] == command_id]) < 2:
        assert time.monotonic() < deadline, "the kept move was not sent again"
        page.wait_for_timeout(20)
    moves = page.locator(f"{HAND_CARDS}, [data-testid=actions] button[data-action]")
    assert moves.count() > 0
    page.wait_for_function(
        "s => [...document.querySelectorAll(s)].every(e => e.getAttribute('aria-disabled') === 'true')",
        arg=f"{HAND_CARDS}, [data-testid=actions] button[data-action]",
    )
    sent = len(cutter.acts)
    moves.first.click(force=True)  # what a person's click does while the answer is awaited
    page.wait_for_timeout(300)
    assert len(cutter.acts) == sent, cutter.acts[sent:]  # nothing else was sent
    if wait == "held-too-long":
        page.clock.fast_forward(16_000)
        page.wait_for_function(
            "s => [...document.querySelectorAll(s)].some(e => e.getAttribute('aria-disabled') !== 'true')",
            arg=f"{HAND_CARDS}, [data-testid=actions] button[data-action]",
        )
        assert page.evaluate(
            "() => !!sessionStorage.getItem('paston.unanswered')"
        )  # still kept, still unanswered

    cutter.release()
    page.wait_for_function(
        "v => Number(document.querySelector('[data-testid=table]').dataset.version) > v",
        arg=int(before["version"]),
    )
    assert logged(server, command_id) == [(int(before["version"]), cutter.acts[earlier]["action"])]
    assert all(a["id"] == command_id for a in cutter.acts[earlier:])
    page.wait_for_function("() => sessionStorage.getItem('paston.unanswered') === null")


def test_a_move_resent_after_its_owner_was_killed_is_applied_once(
    open_page: Opener,  # noqa: F811
    workers: list[Worker],  # noqa: F811
    redis_server: RedisServer,  # noqa: F811
    database: str,  # noqa: F811
) -> None:
    """The page is served by worker 1; the table is owned by worker 0, killed (``kill -9``)
    once the page's move is committed and before its answer is delivered. Worker 1
    closes the page's socket (1012); the page reconnects to it and sends the move again;
    the worker that took the table over answers it as a duplicate."""
    owner, door = workers[0], workers[1]
    status, made = owner.request("POST", "/api/tables", {"name": "Kill", "seats": RANDOM_BOTS})
    assert status == 201, made
    table_id = str(made["id"])
    cutter = CutOnce(deliver=True, close=False)
    page = open_page()
    page.set_default_timeout(40_000)
    page.route_web_socket(re.compile(r"/ws/tables/"), cutter.route)
    page.goto(f"{door.base}/t/{table_id}")
    sit(page, 0, "Ani")
    reach_play(page, random.Random(5))
    before = board(page)
    killed: dict[str, float] = {}

    def kill_once_committed() -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            ids = {r["command_id"] for r in action_rows(database, table_id)}
            if len(cutter.acts) > earlier and cutter.acts[earlier]["id"] in ids:
                owner.kill()
                killed["at"] = time.monotonic()
                return
            time.sleep(0.02)

    sockets, earlier = len(cutter.heard), len(cutter.acts)
    cutter.armed = True
    killer = threading.Thread(target=kill_once_committed)
    killer.start()
    act(page, declare, random.Random(2))  # returns once the page shows the move
    killer.join()
    assert "at" in killed, "the move was never committed"
    shown = time.monotonic() - killed["at"]

    assert len(cutter.heard) > sockets  # it reconnected
    resent = [a for a in cutter.acts if a["id"] == cutter.acts[earlier]["id"]]
    assert len(resent) >= 2 and all(a == resent[0] for a in resent), cutter.acts[-4:]
    command_id = str(resent[0]["id"])
    rows = [r for r in action_rows(database, table_id) if r["command_id"] == command_id]
    assert [(r["seq"], r["action"]) for r in rows] == [(int(before["version"]), resent[0]["action"])]
    answers = answers_to(page, cutter, sockets, command_id)
    assert [(m["type"], m.get("duplicate")) for m in answers] == [("ack", True)], answers
    assert int(board(page)["version"]) > int(before["version"])
    print(f"the move shown {shown:.2f} s after its owner was killed")
