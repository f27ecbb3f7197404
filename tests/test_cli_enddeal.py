"""``paston play`` shows each finished deal's summary (paston.summary through
cli/text.summary_lines) and, with ``--pause`` (the default when a person types at a
terminal), waits for Enter before the next deal."""

from __future__ import annotations

import builtins
import re
from pathlib import Path

import pytest
from tests.cli_helpers import DRIVE, assert_ok, play

from paston.record import read_file
from paston.summary import deal_summary


def test_r7_each_deal_ends_with_its_summary(tmp_path: Path) -> None:
    out = tmp_path / "g.json"
    result = play(out, "--seed", "42", "--rules", "target=20", input=DRIVE)
    assert_ok(result)
    text = result.output
    (match,) = read_file(out)
    scored = [i for i, d in enumerate(match.deals) if d.result is not None]
    assert text.count("Cards as dealt:") == len(scored)
    assert "Press Enter" not in text  # the input is not a terminal: no pause
    for i in scored:
        s = deal_summary(match, i)
        for line in s.seats:  # every seat's line of R7, with its words and new total
            assert f"{line.rule}: {line.text}  → total {line.total}" in text
        assert f"prikup: {s.prikup.pretty()}" in text
    assert re.search(
        r"^(You|Computer [AB] \(random\)) (makes?|fails?|surrenders?) |^Both opponents pass", text, flags=re.M
    )


def test_with_pause_the_next_deal_waits_for_enter(tmp_path: Path) -> None:
    plain, paused = tmp_path / "plain.json", tmp_path / "paused.json"
    assert_ok(play(plain, "--seed", "42", "--rules", "target=20", input=DRIVE))
    result = play(paused, "--seed", "42", "--rules", "target=20", "--pause", input=DRIVE)
    assert_ok(result)
    (match,) = read_file(paused)
    scored = sum(1 for d in match.deals if d.result is not None)
    assert result.output.count("Press Enter for the next deal") == scored - 1  # not after the last
    assert paused.read_bytes() == plain.read_bytes()  # Enter (whatever else is typed) changes nothing


def test_quit_at_the_pause_saves_the_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    feed = iter(["1 2", "1"] * 2000)
    prompts: list[str] = []

    def typed(prompt: str = "") -> str:
        prompts.append(prompt)
        return "quit" if prompt.startswith("Press Enter") else next(feed)

    monkeypatch.setattr(builtins, "input", typed)
    out = tmp_path / "q.json"
    result = play(out, "--seed", "7", "--pause", input="")
    assert_ok(result)
    assert "Game saved (unfinished)" in result.output
    (match,) = read_file(out)
    assert sum(1 for d in match.deals if d.result is not None) == 1  # stopped after the first deal
    assert sum(p.startswith("Press Enter") for p in prompts) == 1
