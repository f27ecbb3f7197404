"""The compiled solver's door: every entry point of the C core (``_core.tricks``,
``card_values``, ``reaches``, ``maxn``, ``_layout_limit``) and every ``Solver`` method
answers a bad call with a clean ``TypeError`` or ``ValueError`` naming the problem,
never a crash or a hang.

- A table of hand-picked hostile calls (``solver_door_helpers.py``), each with the
  exception and the words it must give. Before the checks at the door, many of these
  hung (an empty set of active seats looped for ever holding the GIL), crashed or read
  out of arrays (a leader or a trump out of range, more than 10 cards in a hand), or
  answered nonsense (three overlapping 16-card hands "solved" to 16 tricks).
- Hypothesis fuzzing: legal positions with random fields replaced by hostile values or
  cards moved between hands and the trick, straight into the core; and random objects,
  tampered positions and hostile parameters through the public API.

Everything that calls the core with hostile arguments runs in a child Python process
with a time limit (``run_child``): a regression that crashes or hangs the core fails
these tests instead of killing or stalling the test run. (Bad ``Position`` values are
covered in ``test_solver_errors.py``.)
"""

from __future__ import annotations

import contextlib
import json
import random
import sys
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paston.rules import Rules
from paston.solver import (
    MAXN_MIN_MEMORY_MB,
    Position,
    Solver,
    _core,  # type: ignore[attr-defined]
)
from solver_door_helpers import (
    Call,
    describe_death,
    full_position,
    hostile_calls,
    maxn_table,
    raw,
    run_child,
    tampered,
)
from solver_helpers import random_position


@pytest.fixture(scope="module")
def hostile_results() -> tuple[dict[str, tuple[str, str]], str]:
    """What each hostile call did in a child, and how the child ended ('' if cleanly)."""
    done = run_child("import solver_door_helpers as t; t.run_hostile_calls()")
    results: dict[str, tuple[str, str]] = {}
    for line in done.stdout.splitlines():
        name, what, message = json.loads(line)
        results[name] = (what, message)
    return results, "" if done.returncode == 0 else describe_death(done)


HOSTILE = [(name, kind, words) for name, _, kind, words in hostile_calls()]


@pytest.mark.parametrize(("name", "kind", "words"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_door_hostile_call_raises_cleanly(
    hostile_results: tuple[dict[str, tuple[str, str]], str], name: str, kind: type[Exception], words: str
) -> None:
    results, death = hostile_results
    what, message = results.get(name, ("never reached", ""))
    assert what != "started", f"{name} crashed or hung the core: {death}"
    assert what != "never reached", f"the child ended before {name}: {death}"
    assert what == kind.__name__, (name, what, message)
    assert words in message, (name, message)


def test_door_child_guard_catches_hangs_and_crashes() -> None:
    """The child harness itself: a call that never returns fails the test (it does not
    hang the run), and a child killed by a signal is reported with it."""
    with pytest.raises(pytest.fail.Exception, match="hung"):
        run_child("import time; time.sleep(60)", timeout=1)
    done = run_child("import os, signal; os.kill(os.getpid(), signal.SIGKILL)")
    assert done.returncode != 0 and "signal 9" in describe_death(done)


def test_door_valid_calls_still_answer() -> None:
    """The checks refuse nothing legal: the raw position above, every entry point, and the
    smallest tables each one takes."""
    assert _core.tricks(*raw(table=bytearray(_core.TABLE_MIN_BYTES)))[0] == 3
    assert _core.card_values(*raw())[0] == {0: 3, 1: 3, 2: 3}
    assert _core.reaches(raw(), 3)[0] is True and _core.reaches(raw(), 10**40)[0] is False
    assert _core.reaches(raw(), -(10**40))[0] is True
    (t0, t1, t2), per_card, _ = _core.maxn(raw(), (7, 0, 0), maxn_table())
    assert (t0, t1, t2) == (10, 0, 0) and set(per_card) == {0, 1, 2}
    # mid-trick, two seats, a list for the trick, a memoryview table
    two = raw(h0=0b110, h1=0b111 << 8, h2=0, active=3, trick=[0], table=memoryview(bytearray(8192)))
    assert _core.tricks(*two)[0] in (0, 1, 2, 3)
    pos = full_position()
    assert Solver(memory_mb=MAXN_MIN_MEMORY_MB).maxn(pos).tricks == Solver().maxn(pos).tricks


# --- fuzzing -----------------------------------------------------------------------------------
HOSTILE_VALUES = st.one_of(
    st.integers(-3, 40),
    st.integers(-(2**70), 2**70),
    st.sampled_from([0, 1, 7, 9, 0xFFFF, 0xFFFFFFFF, 1 << 32, -1, 2**63, -(2**63) - 1]),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=True),
    st.text(max_size=3),
    st.binary(max_size=8),
    st.lists(st.integers(-2, 40), max_size=4),
    st.tuples(st.integers(-2, 40), st.integers(-2, 40)),
)
TABLES = st.one_of(
    st.integers(0, 8192).map(bytearray),
    st.sampled_from(["bytes", "readonly", "odd-offset", "none", "min", "min-1"]),
)
MAXN_TABLES = st.sampled_from(["min", "min-64", "min+63", "small", "bytes", "odd-offset", "none"])


def make_table(kind: object, smallest: int) -> object:
    if isinstance(kind, bytearray):
        return kind
    return {
        "bytes": lambda: bytes(smallest),
        "readonly": lambda: memoryview(bytes(smallest)),
        "odd-offset": lambda: memoryview(bytearray(smallest + 64))[1:],
        "none": lambda: None,
        "min": lambda: bytearray(smallest),
        "min-1": lambda: bytearray(max(0, smallest - 8)),
        "min-64": lambda: bytearray(smallest - 64),
        "min+63": lambda: bytearray(smallest + 63),
        "small": lambda: bytearray(4096),
    }[str(kind)]()


def position_args(pos: Position, table: object) -> list[object]:
    active = sum(1 << s for s in pos.active)
    return [*pos.hands, pos.trump, pos.declarer, active, pos.leader, pos.trick, table]


def mutate(args: list[object], data: st.DataObject) -> None:
    """Replace fields by hostile values, or move cards between the hands and the trick."""
    for _ in range(data.draw(st.integers(0, 3), label="mutations")):
        how = data.draw(st.sampled_from(["value", "move", "copy", "trick"]), label="how")
        if how == "value":
            args[data.draw(st.integers(0, 7), label="field")] = data.draw(HOSTILE_VALUES, label="value")
            continue
        seats = [i for i in range(3) if isinstance(args[i], int) and 0 <= args[i] < 1 << 32]  # type: ignore[operator]
        if not seats:
            continue
        src, dst = data.draw(st.sampled_from(seats)), data.draw(st.integers(0, 2))
        hand = int(args[src])  # type: ignore[call-overload]
        card = data.draw(st.integers(0, 31), label="card")
        if how in ("move", "copy") and isinstance(args[dst], int):
            if how == "move":
                args[src] = hand & ~(1 << card)
            args[dst] = int(args[dst]) | 1 << card  # type: ignore[call-overload]
        elif how == "trick" and isinstance(args[7], tuple):
            args[src] = hand & ~(1 << card)
            args[7] = (*args[7], card)


def check_outcome(call: Call) -> None:
    """A result or a clean TypeError/ValueError; anything else fails."""
    with contextlib.suppress(TypeError, ValueError):
        call()


def fuzz_raw_entry_points(examples: int) -> None:
    """In the child: random legal positions (1-4 cards each), mutated, into every entry
    point; each call is written to stderr before it runs, so a crash names its call."""

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(data=st.data(), seed=st.integers(0, 2**32 - 1), cards=st.integers(1, 4))
    def run(data: st.DataObject, seed: int, cards: int) -> None:
        pos = random_position(random.Random(seed), cards=cards, trick_len=data.draw(st.integers(0, 2)))
        entry = data.draw(st.sampled_from(["tricks", "card_values", "reaches", "maxn"]), label="entry")
        args = position_args(pos, make_table(data.draw(TABLES, label="table"), _core.TABLE_MIN_BYTES))
        mutate(args, data)
        if data.draw(st.integers(0, 20)) == 0:
            args = args[: data.draw(st.integers(0, 8))]  # a wrong number of arguments
        print(entry, repr(args)[:300], file=sys.stderr, flush=True)
        if entry == "tricks":
            check_outcome(lambda: check_value(_core.tricks(*args), pos))
        elif entry == "card_values":
            check_outcome(lambda: check_card_values(_core.card_values(*args)))
        elif entry == "reaches":
            target = data.draw(st.one_of(st.integers(-(2**80), 2**80), st.integers(-2, 12), HOSTILE_VALUES))
            check_outcome(lambda: check_reaches(_core.reaches(tuple(args), target)))
        else:
            taken = data.draw(st.one_of(st.just(pos.tricks), HOSTILE_VALUES), label="taken")
            table = make_table(data.draw(MAXN_TABLES, label="maxn table"), _core.MAXN_TABLE_MIN_BYTES)
            check_outcome(lambda: check_maxn(_core.maxn(tuple(args), taken, table)))

    run()


def check_value(result: Any, pos: Position) -> None:
    value, nodes = result
    assert type(value) is int and 0 <= value <= 10 and nodes >= 0, result


def check_card_values(result: Any) -> None:
    values, _ = result
    assert values and all(0 <= c < 32 and 0 <= v <= 10 for c, v in values.items()), result


def check_reaches(result: Any) -> None:
    assert type(result[0]) is bool, result


def check_maxn(result: Any) -> None:
    tricks, per_card, _ = result
    assert sum(tricks) == 10 and per_card and all(sum(t) == 10 for t in per_card.values()), result


def fuzz_public_api(examples: int) -> None:
    """In the child: every Solver method with random objects, positions tampered behind
    their validation, and hostile parameters."""
    solvers = [Solver(memory_mb=0.01), Solver(memory_mb=MAXN_MIN_MEMORY_MB)]

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(data=st.data(), seed=st.integers(0, 2**32 - 1))
    def run(data: st.DataObject, seed: int) -> None:
        pos: object = random_position(random.Random(seed), cards=data.draw(st.integers(1, 4)))
        shape = data.draw(st.sampled_from(["position", "hostile", "namespace", "tampered"]), label="shape")
        if shape == "hostile":
            pos = data.draw(HOSTILE_VALUES)
        elif shape == "namespace":
            assert isinstance(pos, Position)
            pos = SimpleNamespace(**{f: getattr(pos, f) for f in Position.__dataclass_fields__})
        elif shape == "tampered":
            assert isinstance(pos, Position)
            field = data.draw(
                st.sampled_from(["hands", "leader", "declarer", "trick", "tricks", "defenders"])
            )
            value = data.draw(
                st.one_of(HOSTILE_VALUES, st.tuples(HOSTILE_VALUES, HOSTILE_VALUES, HOSTILE_VALUES))
            )
            tampered(pos, **{field: value})
        solver = data.draw(st.sampled_from(solvers))
        method = data.draw(st.sampled_from(["tricks", "tricks_with_nodes", "makes", "solve", "maxn"]))
        extra: list[object] = []
        if method == "makes" and data.draw(st.booleans()):
            extra = [data.draw(st.one_of(st.integers(-(2**70), 2**70), HOSTILE_VALUES))]
        if method == "maxn" and data.draw(st.booleans()):
            extra = [data.draw(st.one_of(st.just(Rules(lone_defender="flat")), HOSTILE_VALUES))]
        print(method, shape, repr(pos)[:300], extra, file=sys.stderr, flush=True)
        try:
            getattr(solver, method)(pos, *extra)
        except (TypeError, ValueError):
            pass
        except (AttributeError, IndexError):
            # a position tampered behind its validation may fail in Python before the
            # core is reached: still a clean exception
            assert shape == "tampered", (method, shape)

    run()


@pytest.mark.parametrize("fuzz", ["fuzz_raw_entry_points(600)", "fuzz_public_api(300)"])
def test_door_fuzz_never_crashes_or_hangs(fuzz: str) -> None:
    done = run_child(f"import test_solver_door as t; t.{fuzz}")
    assert done.returncode == 0, describe_death(done)
