"""The compiled solver reproduces full deals solved once by the pure-Python reference.

``tests/golden/solver_deals.json`` holds seeded full ten-card deals (three hands and
two hands, every contract) and positions from the middle of the play, with the
reference's value, the value of every legal card and, where given, max^n scores for
both lone-defender tables. It is written by ``tests/golden/make_solver_golden.py``
(run by hand; see its docstring).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from paston.contracts import Contract
from paston.rules import Rules
from paston.solver import Position, Solver

GOLDEN = Path(__file__).parent / "golden" / "solver_deals.json"
POSITIONS: list[dict[str, Any]] = json.loads(GOLDEN.read_text(encoding="utf-8"))["positions"]
TABLES = {"graded": Rules(), "flat": Rules(lone_defender="flat")}
SHARED = Solver(memory_mb=16)


def position(g: dict[str, Any]) -> Position:
    return Position.from_text(
        hands=g["hands"],
        trump=g["contract"],
        declarer=g["declarer"],
        defenders=g["defenders"],
        leader=g["leader"],
        trick=g["trick"],
        tricks=g["tricks"],
    )


def test_golden_file_covers_the_modes() -> None:
    full = [g for g in POSITIONS if g["name"].startswith("full")]
    assert len(full) >= 20
    assert all(sum(len(h.split()) for h in g["hands"]) in (20, 30) and not g["trick"] for g in full)
    assert {len(g["defenders"]) for g in full} == {1, 2}
    assert {Contract.parse(g["contract"]) for g in POSITIONS} == set(Contract)
    assert any(g["trick"] for g in POSITIONS)
    assert any("maxn" in g for g in POSITIONS)


@pytest.mark.parametrize("g", POSITIONS, ids=[g["name"] for g in POSITIONS])
def test_golden_position(g: dict[str, Any]) -> None:
    pos = position(g)
    for solver in (SHARED, Solver(memory_mb=0.05)):
        solution = solver.solve(pos)
        assert solution.value == g["value"]
        assert {str(c): v for c, v in solution.card_values.items()} == g["card_values"]
        assert solver.tricks(pos) == g["value"]
        assert solver.makes(pos, g["value"]) is True
        assert solver.makes(pos, g["value"] + 1) is False
        assert solver.makes(pos) is (g["value"] >= 6)
    for table, want in g.get("maxn", {}).items():
        m = SHARED.maxn(pos, TABLES[table])
        assert list(m.scores) == want["scores"], table
        assert {str(c): list(v) for c, v in m.card_scores.items()} == want["card_scores"], table
