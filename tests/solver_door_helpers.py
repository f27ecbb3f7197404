"""Helpers for ``test_solver_door.py``: the child Python that runs hostile calls under a
time limit (``run_child``), the core's raw arguments, positions to tamper with, and the
table of hand-picked hostile calls (made in a child by ``run_hostile_calls``)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pytest

from paston.contracts import Contract
from paston.solver import (
    MAXN_MIN_MEMORY_MB,
    Position,
    Solver,
    _core,  # type: ignore[attr-defined]
)

TESTS = Path(__file__).resolve().parent
CHILD_TIME_LIMIT = 120  # seconds; the children below take a few seconds each


def run_child(code: str, timeout: float = CHILD_TIME_LIMIT) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a child Python (this folder importable, faulthandler on); fail the
    test if it does not finish within ``timeout`` seconds."""
    try:
        return subprocess.run(
            [sys.executable, "-X", "faulthandler", "-c", code],
            cwd=TESTS,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired as hung:
        err = hung.stderr.decode(errors="replace") if isinstance(hung.stderr, bytes) else hung.stderr or ""
        pytest.fail(f"the child hung (over {timeout} s); last stderr:\n{err[-3000:]}")


def describe_death(done: subprocess.CompletedProcess[str]) -> str:
    """How a child ended, with its stderr: from the start of a sanitizer report if there
    is one (scripts/sanitize-solver), else the end of it."""
    how = f"signal {-done.returncode}" if done.returncode < 0 else f"exit code {done.returncode}"
    err = done.stderr
    starts = [i for i in (err.find("ERROR: AddressSanitizer"), err.find("runtime error:")) if i >= 0]
    shown = err[max(0, min(starts) - 300) : min(starts) + 3000] if starts else err[-3000:]
    return f"the child died ({how}); stderr:\n{shown}"


# --- raw arguments ---------------------------------------------------------------------------
HANDS = (0b111, 0b111 << 8, 0b111 << 16)  # 7-8-9 of spades, clubs, diamonds
ALL_THREE = 0b111


def raw(**change: object) -> tuple[object, ...]:
    """The core's arguments for a legal three-card position (seat 0 declares and leads,
    spades trump, a table of 4 KB), with some replaced: h0 h1 h2 trump declarer active
    leader trick table."""
    args: dict[str, object] = {
        "h0": HANDS[0],
        "h1": HANDS[1],
        "h2": HANDS[2],
        "trump": 0,
        "declarer": 0,
        "active": ALL_THREE,
        "leader": 0,
        "trick": (),
        "table": bytearray(4096),
    }
    unknown = set(change) - set(args)
    assert not unknown, unknown
    args.update(change)
    return tuple(args.values())


def maxn_table() -> bytearray:
    return bytearray(_core.MAXN_TABLE_MIN_BYTES)


def tampered(pos: Position, **fields: object) -> Position:
    """A position with fields overwritten behind its validation (frozen dataclasses can
    be forced): what a careless caller could hand the solver."""
    for name, value in fields.items():
        object.__setattr__(pos, name, value)
    return pos


def small_position() -> Position:
    return Position.from_text(hands=["AS KS", "QS JS", "TS 9S"], trump="hearts", declarer=0, leader=0)


def full_position() -> Position:
    return Position.from_text(
        hands=["AS KS", "QS JS", "TS 9S"], trump="hearts", declarer=0, leader=0, tricks=(4, 2, 2)
    )


class UncheckedPosition(Position):
    """A subclass that skips the validation: the core must still refuse its garbage."""

    __slots__ = ()

    def __post_init__(self) -> None:
        pass


SIXTEEN = (0xFFFF, 0xFFFF << 8, 0xFFFF << 16)  # three overlapping 16-card hands
Call = Callable[[], object]


def hostile_calls() -> list[tuple[str, Call, type[Exception], str]]:
    """(name, call, exception, words in its message). Built afresh in the child."""
    c = _core
    mt = maxn_table
    ok = raw()
    return [
        # active seats: 0 looped for ever holding the GIL
        ("active-none", lambda: c.tricks(*raw(active=0)), ValueError, "two or three seats"),
        ("active-one", lambda: c.tricks(*raw(active=1, h1=0, h2=0)), ValueError, "two or three seats"),
        ("active-eight", lambda: c.tricks(*raw(active=8)), ValueError, "active seats mask"),
        ("active-negative", lambda: c.card_values(*raw(active=-1)), ValueError, "active seats mask"),
        ("active-none-maxn", lambda: c.maxn(raw(active=0), (7, 0, 0), mt()), ValueError, "two or three"),
        ("active-none-reaches", lambda: c.reaches(raw(active=0), 1), ValueError, "two or three seats"),
        # seats and suits out of range: read out of arrays
        ("leader-five", lambda: c.tricks(*raw(leader=5)), ValueError, "leader must be between 0 and 2"),
        ("leader-negative", lambda: c.card_values(*raw(leader=-1)), ValueError, "leader"),
        ("leader-huge", lambda: c.tricks(*raw(leader=10**30)), ValueError, "leader"),
        ("leader-inactive", lambda: c.tricks(*raw(active=3, h2=0, leader=2)), ValueError, "not an active"),
        ("declarer-three", lambda: c.tricks(*raw(declarer=3)), ValueError, "declarer"),
        ("declarer-inactive", lambda: c.tricks(*raw(active=6, h0=0, leader=1)), ValueError, "declarer"),
        ("trump-nine", lambda: c.tricks(*raw(trump=9)), ValueError, "trump must be between 0 and 3"),
        ("trump-negative", lambda: c.maxn(raw(trump=-1), (7, 0, 0), mt()), ValueError, "trump"),
        ("trump-bool", lambda: c.tricks(*raw(trump=True)), TypeError, "trump must be an int"),
        ("trump-float", lambda: c.tricks(*raw(trump=1.0)), TypeError, "trump must be an int"),
        # hands
        ("hands-overlap", lambda: c.tricks(*raw(h1=HANDS[0])), ValueError, "in two hands"),
        (
            "hands-sixteen",
            lambda: c.tricks(*raw(h0=SIXTEEN[0], h1=SIXTEEN[1], h2=SIXTEEN[2])),
            ValueError,
            "two",
        ),
        (
            "hands-sixteen-two-seats",
            lambda: c.tricks(*raw(h0=0xFFFF, h1=0xFFFF0000, h2=0, active=3)),
            ValueError,
            "at most 10 cards",
        ),
        ("hand-negative", lambda: c.tricks(*raw(h0=-1)), ValueError, "hand of seat 0"),
        ("hand-33-bits", lambda: c.tricks(*raw(h2=1 << 32)), ValueError, "hand of seat 2"),
        ("hand-text", lambda: c.tricks(*raw(h1="AS")), TypeError, "hand of seat 1 must be an int"),
        ("hand-none", lambda: c.card_values(*raw(h1=None)), TypeError, "hand of seat 1"),
        ("passer-holds-cards", lambda: c.tricks(*raw(active=3)), ValueError, "seat 2 is not active"),
        ("unequal-hands", lambda: c.tricks(*raw(h0=0b1111)), ValueError, "holds 4 cards"),
        ("nothing-to-play", lambda: c.tricks(*raw(h0=0, h1=0, h2=0)), ValueError, "nothing left"),
        # the trick in progress
        ("trick-text", lambda: c.tricks(*raw(trick="AS")), TypeError, "trick must be a tuple"),
        ("trick-none", lambda: c.tricks(*raw(trick=None)), TypeError, "trick must be a tuple"),
        ("trick-too-long", lambda: c.tricks(*raw(trick=(24, 25, 26))), ValueError, "at most 2"),
        ("trick-card-32", lambda: c.tricks(*raw(h0=0b110, trick=(32,))), ValueError, "card of the trick"),
        ("trick-card-text", lambda: c.tricks(*raw(h0=0b110, trick=("AS",))), TypeError, "must be an int"),
        ("trick-card-in-hand", lambda: c.tricks(*raw(h0=0b110, trick=(1,))), ValueError, "also in a hand"),
        (
            "trick-card-twice",
            lambda: c.tricks(*raw(h0=0b110, h1=0b110 << 8, trick=(7, 7))),
            ValueError,
            "earlier in the trick",
        ),
        (
            "trick-revoke",
            # seat 0 led 7C; seat 1 played AH while holding 8C
            lambda: c.tricks(*raw(h0=0b11 << 16, h1=1 << 9 | 1 << 18, h2=0b111 << 24, trick=(8, 31))),
            ValueError,
            "R6.2",
        ),
        ("trick-wrong-sizes", lambda: c.tricks(*raw(trick=(24,))), ValueError, "should hold 2"),
        # tables
        ("table-bytes", lambda: c.tricks(*raw(table=bytes(4096))), TypeError, "writable"),
        ("table-none", lambda: c.tricks(*raw(table=None)), TypeError, "writable"),
        ("table-readonly", lambda: c.tricks(*raw(table=memoryview(bytes(4096)))), TypeError, "writable"),
        ("table-tiny", lambda: c.tricks(*raw(table=bytearray(16))), ValueError, "too small"),
        ("table-empty", lambda: c.card_values(*raw(table=bytearray())), ValueError, "too small"),
        ("maxn-table-small", lambda: c.maxn(ok, (7, 0, 0), bytearray(4096)), ValueError, "too small"),
        (
            "maxn-table-one-short",
            lambda: c.maxn(ok, (7, 0, 0), bytearray(_core.MAXN_TABLE_MIN_BYTES - 64)),
            ValueError,
            "too small",
        ),
        ("maxn-table-bytes", lambda: c.maxn(ok, (7, 0, 0), bytes(10**6)), TypeError, "writable"),
        # shapes of the calls
        ("tricks-eight-args", lambda: c.tricks(*raw()[:8]), TypeError, "tuple of 9"),
        ("tricks-ten-args", lambda: c.tricks(*raw(), 0), TypeError, "tuple of 9"),
        ("reaches-list", lambda: c.reaches(list(ok), 1), TypeError, "tuple of 9"),
        ("reaches-target-float", lambda: c.reaches(ok, 1.5), TypeError, "target must be an int"),
        ("reaches-no-target", lambda: c.reaches(ok), TypeError, "argument"),
        ("maxn-two-seats", lambda: c.maxn(raw(active=3, h2=0), (7, 0, 0), mt()), ValueError, "three active"),
        ("maxn-taken-short", lambda: c.maxn(ok, (7, 0), mt()), ValueError, "three counts"),
        ("maxn-taken-none", lambda: c.maxn(ok, None, mt()), TypeError, "tricks taken"),
        ("maxn-taken-negative", lambda: c.maxn(ok, (8, -1, 0), mt()), ValueError, "between 0 and 10"),
        ("maxn-taken-not-ten", lambda: c.maxn(ok, (1, 0, 0), mt()), ValueError, "10-trick deal"),
        ("layout-limit-huge", lambda: c._layout_limit(10**100), ValueError, "between 0 and"),
        ("layout-limit-float", lambda: c._layout_limit(1.0), TypeError, "must be an int"),
        # the public API
        (
            "api-duck-typed-position",
            # shaped like a Position, with three overlapping 16-card hands: it used to
            # "solve" to 16 tricks
            lambda: Solver(memory_mb=1).tricks(
                SimpleNamespace(  # type: ignore[arg-type]
                    hands=SIXTEEN, trump=0, declarer=0, active=(0, 1, 2), leader=0, trick=(), tricks=(0, 0, 0)
                )
            ),
            TypeError,
            "Solver.tricks needs a Position, not SimpleNamespace",
        ),
        ("api-tuple", lambda: Solver(memory_mb=1).solve(HANDS), TypeError, "needs a Position, not tuple"),  # type: ignore[arg-type]
        ("api-none-maxn", lambda: Solver(memory_mb=1).maxn(None), TypeError, "not NoneType"),  # type: ignore[arg-type]
        ("api-none-makes", lambda: Solver(memory_mb=1).makes(None), TypeError, "Solver.makes needs"),  # type: ignore[arg-type]
        (
            "api-tampered-sixteen",
            lambda: Solver(memory_mb=1).tricks(tampered(small_position(), hands=SIXTEEN)),
            ValueError,
            "in two hands",
        ),
        (
            "api-tampered-leader",
            lambda: Solver(memory_mb=1).solve(tampered(small_position(), leader=7)),
            ValueError,
            "leader",
        ),
        (
            "api-unchecked-subclass",
            lambda: Solver(memory_mb=1).tricks(
                UncheckedPosition(
                    hands=SIXTEEN, contract=Contract.SPADES, declarer=0, defenders=(1, 2), leader=0
                )
            ),
            ValueError,
            "in two hands",
        ),
        ("api-need-text", lambda: Solver(memory_mb=1).makes(small_position(), "6"), TypeError, "need"),  # type: ignore[arg-type]
        ("api-rules-text", lambda: Solver(memory_mb=1).maxn(full_position(), "flat"), TypeError, "rules"),  # type: ignore[arg-type]
        (
            "api-maxn-small-solver",
            lambda: Solver(memory_mb=0.01).maxn(full_position()),
            ValueError,
            f"at least {MAXN_MIN_MEMORY_MB} MB",
        ),
        ("api-memory-text", lambda: Solver(memory_mb="32"), TypeError, "memory_mb"),  # type: ignore[arg-type]
        ("api-memory-nan", lambda: Solver(memory_mb=float("nan")), ValueError, "memory_mb"),
    ]


def run_hostile_calls() -> None:
    """In the child: make every hostile call, one JSON line each (flushed, so that the
    parent knows which call a crash came from)."""
    for name, call, _, _ in hostile_calls():
        print(json.dumps([name, "started", ""]), flush=True)
        try:
            result = call()
        except Exception as e:
            print(json.dumps([name, type(e).__name__, str(e)]), flush=True)
        else:
            print(json.dumps([name, "returned", repr(result)[:200]]), flush=True)
