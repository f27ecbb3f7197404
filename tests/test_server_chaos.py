"""The chaos suite (paston.testing.chaos): a short schedule of every kind of fault
against a real cluster (PostgreSQL, Redis, three workers) finds no violation of the
history; and the checker (paston.testing.history) does find each broken property when
it is shown one."""

from __future__ import annotations

import pytest

from paston.testing.chaos import FAULTS, Schedule, run_chaos
from paston.testing.history import (
    Row,
    Stored,
    ack_violations,
    load_violations,
    log_violations,
    record_violations,
    stall_violations,
)
from paston.testing.players import Ack


@pytest.mark.cluster
def test_a_short_schedule_of_every_fault_leaves_a_clean_history(tmp_path: object) -> None:
    report = run_chaos(seconds=26, heal=10, slots=4, seed=22, target=20)
    print(report.summary())
    assert report.violations == []
    kinds = {f.kind for f in report.faults}
    assert kinds == set(FAULTS), report.summary()  # each kind injected at least once
    assert report.finished >= 1 and report.acknowledged >= 50
    assert report.reconnects >= 1 and report.cuts >= 1


def test_the_schedule_is_reproducible_and_meets_every_kind() -> None:
    assert Schedule(3).kinds(12) == Schedule(3).kinds(12)
    assert Schedule(3).kinds(12) != Schedule(4).kinds(12)
    kinds = Schedule(3).kinds(10)
    assert sorted(kinds[:5]) == sorted(FAULTS) == sorted(kinds[5:])


def rows(n: int, fence: int = 1) -> list[Row]:
    return [Row(i, i % 3, f"a{i}", f"s{i % 3}-v{i}", fence, float(i)) for i in range(n)]


def test_the_checker_sees_gaps_doubled_ids_and_tokens_going_back() -> None:
    assert log_violations("t", rows(6)) == []
    gap = rows(6)
    del gap[3]
    assert "not contiguous" in log_violations("t", gap)[0].what
    doubled = rows(4)
    doubled[3] = doubled[3]._replace(seat=0, command_id="s0-v0")
    assert "more than once" in log_violations("t", doubled)[0].what
    back = rows(4, fence=2)
    back[2] = back[2]._replace(fence=1)  # a former owner's move after the new owner's
    assert "went back" in log_violations("t", back)[0].what
    unfenced = rows(3)
    unfenced[1] = unfenced[1]._replace(fence=None)
    assert "without a fencing token" in log_violations("t", unfenced)[0].what


def test_the_checker_holds_every_acknowledgement_to_the_log() -> None:
    log = rows(6)
    assert ack_violations("t", 1, [Ack(2, "s1-v1", "a1", False), Ack(5, "s1-v4", "a4", True)], log) == []
    assert "not in the log" in ack_violations("t", 1, [Ack(9, "s1-v8", "a8", False)], log)[0].what
    assert "was told" in ack_violations("t", 1, [Ack(2, "s1-v1", "other", False)], log)[0].what
    assert "was told" in ack_violations("t", 2, [Ack(2, "s1-v1", "a1", False)], log)[0].what


def test_the_checker_sees_a_table_stalled_after_the_faults_healed() -> None:
    moving = Stored([Row(i, 0, "x", None, 1, 100.0 + 4 * i) for i in range(10)], 90.0, None)
    assert stall_violations("t", moving, healed=101.0, until=136.0, limit=10) == []
    stalled = Stored(moving.rows[:3], 90.0, None)  # last move at 108
    found = stall_violations("t", stalled, healed=101.0, until=136.0, limit=10)
    assert found and "no move for 28.0 s" in found[0].what
    done = Stored(moving.rows[:3], 90.0, 100.0)  # finished before the faults healed
    assert stall_violations("t", done, healed=101.0, until=136.0, limit=10) == []
    late = Stored([], 130.0, None)  # made 6 s before the end: not stalled yet
    assert stall_violations("t", late, healed=101.0, until=136.0, limit=10) == []


def test_the_checker_asks_every_worker_and_checks_records() -> None:
    log = rows(3)
    answers = {"w0": lambda m, p: (200, {"version": 3}), "w1": lambda m, p: (503, {"code": "busy"})}
    found = load_violations("t", log, answers)
    assert [v.what for v in found] == ["worker w1 answers 503 {'code': 'busy'}"]
    behind = load_violations("t", log, {"w2": lambda m, p: (200, {"version": 2})})
    assert "at version 2" in behind[0].what
    assert "paston check" in record_violations("t", {"format": "paston/1", "deals": "no"})[0].what
