"""The compiled solver called from several threads at once: it releases the GIL while
it searches, every call on its own table gives the answers of a single thread, and a
solver shared by threads serialises its calls. (Run under ASan/UBSan by
scripts/sanitize-solver, like every tests/test_solver_*.py.)"""

from __future__ import annotations

import random
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from paston.contracts import Contract
from paston.deal import Deal
from paston.dealing import shuffled_deck
from paston.solver import Position, Solver
from solver_helpers import random_position


def _answers(solver: Solver, pos: Position) -> tuple[object, ...]:
    """Every query of the solver on one position (max^n only with three active seats)."""
    solution = solver.solve(pos)
    maxn = solver.maxn(pos) if len(pos.defenders) == 2 else None
    return (
        solver.tricks(pos),
        solver.makes(pos, 6),
        solution.value,
        solution.card_values,
        None if maxn is None else (maxn.scores, maxn.tricks, maxn.card_scores, maxn.card_tricks),
    )


POSITIONS = [random_position(random.Random(k), cards=random.Random(k).randint(3, 7)) for k in range(60)]


def test_solver_gives_identical_answers_from_several_threads_at_once() -> None:
    expected = [_answers(Solver(memory_mb=2), pos) for pos in POSITIONS]
    local = threading.local()

    def own(i: int) -> tuple[object, ...]:
        if not hasattr(local, "solver"):
            local.solver = Solver(memory_mb=2)
        return _answers(local.solver, POSITIONS[i])

    order = list(range(len(POSITIONS))) * 3  # every position three times, on four threads
    random.Random(1).shuffle(order)
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(own, order))
    assert got == [expected[i] for i in order]


def test_one_solver_shared_by_threads_serialises_its_calls_and_stays_exact() -> None:
    expected = [_answers(Solver(memory_mb=2), pos) for pos in POSITIONS]
    shared = Solver(memory_mb=2)
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda pos: _answers(shared, pos), POSITIONS))
    assert got == expected


def test_the_search_runs_without_the_gil() -> None:
    # With a switch interval of minutes, a thread holding the GIL keeps it until it
    # releases it itself. A second thread that counts (and gives the GIL up after each
    # count) can then count during the search only if the search released the GIL.
    deal = Deal(shuffled_deck(random.Random(5)), dealer=0, first_deal=True)
    h = [deal.view(s).hand.mask for s in range(3)]
    pos = Position(hands=(h[0], h[1], h[2]), contract=Contract(0), declarer=0, defenders=(1, 2), leader=0)
    ticks = 0
    started, done = threading.Event(), threading.Event()

    def count() -> None:
        nonlocal ticks
        started.set()
        while not done.is_set():
            ticks += 1
            time.sleep(0)

    old = sys.getswitchinterval()
    sys.setswitchinterval(120)
    counter = threading.Thread(target=count)
    counter.start()
    try:
        started.wait()
        during = 0
        for _ in range(6):
            solver = Solver(memory_mb=1)
            before = ticks
            solver.maxn(pos)  # a full deal on a fresh table: milliseconds of search
            during += ticks - before
    finally:
        done.set()
        sys.setswitchinterval(old)
        counter.join()
    assert during > 0
