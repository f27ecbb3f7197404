"""pimc on several threads: the compiled solver searches without the GIL, each thread
with its own solver, and a seeded decision does not depend on the thread count."""

from __future__ import annotations

import os
import random
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from paston.bots import make_player
from paston.bots.pimc import PimcPlayer
from paston.bots.worlds import THREADS_ENV, WorldPool, default_threads, world_pool
from paston.contracts import Contract
from paston.deal import Deal, Phase
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


def _views(seed: int, decisions: int) -> list[object]:
    """Views of every kind of decision with a real choice, from deals played by the
    heuristic player."""
    out: list[object] = []
    rng = random.Random(seed)
    for k in range(20):
        deal = Deal(shuffled_deck(rng), dealer=k % 3, first_deal=True)
        players = [make_player("heuristic", seed=seed + s) for s in range(3)]
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            view = deal.view(seat)
            if len(view.legal_actions) > 1 and (view.phase is not Phase.PLAY or rng.random() < 0.15):
                out.append(view)
            deal.apply(players[seat].choose(view), seat)
        if len(out) >= decisions and {v.phase for v in out} >= {Phase.PLAY, Phase.AUCTION, Phase.DISCARD}:  # type: ignore[attr-defined]
            break
    return out


@pytest.mark.parametrize("level", [1, 2])
def test_pimc_choices_do_not_depend_on_the_thread_count(level: int) -> None:
    views = _views(11 + level, 24)
    phases = {v.phase for v in views}  # type: ignore[attr-defined]
    assert {Phase.PLAY, Phase.AUCTION, Phase.DISCARD} <= phases
    for i, view in enumerate(views):
        scored = [PimcPlayer(seed=i, level=level, threads=t).options(view) for t in (1, 2, 3)]  # type: ignore[arg-type]
        assert scored[0] == scored[1] == scored[2], (i, view.phase)  # type: ignore[attr-defined]


def test_pimc_with_threads_matches_the_shared_solver_player() -> None:
    view = _views(3, 6)[0]
    one = PimcPlayer(seed=9, level=1, threads=1, solver=Solver(memory_mb=4)).options(view)  # type: ignore[arg-type]
    many = PimcPlayer(seed=9, level=1, threads=4).options(view)  # type: ignore[arg-type]
    assert one == many


def test_world_pool_keeps_the_order_of_the_items() -> None:
    pool = WorldPool(3)
    items = list(range(100))
    assert pool.map(lambda solver, x: (x, isinstance(solver, Solver)), items, Solver(memory_mb=1)) == [
        (x, True) for x in items
    ]


@pytest.mark.parametrize("bad", [0, -1, 65, 2.0, "2", True])
def test_bad_thread_counts_are_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="threads must be an int from 1 to 64"):
        WorldPool(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="threads must be an int"):
        PimcPlayer(seed=1, threads=bad)  # type: ignore[arg-type]


def test_thread_count_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(THREADS_ENV, "3")
    assert default_threads() == 3
    assert PimcPlayer(seed=1).threads == 3
    for bad in ("0", "many", "999", ""):
        monkeypatch.setenv(THREADS_ENV, bad)
        assert 1 <= default_threads() <= 64


def test_world_pool_is_shared_per_process_and_thread_count() -> None:
    assert world_pool(2) is world_pool(2)
    assert world_pool(2) is not world_pool(3)
    assert world_pool(2).threads == 2 and os.getpid() > 0


def test_timed_level_samples_at_least_its_fixed_counts() -> None:
    # level 5 samples by time, from its fixed counts up; the time itself is measured by
    # benchmarks/pimc_time.py, not here
    view = next(v for v in _views(4, 4) if v.phase is Phase.PLAY)  # type: ignore[attr-defined]
    bot = PimcPlayer(seed=2, level=5, threads=2)
    assert bot.settings.timed
    scored = bot.options(view)  # type: ignore[arg-type]
    assert scored.worlds >= bot.settings.play
    assert not PimcPlayer(seed=2, level=4).settings.timed
