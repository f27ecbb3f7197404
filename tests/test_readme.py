"""The README tells the truth: its quickstart and its test command; and the command
reference it points to (docs/guide/cli.md) lists every subcommand, with examples that run
as written."""

from __future__ import annotations

import os
import re
import shlex
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from cli_helpers import flat, invoke
from paston.record import read_file

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
#: the command reference (the README's section "The `paston` command" before the docs site)
CLI_PAGE = ROOT / "docs" / "guide" / "cli.md"


def section(title: str) -> str:
    """The text of the README's ``## title`` section (up to the next ``## ``)."""
    text = README.read_text(encoding="utf-8")
    found = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, flags=re.M | re.S)
    assert found, f"README has no section {title!r}"
    return found.group(1)


def page(path: Path) -> str:
    """The whole text of a documentation page."""
    assert path.exists(), f"{path.relative_to(ROOT)} is missing"
    return path.read_text(encoding="utf-8")


def shell_blocks(text: str) -> list[str]:
    return re.findall(r"^```sh\n(.*?)^```", text, flags=re.M | re.S)


def shell_commands(text: str) -> list[str]:
    """Non-empty, non-comment lines of the ```sh blocks, without trailing comments."""
    out = []
    for block in shell_blocks(text):
        for line in block.splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                out.append(line)
    return out


def paston_commands(text: str) -> list[tuple[list[str], str]]:
    """``paston …`` lines of the sh blocks: (arguments after 'paston', trailing comment)."""
    out = []
    for block in shell_blocks(text):
        for line in block.splitlines():
            line = line.strip()
            if not line.startswith("paston "):
                continue
            command, _, comment = line.partition("#")
            out.append((shlex.split(command)[1:], comment.strip()))
    return out


# --- quickstart and CI -----------------------------------------------------------------
def test_quickstart_has_exactly_two_shell_commands() -> None:
    commands = shell_commands(section("Quickstart"))
    assert len(commands) == 2, commands
    play, tests = commands
    assert play.endswith("paston serve")
    assert "pip install '.[server]'" in play  # the web app needs the server extra
    assert tests == "bash scripts/test"
    script = (ROOT / "scripts" / "test").read_text(encoding="utf-8")
    assert "pip install -q -e '.[test]'" in script
    assert ".venv/bin/python -m pytest" in script


def test_quickstart_serve_starts_the_web_app(tmp_path: Path) -> None:
    """The quickstart's last step, as the installed script runs it (on a free port, with
    the data folder in a temporary directory): it prints the address and serves the app."""
    play = shell_commands(section("Quickstart"))[0]
    args = play.split("&&")[-1].split()[1:]  # after .venv/bin/paston
    assert args == ["serve"]
    script = Path(sys.executable).parent / "paston"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "paston.cli"]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    proc = subprocess.Popen(
        [*command, *args, "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline().decode()
        assert f"open http://localhost:{port}/" in first, first
        assert "open <http://localhost:8000/>" in section("Quickstart")
        page = ""
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1) as res:
                    page = res.read().decode()
                break
            except OSError:
                time.sleep(0.1)
        assert "<title>Paston" in page
        assert (tmp_path / "paston" / "paston.db").exists()
        busy = subprocess.run(
            [*command, "serve", "--port", str(port)], capture_output=True, text=True, env=env, timeout=60
        )
        assert busy.returncode == 2 and f"cannot listen on 127.0.0.1:{port}" in busy.stderr + busy.stdout
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_readme_test_command_is_what_ci_runs() -> None:
    tests = shell_commands(section("Quickstart"))[1]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert tests in ci.splitlines(), "the README's test command must appear verbatim as a line of .ci/run"


def test_ci_script_is_executable_bash() -> None:
    run = ROOT / ".ci" / "run"
    assert run.read_text(encoding="utf-8").startswith("#!/usr/bin/env bash")
    if sys.platform != "win32":
        assert run.stat().st_mode & 0o111


def test_quickstart_python_version_matches_the_package() -> None:
    text = section("Quickstart")
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    version = re.search(r'requires-python = ">=(\d+\.\d+)"', pyproject)
    assert version
    assert f"Python {version.group(1)}+" in text


# --- the paston command (docs/guide/cli.md) ---------------------------------------------
def documented_subcommands() -> set[str]:
    text = page(CLI_PAGE)
    return {args[0] for args, _ in paston_commands(text)}


def test_readme_documents_every_subcommand() -> None:
    assert documented_subcommands() == {
        "play",
        "simulate",
        "check",
        "replay",
        "score",
        "sheet",
        "solve",
        "analyze",
        "hint",
        "tournament",
        "selfplay",
        "verify",
    }


def test_help_lists_every_documented_subcommand() -> None:
    result = invoke("--help")
    assert result.exit_code == 0, result.output
    text = flat(result.output)
    for name in documented_subcommands():
        assert re.search(rf"\b{name}\b", text), f"{name} missing from paston --help"


def test_every_documented_subcommand_has_help() -> None:
    for name in documented_subcommands():
        result = invoke(name, "--help")
        assert result.exit_code == 0, result.output
        assert "Usage:" in result.output


def test_sheet_subcommands_of_the_readme_exist() -> None:
    text = page(CLI_PAGE)
    documented = {args[1] for args, _ in paston_commands(text) if args[0] == "sheet"}
    assert documented == {"new", "add", "show", "undo"}
    help_text = flat(invoke("sheet", "--help").output)
    for name in documented:
        assert re.search(rf"\b{name}\b", help_text)


def test_version() -> None:
    from paston import __version__

    result = invoke("--version")
    assert result.exit_code == 0
    assert result.output.strip() == f"paston {__version__}"


def test_installed_script_help_lists_every_subcommand() -> None:
    script = Path(sys.executable).parent / ("paston.exe" if sys.platform == "win32" else "paston")
    assert script.exists(), (
        "the paston console script is not installed next to this Python: run `bash scripts/test`"
    )
    run = subprocess.run(
        [str(script), "--help"], capture_output=True, text=True, encoding="utf-8", timeout=60
    )
    assert run.returncode == 0, run.stderr
    text = flat(run.stdout)
    for name in documented_subcommands():
        assert re.search(rf"\b{name}\b", text), f"{name} missing from the installed paston --help"


# --- the command reference's examples, run in order --------------------------------------
def _expected_scores(comment: str) -> list[str]:
    return [s.strip() for s in comment.split(",")]


def test_readme_command_examples_run_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ``paston …`` line of the command reference, in order, in an empty directory
    (simulate makes 20 games instead of 1000 to stay fast); a line whose comment starts
    "exit N" must exit N, every other line 0."""
    monkeypatch.chdir(tmp_path)
    for args, comment in paston_commands(page(CLI_PAGE)):
        if args[0] == "simulate" and "--games" in args:
            args = list(args)
            args[args.index("--games") + 1] = "20"
        feed = "1 2\n1\n" * 3000 if args[0] == "play" else None
        result = invoke(*args, input=feed)
        said = re.match(r"exit (\d+)\b", comment)
        expected = int(said.group(1)) if said else 0
        assert result.exit_code == expected, f"paston {' '.join(args)}:\n{result.output}"
        if args[0] == "score" and comment:
            rows = [
                [c.strip() for c in line.split("│")] for line in result.output.splitlines() if "│" in line
            ]
            scores = [r[-1] for r in rows if r[0].isdigit()]
            assert scores == _expected_scores(comment), f"paston {' '.join(args)}"
        if args[0] == "check":
            for name in args[1:]:
                assert f"{name}: OK" in result.output
    assert read_file(tmp_path / "ana.json")[0].seats[0] == "Ana"
    assert len(read_file(tmp_path / "games.jsonl")) == 20
    assert (tmp_path / "evening.json").exists()


def test_terminal_guide_examples_run_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/guide/terminal.md: the game it plays, then what it does with the record."""
    monkeypatch.chdir(tmp_path)
    commands = paston_commands(page(ROOT / "docs" / "guide" / "terminal.md"))
    assert [args[0] for args, _ in commands] == ["play", "play", "play", "replay", "check", "analyze"]
    from tests.tui_helpers import run_in_terminal

    for args, _ in commands[:2]:  # the full screen, on a pseudo-terminal: open it, then q
        quit_label = "выход" if "ru" in args else "save & quit"
        shown = run_in_terminal(args, [(quit_label, "q")], tmp_path)
        assert "Game saved (unfinished)" in shown, shown[-500:]
    for args, _ in commands[2:]:
        feed = "1 2\n1\n" * 3000 if args[0] == "play" else None
        result = invoke(*args, input=feed)
        assert result.exit_code == 0, f"paston {' '.join(args)}:\n{result.output}"
    assert read_file(tmp_path / "ana.json")[0].seats[0] == "Ana"
    assert "ana.json: OK" in invoke("check", "ana.json").output
