"""The installable web app, server side (issue 23): the manifest (its fields, its icons
present with the sizes and types it says, drawn by scripts/make_icons.py), the page's
links to it, the service worker at /sw.js (its headers, the Content-Security-Policy that
allows it, its cache named by the client's version, a shell that the server serves in
full) and the offline page. The browser side: test_browser_pwa.py."""

from __future__ import annotations

import importlib.util
import json
import re
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any
from xml.etree import ElementTree

import numpy as np
import pytest
from fastapi.testclient import TestClient

from paston.server.web.app import STATIC, create_app
from paston.server.web.http import static_version
from paston.server.web.pwa import WORKER, cache_name, shell_addresses, worker_script

MANIFEST = STATIC / "manifest.webmanifest"
ICONS_SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "make_icons.py"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("pwa") / "paston.db"
    with TestClient(create_app(f"sqlite:///{db}", bot_delay=0.0), raise_server_exceptions=False) as c:
        yield c


def manifest() -> dict[str, Any]:
    return dict(json.loads(MANIFEST.read_text(encoding="utf-8")))


def png_header(data: bytes) -> tuple[int, int, int, int]:
    """A PNG's width, height, bit depth and colour type (from IHDR, checked)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    length, kind = struct.unpack(">I4s", data[8:16])
    assert kind == b"IHDR" and length == 13
    body = data[16:29]
    assert struct.unpack(">I", data[29:33])[0] == zlib.crc32(kind + body)
    width, height, depth, colour = struct.unpack(">IIBB", body[:10])
    return width, height, depth, colour


def png_pixels(data: bytes) -> np.ndarray:
    """The RGBA pixels of a PNG written by scripts/make_icons.py (one IDAT, no filters)."""
    width, height, _, _ = png_header(data)
    at, idat = 8, b""
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at : at + 8])
        if kind == b"IDAT":
            idat += data[at + 8 : at + 8 + length]
        at += 12 + length
    rows = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(height, 1 + width * 4)
    assert not rows[:, 0].any(), "filter 0 on every row"
    return rows[:, 1:].reshape(height, width, 4)


def icons_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_icons", ICONS_SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- the manifest and its icons -----------------------------------------------------------------
def test_the_manifest_has_what_installing_needs() -> None:
    m = manifest()
    assert m["name"] == "Paston" and 0 < len(m["short_name"]) <= 12
    assert m["start_url"] == "/" and m["scope"] == "/" and m["id"] == "/"
    assert m["display"] == "standalone"
    felt = re.search(r"--felt:\s*(#[0-9a-fA-F]{6})", (STATIC / "style.css").read_text(encoding="utf-8"))
    assert felt is not None
    assert m["theme_color"].lower() == m["background_color"].lower() == felt.group(1).lower()
    sizes = {(icon["sizes"], icon["type"], icon.get("purpose", "any")) for icon in m["icons"]}
    assert {("192x192", "image/png", "any"), ("512x512", "image/png", "any")} <= sizes
    assert ("any", "image/svg+xml", "any") in sizes and ("512x512", "image/png", "maskable") in sizes


def test_every_icon_exists_with_the_size_and_type_the_manifest_says() -> None:
    for icon in manifest()["icons"]:
        path = STATIC / icon["src"]
        assert path.is_file(), icon
        if icon["type"] == "image/png":
            width, height, depth, colour = png_header(path.read_bytes())
            assert f"{width}x{height}" == icon["sizes"] and (depth, colour) == (8, 6), icon  # RGBA
        else:
            root = ElementTree.fromstring(path.read_text(encoding="utf-8"))
            assert root.tag == "{http://www.w3.org/2000/svg}svg" and root.get("viewBox") == "0 0 512 512"


def test_the_icons_are_what_the_script_draws() -> None:
    script = icons_script()
    assert (STATIC / "icon.svg").read_text(encoding="utf-8") == script.svg()
    drawn = {name: script.render(size, maskable) for name, (size, maskable) in script.PNGS.items()}
    for name, pixels in drawn.items():
        assert np.array_equal(png_pixels((STATIC / name).read_bytes()), pixels), name
    assert np.array_equal(png_pixels(script.png(drawn["icon-192.png"])), drawn["icon-192.png"])
    # a corner: cut from the rounded square, painted on the maskable icon (full-bleed)
    assert drawn["icon-512.png"][0, 0, 3] == 0 and drawn["icon-maskable-512.png"][0, 0, 3] == 255


def test_the_page_links_the_manifest_and_the_theme_colour(client: TestClient) -> None:
    version = client.app.state.static_version  # type: ignore[attr-defined]
    html = client.get("/").text
    assert f'<link rel="manifest" href="/static/{version}/manifest.webmanifest">' in html
    assert f'<meta name="theme-color" content="{manifest()["theme_color"]}">' in html
    res = client.get(f"/static/{version}/manifest.webmanifest")
    assert res.status_code == 200 and res.headers["content-type"] == "application/manifest+json"
    assert res.json() == manifest()


# --- the service worker -------------------------------------------------------------------------
def build_of(script: str) -> dict[str, Any]:
    found = re.search(r"^const BUILD = (\{.*\});$", script, re.MULTILINE)
    assert found is not None, "the server filled in BUILD"
    return dict(json.loads(found.group(1)))


def test_the_worker_is_served_at_the_root_uncached_and_allowed_by_the_policy(client: TestClient) -> None:
    res = client.get("/sw.js")
    assert res.status_code == 200
    assert res.headers["content-type"] == "text/javascript; charset=utf-8"
    assert res.headers["cache-control"] == "no-cache"
    assert res.headers["service-worker-allowed"] == "/"
    csp = client.get("/").headers["content-security-policy"]
    assert "worker-src 'self'" in csp and "manifest-src 'self'" in csp
    assert "script-src 'self'" in csp and "unsafe" not in csp
    version = client.app.state.static_version  # type: ignore[attr-defined]
    build = build_of(res.text)
    assert build["version"] == version and cache_name(version) == f"paston-shell-{version}"
    assert 'const PREFIX = "paston-shell-";' in res.text
    assert "const CACHE = PREFIX + BUILD.version;" in res.text


def test_the_whole_shell_is_served_so_the_worker_installs(client: TestClient) -> None:
    version = client.app.state.static_version  # type: ignore[attr-defined]
    shell = build_of(client.get("/sw.js").text)["shell"]
    files = sorted(p.name for p in STATIC.iterdir() if p.is_file() and p.name != WORKER)
    assert shell == ["/", "/offline.html", *(f"/static/{version}/{name}" for name in files)]
    for address in shell:
        assert client.get(address).status_code == 200, address
    assert not any(a.startswith(("/api/", "/ws/", "/healthz", "/metrics")) for a in shell)


def test_the_worker_leaves_the_api_sockets_health_and_metrics_alone() -> None:
    source = (STATIC / WORKER).read_text(encoding="utf-8")
    found = re.search(r"^const BYPASS = /(.+)/;$", source, re.MULTILINE)
    assert found is not None
    bypass = re.compile(found.group(1).replace("\\/", "/"))  # the same syntax in Python
    for path in ("/api/meta", "/api/tables/x/record", "/ws/tables/x", "/healthz", "/readyz", "/metrics"):
        assert bypass.search(path), path
    assert bypass.search("/sw.js")  # the worker itself, fetched by the browser alone
    for path in ("/", "/t/abc", "/learn", "/apis", "/static/x/app.js", "/offline.html"):
        assert not bypass.search(path), path


def test_the_cache_version_changes_with_any_client_file(tmp_path: Path) -> None:
    static = tmp_path / "static"
    static.mkdir()
    (static / WORKER).write_text((STATIC / WORKER).read_text(encoding="utf-8"), encoding="utf-8")
    (static / "app.js").write_text("one", encoding="utf-8")
    first = build_of(worker_script(static))
    assert first["version"] == static_version(static)
    assert first["shell"] == shell_addresses(["app.js"], first["version"])
    (static / "app.js").write_text("two", encoding="utf-8")
    second = build_of(worker_script(static))
    assert second["version"] != first["version"]
    (static / "sheet.js").write_text("a page added later", encoding="utf-8")
    third = build_of(worker_script(static))
    assert third["version"] not in (first["version"], second["version"])
    assert f"/static/{third['version']}/sheet.js" in third["shell"]  # new files join the shell
    assert worker_script(static, "0123456789ab").count("0123456789ab") == 3  # the version, two addresses


def test_a_worker_source_without_its_build_marker_is_refused(tmp_path: Path) -> None:
    (tmp_path / WORKER).write_text("const BUILD = {};", encoding="utf-8")
    with pytest.raises(ValueError, match="BUILD"):
        worker_script(tmp_path, "0123456789ab")


# --- the offline page ---------------------------------------------------------------------------
def test_the_offline_page_points_at_the_cached_files(client: TestClient) -> None:
    version = client.app.state.static_version  # type: ignore[attr-defined]
    res = client.get("/offline.html")
    assert res.status_code == 200 and res.headers["content-type"].startswith("text/html")
    assert f'src="/static/{version}/offline.js"' in res.text
    assert f'href="/static/{version}/style.css"' in res.text
    assert '"/static/' not in res.text.replace(f'"/static/{version}/', "")
    assert '<html lang="en">' in res.text and "<h1" in res.text
    assert "<script>" not in res.text  # no inline script: the policy would refuse it


def test_the_offline_page_speaks_every_language_of_the_app() -> None:
    i18n = (STATIC / "i18n.js").read_text(encoding="utf-8")
    block = re.search(r"export const LANGUAGES = Object\.freeze\(\{(.*?)\}\);", i18n, re.DOTALL)
    assert block is not None
    languages = re.findall(r"^\s+(\w+): \"", block.group(1), re.MULTILINE)
    source = (STATIC / "offline.js").read_text(encoding="utf-8")
    words = dict(re.findall(r"^  (\w+): \{(.*?)^  \},", source, re.MULTILINE | re.DOTALL))
    assert sorted(words) == sorted(languages) and len(languages) == 5
    shown = set(re.findall(r'data-text="(\w+)"', (STATIC / "offline.html").read_text(encoding="utf-8")))
    for lang, entries in words.items():
        assert set(re.findall(r"^\s+(\w+): \"", entries, re.MULTILINE)) == shown | {"page"}, lang
