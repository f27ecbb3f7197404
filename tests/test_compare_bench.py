"""benchmarks/compare.py: every figure read from its benchmark's real output (the scripts
run with tiny settings in this venv), the ratio, spread and report, the revisions and
their export, the rounds' order, and a whole run of ``compare.py . .`` on this venv."""

from __future__ import annotations

import argparse
import doctest
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks"
if str(BENCH) not in sys.path:
    sys.path.append(str(BENCH))  # after everything else: the scripts' names shadow nothing

import compare  # noqa: E402
from compare_envs import (  # noqa: E402
    Env,
    RevisionError,
    export_revision,
    paston_location,
    postgres_bindir,
    postgres_cluster,
    resolve_revision,
)
from compare_figures import (  # noqa: E402
    GROUPS,
    Figure,
    Job,
    Settings,
    jobs_for,
    known_loops,
    read_figure,
)
from compare_report import Row, Series, render_header, render_table  # noqa: E402

TINY = Settings(quick=True, server_tables=2, server_seconds=1.0, bot_players=("pimc:1",))
HIGHER = Figure("up", "rate", "1/s", True, "rate", r"([0-9.]+)")
LOWER = Figure("down", "time", "ms", False, "time", r"([0-9.]+)")


def this_env(tmp_path: Path) -> Env:
    """This venv's python as a revision's environment, run in an empty folder."""
    revision = resolve_revision("HEAD", ROOT)
    return Env(revision, Path(sys.executable), tmp_path, BENCH, "", "given")


def assert_all_read(job: Job, result: compare.RunResult) -> None:
    assert result.returncode == 0, result.stderr[-2000:]
    readings = compare.read_run(job, result)
    for figure in job.figures:
        reading = readings[figure.key]
        if figure.key == "hint.server.card" and reading.value is None:
            # the server's deal is shuffled by the server: it may end without card play
            assert reading.reason == "its line reads 'card 0'", (reading, result.stdout)
            continue
        assert reading.value is not None and reading.value >= 0, (figure.key, reading, result.stdout)


@pytest.mark.parametrize(
    "job", [j for j in jobs_for(GROUPS, TINY) if j.database == "sqlite"], ids=lambda j: j.key
)
def test_every_figure_is_read_from_its_scripts_real_output(job: Job, tmp_path: Path) -> None:
    result = compare.run_script(this_env(tmp_path), BENCH / job.script, list(job.args), timeout=240)
    assert_all_read(job, result)


@pytest.mark.skipif(postgres_bindir() is None, reason="PostgreSQL is not installed")
def test_the_server_figures_on_a_throwaway_postgres_cluster(tmp_path: Path) -> None:
    job = next(j for j in jobs_for(("server",), TINY) if j.database == "postgres")
    with postgres_cluster(lambda _text: None) as cluster:
        assert cluster is not None
        with cluster.database("paston_compare_test") as url:
            args = [*job.args, "--database-url", url]
            result = compare.run_script(this_env(tmp_path), BENCH / job.script, args, timeout=240)
    assert "(postgresql)" in result.stdout
    assert_all_read(job, result)


def test_env_loops_are_the_ones_the_script_knows(tmp_path: Path) -> None:
    probe = compare.run_script(this_env(tmp_path), BENCH / "env_speed.py", ["--only", "?"], timeout=60)
    known = known_loops(probe.stderr)
    assert known is not None and {"paston-core", "paston-views"} <= known
    assert known_loops("usage: x [-h]") is None


def test_a_missing_figure_reads_as_none_with_its_reason() -> None:
    engine, _views = jobs_for(("engine",), TINY)[0].figures
    assert read_figure(engine, "Traceback (most recent call last):\n").reason == "no 'median:' line"
    env = jobs_for(("env",), TINY)[0].figures
    text = "trial 1 paston-core 9 decisions/s\nloop  median decisions/s\npaston-core  skipped  (No module)\n"
    assert read_figure(env[0], text) == (None, "its line reads 'paston-core skipped (No module)'")
    solver = {f.key: f for f in jobs_for(("solver",), TINY)[0].figures}
    skipped = "max^n (three-hand)     skipped: it needs --memory-mb 8 or more\n"
    assert read_figure(solver["solver.max^n.ms"], skipped).reason.startswith("its line reads 'max^n")
    hints = {f.key: f for f in jobs_for(("hint",), TINY)[0].figures}
    local_only = "decision n median ms\ncard   14   3.6   5.9\n"
    assert read_figure(hints["hint.card"], local_only).value == 3.6
    assert read_figure(hints["hint.server.card"], local_only).value is None
    both = local_only + "end to end (WebSocket): 1 deals\ncard   20   2.8   3.9\n"
    assert read_figure(hints["hint.server.card"], both).value == 2.8


def test_a_failed_run_gives_its_error_as_the_reason() -> None:
    job = jobs_for(("engine",), TINY)[0]
    crashed = compare.RunResult(1, "", "Traceback\nImportError: no Deal\n  hint line\n")
    assert {r.reason for r in compare.read_run(job, crashed).values()} == {"exit 1: ImportError: no Deal"}
    partial = compare.RunResult(1, "median: 10 deals/s\n", "KeyError: x\n")
    readings = compare.read_run(job, partial)
    assert readings["engine.deals"].value == 10.0  # what was printed before the crash still counts
    assert readings["engine.views"].reason == "exit 1: KeyError: x"


def test_ratio_spread_and_verdict() -> None:
    def row(figure: Figure, a: list[float | None], b: list[float | None]) -> Row:
        return Row(figure, Series(a, [""] * len(a)), Series(b, [""] * len(b)))

    assert row(HIGHER, [10, 11, 12], [13, 14, 15]).verdict == "better"
    assert row(HIGHER, [10, 11, 12], [7, 8, 9]).verdict == "worse"
    assert row(HIGHER, [10, 11, 12], [11.5, 13, 14]).verdict == ""  # the ranges overlap
    assert row(LOWER, [10, 11, 12], [7, 8, 9]).verdict == "better"
    assert row(LOWER, [10, 11, 12], [13, 14, 15]).verdict == "worse"
    assert row(LOWER, [10, 10.5], [20, 21]).verdict == ""  # two rounds: too few to mark
    grown = row(HIGHER, [10, 20, 30], [40, 45, 60])
    assert grown.ratio == pytest.approx(45 / 20)
    assert grown.a.spread == (10, 30) and grown.b.median == 45
    assert row(HIGHER, [None], [5]).ratio is None
    assert row(HIGHER, [0.0], [5]).ratio is None


def test_a_series_says_why_values_are_missing() -> None:
    series = Series()
    series.add(None, "exit 1: ImportError")
    assert series.reason == "exit 1: ImportError" and series.median is None and series.spread is None
    series.add(3.0)
    assert series.reason == "1 round(s) missing: exit 1: ImportError" and series.median == 3.0


def test_the_report_marks_missing_values_with_one_note_per_reason() -> None:
    gone = Series([None, None], ["exit 1: ImportError", "exit 1: ImportError"])
    rows = [
        Row(HIGHER, Series([100.0, 110.0, 120.0], [""] * 3), Series([130.0, 140.0, 150.0], [""] * 3)),
        Row(LOWER, gone, Series([1.0, 2.0], ["", ""])),
        Row(Figure("t2", "time 2", "ms", False, "t", "(1)"), gone, Series([1.0, 2.0], ["", ""])),
    ]
    table = render_table(rows).splitlines()
    assert table[0].split()[:3] == ["figure", "better", "A"]
    assert table[1].split() == ["rate", "higher", "110", "140", "1.273", "100–120", "130–150", "B", "better"]
    assert "— [1]" in table[2] and "— [1]" in table[3]
    assert table[4:] == ["[1] A: exit 1: ImportError"]
    meta = {
        "revisions": {
            "A": {"spec": "HEAD~1", "title": "abc (HEAD~1)", "built": "built"},
            "B": {"spec": ".", "title": "def + uncommitted changes", "built": "reused"},
        },
        "cores": 2, "platform": "Linux", "python": "3.11", "load_before": (0.5, 0.25, 0.0),
        "load_after": (1.0, 0.5, 0.25), "rounds": 2, "order": "AB BA", "settings": "quick",
        "scripts": "this checkout's", "seconds": 5.0, "notes": ["PostgreSQL figures skipped"],
    }  # fmt: skip
    header = render_header(meta)
    assert "A = HEAD~1: abc (HEAD~1)" in header and "B = .: def + uncommitted changes" in header
    assert "2 cores" in header and "before: 0.50 0.25 0.00" in header and "after: 1.00 0.50 0.25" in header
    assert "note: PostgreSQL figures skipped" in header


def test_rounds_alternate_the_order(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    envs = {"A": this_env(tmp_path), "B": this_env(tmp_path)}
    args = argparse.Namespace(rounds=4, own_scripts=False, timeout=10)
    comparison = compare.Comparison(envs, jobs_for(("engine", "solver"), TINY), args)
    seen: list[str] = []

    def measure(job: Job, side: str, cluster: object) -> compare.RunResult:
        seen.append(f"{job.key}:{side}")
        return compare.RunResult(0, "median: 7 deals/s\n")

    monkeypatch.setattr(comparison, "measure", measure)
    for number in range(4):
        comparison.run_round(number, None)
    assert seen[:4] == ["engine:A", "engine:B", "solver:A", "solver:B"]
    assert seen[4:8] == ["engine:B", "engine:A", "solver:B", "solver:A"]
    assert [r["side"] for r in comparison.runs[8:12]] == ["A", "B", "A", "B"]
    assert comparison.series["engine.deals"]["B"].values == [7.0] * 4


def test_run_script_reports_a_missing_script_and_kills_one_past_its_time(tmp_path: Path) -> None:
    env = this_env(tmp_path)
    assert compare.run_script(env, tmp_path / "nope.py", [], 5).failure.startswith("no nope.py in ")
    slow = tmp_path / "slow.py"
    slow.write_text("import time\nprint('started', flush=True)\ntime.sleep(60)\n")
    result = compare.run_script(env, slow, [], timeout=1)
    assert result.failure == "timed out after 1 s" and result.stdout == "started\n"


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True).stdout


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    """A small git repository: src/m.py and tests/t.py committed, build/ ignored."""
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    (repo / "tests").mkdir()
    (repo / "src" / "m.py").write_text("X = 1\n")
    (repo / "tests" / "t.py").write_text("T = 1\n")
    (repo / ".gitignore").write_text("build/\n")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one")
    return repo


def test_revisions_resolve_to_commits_and_the_working_tree_to_its_contents(repo: Path) -> None:
    head = git(repo, "rev-parse", "HEAD").strip()
    assert resolve_revision("HEAD", repo).sha == head == resolve_revision(head[:7], repo).key
    with pytest.raises(RevisionError, match="no revision 'nope'"):
        resolve_revision("nope", repo)
    clean = resolve_revision(".", repo)
    assert clean.worktree and clean.sha == head and clean.key.startswith(f"worktree-{head[:12]}-")
    (repo / "tests" / "t.py").write_text("T = 2\n")  # not installed: the same build
    assert resolve_revision(".", repo).key == clean.key
    (repo / "src" / "m.py").write_text("X = 2\n")
    changed = resolve_revision(".", repo)
    assert changed.key != clean.key and "uncommitted" in changed.title
    (repo / "src" / "new.py").write_text("Y = 1\n")  # untracked, not ignored
    assert resolve_revision(".", repo).key != changed.key
    (repo / "build").mkdir()
    (repo / "build" / "junk.py").write_text("ignored\n")
    assert resolve_revision(".", repo).key == resolve_revision(".", repo).key


def test_export_writes_a_commit_or_the_working_tree(repo: Path, tmp_path: Path) -> None:
    (repo / "src" / "m.py").write_text("X = 2\n")
    (repo / "src" / "new.py").write_text("Y = 1\n")
    (repo / "build").mkdir()
    (repo / "build" / "junk.py").write_text("ignored\n")
    export_revision(resolve_revision("HEAD", repo), repo, tmp_path / "commit")
    assert (tmp_path / "commit" / "src" / "m.py").read_text() == "X = 1\n"
    assert not (tmp_path / "commit" / "src" / "new.py").exists()
    export_revision(resolve_revision(".", repo), repo, tmp_path / "tree")
    assert (tmp_path / "tree" / "src" / "m.py").read_text() == "X = 2\n"
    assert (tmp_path / "tree" / "src" / "new.py").exists() and not (tmp_path / "tree" / "build").exists()


def test_this_checkouts_head_and_the_import_location(tmp_path: Path) -> None:
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True)
    assert resolve_revision("HEAD", ROOT).sha == head.stdout.strip()
    assert paston_location(Path(sys.executable), tmp_path).endswith(str(Path("paston", "__init__.py")))


def test_bad_options_are_refused() -> None:
    with pytest.raises(SystemExit, match="unknown group"):
        compare.parse_groups("engine,speed")
    assert compare.parse_groups("") == GROUPS
    with pytest.raises(SystemExit, match="SPEC=PYTHON"):
        compare.python_overrides(["."])


@pytest.mark.parametrize("name", ["compare", "compare_envs", "compare_figures", "compare_report"])
def test_the_examples_in_the_docstrings(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and result.attempted >= (0 if name == "compare_envs" else 1)


def test_compare_the_working_tree_with_itself_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    command = [sys.executable, str(BENCH / "compare.py"), ".", ".", "--only", "engine", "--quick"]
    command += ["--rounds", "1", "--python-for", f".={sys.executable}", "--cache", str(tmp_path / "cache")]
    done = subprocess.run(
        [*command, "--json", str(out)], capture_output=True, text=True, timeout=120, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert "round 1/1: engine for A (.)" in done.stderr and "engine for B (.)" in done.stderr
    assert "A = .:" in done.stdout and "uncommitted changes" in done.stdout and "cores" in done.stdout
    row = next(line for line in done.stdout.splitlines() if line.startswith("engine deals/s"))
    assert row.split()[2] == "higher" and "—" not in row
    report = json.loads(out.read_text())
    assert report["revisions"]["A"]["sha"] == resolve_revision("HEAD", ROOT).sha
    assert report["revisions"]["A"]["built"] == "given"
    assert {f["key"] for f in report["figures"]} == {"engine.deals", "engine.views"}
    assert all(len(f["A"]["values"]) == len(f["B"]["values"]) == 1 for f in report["figures"])
    assert [r["side"] for r in report["runs"]] == ["A", "B"]
    assert not (tmp_path / "cache" / report["revisions"]["A"]["sha"]).exists()  # nothing was built
