"""The hostile client, kept as tests: a real ``paston serve`` process attacked over real
sockets. Each attack gets its exact error, changes nothing at the table, and another
table stays responsive."""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection

from server_process import ServerProcess, ping_ms, send, until

MAX_WATCHERS = 50
RESPONSIVE_MS = 1000.0  # loose: CI machines are shared; an attack that stalls the loop takes far longer


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    # the tests make many tables from one address; the creation limits have their own test
    proc = ServerProcess(
        tmp_path_factory.mktemp("redteam"),
        *("--create-every", "0", "--tables-per-client", "1000", "--max-watchers", str(MAX_WATCHERS)),
    )
    yield proc
    proc.stop()
    assert "Traceback" not in proc.log(), proc.log()


@pytest.fixture(scope="module")
def bystander(server: ServerProcess) -> Iterator[ClientConnection]:
    """A spectator of another table: it must keep getting quick answers."""
    table = server.new_table()
    ws, _ = server.join(table, None)
    yield ws
    ws.close()


@dataclass
class Seated:
    table: str
    tokens: list[str]


def seated(server: ServerProcess) -> Seated:
    table = server.new_table()
    return Seated(table, [server.take(table, s, f"P{s}") for s in range(3)])


def snapshot(server: ServerProcess, table: str) -> tuple[int, dict[str, Any]]:
    """The table's version and public view, from a fresh spectator connection."""
    ws, state = server.join(table, None)
    ws.close()
    return int(state["version"]), state["view"]


def assert_responsive(bystander: ClientConnection) -> None:
    took = ping_ms(bystander)
    assert took < RESPONSIVE_MS, f"another table answered a ping in {took:.0f} ms"


def to_move_state(server: ServerProcess, s: Seated) -> tuple[ClientConnection, dict[str, Any]]:
    _, view = snapshot(server, s.table)
    seat = view["to_move"]
    return server.join(s.table, s.tokens[seat])


def advance_to_play(server: ServerProcess, s: Seated) -> None:
    """Legal moves until the first card is to be played (a new deal is dealt on a redeal
    or a surrender-free auction: seat to move bids spades once, the others pass)."""
    for _ in range(40):
        ws, state = to_move_state(server, s)
        view = state["view"]
        if view["phase"] == "play":
            ws.close()
            return
        legal = view["legal"]
        if view["phase"] == "auction":
            action = "bid spades" if "bid spades" in legal else "pass"
        elif view["phase"] == "trump":
            action = next(a for a in legal if a.startswith("trump"))
        elif view["phase"] == "defence":
            action = "whist"
        else:
            action = legal[0]
        send(ws, {"type": "act", "action": action, "version": state["version"]})
        until(ws, "ack")
        ws.close()
    raise AssertionError("the deal never reached the play")


def error_of(ws: ClientConnection, message: object) -> dict[str, Any]:
    ws.send(message if isinstance(message, str) else json.dumps(message))
    return until(ws, "error")


# --- game actions out of place -----------------------------------------------------------------


def test_redteam_out_of_turn_is_refused_with_its_rule(
    server: ServerProcess, bystander: ClientConnection
) -> None:
    s = seated(server)
    before = snapshot(server, s.table)
    not_to_move = (before[1]["to_move"] + 1) % 3
    ws, state = server.join(s.table, s.tokens[not_to_move])
    err = error_of(ws, {"type": "act", "action": "pass", "version": state["version"], "id": "x1"})
    assert (err["code"], err["rule"], err["id"]) == ("not-your-turn", "R3.2", "x1")
    ws.close()
    assert snapshot(server, s.table) == before
    assert_responsive(bystander)


def test_redteam_another_seats_card_is_refused(server: ServerProcess, bystander: ClientConnection) -> None:
    s = seated(server)
    advance_to_play(server, s)
    ws, state = to_move_state(server, s)
    mine = set(state["view"]["hand"])
    theirs = next(r + u for r in "789TJQKA" for u in "SCDH" if r + u not in mine)
    before = snapshot(server, s.table)
    err = error_of(ws, {"type": "act", "action": theirs, "version": state["version"]})
    assert (err["code"], err["rule"]) == ("card-not-held", "R6.2")
    ws.close()
    assert snapshot(server, s.table) == before
    assert_responsive(bystander)


def test_redteam_stale_version_and_unknown_action(server: ServerProcess, bystander: ClientConnection) -> None:
    s = seated(server)
    before = snapshot(server, s.table)
    ws, state = to_move_state(server, s)
    err = error_of(ws, {"type": "act", "action": "pass", "version": state["version"] + 5})
    assert err["code"] == "stale"
    err = error_of(ws, {"type": "act", "action": "fold", "version": state["version"]})
    assert err["code"] == "parse-action" and "fold" in err["message"]
    ws.close()
    assert snapshot(server, s.table) == before
    assert_responsive(bystander)


def test_redteam_a_resent_command_is_applied_once(server: ServerProcess, bystander: ClientConnection) -> None:
    s = seated(server)
    ws, state = to_move_state(server, s)
    command = {"type": "act", "action": "pass", "version": state["version"], "id": "once"}
    send(ws, command)
    first = until(ws, "ack")
    send(ws, command)
    again = until(ws, "ack")
    assert first["version"] == again["version"] == state["version"] + 1
    ws.close()
    assert snapshot(server, s.table)[0] == state["version"] + 1
    assert_responsive(bystander)


def test_redteam_spectators_cannot_act(server: ServerProcess, bystander: ClientConnection) -> None:
    s = seated(server)
    before = snapshot(server, s.table)
    ws, state = server.join(s.table, None)
    err = error_of(ws, {"type": "act", "action": "pass", "version": state["version"], "id": "s"})
    assert err["code"] == "spectator"
    ws.close()
    assert snapshot(server, s.table) == before
    assert_responsive(bystander)


# --- malformed and oversized input -------------------------------------------------------------


@pytest.mark.parametrize(
    ("attack", "code"),
    [
        ('{"type": "act", "action": "pass", ', "malformed"),
        ("[" * 1500 + "]" * 1500, "malformed"),
        ('{"type": "act", "action": {"a": {"b": {"c": [1, 2, [3, [4]]]}}}, "version": 1}', "malformed"),
        ('{"type": "act", "action": "pass", "version": "1"}', "malformed"),
        ('{"type": "act", "action": "pass", "version": true}', "malformed"),
        ('{"type": "launch", "missiles": true}', "malformed"),
        ('{"type": "hello", "token": null}', "already-joined"),
        ("x" * 10_000, "too-large"),
    ],
    ids=[
        "truncated-json",
        "deeply-nested-json",
        "nested-action",
        "version-as-text",
        "version-as-boolean",
        "unknown-type",
        "second-hello",
        "10kb-frame",
    ],
)
def test_redteam_malformed_messages_get_an_error_and_change_nothing(
    server: ServerProcess, bystander: ClientConnection, attack: str, code: str
) -> None:
    s = seated(server)
    before = snapshot(server, s.table)
    ws, _ = to_move_state(server, s)
    assert error_of(ws, attack)["code"] == code
    assert ping_ms(ws) < RESPONSIVE_MS  # the connection is still served
    ws.close()
    assert snapshot(server, s.table) == before
    assert_responsive(bystander)


@pytest.mark.parametrize("size", [1_000_000, 20_000_000], ids=["1mb", "20mb"])
def test_redteam_a_huge_frame_closes_only_that_connection(
    server: ServerProcess, bystander: ClientConnection, size: int
) -> None:
    """Frames over 64 KiB are refused unread: the socket is closed with 1009."""
    s = seated(server)
    before = snapshot(server, s.table)
    ws, _ = to_move_state(server, s)
    with pytest.raises(ConnectionClosed) as info:
        ws.send("x" * size)
        ws.recv(timeout=10)
    # a client still sending when the server hangs up may meet the reset before the close frame
    assert info.value.rcvd is None or info.value.rcvd.code == 1009
    assert snapshot(server, s.table) == before
    assert_responsive(bystander)


# --- tokens and origins ------------------------------------------------------------------------


def test_redteam_forged_and_cross_table_tokens_are_refused(
    server: ServerProcess, bystander: ClientConnection
) -> None:
    s = seated(server)
    other = seated(server)
    before = snapshot(server, s.table)
    for token in (secrets.token_hex(16), other.tokens[0], "", "x" * 64):
        ws = server.socket(s.table)
        send(ws, {"type": "hello", "token": token})
        err = until(ws, "error")
        assert err["code"] == "bad-token", (token, err)
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=5)
    assert snapshot(server, s.table) == before
    assert_responsive(bystander)


def test_redteam_cross_site_origin_is_refused(server: ServerProcess, bystander: ClientConnection) -> None:
    s = seated(server)
    with pytest.raises(InvalidStatus) as info:
        server.socket(s.table, origin="https://evil.example")  # type: ignore[arg-type]
    assert info.value.response.status_code == 403
    assert_responsive(bystander)


def test_redteam_unknown_table_is_refused(server: ServerProcess) -> None:
    ws = server.socket("no-such-table")  # refused before any hello is read
    assert until(ws, "error")["code"] == "no-table"
    with pytest.raises(ConnectionClosed) as info:
        ws.recv(timeout=5)
    assert info.value.rcvd is not None and info.value.rcvd.code == 1008


# --- floods ------------------------------------------------------------------------------------


def test_redteam_a_message_flood_is_rate_limited(server: ServerProcess, bystander: ClientConnection) -> None:
    s = seated(server)
    before = snapshot(server, s.table)
    ws, state = to_move_state(server, s)
    wrong = {"type": "act", "action": "bid hearts", "version": state["version"]}
    for _ in range(400):
        send(ws, wrong)
    codes: dict[str, int] = {}
    deadline = time.monotonic() + 20
    while sum(codes.values()) < 400 and time.monotonic() < deadline:
        message = json.loads(ws.recv(timeout=10))
        if message["type"] == "error":
            codes[message["code"]] = codes.get(message["code"], 0) + 1
    assert codes.get("rate-limited", 0) > 100, codes
    assert set(codes) <= {"rate-limited", "bid-not-next-step", "first-bid-spades"}, codes
    ws.close()
    assert snapshot(server, s.table) == before
    assert_responsive(bystander)


def test_redteam_the_server_logged_no_traceback(server: ServerProcess) -> None:
    """Every attack above reached a running server; none may leave a traceback."""
    assert "Traceback" not in server.log()


# --- what the public-server work added ---------------------------------------------------------


def test_redteam_a_binary_frame_gets_an_error_and_close_1003(
    server: ServerProcess, bystander: ClientConnection
) -> None:
    s = seated(server)
    before = snapshot(server, s.table)
    ws, _ = to_move_state(server, s)
    ws.send(b"\x00\x01 not text")
    assert until(ws, "error")["code"] == "binary-frame"
    with pytest.raises(ConnectionClosed) as info:
        ws.recv(timeout=5)
    assert info.value.rcvd is not None and info.value.rcvd.code == 1003
    assert snapshot(server, s.table) == before
    assert_responsive(bystander)


def test_redteam_another_seats_command_id_is_not_a_duplicate(
    server: ServerProcess, bystander: ClientConnection
) -> None:
    """A command id belongs to the seat that sent it: another seat reusing it is not
    acknowledged as done, and the same id for another action is refused."""
    s = seated(server)
    ws, state = to_move_state(server, s)
    seat = state["view"]["to_move"]
    send(ws, {"type": "act", "action": "pass", "version": state["version"], "id": "shared"})
    assert until(ws, "ack").get("duplicate") is None
    send(ws, {"type": "act", "action": "bid spades", "version": state["version"] + 1, "id": "shared"})
    assert until(ws, "error")["code"] == "id-reused"
    ws.close()
    ws, state = to_move_state(server, s)
    assert state["view"]["to_move"] != seat
    send(ws, {"type": "act", "action": "pass", "version": state["version"], "id": "shared"})
    ack = until(ws, "ack")
    assert ack.get("duplicate") is None and ack["version"] == state["version"] + 1
    ws.close()
    assert_responsive(bystander)


def test_redteam_silent_readers_do_not_hold_the_table(
    server: ServerProcess, bystander: ClientConnection
) -> None:
    """Spectators that never read their sockets: the seats still get every move at once."""
    s = seated(server)
    silent = [server.socket(s.table) for _ in range(40)]
    for ws in silent:
        send(ws, {"type": "hello", "token": None})
    took = []
    for _ in range(12):
        ws, state = to_move_state(server, s)
        view = state["view"]
        if not view["legal"]:
            ws.close()
            break
        action = "pass" if "pass" in view["legal"] else view["legal"][0]
        start = time.perf_counter()
        send(ws, {"type": "act", "action": action, "version": state["version"]})
        until(ws, "ack")
        took.append((time.perf_counter() - start) * 1000)
        ws.close()
    for ws in silent:
        ws.close()
    assert took and max(took) < RESPONSIVE_MS, took
    assert_responsive(bystander)


def test_redteam_table_creation_flood_is_refused(tmp_path_factory: pytest.TempPathFactory) -> None:
    """With the default limits, one address gets 10 tables at once, then 429s with
    Retry-After; the server keeps serving."""
    proc = ServerProcess(tmp_path_factory.mktemp("flood"))
    try:
        answers = []
        for _ in range(30):
            status, body, headers = proc.request(
                "POST", "/api/tables", {"name": "flood", "seats": [{"kind": "human"}] * 3}
            )
            answers.append((status, body if status != 201 else None, headers.get("retry-after")))
        assert [a[0] for a in answers[:10]] == [201] * 10
        refused = answers[10:]
        assert all(status == 429 for status, _, _ in refused), answers
        assert all(body["error"]["code"] == "rate-limited" and after for _, body, after in refused)
        status, page, _ = proc.request("GET", "/api/tables")
        assert status == 200 and page["total"] == 10
    finally:
        proc.stop()
    assert "Traceback" not in proc.log()


def test_redteam_watchers_beyond_the_cap_are_refused(
    server: ServerProcess, bystander: ClientConnection
) -> None:
    s = seated(server)
    watchers = []
    for _ in range(MAX_WATCHERS):
        ws, _ = server.join(s.table, None)
        watchers.append(ws)
    one_more = server.socket(s.table)
    send(one_more, {"type": "hello", "token": None})
    assert until(one_more, "error")["code"] == "too-many-watchers"
    with pytest.raises(ConnectionClosed) as info:
        one_more.recv(timeout=5)
    assert info.value.rcvd is not None and info.value.rcvd.code == 1013
    ws, _ = server.join(s.table, s.tokens[0])  # a seated person still gets in
    ws.close()
    for w in watchers:
        w.close()
    assert_responsive(bystander)
