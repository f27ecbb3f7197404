"""``paston play`` at a real terminal (a pseudo-terminal): the full screen opens, q saves
the game and prints how to go on, and --resume opens it again where it was; hot-seat
needs the full screen."""

from __future__ import annotations

from pathlib import Path

from tests.tui_helpers import run_in_terminal
from typer.testing import CliRunner

from paston.cli import app
from paston.match import Match
from paston.record import iter_file


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
