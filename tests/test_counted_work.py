"""The CI guard on the hot paths' counted work (benchmarks/counted_work.py): figures
that do not depend on the machine's speed, held to limits against the baseline in
tests/golden/counted_work.json, so a change that doubles a hot path fails here."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from paston.deal import Deal
from paston.server.store.actionlog import ActionLog
from paston.server.tables.connection import Connection

ROOT = Path(__file__).resolve().parent.parent


def counted_work() -> ModuleType:
    spec = importlib.util.spec_from_file_location("counted_work", ROOT / "benchmarks" / "counted_work.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["counted_work"] = module
    spec.loader.exec_module(module)
    return module


CW = counted_work()
BASELINE: dict[str, float] = json.loads(CW.BASELINE.read_text())


@pytest.fixture(scope="module")
def figures() -> dict[str, float]:
    return dict(CW.measure(actions=300, deals=200))


def test_every_figure_has_a_baseline(figures: dict[str, float]) -> None:
    assert set(figures) == set(BASELINE)
    assert all(value > 0 for value in figures.values())


def test_no_hot_path_does_much_more_work_than_its_baseline(figures: dict[str, float]) -> None:
    assert CW.over_limit(figures, BASELINE) == []


def test_a_doubled_engine_hot_path_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """Legal actions computed twice each time they are asked for: over the limit."""
    real: Callable[[Deal], Any] = Deal.legal_actions

    def twice(self: Deal) -> Any:
        real(self)
        return real(self)

    monkeypatch.setattr(Deal, "legal_actions", twice)
    failed = CW.over_limit(CW.engine_counts(200), BASELINE)
    assert any(line.startswith("engine calls per deal") for line in failed), failed


def test_a_doubled_server_hot_path_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every message sent twice and every action committed twice: over the limits."""
    push: Callable[[Connection, str], None] = Connection.push
    write = ActionLog.write

    def push_twice(self: Connection, text: str) -> None:
        push(self, text)
        push(self, text)

    def write_twice(self: ActionLog, rows: list[dict[str, Any]]) -> Any:
        write(self, [])
        return write(self, rows)

    monkeypatch.setattr(Connection, "push", push_twice)
    monkeypatch.setattr(ActionLog, "write", write_twice)
    failed = CW.over_limit(CW.server_counts(60), BASELINE)
    names = {line.split(":")[0] for line in failed}
    assert {"server messages per action", "server action-log commits per action"} <= names, failed
