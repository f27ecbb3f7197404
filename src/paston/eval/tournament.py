"""Duplicate tournaments: the same deals played in all six arrangements of two bots.

Every deal is played six times, once per arrangement of the two players to the three
seats where both appear (A A B, A B A, B A A, A B B, B A B, B B A), so luck of the
cards cancels out. Each deal is played as the first deal of a game (R1.5, R2.1
apply), which also makes each play a valid one-deal ``paston/1`` record.

>>> rows = play_duplicate_deal(0, "heuristic", "random", seed=1)
>>> len(rows), sorted({r.arrangement for r in rows}) == sorted(arrangements("heuristic", "random"))
(6, True)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any, Protocol

from paston.bots.base import Player, make_player
from paston.dealing import shuffled_deck
from paston.eval.executor import Executor, PoolExecutor
from paston.match import Match
from paston.record import to_record
from paston.result import Outcome
from paston.rules import Rules

ARRANGEMENT_COUNT = 6


def arrangements(a: str, b: str) -> list[tuple[str, str, str]]:
    """The six seatings of two players where both appear."""
    return [(a, a, b), (a, b, a), (b, a, a), (a, b, b), (b, a, b), (b, b, a)]


@dataclass(frozen=True, slots=True)
class DealResultRow:
    """One play of one deal in one arrangement."""

    deal: int
    arrangement: tuple[str, str, str]
    scores: tuple[int, int, int]
    declarer: int | None
    outcome: Outcome
    contract: str | None
    defenders: tuple[int, ...]
    tricks: tuple[int, int, int]
    whist_answers: tuple[tuple[int, bool], ...]  # (seat, said whist)
    decision_times: tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]
    """Seconds each decision of each seat took, in order."""
    record: dict[str, Any]

    @property
    def decision_seconds(self) -> tuple[float, float, float]:
        """Seconds spent deciding, per seat."""
        t = self.decision_times
        return sum(t[0]), sum(t[1]), sum(t[2])

    @property
    def decisions(self) -> tuple[int, int, int]:
        """Decisions taken, per seat."""
        t = self.decision_times
        return len(t[0]), len(t[1]), len(t[2])


def _deal_deck(seed: int | str, k: int) -> tuple[random.Random, int]:
    rng = random.Random(f"paston-tournament:{seed}:{k}")
    return rng, k % 3


class PlayerFactory(Protocol):
    """Makes a player from its name and ``seed`` (:func:`~paston.bots.base.make_player`,
    or a script's own, to pit variants of one bot against each other)."""

    def __call__(self, name: str, *, seed: int | None = None) -> Player: ...


def play_duplicate_deal(
    k: int,
    a: str,
    b: str,
    *,
    seed: int | str = 0,
    rules: Rules | None = None,
    factory: PlayerFactory = make_player,
) -> list[DealResultRow]:
    """Play deal ``k`` of a tournament in all six arrangements, the players made by
    ``factory``."""
    rules = rules or Rules()
    rows = []
    for j, names in enumerate(arrangements(a, b)):
        deck_rng, first_dealer = _deal_deck(seed, k)
        bot_rng = random.Random(f"paston-tournament-bots:{seed}:{k}:{j}")
        players = [factory(n, seed=bot_rng.getrandbits(64)) for n in names]
        match = Match(first_dealer=first_dealer, rules=rules, seats=names)
        while match.needs_deck and match.completed_deals == 0:
            match.deal_next(shuffled_deck(deck_rng))
        times: list[list[float]] = [[], [], []]
        while match.deal is not None:
            seat = match.to_move
            assert seat is not None
            view = match.view(seat)
            start = time.perf_counter()
            action = players[seat].choose(view)
            times[seat].append(time.perf_counter() - start)
            match.apply(action, seat)
        deal = match.deals[-1]
        result = deal.result
        assert result is not None
        answers = []
        d = result.declarer
        if deal.contract is not None:
            order = [(d + 1) % 3, (d + 2) % 3]
            answers = list(zip(order, deal.whist_answers, strict=False))
        rows.append(
            DealResultRow(
                deal=k,
                arrangement=names,
                scores=result.scores,
                declarer=result.declarer,
                outcome=result.outcome,
                contract=None if result.contract is None else result.contract.name_in_record,
                defenders=result.defenders,
                tricks=result.tricks,
                whist_answers=tuple(answers),
                decision_times=(tuple(times[0]), tuple(times[1]), tuple(times[2])),
                record=to_record(match),
            )
        )
    return rows


def _worker(args: tuple[int, str, str, int | str, dict[str, Any]]) -> list[DealResultRow]:
    k, a, b, seed, rules = args
    return play_duplicate_deal(k, a, b, seed=seed, rules=Rules.from_dict(rules))


def run_tournament(
    a: str,
    b: str,
    *,
    deals: int,
    seed: int | str = 0,
    workers: int = 1,
    rules: Rules | None = None,
    progress: Callable[[int], None] | None = None,
    start: int = 0,
    executor: Executor | None = None,
) -> Iterator[list[DealResultRow]]:
    """Yield the rows of each deal in order (deal ``start``, ``start + 1``, … up to
    ``deals - 1``), using ``workers`` processes, or the ``executor`` given (a Ray
    cluster: :mod:`paston.eval.distributed`), which the caller closes.

    The output does not depend on the number of workers, nor on the executor, nor on
    where it starts: deal ``k`` is the same deal, played by the same seeded bots, in
    every run of the seed.
    """
    rules = rules or Rules()
    jobs = [(k, a, b, seed, rules.to_dict()) for k in range(start, deals)]
    with PoolExecutor(workers) if executor is None else nullcontext(executor) as ex:
        for rows in ex.map(_worker, jobs):
            if progress:
                progress(1)
            yield rows
