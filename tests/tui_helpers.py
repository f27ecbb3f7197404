"""Helpers of the terminal app's tests: a game against random players, driving the app
by its keys through Textual's pilot, reading what the screen shows, and running
``paston`` on a pseudo-terminal."""

from __future__ import annotations

import asyncio
import os
import pty
import random
import re
import select
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import RichLog, Static

from paston.bots import make_player
from paston.match import Match
from paston.rules import Rules
from paston.tui.session import GameSession
from paston.tui.table_app import PastonApp
from paston.tui.widgets import KEYS, Dialog, Outcome

CARD = re.compile(r"(?<![\w])(10|[789JQKA])([♠♣♦♥])")


def session(
    tmp_path: Path, seed: int, people: frozenset[int] = frozenset({0}), target: int = 121
) -> GameSession:
    names = ["Ana", "Bo", "Cy"]
    bots = {s: make_player("random", seed=seed + s) for s in range(3) if s not in people}
    for s in bots:
        names[s] = f"random ({s})"
    match = Match(first_dealer=seed % 3, seats=tuple(names), rules=Rules(target=target))  # type: ignore[arg-type]
    return GameSession(match, people, bots, tmp_path / "game.json", random.Random(seed))


def run(
    app: PastonApp, body: Callable[[Pilot[Outcome]], Awaitable[None]], size: tuple[int, int] = (80, 24)
) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause(0.05)
            await body(pilot)

    asyncio.run(main())


def legal_key(app: PastonApp) -> str | None:
    """The key of a legal option now (the first), or ``None`` when it is not a person's turn."""
    if app.busy or app.session.waiting_for not in app.session.people:
        return None
    if app.cards_to_mark():
        return KEYS[0] if not app.marked else KEYS[1]
    if app.plays_cards():
        legal = {a.cards[0] for a in app.choices}
        return next(KEYS[i] for i, card in enumerate(app.cards) if card in legal)
    return KEYS[0] if app.choices else None


def screen_text(app: PastonApp) -> str:
    """Everything the main screen shows: its texts, the log and the titles."""
    parts = []
    for widget in app.screen_stack[0].query(Static):
        content = widget.content
        parts.append(content.plain if isinstance(content, Text) else str(content))
        if widget.border_title:
            parts.append(str(widget.border_title))
    for log in app.screen_stack[0].query(RichLog):
        parts.extend(strip.text for strip in log.lines)
    return "\n".join(parts)


async def wait_idle(pilot: Pilot[Outcome], app: PastonApp) -> None:
    for _ in range(200):
        await pilot.pause(0.01)
        if not app.busy or isinstance(app.screen, Dialog):
            return


async def play_until(
    pilot: Pilot[Outcome], app: PastonApp, done: Callable[[], bool], check: Callable[[], None] | None = None
) -> None:
    for _ in range(400):
        await wait_idle(pilot, app)
        if done():
            return
        if isinstance(app.screen, Dialog):
            await pilot.press("enter")
            continue
        if check is not None:
            check()
        key = legal_key(app)
        if key is not None:
            await pilot.press(key)
    raise AssertionError("the game did not get there")


def run_in_terminal(args: list[str], keys: list[tuple[str, str]], cwd: Path, timeout: float = 60.0) -> str:
    """Run ``paston`` on a pseudo-terminal (100×30); for each (wait-for, key) pair, wait
    until the output shows ``wait-for`` and type ``key``. Returns everything it wrote."""
    leader, follower = pty.openpty()
    os.set_blocking(leader, False)
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "100", "LINES": "30", "LANG": "en_US.UTF-8"}
    proc = subprocess.Popen(
        [sys.executable, "-c", "from paston.cli import main; main()", *args],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        cwd=cwd,
        env=env,
        close_fds=True,
    )
    os.close(follower)
    seen = b""
    deadline = time.monotonic() + timeout
    pending = list(keys)
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([leader], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(leader, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                seen += chunk
            if pending and pending[0][0].encode() in seen:
                time.sleep(0.3)
                os.write(leader, pending.pop(0)[1].encode())
            if proc.poll() is not None and not ready:
                break
        assert proc.wait(timeout=10) == 0, seen.decode(errors="replace")[-2000:]
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(leader)
    return seen.decode(errors="replace")
