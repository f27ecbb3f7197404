"""Bad input never crashes the command and never loses a game (issue 24, item 1): any
name printed safely, one error style, ``-`` for standard input and output, Ctrl-C of a
tournament or self-play run stopped cleanly and resumable."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.cli_helpers import DRIVE, assert_fails, assert_ok, flat, invoke

from paston.cli.safe import shown
from paston.record import dumps, read_file

SRC = str(Path(__file__).resolve().parents[1] / "src")

# names with markup, control and bidi characters, and very long ones
TRICKY = st.one_of(
    st.sampled_from(["A[/b]", "[bold red]x", "Ana\x1b[2J", "a\u202eb", ":smile:", "[link=x]y[/link]"]),
    st.text(min_size=1, max_size=40),
    st.text(alphabet=st.sampled_from("[]/\\\x1b\u202e\u2066\n\r\t:ab"), min_size=1, max_size=30),
    st.text(min_size=300, max_size=600),
)


def name_of(raw: str) -> str | None:
    """The name as a command takes it (stripped; no commas, which separate names), or
    ``None`` when it is not usable as a name at all."""
    name = raw.replace(",", "").strip()
    if not name or name in ("0", "1", "2") or name.lower() in ("you", "b", "c"):
        return None
    return name


def no_crash(result: object) -> str:
    exit_code = result.exit_code  # type: ignore[attr-defined]
    output = result.output  # type: ignore[attr-defined]
    assert exit_code in (0, 1, 2), output
    assert "Traceback" not in output
    exception = result.exception  # type: ignore[attr-defined]
    assert exception is None or isinstance(exception, SystemExit), repr(exception)
    return str(output)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raw=TRICKY)
def test_any_name_goes_through_every_command(raw: str) -> None:
    name = name_of(raw)
    if name is None:
        return
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        game = tmp / "g.json"
        result = invoke(
            "play", "--name", name, "--opponents", "random,random", "--seed", "4", "--rules", "target=10",
            "--out", game, input=DRIVE,
        )  # fmt: skip
        out = no_crash(result)
        if result.exit_code == 2:  # a name that looks like a computer player's is refused
            assert "--name" in out
            return
        assert result.exit_code == 0, out
        assert game.exists()
        assert f"you are {shown(name)}, in seat 0" in out
        (match,) = read_file(game)
        assert match.seats[0] == name
        assert shown(name) in no_crash(invoke("replay", game))
        assert no_crash(invoke("check", game)).endswith("OK (1 game)\n")
        assert shown(name) in no_crash(invoke("analyze", game, "-q"))
        assert no_crash(invoke("hint", "--record", game, "--deal", 0, "--action", 0, "--level", 1)) != ""
        # the same record through standard input
        assert shown(name) in no_crash(invoke("replay", "-", input=game.read_text(encoding="utf-8")))
        sheet = tmp / "s.json"
        out = no_crash(invoke("sheet", "new", sheet, "--players", f"{name},B,C"))
        assert sheet.exists(), out
        assert shown(name) in out
        no_crash(invoke("sheet", "add", sheet, "hearts", "-d", "0", "-w", "1,2", "-t", "6,2,2"))
        shown_sheet = no_crash(invoke("sheet", "show", sheet))
        assert "Totals: " + shown(name) in shown_sheet
        assert json.loads(sheet.read_text(encoding="utf-8"))["players"][0] == name


def test_markup_in_names_is_printed_literally(tmp_path: Path) -> None:
    game = tmp_path / "mk.json"
    result = invoke(
        "play", "--name", "A[/b]", "--opponents", "random,random", "--seed", "4", "--out", game,
        input="hint\nquit\n",
    )  # fmt: skip
    assert_ok(result)
    assert "Options for A[/b], best first" in result.output
    assert game.exists()
    sheet = tmp_path / "m3.json"
    assert_ok(invoke("sheet", "new", sheet, "--players", "A[/b],[bold red]Ana,C"))
    text = assert_ok(invoke("sheet", "show", sheet))
    assert "A[/b]" in text and "[bold red]Ana" in text


def test_serve_help_keeps_the_extra_in_brackets() -> None:
    assert "pip install 'paston[server]'" in flat(invoke("serve", "--help").output)


def test_usage_errors_are_one_plain_line() -> None:
    result = invoke("play", "--seat", "5")
    assert result.exit_code == 2
    assert result.output.startswith("error: invalid value for '--seat'")
    assert "see 'paston play --help'" in result.output
    assert "╭" not in result.output and "Usage:" not in result.output


def test_simulate_out_empty_and_dash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert_fails(invoke("simulate", "--out", ""), "the file name is empty", "standard output", code=2)
    result = invoke("simulate", "--out", "-", "-n", "2", "-q")
    assert_ok(result)
    assert not (tmp_path / "-").exists()
    lines = result.stdout.strip().split("\n")
    assert len(lines) == 2 and all(json.loads(line)["format"] == "paston/1" for line in lines)
    assert "OK (2 games)" in assert_ok(invoke("check", "-", input=result.stdout))


def test_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    assert_fails(invoke("replay", tmp_path / "none.json"), "does not exist", code=2)


def test_replay_names_the_json_errors_real_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{\n "format": "paston/1",,\n}\n', encoding="utf-8")
    assert_fails(invoke("replay", bad), "line 2 column", code=1)


def test_replay_tells_a_surrender_once(tmp_path: Path) -> None:
    from paston.bots.runner import seeded_game

    for seed in range(50):
        match = seeded_game(f"s{seed}", ["random", "random", "random"], max_deals=30)
        if any(d.result is not None and str(d.result.outcome) == "surrender" for d in match.deals):
            break
    else:
        pytest.skip("no surrender in these games")
    game = tmp_path / "g.json"
    game.write_text(dumps(match), encoding="utf-8")
    text = assert_ok(invoke("replay", game))
    blocks = [block for block in text.split(" Deal ") if "surrenders" in block]
    assert blocks
    for block in blocks:
        assert block.count("surrenders") == 1, block


def test_verify_prints_one_line_for_many_games_without_fairness(tmp_path: Path) -> None:
    games = tmp_path / "g.jsonl"
    assert_ok(invoke("simulate", "--out", games, "-n", "20", "-q"))
    result = invoke("verify", games)
    assert result.exit_code == 3
    assert result.output.count("\n") == 2, result.output
    assert "20 games of 20 without fairness data" in result.output


def test_bid_prompt_lists_only_the_choices_on_offer(tmp_path: Path) -> None:
    result = invoke(
        "play", "--opponents", "random,random", "--seed", "1", "--out", tmp_path / "g.json",
        input="banana\nquit\n",
    )  # fmt: skip
    assert_ok(result)
    line = result.output.split("'banana'")[1].split("\n")[0]
    assert line.startswith(": your choices are 1: pass, 2: bid "), line
    assert "paston grkha" not in line and "best-spades" not in line


def test_end_of_input_saves_on_a_new_line_with_the_resume_command(tmp_path: Path) -> None:
    game = tmp_path / "g.json"
    result = invoke("play", "--opponents", "random,random", "--seed", "1", "--out", game, input="")
    assert_ok(result)
    assert f"\nGame saved (unfinished) to {game}; to go on: paston play --resume {game}" in result.output
    assert "Computer A (random)" in result.output and "Computer B (random)" in result.output


def test_sheet_errors_name_the_player(tmp_path: Path) -> None:
    sheet = tmp_path / "s.json"
    assert_ok(invoke("sheet", "new", sheet, "--players", "Ana,Bo,Cy"))
    assert_fails(invoke("sheet", "add", sheet, "hearts", "-d", "Ana", "-w", "Bo", "-t", "6,0,4"), "Cy passed")


# --- Ctrl-C -------------------------------------------------------------------------------
def _paston(*args: str, cwd: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": SRC, "COLUMNS": "80"}
    code = "import sys; sys.argv[0] = 'paston'; from paston.cli import main; main()"
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a process group of its own, as a terminal's job
    )


def _interrupt_when(process: subprocess.Popen[str], ready: object, timeout: float = 60) -> None:
    """SIGINT to the whole group (as Ctrl-C sends it) once ``ready()`` is true."""
    end = time.monotonic() + timeout
    while not ready() and time.monotonic() < end:  # type: ignore[operator]
        time.sleep(0.1)
    os.killpg(process.pid, signal.SIGINT)


def test_ctrl_c_stops_a_tournament_cleanly_and_the_checkpoint_resumes(tmp_path: Path) -> None:
    ckpt = tmp_path / "t.ckpt"
    args = ("tournament", "-p", "heuristic,random", "-n", "3000", "-w", "2", "--checkpoint", str(ckpt))
    process = _paston(*args, cwd=tmp_path)
    _interrupt_when(process, lambda: ckpt.exists() and ckpt.read_text().count("\n") > 5)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    for bad in ("Traceback", "KeyboardInterrupt", "Process ForkPoolWorker"):
        assert bad not in err
    assert "interrupted after " in err and " of 3000 deals; run the same command again" in err
    done = int(err.split("interrupted after ")[1].split(" ")[0])
    assert 0 < done < 3000
    # the rest, resumed from the checkpoint (fewer deals, so the test stays short)
    again = _paston(*args[:4], str(done + 2), *args[5:], "-q", cwd=tmp_path)
    out, err = again.communicate(timeout=120)
    assert again.returncode == 0, err
    assert "resumed after " in out, out


def test_ctrl_c_stops_selfplay_cleanly_and_resume_finishes(tmp_path: Path) -> None:
    records = tmp_path / "r.jsonl"
    args = ("selfplay", "--deals", "20000", "-p", "random,random,random", "-w", "2", "--out", str(records))
    process = _paston(*args, cwd=tmp_path)
    _interrupt_when(process, lambda: records.exists() and records.stat().st_size > 20_000)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    for bad in ("Traceback", "KeyboardInterrupt", "Process ForkPoolWorker"):
        assert bad not in err
    assert "of 20000 records; run the same command again with --resume" in err
    done = int(err.split("interrupted after ")[1].split(" ")[0])
    total = str(done + 5)
    again = _paston(*args[:2], total, *args[3:], "--resume", "-q", cwd=tmp_path)
    _, err = again.communicate(timeout=120)
    assert again.returncode == 0, err
    assert records.read_text(encoding="utf-8").count("\n") == done + 5


def test_solve_blames_the_short_hand() -> None:
    result = invoke("solve", "--hand0", "AS KS QS", "--hand1", "7H 8H 9H", "--hand2", "7C")
    assert_fails(result, "--hand2: seat 2 holds 1 card", code=2)
    assert "seat 0" not in result.output


def test_selfplay_resume_of_a_file_it_did_not_write_says_what_is_wrong(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{\n "format": "paston/1"\n}\n', encoding="utf-8")
    result = invoke("selfplay", "--resume", "--out", bad, "--deals", "3", "-p", "random,random,random")
    assert_fails(result, "not a file paston selfplay wrote", "line 1 is not a JSON object", code=2)
    assert bad.read_text(encoding="utf-8") == '{\n "format": "paston/1"\n}\n'
