"""pimc on several threads: each thread with its own solver, and a seeded decision does
not depend on the thread count (the solver itself: tests/test_solver_threads.py)."""

from __future__ import annotations

import os
import random
import threading
import time

import pytest

from paston.bots import make_player, worlds
from paston.bots.pimc import PimcPlayer
from paston.bots.worlds import INLINE_BELOW, THREADS_ENV, WorldPool, default_threads, world_pool
from paston.deal import Deal, Phase
from paston.dealing import shuffled_deck
from paston.solver import Solver


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


def test_world_pool_solves_quick_work_on_the_callers_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch the first item shows to be cheap stays on the caller's thread (the threads'
    round trips would cost more than they save); slow items go to the pool's threads.
    The first item sleeps 20 ms: 19 more are forecast at 0.38 s, far from the bound."""
    pool = WorldPool(2)

    def where(solver: Solver, pause: float) -> str:
        time.sleep(pause)
        return threading.current_thread().name

    here = threading.current_thread().name
    assert 0 < INLINE_BELOW < 0.38
    slow = pool.map(where, [0.02] * 20, Solver(memory_mb=1))
    assert slow[0] == here and all(name.startswith("paston-worlds") for name in slow[1:])
    monkeypatch.setattr(worlds, "INLINE_BELOW", 10.0)  # the same batch, forecast below the bound
    assert pool.map(where, [0.02] * 20, Solver(memory_mb=1)) == [here] * 20


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
