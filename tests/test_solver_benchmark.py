"""The solver benchmark runs end to end (tiny sample) and prints every figure it reports."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def solver_benchmark(*args: str) -> list[str]:
    """The lines benchmarks/solver.py prints with ``args`` (it must succeed)."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "solver.py"), *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_solver_benchmark_prints_every_figure() -> None:
    lines = solver_benchmark("--deals", "5", "--maxn-deals", "3", "--reference-deals", "2", "--seed", "4")
    for name in ("three-hand", "two-hand", "makes-6", "max^n (three-hand)", "reference, 6 cards"):
        row = next((line for line in lines if line.startswith(name)), None)
        assert row is not None, f"no {name!r} row in:\n" + "\n".join(lines)
        assert "mean" in row and "median" in row and "p99" in row and "max" in row
    assert "n=     3" in next(line for line in lines if line.startswith("max^n"))


def test_solver_benchmark_with_no_reference_deals_skips_them() -> None:
    """``--reference-deals 0`` (and ``--maxn-deals 0``) skip those rows, saying so."""
    lines = solver_benchmark("--deals", "2", "--maxn-deals", "0", "--reference-deals", "0", "--seed", "4")
    for name in ("max^n (three-hand)", "reference, 6 cards", "compiled, same 6 cards"):
        row = next(line for line in lines if line.startswith(name))
        assert "skipped" in row, row
    assert "mean" in next(line for line in lines if line.startswith("three-hand"))
