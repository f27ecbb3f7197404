"""``paston tournament --checkpoint``: a stopped tournament goes on where it stopped, with
the very results (and records) of a run that never stopped."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cli_helpers import assert_fails, assert_ok, flat, invoke
from paston.eval.checkpoint import Checkpoint, CheckpointError, row_from_json, row_to_json
from paston.eval.tournament import play_duplicate_deal
from paston.rules import Rules

PLAYERS = ("heuristic", "random")


def ordinal_report(out: str) -> str:
    """The part of the report that depends on the results only (not on timing)."""
    text = flat(out)
    head = text.split("whist", 1)[1]
    rows = []
    for name in PLAYERS:
        after = head.split(name, 1)[1].split()
        rows.append(" ".join(after[:5]))  # points, [lo, hi], made, surrender, whist
    tail = text.split(f"{PLAYERS[0]} − {PLAYERS[1]}", 1)[1].split(" deals in ")[0]
    return " | ".join(rows) + " | " + tail


def test_row_round_trip_keeps_everything_but_the_record() -> None:
    for row in play_duplicate_deal(3, *PLAYERS, seed=2):
        back = row_from_json(row.deal, json.loads(json.dumps(row_to_json(row))))
        assert back.record == {}
        assert back.decisions == row.decisions
        for field in ("arrangement", "scores", "declarer", "outcome", "contract", "defenders", "tricks"):
            assert getattr(back, field) == getattr(row, field)
        assert back.whist_answers == row.whist_answers


def test_resumed_tournament_equals_an_uninterrupted_one(tmp_path: Path) -> None:
    args = ("-p", ",".join(PLAYERS), "-s", "5", "-w", "1", "-q")
    whole = assert_ok(invoke("tournament", *args, "-n", 40, "--out", tmp_path / "whole.jsonl"))
    ckpt, out = tmp_path / "t.ckpt", tmp_path / "part.jsonl"
    first = assert_ok(invoke("tournament", *args, "-n", 31, "--checkpoint", ckpt, "--out", out))
    assert "(resumed after" not in first
    assert len(ckpt.read_text().splitlines()) == 1 + 31
    rest = assert_ok(invoke("tournament", *args, "-n", 40, "--checkpoint", ckpt, "--out", out))
    assert "(resumed after 31 deals)" in rest
    assert ordinal_report(rest) == ordinal_report(whole)
    assert out.read_bytes() == (tmp_path / "whole.jsonl").read_bytes()
    # once more: nothing left to play, the same report
    again = assert_ok(invoke("tournament", *args, "-n", 40, "--checkpoint", ckpt))
    assert ordinal_report(again) == ordinal_report(whole)


def test_a_line_cut_short_by_a_crash_is_dropped(tmp_path: Path) -> None:
    ckpt = tmp_path / "t.ckpt"
    c = Checkpoint.open(ckpt, PLAYERS, seed=1, rules=Rules())
    for k in range(3):
        c.append(play_duplicate_deal(k, *PLAYERS, seed=1))
    c.close()
    data = ckpt.read_bytes()
    ckpt.write_bytes(data[: len(data) - 40])  # the third deal's line cut short
    again = Checkpoint.open(ckpt, PLAYERS, seed=1, rules=Rules())
    assert len(again.done) == 2
    again.append(play_duplicate_deal(2, *PLAYERS, seed=1))
    again.close()
    lines, before = ckpt.read_bytes().splitlines(), data.splitlines()
    assert lines[:3] == before[:3] and len(lines) == 4  # the third deal written again, whole
    assert json.loads(lines[3])["deal"] == 2


def test_a_checkpoint_of_another_tournament_is_refused(tmp_path: Path) -> None:
    ckpt = tmp_path / "t.ckpt"
    assert_ok(
        invoke("tournament", "-p", ",".join(PLAYERS), "-n", 2, "-s", 1, "-w", 1, "-q", "--checkpoint", ckpt)
    )
    before = ckpt.read_bytes()
    for args, word in (
        (("-s", 2), "seed"),
        (("-s", 1, "-r", "short"), "rules"),
    ):
        res = invoke(
            "tournament", "-p", ",".join(PLAYERS), "-n", 3, "-w", 1, "-q", "--checkpoint", ckpt, *args
        )
        assert_fails(res, "--checkpoint", "another tournament", word)
    res = invoke(
        "tournament", "-p", "random,heuristic", "-n", 3, "-s", 1, "-w", 1, "-q", "--checkpoint", ckpt
    )
    assert_fails(res, "another tournament", "players")
    assert ckpt.read_bytes() == before  # untouched
    other = tmp_path / "notes.txt"
    other.write_text("my notes\n")
    res = invoke("tournament", "-p", ",".join(PLAYERS), "-n", 3, "-w", 1, "-q", "--checkpoint", other)
    assert_fails(res, "not a tournament checkpoint")
    assert other.read_text() == "my notes\n"


def test_a_damaged_line_before_the_last_is_an_error(tmp_path: Path) -> None:
    ckpt = tmp_path / "t.ckpt"
    c = Checkpoint.open(ckpt, PLAYERS, seed=1, rules=Rules())
    for k in range(3):
        c.append(play_duplicate_deal(k, *PLAYERS, seed=1))
    c.close()
    lines = ckpt.read_text().splitlines()
    lines[1] = lines[1][:50]
    ckpt.write_text("\n".join(lines) + "\n")
    with pytest.raises(CheckpointError, match="line 2 is damaged"):
        Checkpoint.open(ckpt, PLAYERS, seed=1, rules=Rules())


def test_resuming_with_fewer_records_than_the_checkpoint_is_refused(tmp_path: Path) -> None:
    ckpt, out = tmp_path / "t.ckpt", tmp_path / "r.jsonl"
    args = ("-p", ",".join(PLAYERS), "-s", 1, "-w", 1, "-q", "--checkpoint", ckpt)
    assert_ok(invoke("tournament", *args, "-n", 3, "--out", out))
    out.write_text("\n".join(out.read_text().splitlines()[:5]) + "\n")
    assert_fails(
        invoke("tournament", *args, "-n", 4, "--out", out), "holds 5 records, fewer than the checkpoint's 18"
    )


def test_killed_tournament_resumes(tmp_path: Path) -> None:
    """A tournament killed with SIGKILL mid-run loses at most the deal in progress."""
    ckpt = tmp_path / "t.ckpt"
    cmd = [
        sys.executable,
        "-c",
        "from paston.cli import app; app()",
        "tournament",
        "-p",
        "heuristic,pimc:1",
        "-n",
        "200",
        "-s",
        "9",
    ]
    cmd += ["-w", "1", "-q", "--checkpoint", str(ckpt)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not ckpt.exists() or len(ckpt.read_bytes().splitlines()) < 3):
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    lines = len(ckpt.read_bytes().splitlines())
    assert lines >= 3
    c = Checkpoint.open(ckpt, ("heuristic", "pimc:1"), seed=9, rules=Rules())
    assert len(c.done) >= 2 and [rows[0].deal for rows in c.done] == list(range(len(c.done)))
    c.close()
