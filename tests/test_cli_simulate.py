"""``paston simulate`` as a new user runs it: files, seeds, rule variants, bad arguments."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import Result

from cli_helpers import assert_fails, assert_ok, flat, invoke
from paston.record import read_file


def simulate(out: Path, *args: object) -> Result:
    return invoke("simulate", "--out", out, "--quiet", *args)


# --- the file ---------------------------------------------------------------------------
def test_simulate_writes_n_records_as_json_lines(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    result = simulate(out, "--games", 5, "--seed", 7)
    assert_ok(result)
    assert result.stdout == ""
    text = out.read_text(encoding="utf-8")
    assert text.endswith("\n")
    lines = text.splitlines()
    assert len(lines) == 5
    for line in lines:
        record = json.loads(line)
        assert record["format"] == "paston/1"
        assert record["winners"], "a simulated game is played to the end"
    matches = read_file(out)
    assert len(matches) == 5
    assert all(m.is_over for m in matches)
    assert not (tmp_path / "games.jsonl.partial").exists()


def test_simulate_one_game_by_default(tmp_path: Path) -> None:
    out = tmp_path / "one.jsonl"
    assert_ok(simulate(out))
    assert len(out.read_text(encoding="utf-8").splitlines()) == 1


def test_same_seed_gives_byte_identical_files(tmp_path: Path) -> None:
    a, b, c = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    assert_ok(simulate(a, "--games", 4, "--seed", 123))
    assert_ok(simulate(b, "--games", 4, "--seed", 123))
    assert_ok(invoke("simulate", "--out", c, "--games", 4, "--seed", 123))  # with the progress bar
    assert a.read_bytes() == b.read_bytes() == c.read_bytes()


def test_different_seeds_give_different_files(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert_ok(simulate(a, "--games", 3, "--seed", 1))
    assert_ok(simulate(b, "--games", 3, "--seed", 2))
    assert a.read_bytes() != b.read_bytes()
    # and the games within one file differ from each other
    lines = a.read_text(encoding="utf-8").splitlines()
    assert len(set(lines)) == 3


def test_every_line_passes_check(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    assert_ok(simulate(out, "--games", 4, "--seed", 99))
    result = invoke("check", out)
    assert_ok(result)
    assert "OK (4 games)" in result.output
    for i, line in enumerate(out.read_text(encoding="utf-8").splitlines()):
        single = tmp_path / f"game{i}.json"
        single.write_text(line + "\n", encoding="utf-8")
        one = invoke("check", single)
        assert_ok(one)
        assert "OK (1 game)" in one.output


def test_progress_and_summary_go_to_stderr_not_into_the_file(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    result = invoke("simulate", "--out", out, "--games", 3, "--seed", 5)
    assert_ok(result)
    assert result.stdout == ""
    assert "3 games" in result.stderr
    assert str(out) in flat(result.stderr)
    assert len(out.read_text(encoding="utf-8").splitlines()) == 3


def test_quiet_prints_nothing(tmp_path: Path) -> None:
    result = simulate(tmp_path / "q.jsonl", "--games", 2)
    assert_ok(result)
    assert result.output == ""


def test_existing_file_is_replaced_with_force(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    out.write_text("old content\n", encoding="utf-8")
    assert_fails(simulate(out, "--games", 2), "already exists", "--force", code=2)
    assert out.read_text(encoding="utf-8") == "old content\n"
    assert_ok(simulate(out, "--games", 2, "--force"))
    assert "old content" not in out.read_text(encoding="utf-8")
    assert len(read_file(out)) == 2


# --- rule variants ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("rules", "expected"),
    [
        ("spanish", {}),
        ("flat", {"lone_defender": "flat"}),
        ("no-surrender-bonus", {"surrender_bonus": 0}),
        ("preference", {"second_dealer": "rotate", "all_pass_declarer": "first-bidder"}),
        ("short", {"target": 61}),
        ("spanish,target=61,lone_defender=flat", {"target": 61, "lone_defender": "flat"}),
        ("target=30,surrender_bonus=0", {"target": 30, "surrender_bonus": 0}),
        (
            "all_pass_declarer=first-bidder,second_dealer=rotate",
            {"all_pass_declarer": "first-bidder", "second_dealer": "rotate"},
        ),
    ],
)
def test_rule_variants_are_recorded_in_the_file(
    tmp_path: Path, rules: str, expected: dict[str, object]
) -> None:
    out = tmp_path / "v.jsonl"
    assert_ok(simulate(out, "--games", 2, "--seed", 3, "--rules", rules))
    full = {
        "lone_defender": "graded",
        "surrender_bonus": 2,
        "all_pass_declarer": "spade-jack",
        "second_dealer": "first-bidder",
        "target": 121,
        **expected,
    }
    for line in out.read_text(encoding="utf-8").splitlines():
        assert json.loads(line)["rules"] == full
    matches = read_file(out)
    for m in matches:
        assert max(m.totals) >= full["target"]  # played to the chosen target
    assert_ok(invoke("check", out))


def test_rules_change_the_games(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert_ok(simulate(a, "--games", 2, "--seed", 3))
    assert_ok(simulate(b, "--games", 2, "--seed", 3, "--rules", "short"))
    assert a.read_bytes() != b.read_bytes()


def test_max_deals_stops_games_early_and_records_stay_valid(tmp_path: Path) -> None:
    out = tmp_path / "short.jsonl"
    assert_ok(simulate(out, "--games", 3, "--seed", 4, "--max-deals", 1))
    for line in out.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        completed = [d for d in record["deals"] if "result" in d]
        assert len(completed) <= 1
    assert_ok(invoke("check", out))


# --- bad arguments ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["--players", "random,random"], ["--players", "three players"]),
        (["--players", "random,random,random,random"], ["--players", "three players"]),
        (["--players", "random,random,alphazero"], ["--players", "unknown player 'alphazero'", "random"]),
        (["--players", "Random,,random"], ["--players", "unknown player ''"]),
        (["--games", "0"], ["--games"]),
        (["--games", "-3"], ["--games"]),
        (["--games", "many"], ["--games"]),
        (["--seed", "lucky"], ["--seed"]),
        (["--max-deals", "0"], ["--max-deals"]),
        (["--rules", "target=abc"], ["--rules", "target", "'abc'"]),
        (["--rules", "target=0"], ["--rules", "target"]),
        (["--rules", "colour=red"], ["--rules", "unknown rule switch 'colour'"]),
        (["--rules", "bogus"], ["--rules", "unknown preset 'bogus'", "spanish"]),
        (["--rules", "lone_defender=steep"], ["--rules", "lone_defender", '"steep"']),
        (["--rules", "surrender_bonus=5"], ["--rules", "surrender_bonus"]),
        (["--rules", "second_dealer=left"], ["--rules", "second_dealer"]),
    ],
)
def test_bad_arguments_fail_readably_and_write_nothing(
    tmp_path: Path, args: list[str], needles: list[str]
) -> None:
    out = tmp_path / "never.jsonl"
    result = invoke("simulate", "--out", out, *args)
    assert_fails(result, *needles, code=2)
    assert result.stdout == ""
    assert not out.exists()
    assert not (tmp_path / "never.jsonl.partial").exists()


def test_missing_out_option_is_named() -> None:
    assert_fails(invoke("simulate", "--games", 1), "missing option", "--out", code=2)


def test_out_in_a_missing_directory_fails_readably(tmp_path: Path) -> None:
    out = tmp_path / "no" / "such" / "dir" / "g.jsonl"
    # refused before any game is played, as by every command that writes a file
    assert_fails(invoke("simulate", "--out", out, "-q"), "cannot write", "g.jsonl", "does not exist", code=2)
    assert not out.exists()


def test_summary_counts_are_singular_for_one(tmp_path: Path) -> None:
    result = invoke("simulate", "--out", tmp_path / "g.jsonl", "--max-deals", 1)
    assert_ok(result)
    assert "1 game, 1 deal in" in flat(result.output)


def test_out_that_is_a_directory_is_refused(tmp_path: Path) -> None:
    assert_fails(invoke("simulate", "--out", tmp_path), "--out", "directory", code=2)


def test_simulate_help_names_the_options() -> None:
    result = invoke("simulate", "--help")
    assert_ok(result)
    text = flat(result.output)
    for option in ("--out", "--games", "--seed", "--players", "--rules", "--max-deals", "--quiet"):
        assert option in text


# --- the installed console script ------------------------------------------------------
def paston_script() -> Path:
    script = Path(sys.executable).parent / ("paston.exe" if sys.platform == "win32" else "paston")
    if not script.exists():
        pytest.fail("the paston console script is not installed next to this Python: run `bash scripts/test`")
    return script


def test_installed_script_simulates_and_checks(tmp_path: Path) -> None:
    script = paston_script()
    out = tmp_path / "games.jsonl"
    run = subprocess.run(
        [str(script), "simulate", "--games", "3", "--seed", "7", "--out", str(out)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == ""
    assert "3 games" in run.stderr
    again = tmp_path / "again.jsonl"
    assert_ok(simulate(again, "--games", 3, "--seed", 7))
    assert out.read_bytes() == again.read_bytes(), "the script and the app agree byte for byte"
    check = subprocess.run(
        [str(script), "check", str(out)], capture_output=True, text=True, encoding="utf-8", timeout=60
    )
    assert check.returncode == 0, check.stdout + check.stderr
    assert "OK (3 games)" in check.stdout


def test_installed_script_rejects_bad_players_without_traceback(tmp_path: Path) -> None:
    script = paston_script()
    run = subprocess.run(
        [str(script), "simulate", "--players", "random,nobody,random", "--out", str(tmp_path / "x.jsonl")],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    assert "unknown player 'nobody'" in flat(run.stderr)


def test_top_level_help_shows_each_command_in_one_whole_sentence() -> None:
    import typer.main

    from paston.cli import app

    text = flat(invoke("--help").output)
    group = typer.main.get_command(app)
    assert isinstance(group, typer.main.TyperGroup)
    for name, command in group.commands.items():
        raw = (command.help or "").strip().split("\n\n")[0]
        assert "\n" not in raw, f"{name}: a line break in the first paragraph shows in paston --help"
        first = " ".join(raw.split())
        assert first.endswith("."), (name, first)
        assert first.count(". ") == 0, f"{name}: the first paragraph is one sentence: {first}"
        assert f"{name} {first}" in text, (name, first)
