"""Perfect-information Monte Carlo: sample the hidden cards consistently with the
seat's view, solve every sample double-dummy, and choose the action with the best
expected score under R7.

Every decision uses the same sampled evaluation, pruned to plausible candidates:
card play (each legal card), bidding (the next step or pass), discard and trump
(the most plausible discards times the allowed contracts, or surrender), and
whist or pass. ``level`` (1–5) sets how many worlds are sampled: levels 1 to 4 a
fixed number (reproducible from the seed), level 5 as many as fit in a time budget per
kind of decision (``TIME_BUDGETS``; at least its fixed counts). The worlds of one
decision are solved on ``threads`` threads (default: the cores, see
:mod:`paston.bots.worlds`), each with its own solver; the results are added up in the
order the worlds were sampled, so a seeded decision does not depend on the thread count.

>>> import random
>>> from paston.deal import Deal
>>> deal = Deal.random(random.Random(3), dealer=0)
>>> bot = PimcPlayer(seed=1, level=1)
>>> bot.choose(deal.view(deal.to_move)) in deal.legal_actions()
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from paston.actions import PASS, SURRENDER, WHIST, Action, Kind
from paston.bots.evaluation import best_discard, discard_candidates
from paston.bots.knowledge import World, WorldSampler, uniform_worlds
from paston.bots.registry import PLAYERS_BY_NAME
from paston.bots.worlds import default_threads, world_pool
from paston.cards import Card
from paston.contracts import Contract, allowed_trumps
from paston.deal import Phase
from paston.errors import IllegalActionError
from paston.rules import Rules
from paston.scoring import DECLARER_NEEDS, declarer_score, defender_score
from paston.solver import Position, Solver, default_solver
from paston.views import DealView


@dataclass(frozen=True, slots=True)
class Level:
    """Worlds sampled per decision kind, and discards tried. A ``timed`` level samples
    at least these many worlds, then more while its time budget (``TIME_BUDGETS``) lasts,
    up to ``MAX_WORLDS_FACTOR`` times as many."""

    play: int
    bid: int
    discard: int
    discards_tried: int
    whist: int
    timed: bool = False


@dataclass(frozen=True, slots=True)
class TimeBudgets:
    """Seconds a timed level spends sampling, per kind of decision (below the targets:
    card play 300 ms median and 1 s worst, bidding and whist 1 s, discard plus trump 3 s)."""

    play: float
    bid: float
    discard: float
    trump: float
    whist: float


LEVELS: dict[int, Level] = {
    1: Level(play=6, bid=6, discard=4, discards_tried=4, whist=4),
    2: Level(play=10, bid=8, discard=6, discards_tried=6, whist=6),
    3: Level(play=16, bid=12, discard=8, discards_tried=8, whist=8),
    4: Level(play=24, bid=16, discard=10, discards_tried=10, whist=10),
    # at least level 3's worlds (so a slow or busy machine stays within the targets),
    # then as many more as the time budget allows
    5: Level(play=16, bid=12, discard=8, discards_tried=12, whist=8, timed=True),
}
TIME_BUDGETS = TimeBudgets(play=0.15, bid=0.3, discard=1.2, trump=0.5, whist=0.3)
MAX_WORLDS_FACTOR = 60
"""A timed level samples at most this many times its fixed counts (an easy decision
needs no thousands of worlds)."""
DEFAULT_LEVEL: int = PLAYERS_BY_NAME["pimc"].default_level or 3
BID_MARGIN = 1.0
"""A bid must be expected to beat passing (about 0) by more than this many points."""
SURRENDER_SCORE = -10.0
"""What surrendering costs the declarer (R7); the trump decision's floor."""
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Option:
    """One action the player considers, as valued from the seat's view: ``score`` the
    expected deal score (R7 points) for the seat, ``tricks`` the seat's expected tricks
    (card play only, else ``None``), ``chance`` the fraction of the sampled worlds in which
    the seat's side gets what it plays for after this action: the declarer (or a bidder,
    or the declarer choosing a discard or trump) makes the contract, a defender beats it
    (``None`` for an action that plays no contract: pass, surrender)."""

    action: Action
    score: float
    tricks: float | None
    chance: float | None = None


@dataclass(frozen=True, slots=True)
class Scored:
    """The options of one decision in the player's order of preference (its choice first),
    and how many sampled worlds valued them."""

    options: tuple[Option, ...]
    worlds: int

    def chosen(self, legal: Sequence[Action]) -> Action:
        """The player's choice: the first option, if legal (else the first legal action)."""
        first = self.options[0].action if self.options else None
        return first if first is not None and first in legal else legal[0]


def first_option(options: Callable[[DealView], Scored], view: DealView) -> Action:
    """A player's choice: the only legal action, else the first of its ``options``."""
    legal = view.legal_actions
    if not legal:
        raise IllegalActionError("R0.1", "not-your-turn", f"seat {view.seat} has nothing to do now")
    if len(legal) == 1:
        return legal[0]
    return options(view).chosen(legal)


class PimcPlayer:
    """PIMC with the double-dummy solver; deterministic given a seed.

    Players share the process's default solver unless given one: the solver's answers
    are exact, so sharing its tables changes speed, never decisions.
    """

    name = "pimc"

    def __init__(
        self,
        seed: int | None = None,
        *,
        level: int = DEFAULT_LEVEL,
        solver: Solver | None = None,
        time_budget: float | None = None,
        sampler: WorldSampler | None = None,
        threads: int | None = None,
        settings: Level | None = None,
    ) -> None:
        if level not in LEVELS:
            raise ValueError(f"pimc level must be 1 to 5, not {level!r}")
        if time_budget is not None and not time_budget > 0:
            raise ValueError(f"time_budget must be a positive number of seconds, not {time_budget!r}")
        self.level = level
        self.time_budget = time_budget
        self._deadline = float("inf")
        self.settings = LEVELS[level] if settings is None else settings
        """How many worlds each kind of decision samples (``LEVELS[level]`` unless given)."""
        self._rng = random.Random(seed)
        self.solver = solver if solver is not None else default_solver()
        self.sampler: WorldSampler = sampler if sampler is not None else uniform_worlds
        """Draws the worlds every decision values: uniform among those consistent with the
        view by default; :mod:`paston.bots.inference` weights them by the actions seen."""
        self.threads = default_threads() if threads is None else threads
        self._pool = world_pool(self.threads)  # checks the thread count

    def choose(self, view: DealView) -> Action:
        """Pick a legal action from the seat's view: the first of :meth:`options`."""
        return first_option(self.options, view)

    def options(self, view: DealView) -> Scored:
        """Every action this player considers for the seat to move, valued from its view
        and ordered by its preference (its choice first). The one implementation of the
        valuation: :meth:`choose` takes the first, :func:`paston.bots.explain.explain`
        shows them all."""
        if view.seat is None or view.seat != view.to_move or not view.legal_actions:
            raise IllegalActionError("R0.1", "not-your-turn", f"seat {view.seat} has nothing to do now")
        if self.time_budget is not None:
            self._deadline = time.perf_counter() + self.time_budget
        phase = view.phase
        if phase is Phase.PLAY:
            return self._play(view)
        if phase is Phase.AUCTION:
            return self._bid(view)
        if phase is Phase.DISCARD:
            return self._discard(view)
        if phase is Phase.TRUMP:
            return self._trump(view)
        return self._whist(view)

    # --- helpers -------------------------------------------------------------------------
    def _worlds(self, view: DealView, n: int) -> list[World]:
        """``n`` worlds drawn by the player's sampler (what :meth:`_sampled` solves)."""
        return self.sampler(view, n, self._rng)

    def _sampled(self, view: DealView, n: int, seconds: float, job: Callable[[Solver, World], T]) -> list[T]:
        """``job`` of each sampled world, in the order the worlds were sampled.

        A fixed level samples ``n`` worlds; with a ``time_budget`` it stops early (after
        at least two) once that is spent. A timed level samples at least ``n``, then
        more while the next batch is expected to end within ``seconds``. Worlds are
        sampled on this thread from the seeded generator, in batches solved by the pool."""
        start = time.perf_counter()
        timed = self.settings.timed
        deadline = min(self._deadline, start + seconds) if timed else self._deadline
        limit = n * MAX_WORLDS_FACTOR if timed else n
        results: list[T] = []
        if deadline == float("inf"):  # every world at once: the result depends only on the seed
            worlds = self._worlds(view, n)
            return self._pool.map(job, worlds, self.solver)
        floor = n if timed else 2
        batch = max(2, self.threads * (2 if timed else 1))
        per_world = 0.0  # the slowest batch's seconds per world: the next batch's forecast
        while len(results) < limit:
            now = time.perf_counter()
            size = min(max(batch, floor - len(results)), limit - len(results))
            if len(results) >= floor and (now > deadline or (timed and now + per_world * size > deadline)):
                break
            worlds = self._worlds(view, size)
            results.extend(self._pool.map(job, worlds, self.solver))
            per_world = max(per_world, (time.perf_counter() - now) / size)
        return results

    @staticmethod
    def _full_deal_score(
        solver: Solver, hands: tuple[int, int, int], declarer: int, contract: Contract, rules: Rules
    ) -> float:
        """The declarer's expected score when playing ``contract`` from the start with both
        opponents defending (double-dummy)."""
        defenders = tuple(s for s in range(3) if s != declarer)
        pos = Position(
            hands=hands, contract=contract, declarer=declarer, defenders=defenders, leader=declarer
        )
        tricks = solver.tricks(pos)
        return declarer_score(contract, tricks >= DECLARER_NEEDS) + 0.01 * tricks

    @staticmethod
    def _made(score: float) -> bool:
        """Whether a :meth:`_full_deal_score` (or surrender's −10) is a made contract: a
        made one scores at least +10, a failed one or surrender −10 or less (the tie-break
        adds at most 0.1)."""
        return score > 0

    # --- card play -------------------------------------------------------------------------
    def _play(self, view: DealView) -> Scored:
        assert view.seat is not None and view.declarer is not None and view.contract is not None
        me, declarer, contract, rules = view.seat, view.declarer, view.contract, view.rules
        legal = [a.cards[0] for a in view.legal_actions]
        active = (declarer, *view.defenders)
        lone = len(view.defenders) == 1
        trick = tuple(c.index for _, c in view.current_trick)
        leader = view.current_trick[0][0] if view.current_trick else me
        # one of two defenders: each card is valued by max^n with the exact scores of R7
        # (the defenders are paid on their own tricks, so they are not true partners)
        exact = not lone and me != declarer

        def job(solver: Solver, world: World) -> list[tuple[float, float, float, bool]]:
            """(value, tie-break, own tricks, contract made) of each legal card in one world."""
            hands = tuple(world[s] if s in active else 0 for s in range(3))
            pos = Position(
                hands=(hands[0], hands[1], hands[2]),
                contract=contract,
                declarer=declarer,
                defenders=view.defenders,
                leader=leader,
                trick=trick,
                tricks=view.tricks,
            )
            if exact:
                maxn = solver.maxn(pos, rules)
                return [
                    (
                        maxn.card_scores[c][me],
                        -maxn.card_scores[c][declarer],
                        maxn.card_tricks[c][me],
                        maxn.card_tricks[c][declarer] >= DECLARER_NEEDS,
                    )
                    for c in legal
                ]
            solution = solver.solve(pos)
            out: list[tuple[float, float, float, bool]] = []
            for c in legal:
                d = solution.card_values[c]
                made = d >= DECLARER_NEEDS
                if me == declarer:
                    out.append((declarer_score(contract, made), d, d, made))
                else:  # the lone defender
                    out.append((defender_score(contract, 10 - d, lone=True, rules=rules), -d, 10 - d, made))
            return out

        value = {c: 0.0 for c in legal}
        tie = {c: 0.0 for c in legal}
        mine = {c: 0.0 for c in legal}  # the seat's own tricks, for the hint
        reached = {c: 0 for c in legal}  # worlds where the seat's side gets its aim, for the hint
        aim = me == declarer  # the declarer plays to make the contract, a defender to beat it
        results = self._sampled(view, self.settings.play, TIME_BUDGETS.play, job)
        for per_card in results:
            for c, (v, t, m, made) in zip(legal, per_card, strict=True):
                value[c] += v
                tie[c] += t
                mine[c] += m
                reached[c] += made == aim
        used = len(results)
        ranked = sorted(legal, key=lambda c: (value[c], tie[c], -c.index), reverse=True)
        n = max(used, 1)
        return Scored(
            tuple(Option(Action.play(c), value[c] / n, mine[c] / n, reached[c] / n) for c in ranked), used
        )

    # --- bidding -----------------------------------------------------------------------------
    def _bid(self, view: DealView) -> Scored:
        assert view.seat is not None
        bids = [a for a in view.legal_actions if a.kind is Kind.BID]
        if not bids:
            return Scored((Option(PASS, 0.0, None),), 0)
        bid = bids[0]
        assert bid.contract is not None
        me, rules = view.seat, view.rules
        allowed = allowed_trumps(bid.contract)

        def job(solver: Solver, world: World) -> float:
            """The best of the contracts (or surrender) after the best discard, in one world."""
            twelve = world[me] | world[3]
            best = -10.0  # surrender is always possible
            for contract in allowed:
                a, b = best_discard(twelve, contract.trump_suit)
                mine = twelve & ~(a.bit | b.bit)
                hands = [world[0], world[1], world[2]]
                hands[me] = mine
                best = max(
                    best, self._full_deal_score(solver, (hands[0], hands[1], hands[2]), me, contract, rules)
                )
            return best

        results = self._sampled(view, self.settings.bid, TIME_BUDGETS.bid, job)
        used = len(results)
        expected = sum(results) / used
        made = sum(1 for r in results if self._made(r)) / used
        # passing scores about 0; bid only when declaring beats it by BID_MARGIN
        bidding, passing = Option(bid, expected, None, made), Option(PASS, 0.0, None)
        ranked = (bidding, passing) if expected > BID_MARGIN else (passing, bidding)
        return Scored(ranked, used)

    # --- discard and trump ------------------------------------------------------------------------
    def _allowed(self, view: DealView) -> list[Contract]:
        return list(allowed_trumps(view.high_bid))

    def _discard(self, view: DealView) -> Scored:
        assert view.seat is not None
        me, rules = view.seat, view.rules
        hand = view.hand.mask
        allowed = self._allowed(view)
        candidates = discard_candidates(hand, [c.trump_suit for c in allowed], self.settings.discards_tried)
        for contract in allowed:
            pair = best_discard(hand, contract.trump_suit)
            if pair not in candidates:
                candidates.append(pair)

        def job(solver: Solver, world: World) -> list[float]:
            """Each candidate discard's best contract (or surrender) in one world."""
            out: list[float] = []
            for pair in candidates:
                hands = [world[0], world[1], world[2]]
                hands[me] = hand & ~(pair[0].bit | pair[1].bit)
                h = (hands[0], hands[1], hands[2])
                out.append(max(max(self._full_deal_score(solver, h, me, c, rules) for c in allowed), -10.0))
            return out

        results = self._sampled(view, self.settings.discard, TIME_BUDGETS.discard, job)
        tried: list[tuple[float, tuple[Card, Card], int]] = []
        for i, pair in enumerate(candidates):
            value = 0.0
            made = 0
            for per_pair in results:
                value += per_pair[i]
                made += self._made(per_pair[i])
            tried.append((value, pair, made))
        # the first of the best pairs wins: a stable sort keeps the candidates' order in ties
        tried.sort(key=lambda vp: -vp[0])
        n = max(len(results), 1)
        return Scored(
            tuple(Option(Action.discard(a, b), v / n, None, m / n) for v, (a, b), m in tried), len(results)
        )

    def _trump(self, view: DealView) -> Scored:
        assert view.seat is not None
        me, rules = view.seat, view.rules
        allowed = [a.contract for a in view.legal_actions if a.kind is Kind.TRUMP and a.contract is not None]

        def job(solver: Solver, world: World) -> list[float]:
            return [
                self._full_deal_score(solver, (world[0], world[1], world[2]), me, c, rules) for c in allowed
            ]

        results = self._sampled(view, self.settings.discard, TIME_BUDGETS.trump, job)
        values = {c: 0.0 for c in allowed}
        made = {c: 0 for c in allowed}
        for per_contract in results:
            for c, v in zip(allowed, per_contract, strict=True):
                values[c] += v
                made[c] += self._made(v)
        used = len(results)
        n = max(used, 1)
        ranked = sorted(allowed, key=lambda c: (values[c], -int(c)), reverse=True)
        options = [Option(Action.trump(c), values[c] / n, None, made[c] / n) for c in ranked]
        if SURRENDER in view.legal_actions:
            # surrender (R7: −10) is chosen only when every contract is expected to lose more
            keep = sum(1 for o in options if o.score >= SURRENDER_SCORE)
            options.insert(keep, Option(SURRENDER, SURRENDER_SCORE, None))
        return Scored(tuple(options), used)

    # --- whist or pass -----------------------------------------------------------------------------
    def _whist(self, view: DealView) -> Scored:
        assert view.seat is not None and view.declarer is not None and view.contract is not None
        me, declarer, contract, rules = view.seat, view.declarer, view.contract, view.rules
        partner_passed = len(view.whist_answers) == 1 and not view.whist_answers[0]

        def job(solver: Solver, world: World) -> tuple[float, bool]:
            """The seat's score when it whists, and whether the contract is beaten, in one world."""
            hands = (world[0], world[1], world[2])
            if partner_passed:
                alone = tuple(hands[s] if s in (declarer, me) else 0 for s in range(3))
                pos = Position(
                    hands=(alone[0], alone[1], alone[2]),
                    contract=contract,
                    declarer=declarer,
                    defenders=(me,),
                    leader=declarer,
                )
                d = solver.tricks(pos)
                return defender_score(contract, 10 - d, lone=True, rules=rules), d < DECLARER_NEEDS
            defenders = tuple(s for s in range(3) if s != declarer)
            pos = Position(
                hands=hands, contract=contract, declarer=declarer, defenders=defenders, leader=declarer
            )
            maxn = solver.maxn(pos, rules)
            return float(maxn.scores[me]), maxn.tricks[declarer] < DECLARER_NEEDS

        results = self._sampled(view, self.settings.whist, TIME_BUDGETS.whist, job)
        used = len(results)
        expected = sum(score for score, _ in results) / used  # passing scores 0 (R7.4, R7.6)
        beaten = sum(1 for _, b in results if b) / used
        whist, passing = Option(WHIST, expected, None, beaten), Option(PASS, 0.0, None)
        return Scored((whist, passing) if expected > 0 else (passing, whist), used)
