"""``paston play`` at a real terminal (a pseudo-terminal): the full screen opens, q saves
the game and prints how to go on, and --resume opens it again where it was; hot-seat
needs the full screen."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from paston.cli import app
from paston.match import Match
from paston.record import iter_file

pytest.importorskip("textual")


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


def test_play_opens_the_full_screen_and_q_saves_with_the_way_back(tmp_path: Path) -> None:
    out = run_in_terminal(
        ["play", "--name", "Ana", "--seed", "5", "--opponents", "random,random", "--out", "g.json"],
        [("save & quit", "q")],
        tmp_path,
    )
    assert "\x1b[?1049h" in out  # the alternate screen: the full-screen app
    assert "Game saved (unfinished) to g.json. Go on with: paston play --resume g.json --seed 5" in out
    saved = list(iter_file(tmp_path / "g.json"))
    assert isinstance(saved[0], Match) and saved[0].seats[0] == "Ana"
    again = run_in_terminal(["play", "--resume", "g.json", "--seed", "5"], [("save & quit", "q")], tmp_path)
    assert "\x1b[?1049h" in again and "Go on with: paston play --resume g.json --seed 5" in again


def test_hot_seat_needs_the_full_screen(tmp_path: Path) -> None:
    args = ["play", "--humans", "2", "--name", "Ana,Bo", "--out", str(tmp_path / "h.json")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert "full screen" in result.output


def test_a_hot_seat_game_opens_with_two_people(tmp_path: Path) -> None:
    out = run_in_terminal(
        [
            "play",
            "--humans",
            "2",
            "--name",
            "Ana,Bo",
            "--seed",
            "3",
            "--opponents",
            "random",
            "--out",
            "h.json",
        ],
        [("save & quit", "q")],
        tmp_path,
    )
    assert "Game saved (unfinished)" in out
    saved = list(iter_file(tmp_path / "h.json"))
    assert isinstance(saved[0], Match) and saved[0].seats[:2] == ("Ana", "Bo")


def test_an_unknown_language_is_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["play", "--lang", "xx", "--out", str(tmp_path / "x.json")])
    assert result.exit_code == 2 and "--lang" in result.output
