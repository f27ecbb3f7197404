"""Tournaments and self-play on a real local Ray instance: the same seed gives the same
output as the process pool, byte for byte; ``--ray`` with and without an address;
``paston selfplay`` (games, deals, resume, errors); the Ray example.

Ray is a test dependency (the ``test`` extra installs it): a missing Ray fails here,
it never skips. One Ray instance (2 CPUs, no dashboard, a small object store) serves
the whole module; the commands run in this process use it, and the ones run as
subprocesses join it by its address, as a machine of a cluster would.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import ray
from typer.testing import Result

from cli_helpers import assert_fails, assert_ok, flat, invoke
from paston.eval import run_tournament, summarize
from paston.eval.distributed import RayExecutor, make_executor
from paston.eval.executor import PoolExecutor, SerialExecutor
from paston.eval.selfplay import run_selfplay
from paston.eval.tournament import DealResultRow
from paston.record import read_file

#: Ray instances are started here (tests/conftest.py runs these tests with the other services)
SLOW = True

ROOT = Path(__file__).resolve().parents[1]
PASTON = str(Path(sys.executable).with_name("paston"))
PLAYERS = "heuristic,random"


@pytest.fixture(scope="module")
def ray_address() -> Iterator[str]:
    """A local Ray instance for the module; its address, for subprocesses to join."""
    assert not ray.is_initialized()
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        object_store_memory=80 * 1024 * 1024,
        logging_level=logging.WARNING,
    )
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()


def timeless(rows: list[list[DealResultRow]]) -> list[DealResultRow]:
    """The rows without their decision times (the only part that varies between runs)."""
    return [
        dataclasses.replace(r, decision_times=tuple(tuple(0.0 for _ in t) for t in r.decision_times))
        for deal in rows
        for r in deal
    ]


def without_times(text: str) -> str:
    """A tournament report without its decision times table and its last line (run time,
    where it ran)."""
    head, found, rest = text.partition("Decision times (ms)")
    assert found, text
    tail = rest[rest.index("heuristic − random") :]
    return head + re.sub(r"\n\d+ deals? in .*", "", tail)


# --- the executor -----------------------------------------------------------------------------
def test_ray_executor_keeps_the_jobs_order_with_a_small_window(ray_address: str) -> None:
    executor = RayExecutor(window=3)
    assert executor.describe() == "local Ray (2 CPUs)"
    jobs = [-5, 3, -1, 0, 8, -13, 21]
    assert list(executor.map(abs, jobs)) == [5, 3, 1, 0, 8, 13, 21]
    assert list(executor.map(abs, [])) == []
    executor.close()
    assert ray.is_initialized(), "an executor leaves running a Ray it did not start"


def test_ray_selfplay_deals_equal_the_serial_ones(ray_address: str) -> None:
    players = ("random", "heuristic", "pimc:1")
    serial = list(run_selfplay("deal", 6, players, seed=4))
    with RayExecutor(window=2) as executor:  # deals of uneven cost finish out of order
        assert list(run_selfplay("deal", 6, players, seed=4, executor=executor)) == serial
        assert list(run_selfplay("deal", 6, players, seed=4, start=4, executor=executor)) == serial[4:]


def test_ray_tournament_equals_the_process_pool(ray_address: str) -> None:
    pool = list(run_tournament("heuristic", "random", deals=4, seed=9, workers=2))
    ticks: list[int] = []
    with make_executor(workers=1, ray_address="local") as executor:
        on_ray = list(
            run_tournament("heuristic", "random", deals=4, seed=9, executor=executor, progress=ticks.append)
        )
    assert timeless(on_ray) == timeless(pool)
    assert ticks == [1, 1, 1, 1]
    a, b = summarize(on_ray, "heuristic", "random"), summarize(pool, "heuristic", "random")
    assert a["heuristic"].per_deal == b["heuristic"].per_deal
    assert a["random"].contracts == b["random"].contracts


def test_make_executor_without_ray() -> None:
    assert isinstance(make_executor(workers=1, ray_address=None), SerialExecutor)
    pool = make_executor(workers=2, ray_address=None)
    assert isinstance(pool, PoolExecutor) and pool.describe() == "2 workers"


# --- paston tournament --ray ------------------------------------------------------------------
def tournament(*args: object) -> Result:
    return invoke("tournament", "--players", PLAYERS, "--deals", 3, "--seed", 2, "-q", *args)


def test_cli_tournament_on_ray_writes_the_pool_file_byte_for_byte(ray_address: str, tmp_path: Path) -> None:
    pool, on_ray = tmp_path / "pool.jsonl", tmp_path / "ray.jsonl"
    pool_text = assert_ok(tournament("--workers", 2, "--out", pool))
    ray_result = tournament("--ray", "--out", on_ray)  # a bare --ray, then another option
    ray_text = assert_ok(ray_result)
    assert on_ray.read_bytes() == pool.read_bytes()
    assert len(read_file(on_ray)) == 18
    assert "with local Ray (2 CPUs)" in ray_text and "with 2 workers" in pool_text
    assert without_times(ray_result.stdout) == without_times(tournament("--workers", 2).stdout)


def test_cli_tournament_checkpoint_resumed_on_ray_equals_the_pool(ray_address: str, tmp_path: Path) -> None:
    whole, part, ckpt = tmp_path / "whole.jsonl", tmp_path / "part.jsonl", tmp_path / "t.ckpt"
    report = tournament("--workers", 2, "--deals", 4, "--out", whole)
    assert_ok(report)
    assert_ok(tournament("--workers", 1, "--checkpoint", ckpt, "--out", part, "--deals", 2))
    resumed = tournament("--ray", "--checkpoint", ckpt, "--out", part, "--deals", 4)
    assert "(resumed after 2 deals)" in assert_ok(resumed)
    assert part.read_bytes() == whole.read_bytes()
    assert without_times(resumed.stdout) == without_times(report.stdout)


def test_cli_tournament_joins_a_cluster_by_its_address(ray_address: str, tmp_path: Path) -> None:
    pool, on_ray = tmp_path / "pool.jsonl", tmp_path / "ray.jsonl"
    assert_ok(tournament("--workers", 1, "--out", pool))
    args = ["tournament", "-p", PLAYERS, "-n", "3", "-s", "2", "-q", "-o", str(on_ray), "--ray", ray_address]
    done = subprocess.run([PASTON, *args], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"with Ray at {ray_address} (2 CPUs)" in flat(done.stdout)
    assert on_ray.read_bytes() == pool.read_bytes()


def test_cli_ray_missing_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as when Ray is not installed
    out = tmp_path / "t.jsonl"
    assert_fails(tournament("--ray", "--out", out), "Ray is not installed", "paston[ray]", code=1)
    assert_fails(
        invoke("selfplay", "--deals", 1, "-o", tmp_path / "s.jsonl", "--ray"), "Ray is not installed"
    )


def test_cli_unreachable_cluster_fails_fast_and_names_the_address(ray_address: str, tmp_path: Path) -> None:
    with socket.socket() as s:  # a port that nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    start = time.perf_counter()
    out = tmp_path / "t.jsonl"
    result = tournament("--ray", f"127.0.0.1:{port}", "--out", out)
    assert_fails(result, f"cannot reach the Ray cluster at 127.0.0.1:{port}", "ray start --head", code=1)
    assert time.perf_counter() - start < 15
    assert not out.exists()


def test_cli_workers_and_ray_together_are_refused(tmp_path: Path) -> None:
    assert_fails(tournament("--workers", 2, "--ray"), "--workers or --ray, not both", code=2)


# --- paston selfplay ------------------------------------------------------------------------------
def selfplay(out: Path, *args: object) -> Result:
    return invoke("selfplay", "--out", out, "-p", "random,heuristic,pimc:1", "--seed", 5, *args)


def test_selfplay_games_on_ray_equal_the_pool_and_simulate(ray_address: str, tmp_path: Path) -> None:
    pool, on_ray, sim = tmp_path / "pool.jsonl", tmp_path / "ray.jsonl", tmp_path / "sim.jsonl"
    assert_ok(selfplay(pool, "--games", 3, "--rules", "short", "-w", 2))
    result = selfplay(on_ray, "--games", 3, "--rules", "short", "--ray")
    assert_ok(result)
    assert "3 games in" in flat(result.stderr) and "local Ray (2 CPUs)" in flat(result.stderr)
    args = ("--games", 3, "--rules", "short", "-p", "random,heuristic,pimc:1", "--seed", 5, "-q")
    assert_ok(invoke("simulate", "--out", sim, *args))
    assert on_ray.read_bytes() == pool.read_bytes() == sim.read_bytes()
    matches = read_file(on_ray)
    assert len(matches) == 3 and all(m.is_over for m in matches)


def test_selfplay_deals_are_one_deal_records(tmp_path: Path) -> None:
    out = tmp_path / "d.jsonl"
    assert_ok(selfplay(out, "--deals", 8, "-w", 1, "-q"))
    matches = read_file(out)
    assert len(matches) == 8
    assert all(m.completed_deals == 1 and not m.is_over for m in matches)
    assert len({m.deals[-1].deck for m in matches}) == 8
    assert all(m.seats == ("random", "heuristic", "pimc:1") for m in matches)


def test_selfplay_resume_after_a_crash_gives_the_uninterrupted_file(ray_address: str, tmp_path: Path) -> None:
    whole, cut = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl"
    assert_ok(selfplay(whole, "--deals", 7, "-w", 1, "-q"))
    data = whole.read_bytes()
    lines = data.splitlines(keepends=True)
    cut.write_bytes(b"".join(lines[:3]) + lines[3][:40])  # a crash in the middle of record 3
    result = selfplay(cut, "--deals", 7, "--resume", "--ray")
    assert_ok(result)
    assert "4 deals (after 3 records kept)" in flat(result.stderr)
    assert cut.read_bytes() == data
    done = selfplay(cut, "--deals", 7, "--resume", "--ray", "127.0.0.1:1")  # nothing left: no Ray needed
    assert "already holds all 7 records" in flat(assert_ok(done) + done.stderr)
    assert cut.read_bytes() == data
    fresh = tmp_path / "fresh.jsonl"
    assert_ok(selfplay(fresh, "--deals", 7, "--resume", "-q", "-w", 2))  # no file yet: a plain run
    assert fresh.read_bytes() == data


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        ((), "exactly one of --games and --deals"),
        (("--games", 1, "--deals", 1), "exactly one of --games and --deals"),
        (("--deals", 0), "--deals"),
        (("--deals", 1, "-p", "random,random"), "three players"),
        (("--deals", 1, "-p", "random,random,alpha"), "alpha"),
        (("--deals", 1, "--resume", "--force"), "not both"),
        (("--deals", 1, "--rules", "bogus"), "bogus"),
    ],
)
def test_selfplay_bad_arguments(tmp_path: Path, args: tuple[object, ...], needle: str) -> None:
    out = tmp_path / "s.jsonl"
    result = invoke("selfplay", "--out", out, *args)
    text = assert_fails(result, needle)
    assert "Traceback" not in text
    assert not out.exists()


def test_selfplay_refuses_to_overwrite_or_to_resume_past_the_end(tmp_path: Path) -> None:
    out = tmp_path / "s.jsonl"
    assert_ok(selfplay(out, "--deals", 2, "-q", "-w", 1))
    before = out.read_bytes()
    assert_fails(selfplay(out, "--deals", 2, "-q"), "already exists", "--force", code=2)
    assert_fails(selfplay(out, "--deals", 1, "-q", "--resume"), "holds 2 records", code=2)
    assert out.read_bytes() == before
    assert_fails(selfplay(tmp_path / "no" / "s.jsonl", "--deals", 1), "does not exist", code=2)


@pytest.mark.parametrize(
    "other", [("--seed", 6), ("--rules", "short"), ("--games", 3), ("-p", "random,heuristic,heuristic")]
)
def test_selfplay_resume_refuses_a_file_made_with_other_options(
    tmp_path: Path, other: tuple[object, ...]
) -> None:
    out = tmp_path / "s.jsonl"
    assert_ok(selfplay(out, "--deals", 2, "-q", "-w", 1))
    before = out.read_bytes()
    args = ["--deals", 3, "-q", "--resume", *other]
    if "--games" in other:
        args = args[2:]
    assert_fails(selfplay(out, *args), "is not record 1 of these options", code=2)
    assert out.read_bytes() == before


# --- the example ------------------------------------------------------------------------------------
def test_example_ray_tournament_runs_on_its_own_local_ray() -> None:
    env = {**os.environ, "PASTON_PIMC_THREADS": "1"}
    env.pop("RAY_ADDRESS", None)
    args = ["--players", "heuristic,random", "--deals", "2", "--seed", "3", "--num-cpus", "2"]
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "ray_tournament.py"), *args],
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    rows = list(run_tournament("heuristic", "random", deals=2, seed=3))
    summary = summarize(rows, "heuristic", "random")
    assert "on local Ray (2 CPUs)" in done.stdout
    assert f"heuristic: {summary['heuristic'].mean:+.2f} points per deal" in done.stdout
    assert f"random: {summary['random'].mean:+.2f} points per deal" in done.stdout
