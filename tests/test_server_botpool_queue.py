"""The bot pool's queues (issue 22): hints never hold up a computer player's decision, a
decision waits a bounded time for a worker (then the fallback player moves), at most a
few hints wait, and a hint whose decision has passed is dropped.

Real worker processes (a pool of one), real jobs: a slow job is an ``amu:3`` decision in
the card play with a time budget, which it spends searching.
"""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from paston.deal import Phase
from paston.match import Match
from paston.server.table_error import TableError
from paston.server.tables.hints import HintService
from paston.server.work.botjobs import FALLBACK, HintJob, Job, decision_seed, fallback
from paston.server.work.botpool import BotFailure, PoolBusy, ProcessBotPool


def opening_view(seed: int = 11):  # the first decision of a deal, from its seat's view
    match = Match(first_dealer=0, seats=("a", "b", "c"), rng=random.Random(seed))
    seat = match.to_move
    assert seat is not None
    return match.view(seat)


def play_view():  # a decision in the card play, from its seat's view
    match = Match(first_dealer=0, seats=("a", "b", "c"), rng=random.Random(11))
    rng = random.Random(2)
    while match.view(match.to_move).phase is not Phase.PLAY:  # type: ignore[arg-type]
        match.apply(rng.choice(match.legal_actions()), match.to_move)
    return match.view(match.to_move)  # type: ignore[arg-type]


def slow_decision(seconds: float) -> Job:
    """A decision that keeps its worker busy for about ``seconds`` (αμ searches until its
    budget is spent)."""
    return Job("amu:3", decision_seed(1, 0), seconds, play_view())


def hint(k: int = 0) -> HintJob:
    return HintJob(1, decision_seed(4, k), 0.2, opening_view())


def quick_decision(k: int) -> Job:
    return Job("random", decision_seed(2, k), None, opening_view())


async def until_busy(pool: ProcessBotPool) -> None:
    """Wait until the pool's worker has started and holds a job."""
    deadline = time.monotonic() + 30
    while not pool.busy_pids():
        assert time.monotonic() < deadline, "the worker never started"
        await asyncio.sleep(0.01)


def test_a_decision_goes_to_the_worker_before_every_waiting_hint() -> None:
    async def run() -> list[str]:
        pool = ProcessBotPool(1, hard_timeout=30.0)
        done: list[str] = []
        try:

            async def job(name: str, coroutine: object) -> None:
                await coroutine  # type: ignore[misc]
                done.append(name)

            first = asyncio.ensure_future(job("slow decision", pool.decide(slow_decision(1.5), "t")))
            await until_busy(pool)
            later = [asyncio.ensure_future(job("hint", pool.hint(hint())))]
            await asyncio.sleep(0.05)
            later.append(asyncio.ensure_future(job("decision", pool.decide(quick_decision(0), "t"))))
            await asyncio.sleep(0)
            assert pool.queued() == (1, 1)
            await asyncio.gather(first, *later)
            return done
        finally:
            pool.close()

    # the hint was asked first, but the decision went to the worker before it
    assert asyncio.run(run()) == ["slow decision", "decision", "hint"]


def test_a_decision_that_waits_too_long_for_a_worker_is_the_fallback_players(
    caplog: pytest.LogCaptureFixture,
) -> None:
    job = Job("pimc:5", decision_seed(3, 0), None, opening_view())

    async def run() -> tuple[float, object]:
        pool = ProcessBotPool(1, hard_timeout=30.0, queue_timeout=0.3)
        try:
            busy = asyncio.ensure_future(pool.decide(slow_decision(3.0), "t"))
            await until_busy(pool)
            started = time.monotonic()
            action = await pool.decide(job, "at table t seat 1")
            waited = time.monotonic() - started
            assert pool.fallbacks == 1
            busy.cancel()
            return waited, action
        finally:
            pool.close()

    with caplog.at_level("WARNING", logger="paston.server.work.botpool"):
        waited, action = asyncio.run(run())
    assert waited < 2.0  # the fallback moved long before the busy worker was free
    assert action == fallback(job)
    line = caplog.records[-1].getMessage()
    assert "no worker was free" in line and f"{FALLBACK} played" in line and "at table t seat 1" in line


def test_only_a_few_hints_wait_and_one_more_is_refused_at_once() -> None:
    async def run() -> None:
        pool = ProcessBotPool(1, hard_timeout=30.0, max_hints=2)
        try:
            busy = asyncio.ensure_future(pool.decide(slow_decision(1.0), "t"))
            await until_busy(pool)
            waiting = [asyncio.ensure_future(pool.hint(hint(k))) for k in range(2)]
            await asyncio.sleep(0)
            assert pool.queued() == (0, 2)
            started = time.monotonic()
            with pytest.raises(PoolBusy, match="2 hints are waiting"):
                await pool.hint(hint(3))
            assert time.monotonic() - started < 0.1 and pool.hints_refused == 1
            # a decision is never refused: it waits in front of the hints
            await pool.decide(quick_decision(1), "t")
            await asyncio.gather(busy, *waiting)
        finally:
            pool.close()

    asyncio.run(run())


def test_a_hint_nobody_waits_for_leaves_the_queue() -> None:
    async def run() -> None:
        pool = ProcessBotPool(1, hard_timeout=30.0, max_hints=1)
        try:
            busy = asyncio.ensure_future(pool.decide(slow_decision(1.0), "t"))
            await until_busy(pool)
            abandoned = asyncio.ensure_future(pool.hint(hint(1)))
            await asyncio.sleep(0)
            abandoned.cancel()  # its asker went away
            await asyncio.sleep(0)
            assert pool.queued() == (0, 0)
            await pool.hint(hint(2))  # its place is free again
            await busy
        finally:
            pool.close()

    asyncio.run(run())


class FakeTable:
    """What :class:`HintService` reads of a table (a practice table, its seat's turn)."""

    def __init__(self) -> None:
        self.id = "practice"
        self.hints = True
        self.lesson = None  # not a lesson's table: hints have their time budget
        self.finished = False
        self.reshuffling = False
        self.seeds: list[tuple[int, str]] = []
        self.version = 0
        self.match = Match(first_dealer=0, seats=("a", "b", "c"), rng=random.Random(11))


class SlowPool:
    """A pool whose hints take ``seconds`` each (to see which are dropped)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.started = 0

    async def decide(self, job: Job, where: str) -> object:
        raise AssertionError("no decision here")

    async def hint(self, job: HintJob) -> dict[str, object]:
        self.started += 1
        await asyncio.sleep(self.seconds)
        return {
            "seat": job.view.seat,
            "goal": "make",
            "options": [],
            "chosen": "pass",
            "level": job.level,
            "worlds": 1,
        }

    def close(self) -> None:
        return None


def test_a_hint_for_a_passed_decision_is_dropped_when_a_later_one_is_asked() -> None:
    async def run() -> None:
        pool = SlowPool(0.5)
        service = HintService(pool)  # type: ignore[arg-type]
        table = FakeTable()
        seat = table.match.to_move
        old = asyncio.ensure_future(service.hint(table, seat))  # type: ignore[arg-type]
        await asyncio.sleep(0.05)
        table.version = 1  # the table moved on (the same seat's turn again, say)
        new = await service.hint(table, seat)  # type: ignore[arg-type]
        assert new["version"] == 1
        with pytest.raises(TableError) as info:
            await old
        assert info.value.code == "hint-passed"
        assert service.running() == 0

    asyncio.run(run())


def test_a_busy_pool_tells_the_asker_to_ask_again() -> None:
    class FullPool(SlowPool):
        async def hint(self, job: HintJob) -> dict[str, object]:
            raise PoolBusy("2 hints are waiting already")

    async def run() -> None:
        service = HintService(FullPool(0.0))  # type: ignore[arg-type]
        table = FakeTable()
        with pytest.raises(TableError) as info:
            await service.hint(table, table.match.to_move)  # type: ignore[arg-type]
        assert info.value.code == "hint-busy"
        assert isinstance(PoolBusy("x"), BotFailure)  # callers that know only failures still cope

    asyncio.run(run())
