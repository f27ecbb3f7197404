"""The installable web app in chromium (issue 23): chromium reads the manifest without
errors and finds nothing against installing the app; the service worker registers,
controls the page after a reload and caches the shell under a name with the client's
version, and a refused registration changes nothing; a new worker takes over at once and
deletes the other versions' caches; the browser offline, a reload still shows the app
(its modules from the cache), while a page never cached shows the offline page, in the
language chosen in the app, which axe-core finds nothing wrong with.

One server and one browser profile for the module: the worker, its cache and the offline
state build on each other, in the order of the tests (each also runs alone). The profile
is a persistent one (not Playwright's usual incognito-like context, where chromium never
offers to install).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page

from browser_helpers import CHROMIUM, CHROMIUM_ARGS, LiveServer, live, sync_playwright

__all__ = ["live"]  # the fixture, imported for pytest

LOBBY_FORM = "[data-testid=new-table]"  # drawn by the lobby's module: the app ran
#: axe-core from npm (``scripts/test`` installs it), evaluated in the page, never served
AXE = Path(__file__).resolve().parent.parent / ".axe" / "node_modules" / "axe-core" / "axe.min.js"


def axe(page: Page, what: str) -> None:
    """Every axe-core rule over the page (as test_browser_access.py runs them; a test module
    imports no other): any violation fails, listed with its elements."""
    if not AXE.exists():
        pytest.fail(f"the accessibility checks need axe-core from npm at {AXE}: run `bash scripts/test`")
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")
    found = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ['violations']})).violations.map(
             v => ({id: v.id, help: v.help, nodes: v.nodes.map(n => n.target.join(' '))}))"""
    )
    assert found == [], f"axe-core violations on {what}:\n" + json.dumps(found, indent=1, ensure_ascii=False)


@pytest.fixture(scope="module")
def profile(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrowserContext]:
    """Debian's chromium with a profile of its own, for the module (see the fixture
    ``browser`` of browser_helpers for why not once per session)."""
    if sync_playwright is None or not os.path.exists(CHROMIUM):
        pytest.fail(f"the browser tests need Playwright for Python and {CHROMIUM}: run `bash .ci/run`")
    folder: Path = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            str(folder), executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True, service_workers="allow"
        )
        ctx.set_default_timeout(10_000)
        yield ctx
        ctx.close()


@pytest.fixture(scope="module")
def page(profile: BrowserContext) -> Iterator[Page]:
    """The module's one page; a JavaScript error on it, or anything the
    Content-Security-Policy refuses, fails the module at its end."""
    p = profile.pages[0] if profile.pages else profile.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda err: errors.append(str(err)))
    p.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
    yield p
    assert not errors, f"JavaScript errors: {errors}"


def controller(page: Page) -> Any:
    return page.evaluate("() => navigator.serviceWorker.controller?.scriptURL ?? null")


def controlled_lobby(page: Page, url: str) -> None:
    """The lobby on the page, under the worker (what the first test leaves; so that any
    test of the module also runs alone)."""
    if not page.url.startswith(url) or controller(page) is None:
        page.goto(url + "/")
        page.evaluate("async () => { await navigator.serviceWorker.ready; }")
        page.reload()
    page.wait_for_selector(LOBBY_FORM)


def test_the_worker_registers_and_controls_the_page_after_a_reload(live: LiveServer, page: Page) -> None:
    page.goto(live.url + "/")
    page.wait_for_selector(LOBBY_FORM)
    assert page.evaluate("async () => (await navigator.serviceWorker.ready).scope") == live.url + "/"
    page.reload()
    page.wait_for_selector(LOBBY_FORM)
    assert controller(page) == live.url + "/sw.js"
    version = live.app.state.static_version
    assert page.evaluate("() => caches.keys()") == [f"paston-shell-{version}"]
    cached = set(
        page.evaluate(
            "async (name) => (await (await caches.open(name)).keys()).map(r => new URL(r.url).pathname)",
            f"paston-shell-{version}",
        )
    )
    shell = {"/", "/offline.html", *(f"/static/{version}/{f}" for f in ("app.js", "install.js", "style.css"))}
    assert shell <= cached, shell - cached
    assert f"/static/{version}/manifest.webmanifest" in cached and f"/static/{version}/icon-192.png" in cached
    assert f"/static/{version}/sw.js" not in cached and not any(p.startswith("/api/") for p in cached)


def test_a_refused_registration_is_ignored(live: LiveServer, page: Page) -> None:
    controlled_lobby(page, live.url)
    version = live.app.state.static_version  # the module app.js imported: evaluated once
    got = page.evaluate(
        """async (url) => {
             const { registerWorker } = await import(url);
             const refusing = { register: () => Promise.reject(new DOMException('no', 'SecurityError')) };
             const throwing = { register: () => { throw new TypeError('no workers here'); } };
             return [await registerWorker(refusing), await registerWorker(throwing)];
           }""",
        f"/static/{version}/install.js",
    )
    assert got == [None, None]


def test_a_new_worker_takes_over_and_deletes_the_caches_of_other_versions(
    live: LiveServer, page: Page
) -> None:
    controlled_lobby(page, live.url)
    version = live.app.state.static_version
    page.evaluate(
        "async () => (await caches.open('paston-shell-000000000000')).put('/', new Response('old'))"
    )
    # another script address for the same scope is a new worker, as a new version's bytes are
    took_over = page.evaluate(
        """() => new Promise((resolve, reject) => {
             const workers = navigator.serviceWorker;
             workers.addEventListener('controllerchange', () => {
               const now = workers.controller;  // activating: its activate event is under way
               const done = () => now.state === 'activated' && resolve(now.scriptURL);
               now.addEventListener('statechange', done);
               done();
             }, {once: true});
             workers.register('/sw.js?next', {scope: '/'}).catch(reject);
           })"""
    )
    assert took_over == live.url + "/sw.js?next"
    assert page.evaluate("() => caches.keys()") == [f"paston-shell-{version}"]


def test_chromium_reads_the_manifest_and_finds_the_app_installable(
    live: LiveServer, page: Page, profile: BrowserContext
) -> None:
    controlled_lobby(page, live.url)
    cdp = profile.new_cdp_session(page)
    try:
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["errors"] == [] and manifest["url"].endswith("/manifest.webmanifest"), manifest
        assert manifest["manifest"]["display"] == "kStandalone"
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    finally:
        cdp.detach()


def test_offline_a_reload_shows_the_app_and_a_new_page_the_offline_page(
    live: LiveServer, page: Page, profile: BrowserContext
) -> None:
    controlled_lobby(page, live.url)
    cdp = profile.new_cdp_session(page)
    cdp.send("Network.clearBrowserCache")  # the versioned files are in the HTTP cache for a year
    cdp.detach()
    profile.set_offline(True)
    try:
        page.reload()
        page.wait_for_selector(LOBBY_FORM)  # the page and every module, from the worker's cache
        assert str(controller(page)).startswith(live.url + "/sw.js")  # still the worker, offline
        page.goto(live.url + "/replay/never-seen")
        page.wait_for_selector("[data-testid=offline] h1")
        assert page.inner_text("h1") == "You are offline"
        assert page.get_attribute("[data-testid=retry]", "href") == live.url + "/replay/never-seen"
        axe(page, "the offline page")
        page.evaluate("() => localStorage.setItem('paston-lang', 'ru')")  # as the app's picker does
        page.goto(live.url + "/t/never-seen")
        page.wait_for_selector("html[lang=ru] [data-testid=offline]")
        assert page.inner_text("h1") == "Нет подключения к сети"
        axe(page, "the offline page in Russian")
    finally:
        profile.set_offline(False)
