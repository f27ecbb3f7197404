"""The page's heartbeat (static/live.js, docs/guide/protocol.md): a ping when it sent
nothing for a while, the server's pongs keep the socket, and a socket that brings nothing
at all is given up and connected again: a real ``paston serve`` is frozen (SIGSTOP) under
a watching page, which says it is reconnecting, and comes back once the server runs
again. The page setting "paston-heartbeat" makes the times short here; the defaults are
checked too."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page

from browser_helpers import TABLE, Opener, browser, open_page
from server_process import ServerProcess

__all__ = ["browser", "open_page"]  # the fixtures, imported for pytest

# counts what the page's sockets send and hear, and how many it opened
SPY = """
(() => {
  const Base = window.WebSocket;
  window.spy = { sockets: 0, pings: 0, pongs: 0 };
  window.WebSocket = class extends Base {
    constructor(...args) {
      super(...args);
      window.spy.sockets += 1;
      this.addEventListener('message', (e) => {
        if (JSON.parse(e.data).type === 'pong') window.spy.pongs += 1;
      });
    }
    send(data) {
      if (JSON.parse(data).type === 'ping') window.spy.pings += 1;
      return super.send(data);
    }
  };
  localStorage.setItem('paston-heartbeat', JSON.stringify({ ping: 400, silent: 1500 }));
})();
"""


@pytest.fixture()
def paston(tmp_path: Path) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path)
    yield proc
    os.kill(proc.proc.pid, signal.SIGCONT)  # never leave it frozen
    proc.stop()


def spy(page: Page) -> dict[str, int]:
    return dict(page.evaluate("() => ({...window.spy})"))


def test_the_defaults_are_ten_and_twenty_five_seconds(paston: ServerProcess, open_page: Opener) -> None:
    page = open_page()
    page.goto(paston.base + "/")
    got = page.evaluate("async () => (await import('/static/live.js')).heartbeatTimes()")
    assert got == {"ping": 10_000, "silent": 25_000}
    page.evaluate("() => localStorage.setItem('paston-heartbeat', JSON.stringify({ping: 5, silent: 'x'}))")
    got = page.evaluate("async () => (await import('/static/live.js')).heartbeatTimes()")
    assert got == {"ping": 10_000, "silent": 25_000}  # nonsense is ignored


def test_a_frozen_server_is_left_and_the_page_comes_back(paston: ServerProcess, open_page: Opener) -> None:
    table = paston.new_table()  # three empty seats: nothing happens, nothing is sent
    page = open_page()
    page.add_init_script(SPY)
    page.goto(f"{paston.base}/t/{table}")
    page.wait_for_selector(f"{TABLE}[data-connected=true]")
    time.sleep(3)  # idle: the page pings, the pongs keep the one socket
    idle = spy(page)
    assert idle["sockets"] == 1 and idle["pings"] >= 4 and idle["pongs"] >= 4, idle
    assert page.get_attribute(TABLE, "data-connected") == "true"

    os.kill(paston.proc.pid, signal.SIGSTOP)
    stopped = time.monotonic()
    page.wait_for_selector(f"{TABLE}[data-connected=false]", timeout=10_000)
    assert time.monotonic() - stopped < 5  # within about the silent time (1.5 s here)
    assert "reconnecting" in page.inner_text("#status")
    page.wait_for_function("n => window.spy.sockets > n", arg=1, timeout=10_000)  # it tries again

    os.kill(paston.proc.pid, signal.SIGCONT)
    page.wait_for_selector(f"{TABLE}[data-connected=true]", timeout=20_000)
    assert page.inner_text("#status") == ""


# as a background tab: the browser runs the page's interval timers only every 3 s, twice
# the silent time, while the socket stays live
THROTTLED = """
(() => {
  const every = window.setInterval;
  window.setInterval = (fn, ms, ...args) => every(fn, Math.max(ms, 3000), ...args);
})();
"""


def test_a_slowed_down_background_tab_keeps_a_live_quiet_socket(
    paston: ServerProcess, open_page: Opener
) -> None:
    table = paston.new_table()
    page = open_page()
    page.add_init_script(SPY)
    page.add_init_script(THROTTLED)
    page.goto(f"{paston.base}/t/{table}")
    page.wait_for_selector(f"{TABLE}[data-connected=true]")
    time.sleep(10)  # three checks, each long after the last message: each pings, and hears the pong
    got = spy(page)
    assert got["sockets"] == 1 and got["pings"] >= 2 and got["pongs"] >= 2, got
    assert page.get_attribute(TABLE, "data-connected") == "true"
