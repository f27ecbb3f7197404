"""What every HTTP answer has in common: one error shape (validation errors naming the
field, unknown addresses, wrong methods, crashes, limits), strict types in bodies, the
security headers, compression, and the client's files cached for a year under a
versioned address (``paston serve`` sets the limits and the trusted proxies)."""

from __future__ import annotations

import gzip
import json
import os
import re
import socket
import sqlite3
import subprocess
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server_process import paston_command

from paston.server.web.app import STATIC, create_app

HUMANS = [{"kind": "human"}] * 3


@pytest.fixture()
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "paston.db"


@pytest.fixture()
def client(db_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{db_path}", bot_delay=0.0), raise_server_exceptions=False) as c:
        yield c


def _error(res: Any, status: int, code: str) -> dict[str, Any]:
    assert res.status_code == status, res.text
    body = res.json()
    assert list(body) == ["error"], body  # the one shape: no "detail"
    assert body["error"]["code"] == code and isinstance(body["error"]["message"], str), body
    return dict(body["error"])


# --- one error shape -------------------------------------------------------------------------------
def test_validation_errors_have_the_one_shape_and_name_the_field(client: TestClient) -> None:
    error = _error(client.post("/api/tables", json={"name": "x", "seats": HUMANS[:2]}), 422, "malformed")
    assert error["field"] == "seats" and error["message"].startswith("seats: ")
    seats = [{"kind": "robot"}, *HUMANS[:2]]
    error = _error(client.post("/api/tables", json={"name": "x", "seats": seats}), 422, "malformed")
    assert error["field"] == "seats.0.kind" and "'human' or 'bot'" in error["message"]
    error = _error(client.post("/api/tables", json={"seats": HUMANS}), 422, "malformed")
    assert error["field"] == "name"
    bad_json = client.post("/api/tables", content=b'{"name": ', headers={"content-type": "application/json"})
    assert _error(bad_json, 422, "malformed")["message"] == "the body is not valid JSON"
    assert _error(client.get("/api/games", params={"limit": "many"}), 422, "malformed")["field"] == "limit"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (
            {"name": "x", "seats": [{"kind": "bot", "bot": "pimc", "level": True}, *HUMANS[:2]]},
            "seats.0.level",
        ),
        (
            {"name": "x", "seats": [{"kind": "bot", "bot": "pimc", "level": 2.0}, *HUMANS[:2]]},
            "seats.0.level",
        ),
        ({"name": "x", "seats": HUMANS, "takeover_seconds": True}, "takeover_seconds"),
        ({"name": "x", "seats": HUMANS, "takeover_seconds": "30"}, "takeover_seconds"),
        ({"name": 5, "seats": HUMANS}, "name"),
    ],
)
def test_bodies_are_strictly_typed(client: TestClient, body: dict[str, Any], field: str) -> None:
    error = _error(client.post("/api/tables", json=body), 422, "malformed")
    assert error["field"] == field
    assert client.get("/api/tables").json()["total"] == 0


def test_a_seat_name_must_be_a_string(client: TestClient) -> None:
    table = client.post("/api/tables", json={"name": "x", "seats": HUMANS}).json()["id"]
    _error(client.post(f"/api/tables/{table}/seats/0", json={"name": True}), 422, "malformed")
    assert client.post(f"/api/tables/{table}/seats/0", json={"name": "Ana"}).status_code == 200


def test_unknown_addresses_wrong_methods_and_crashes_have_the_one_shape(
    client: TestClient, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    assert "/api/nothing" in _error(client.get("/api/nothing"), 404, "not-found")["message"]
    _error(client.get("/static/nothing.js"), 404, "not-found")
    _error(client.get("/api/tables/nope"), 404, "no-table")
    res = client.delete("/api/tables")
    _error(res, 405, "method-not-allowed")
    assert "GET" in res.headers["allow"]
    with sqlite3.connect(db_path) as db:  # the database breaks under the server
        db.execute("ALTER TABLE tables RENAME TO gone")
    with caplog.at_level("ERROR", logger="paston.server"):
        error = _error(client.get("/api/games"), 500, "internal")
    assert "Traceback" not in error["message"] and "gone" not in error["message"]
    # logged once, in one line, with the id the client was given (to quote to the operator)
    assert re.fullmatch(r"[0-9a-f]{8}", error["id"]) and error["id"] in error["message"]
    lines = [r for r in caplog.records if r.name == "paston.server"]
    assert len(lines) == 1 and lines[0].exc_info is None
    assert f"error {error['id']}: GET /api/games failed" in lines[0].getMessage()


# --- headers, compression, caching ----------------------------------------------------------------
def test_every_answer_has_the_security_headers(client: TestClient) -> None:
    for path in ("/", "/t/abc", "/api/meta", "/api/nothing", f"/static/{_version(client)}/app.js"):
        headers = client.get(path).headers
        csp = headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp, path
        assert "unsafe-inline" not in csp
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "same-origin"


def test_the_page_has_no_inline_script_and_points_at_versioned_files(client: TestClient) -> None:
    page = client.get("/")
    assert page.headers["cache-control"] == "no-cache"
    html = page.text
    assert re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html) is None  # every script is a file
    assert re.search(r"\son\w+=", html) is None and "style=" not in html
    version = _version(client)
    assert f'src="/static/{version}/app.js"' in html and f'href="/static/{version}/style.css"' in html
    assert '"/static/' not in html.replace(f'"/static/{version}/', "")
    # the modules import each other relatively: they resolve under the versioned address too
    for module in STATIC.glob("*.js"):
        for target in re.findall(r'from "([^"]+)"', module.read_text()):
            assert target.startswith("./"), (module.name, target)


def _version(client: TestClient) -> str:
    found = re.search(r'src="/static/([0-9a-f]{12})/app\.js"', client.get("/").text)
    assert found is not None
    return found.group(1)


def test_client_files_are_cached_for_a_year_and_compressed(client: TestClient) -> None:
    version = _version(client)
    res = client.get(f"/static/{version}/style.css", headers={"accept-encoding": "gzip"})
    assert res.status_code == 200
    assert res.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert res.headers["content-encoding"] == "gzip"
    assert res.text == (STATIC / "style.css").read_text()
    with client.stream("GET", f"/static/{version}/style.css", headers={"accept-encoding": "gzip"}) as raw:
        sent = b"".join(raw.iter_raw())
    assert len(sent) < len((STATIC / "style.css").read_bytes()) / 3
    assert gzip.decompress(sent) == (STATIC / "style.css").read_bytes()
    small = client.get(f"/static/{version}/favicon.svg", headers={"accept-encoding": "gzip"})
    assert "content-encoding" not in small.headers  # under 1 KB: not worth it
    # the unversioned address still answers, but is revalidated; another version is not there
    plain = client.get("/static/app.js")
    assert plain.status_code == 200 and plain.headers["cache-control"] == "no-cache"
    _error(client.get("/static/000000000000/app.js"), 404, "not-found")
    # the JSON API is compressed as well
    lobby = client.get("/api/meta", headers={"accept-encoding": "gzip"})
    assert lobby.headers["content-encoding"] == "gzip" and lobby.headers["cache-control"] == "no-cache"


def test_the_version_changes_with_the_files(tmp_path: Path) -> None:
    from paston.server.web.http import static_version

    folder = tmp_path / "static"
    folder.mkdir()
    (folder / "app.js").write_text("one")
    before = static_version(folder)
    (folder / "app.js").write_text("two")
    assert static_version(folder) != before


# --- paston serve: limits and trusted proxies ------------------------------------------------------
def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _post(port: int, forwarded_for: str) -> tuple[int, dict[str, Any], str | None]:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/tables",
        data=json.dumps({"name": "P", "seats": HUMANS}).encode(),
        headers={"content-type": "application/json", "x-forwarded-for": forwarded_for},
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as res:
            return res.status, json.loads(res.read()), None
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read()), err.headers.get("retry-after")


def test_serve_sets_the_limits_and_believes_only_trusted_proxies(tmp_path: Path) -> None:
    port = _port()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    args = ["--create-burst", "2", "--create-every", "600", "--trusted-proxy", "192.0.2.0/24,127.0.0.1"]
    proc = subprocess.Popen(
        [
            *paston_command(),
            "serve",
            "--port",
            str(port),
            "--database-url",
            f"sqlite:///{tmp_path / 'p.db'}",
            *args,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    try:
        assert proc.stdout is not None and "running" in proc.stdout.readline()
        assert [_post(port, "203.0.113.1")[0] for _ in range(2)] == [201, 201]
        status, body, retry = _post(port, "203.0.113.1")
        assert (status, body["error"]["code"]) == (429, "rate-limited") and retry is not None
        assert 500 < int(retry) <= 600
        assert _post(port, "203.0.113.2")[0] == 201  # another client behind the proxy
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_serve_refuses_a_bad_trusted_proxy_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [*paston_command(), "serve", "--port", str(_port()), "--trusted-proxy", "10.0.0.0/40"],
        capture_output=True,
        text=True,
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path)},
        timeout=60,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip() == "error: --trusted-proxy: not an address or network: '10.0.0.0/40'"
