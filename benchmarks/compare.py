"""Two revisions side by side: each built into its own environment, the core benchmarks
run alternately in one sitting, each figure printed for both with their ratio and spread.

    python benchmarks/compare.py A B [--rounds 4] [--only engine,solver,env,bots,server,hint]
                                     [--quick] [--json FILE] [--cache DIR] [--own-scripts]
                                     [--python-for SPEC=PYTHON] [--server-tables 100]

A and B are git revisions (anything ``git rev-parse`` takes) or ``.``, the working tree
with its uncommitted changes. Each is exported into ``<cache>/<key>/src`` and installed,
not editable, with its dependencies into ``<cache>/<key>/venv`` (default cache: ``.bench/``
at the repository's root); a finished build is reused (``.`` is keyed by a digest of its
installed files, so it is rebuilt when they change). ``--python-for SPEC=PYTHON`` uses an
existing interpreter for the revision given as SPEC instead of building one.

Both revisions run this checkout's benchmark scripts (``--own-scripts``: each its own),
from an empty working folder so that they import the revision's installed package. In each
round every benchmark runs for A then B, or B then A in alternate rounds (ABBA…), so a
change of the machine's load falls on both alike. The server benchmark runs on SQLite and
on a throwaway PostgreSQL cluster started here (skipped with a note when not installed).
Progress goes to stderr; the table to stdout: each figure's median for A and B, B/A, the
min–max over the rounds, and "B better/worse" when B's range lies wholly beyond A's
(with 3 rounds or more). The defaults take about 10–15 minutes on 2 cores; ``--quick`` is a smoke run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import signal
import subprocess
import sys
import time
from contextlib import nullcontext, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compare_envs import (
    Env,
    Postgres,
    Revision,
    RevisionError,
    bench_environ,
    postgres_cluster,
    prepare_env,
    resolve_revision,
)
from compare_figures import (
    BUILDERS,
    ENV_LOOPS,
    GROUPS,
    Job,
    Reading,
    Settings,
    jobs_for,
    known_loops,
    read_figure,
)
from compare_report import MARK_ROUNDS, Row, Series, render_header, render_table, row_json

ROOT = Path(__file__).resolve().parent.parent
SIDES = ("A", "B")


def log(text: str) -> None:
    """Progress, to stderr."""
    print(f"[compare] {text}", file=sys.stderr, flush=True)


@dataclass
class RunResult:
    """One script run: its exit status (None: it did not run or finish) and output."""

    returncode: int | None
    stdout: str = ""
    stderr: str = ""
    seconds: float = 0.0
    note: str = ""

    @property
    def failure(self) -> str:
        """Why the run may lack figures (``''`` when it exited 0)."""
        if self.note or self.returncode == 0:
            return self.note
        return f"exit {self.returncode}: {last_error(self.stderr)[:160]}"


def last_error(stderr: str) -> str:
    """The last exception line of a script's error output (else its last line).

    >>> last_error("Traceback ...\\nRuntimeError: needs httpx2\\n  $ pip install httpx2\\n")
    'RuntimeError: needs httpx2'
    """
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    errors = [line for line in lines if re.match(r"[A-Za-z_][\w.]*(Error|Exception|Exit)\b", line)]
    return (errors or lines or ["no error output"])[-1]


def run_script(env: Env, script: Path, args: list[str], timeout: float) -> RunResult:
    """``script`` run with the revision's python in its empty working folder; its process
    group is killed when it runs past ``timeout`` seconds."""
    if not script.exists():
        return RunResult(None, note=f"no {script.name} in {script.parent}")
    start = time.perf_counter()
    with subprocess.Popen(
        [str(env.python), str(script), *args],
        cwd=env.workdir,
        env=bench_environ(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    ) as proc:
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            kill_group(proc.pid)
            out, err = proc.communicate()
            return RunResult(None, out, err, time.perf_counter() - start, f"timed out after {timeout:g} s")
        except BaseException:  # Ctrl-C does not reach a new session: take it down too
            kill_group(proc.pid)
            raise
    return RunResult(proc.returncode, out, err, time.perf_counter() - start)


def kill_group(pid: int) -> None:
    """Kill a script's process group (the script and what it started, a server say)."""
    with suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)


def read_run(job: Job, result: RunResult) -> dict[str, Reading]:
    """Each figure of the job from the run's output; a missing one says why (the run's
    failure first, when it failed)."""
    out = {}
    for figure in job.figures:
        reading = read_figure(figure, result.stdout)
        if reading.value is None and result.failure:
            reading = Reading(None, result.failure)
        out[figure.key] = reading
    return out


class Comparison:
    """The rounds of one comparison and everything they measured."""

    def __init__(self, envs: dict[str, Env], jobs: list[Job], args: argparse.Namespace) -> None:
        self.envs, self.jobs, self.args = envs, jobs, args
        self.series = {f.key: {side: Series() for side in SIDES} for job in jobs for f in job.figures}
        self.runs: list[dict[str, Any]] = []
        self.databases = 0
        self.uses_postgres = any(job.database == "postgres" for job in jobs)
        self.notes: list[str] = []

    def scripts(self, env: Env) -> Path:
        """Where the benchmark scripts are taken from for this revision."""
        return env.scripts if self.args.own_scripts else ROOT / "benchmarks"

    def measure(self, job: Job, side: str, cluster: Postgres | None) -> RunResult:
        """Run the job once for one revision (on a fresh database for PostgreSQL)."""
        env = self.envs[side]
        script = self.scripts(env) / job.script
        if job.database != "postgres":
            return run_script(env, script, list(job.args), self.args.timeout)
        if cluster is None:
            return RunResult(None, note="PostgreSQL not installed or not started")
        self.databases += 1
        with cluster.database(f"paston_bench_{self.databases}") as url:
            return run_script(env, script, [*job.args, "--database-url", url], self.args.timeout)

    def run_round(self, number: int, cluster: Postgres | None) -> None:
        """Every job for both revisions, A first in even rounds and B first in odd ones."""
        order = SIDES if number % 2 == 0 else SIDES[::-1]
        for job in self.jobs:
            for side in order:
                spec = self.envs[side].revision.spec
                log(f"round {number + 1}/{self.args.rounds}: {job.key} for {side} ({spec})")
                result = self.measure(job, side, cluster)
                if result.failure:
                    log(f"  {job.key} for {side}: {result.failure}")
                self.record(number, job, side, result)

    def record(self, number: int, job: Job, side: str, result: RunResult) -> None:
        for key, reading in read_run(job, result).items():
            self.series[key][side].add(reading.value, reading.reason)
        self.runs.append(
            {
                "round": number + 1,
                "job": job.key,
                "side": side,
                "script": job.script,
                "args": list(job.args),
                "returncode": result.returncode,
                "seconds": round(result.seconds, 3),
                "note": result.note,
                "stdout": result.stdout,
                "stderr_tail": result.stderr.splitlines()[-20:],
            }
        )

    def hints(self) -> list[str]:
        """A suggestion when the checkout's scripts do not fit a revision's package."""
        misfit = ("ImportError", "ModuleNotFoundError: No module named 'paston", "AttributeError")
        failed = any(m in r["note"] + "".join(r["stderr_tail"]) for r in self.runs for m in misfit)
        if failed and not self.args.own_scripts:
            return ["a script could not import what it needs from a revision: --own-scripts runs its own"]
        return []

    def rows(self) -> list[Row]:
        return [
            Row(f, self.series[f.key]["A"], self.series[f.key]["B"]) for job in self.jobs for f in job.figures
        ]


def common_env_loops(envs: dict[str, Env], own_scripts: bool) -> tuple[str, ...]:
    """The env loops both revisions' env_speed.py know (it names them when given an
    unknown one); a script that names none restricts nothing."""
    loops = list(ENV_LOOPS)
    for env in envs.values():
        script = (env.scripts if own_scripts else ROOT / "benchmarks") / "env_speed.py"
        probe = run_script(env, script, ["--only", "?"], timeout=60)
        known = known_loops(probe.stderr)
        if known is not None:
            loops = [loop for loop in loops if loop in known]
    return tuple(loops)


def python_overrides(given: list[str]) -> dict[str, Path]:
    """``--python-for SPEC=PYTHON`` options as {spec: python}."""
    out = {}
    for item in given:
        spec, sep, python = item.partition("=")
        if not sep or not python:
            raise SystemExit(f"compare.py: --python-for wants SPEC=PYTHON, not {item!r}")
        out[spec] = Path(python).absolute()
    return out


def prepare_envs(revisions: dict[str, Revision], args: argparse.Namespace) -> dict[str, Env]:
    """Each side's environment; two sides of one revision share one."""
    given = python_overrides(args.python_for)
    unused = set(given) - {rev.spec for rev in revisions.values()}
    if unused:
        raise SystemExit(f"compare.py: --python-for names {', '.join(sorted(unused))}, neither A nor B")
    made: dict[str, Env] = {}
    envs = {}
    for side, rev in revisions.items():
        key = f"{rev.key}={given.get(rev.spec, '')}"
        if key not in made:
            made[key] = prepare_env(
                rev, ROOT, args.cache, log, python=given.get(rev.spec), extras=args.extras
            )
        envs[side] = made[key]
    return envs


def parse_groups(text: str) -> tuple[str, ...]:
    """``--only`` as a tuple of groups (all when empty)."""
    groups = tuple(g.strip() for g in text.split(",") if g.strip()) or GROUPS
    unknown = [g for g in groups if g not in BUILDERS]
    if unknown:
        raise SystemExit(f"compare.py: unknown group(s) {', '.join(unknown)}; known: {', '.join(GROUPS)}")
    return groups


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("a", metavar="A", help="a git revision, or . for the working tree")
    parser.add_argument("b", metavar="B", help="a git revision, or . for the working tree")
    parser.add_argument("--rounds", type=int, default=4, help="rounds (default 4: AB BA AB BA)")
    parser.add_argument("--only", default="", help=f"comma-separated groups of {','.join(GROUPS)}")
    parser.add_argument("--quick", action="store_true", help="the shortest settings: a smoke run")
    parser.add_argument("--json", type=Path, default=None, help="write everything, per round, here")
    parser.add_argument(
        "--cache", type=Path, default=ROOT / ".bench", help="built revisions (default .bench/)"
    )
    parser.add_argument("--own-scripts", action="store_true", help="each revision runs its own benchmarks/")
    parser.add_argument(
        "--python-for",
        action="append",
        default=[],
        metavar="SPEC=PYTHON",
        help="use this interpreter for revision SPEC (as given) instead of building one",
    )
    parser.add_argument("--extras", default="envs", help="extras installed with each revision (default envs)")
    parser.add_argument("--server-tables", type=int, default=100, help="tables of the server benchmark")
    parser.add_argument("--server-seconds", type=float, default=None, help="seconds (default 10, quick 2)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds one script may run")
    args = parser.parse_args(argv)
    args.cache = args.cache.absolute()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    return args


def header_facts(comparison: Comparison, load_before: tuple[float, ...], seconds: float) -> dict[str, Any]:
    """The report's header facts."""
    args, envs = comparison.args, comparison.envs
    return {
        "revisions": {
            side: {
                "spec": env.revision.spec,
                "sha": env.revision.sha,
                "title": env.revision.title,
                "built": env.built,
                "python": str(env.python),
                "paston": env.paston_file,
            }
            for side, env in envs.items()
        },
        "cores": os.cpu_count(),
        "platform": f"{platform.system()} {platform.machine()}",
        "python": platform.python_version(),
        "load_before": load_before,
        "load_after": os.getloadavg(),
        "rounds": args.rounds,
        "order": " ".join("AB" if r % 2 == 0 else "BA" for r in range(args.rounds)),
        "settings": "quick" if args.quick else "default",
        "scripts": "each revision's own benchmarks/" if args.own_scripts else "this checkout's benchmarks/",
        "seconds": seconds,
        "notes": [
            *comparison.notes,
            *comparison.hints(),
            *([] if args.rounds >= MARK_ROUNDS else [f"no ratio is marked with under {MARK_ROUNDS} rounds"]),
        ],
    }


def compare(args: argparse.Namespace) -> tuple[dict[str, Any], list[Row], Comparison]:
    """Build (or reuse) both environments and run the rounds."""
    groups = parse_groups(args.only)
    revisions = {
        side: resolve_revision(spec, ROOT) for side, spec in zip(SIDES, (args.a, args.b), strict=True)
    }
    envs = prepare_envs(revisions, args)
    loops = common_env_loops(envs, args.own_scripts) if "env" in groups else ENV_LOOPS
    settings = Settings(args.quick, args.server_tables, args.server_seconds, env_loops=loops)
    comparison = Comparison(envs, jobs_for(groups, settings), args)
    start = time.perf_counter()
    load_before = os.getloadavg()
    with postgres_cluster(log) if comparison.uses_postgres else nullcontext(None) as cluster:
        if comparison.uses_postgres and cluster is None:
            comparison.notes.append("PostgreSQL figures skipped: not installed, or it did not start")
        for number in range(args.rounds):
            comparison.run_round(number, cluster)
    return header_facts(comparison, load_before, time.perf_counter() - start), comparison.rows(), comparison


def interrupt(signum: int, _frame: object) -> None:
    """SIGTERM as Ctrl-C: the running script and the PostgreSQL cluster are stopped on the way out."""
    raise KeyboardInterrupt(f"signal {signum}")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, interrupt)
    try:
        meta, rows, comparison = compare(args)
    except RevisionError as error:
        print(f"compare.py: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("compare.py: interrupted", file=sys.stderr)
        return 130
    print(render_header(meta))
    print()
    print(render_table(rows))
    if args.json is not None:
        everything = {**meta, "figures": [row_json(r) for r in rows], "runs": comparison.runs}
        args.json.write_text(json.dumps(everything, indent=1, ensure_ascii=False))
        log(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
