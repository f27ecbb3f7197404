"""Perfect-information Monte Carlo: sample the hidden cards consistently with the
seat's view, solve every sample double-dummy, and choose the action with the best
expected score under R7.

Every decision uses the same sampled evaluation, pruned to plausible candidates:
card play (each legal card), bidding (the next step or pass), discard and trump
(the most plausible discards times the allowed contracts, or surrender), and
whist or pass. ``level`` (1–5) sets how many worlds are sampled.

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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

from paston.actions import PASS, SURRENDER, WHIST, Action, Kind
from paston.bots.evaluation import best_discard, discard_candidates
from paston.bots.knowledge import World, WorldSampler, uniform_worlds
from paston.bots.registry import PLAYERS_BY_NAME
from paston.cards import Card
from paston.contracts import Contract, allowed_trumps
from paston.deal import Phase
from paston.errors import IllegalActionError
from paston.rules import Rules
from paston.scoring import declarer_score, defender_score
from paston.solver import Position, Solver, default_solver
from paston.views import DealView


@dataclass(frozen=True, slots=True)
class Level:
    """Worlds sampled per decision kind, and discards tried."""

    play: int
    bid: int
    discard: int
    discards_tried: int
    whist: int


LEVELS: dict[int, Level] = {
    1: Level(play=6, bid=6, discard=4, discards_tried=4, whist=4),
    2: Level(play=10, bid=8, discard=6, discards_tried=6, whist=6),
    3: Level(play=16, bid=12, discard=8, discards_tried=8, whist=8),
    4: Level(play=24, bid=16, discard=10, discards_tried=10, whist=10),
    5: Level(play=40, bid=24, discard=12, discards_tried=12, whist=12),
}
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
    (card play only, else ``None``)."""

    action: Action
    score: float
    tricks: float | None


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
    ) -> None:
        if level not in LEVELS:
            raise ValueError(f"pimc level must be 1 to 5, not {level!r}")
        if time_budget is not None and not time_budget > 0:
            raise ValueError(f"time_budget must be a positive number of seconds, not {time_budget!r}")
        self.level = level
        self.time_budget = time_budget
        self._deadline = float("inf")
        self.settings = LEVELS[level]
        self._rng = random.Random(seed)
        self.solver = solver if solver is not None else default_solver()
        self.sampler: WorldSampler = sampler if sampler is not None else uniform_worlds
        """Draws the worlds every decision values: uniform among those consistent with the
        view by default; :mod:`paston.bots.inference` weights them by the actions seen."""

    def choose(self, view: DealView) -> Action:
        """Pick a legal action from the seat's view: the first of :meth:`options`."""
        legal = view.legal_actions
        if not legal:
            raise IllegalActionError("R0.1", "not-your-turn", f"seat {view.seat} has nothing to do now")
        if len(legal) == 1:
            return legal[0]
        return self.options(view).chosen(legal)

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
    def _timed(self, items: Sequence[T]) -> Iterator[T]:
        """The items, stopping early (after at least two) once the time budget is spent.
        Without a budget every item is used, so decisions depend only on the seed."""
        for i, item in enumerate(items):
            if i >= 2 and time.perf_counter() > self._deadline:
                return
            yield item

    def _worlds(self, view: DealView, n: int) -> list[World]:
        return self.sampler(view, n, self._rng)

    def _full_deal_score(
        self, hands: tuple[int, int, int], declarer: int, contract: Contract, rules: Rules
    ) -> float:
        """The declarer's expected score when playing ``contract`` from the start with both
        opponents defending (double-dummy)."""
        defenders = tuple(s for s in range(3) if s != declarer)
        pos = Position(
            hands=hands, contract=contract, declarer=declarer, defenders=defenders, leader=declarer
        )
        tricks = self.solver.tricks(pos)
        return declarer_score(contract, tricks >= 6) + 0.01 * tricks

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
        value = {c: 0.0 for c in legal}
        tie = {c: 0.0 for c in legal}
        mine = {c: 0.0 for c in legal}  # the seat's own tricks, for the hint
        used = 0
        for world in self._timed(self._worlds(view, self.settings.play)):
            used += 1
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
                maxn = self.solver.maxn(pos, rules)
                for c in legal:
                    value[c] += maxn.card_scores[c][me]
                    tie[c] -= maxn.card_scores[c][declarer]
                    mine[c] += maxn.card_tricks[c][me]
                continue
            solution = self.solver.solve(pos)
            for c in legal:
                d_tricks = solution.card_values[c]
                if me == declarer:
                    value[c] += declarer_score(contract, d_tricks >= 6)
                    tie[c] += d_tricks
                    mine[c] += d_tricks
                else:  # the lone defender
                    value[c] += defender_score(contract, 10 - d_tricks, lone=True, rules=rules)
                    tie[c] -= d_tricks
                    mine[c] += 10 - d_tricks
        ranked = sorted(legal, key=lambda c: (value[c], tie[c], -c.index), reverse=True)
        n = max(used, 1)
        return Scored(tuple(Option(Action.play(c), value[c] / n, mine[c] / n) for c in ranked), used)

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
        total = 0.0
        used = 0
        for world in self._timed(self._worlds(view, self.settings.bid)):
            used += 1
            twelve = world[me] | world[3]
            best = -10.0  # surrender is always possible
            for contract in allowed:
                a, b = best_discard(twelve, contract.trump_suit)
                mine = twelve & ~(a.bit | b.bit)
                hands = [world[0], world[1], world[2]]
                hands[me] = mine
                best = max(best, self._full_deal_score((hands[0], hands[1], hands[2]), me, contract, rules))
            total += best
        expected = total / used
        # passing scores about 0; bid only when declaring beats it by BID_MARGIN
        bidding, passing = Option(bid, expected, None), Option(PASS, 0.0, None)
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
        worlds = self._worlds(view, self.settings.discard)
        tried: list[tuple[float, tuple[Card, Card]]] = []
        for pair in self._timed(candidates):
            mine = hand & ~(pair[0].bit | pair[1].bit)
            value = 0.0
            for world in worlds:
                hands = [world[0], world[1], world[2]]
                hands[me] = mine
                value += max(
                    max(self._full_deal_score((hands[0], hands[1], hands[2]), me, c, rules) for c in allowed),
                    -10.0,
                )
            tried.append((value, pair))
        # the first of the best pairs wins: a stable sort keeps the candidates' order in ties
        tried.sort(key=lambda vp: -vp[0])
        n = max(len(worlds), 1)
        return Scored(tuple(Option(Action.discard(a, b), v / n, None) for v, (a, b) in tried), len(worlds))

    def _trump(self, view: DealView) -> Scored:
        assert view.seat is not None
        me, rules = view.seat, view.rules
        allowed = [a.contract for a in view.legal_actions if a.kind is Kind.TRUMP and a.contract is not None]
        values = {c: 0.0 for c in allowed}
        used = 0
        for world in self._timed(self._worlds(view, self.settings.discard)):
            used += 1
            for c in allowed:
                values[c] += self._full_deal_score((world[0], world[1], world[2]), me, c, rules)
        n = max(used, 1)
        ranked = sorted(allowed, key=lambda c: (values[c], -int(c)), reverse=True)
        options = [Option(Action.trump(c), values[c] / n, None) for c in ranked]
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
        total = 0.0
        used = 0
        for world in self._timed(self._worlds(view, self.settings.whist)):
            used += 1
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
                total += defender_score(contract, 10 - self.solver.tricks(pos), lone=True, rules=rules)
            else:
                defenders = tuple(s for s in range(3) if s != declarer)
                pos = Position(
                    hands=hands, contract=contract, declarer=declarer, defenders=defenders, leader=declarer
                )
                total += self.solver.maxn(pos, rules).scores[me]
        # passing scores 0 (R7.4, R7.6)
        expected = total / used
        whist, passing = Option(WHIST, expected, None), Option(PASS, 0.0, None)
        return Scored((whist, passing) if expected > 0 else (passing, whist), used)
