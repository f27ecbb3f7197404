"""αμ search for the declarer's card play (Cazenave and Ventos, *The αμ Search Algorithm
for the Game of Bridge*, Monte Carlo Search 2020, arXiv:1911.07960), over the same
sampled worlds as :mod:`paston.bots.pimc`.

PIMC values each card by solving every world double-dummy, as if the declarer would
know the world from the next card on (strategy fusion). αμ searches ``depth`` moves of
the declarer without that assumption: at the declarer's nodes one card is chosen for
all the worlds still possible there (the declarer cannot tell them apart), while the
defenders, as in the paper, are assumed to know the world (they choose per world). A
node's value is a Pareto front of vectors, one entry per world: 1 where the plan makes
the contract, else 0 (the declarer's objective: R7.1 pays it for making the contract,
not for tricks). At the declarer's nodes the fronts of the cards are united (each plan
is one vector), at a defender's node they are combined by the entry-wise minimum over
the cards the defender may hold (a world follows only the cards legal in it), and after
the declarer's ``depth``-th move the compiled solver values every world (one
:meth:`~paston.solver.Solver.solve` gives the vector of each last card); a node where
the contract is already made or beaten needs no search. A card is worth the worlds its
best plan makes, then (the tie-break, as in ``pimc``) its double-dummy tricks summed
over the worlds. At depth 1 this is PIMC's choice on the same worlds, exactly.

:class:`AlphaMuPlayer` plays the declarer's cards this way and every other decision as
its :class:`~paston.bots.pimc.PimcPlayer` (same level, same sampler). With
``card_seconds`` it spends a time budget per declarer card: at depth 1 it samples worlds
in batches until the budget is spent (PIMC by time); deeper, it first values a floor of
worlds at depth 1, then runs the deep search on 8 of the sampled worlds, then on as many
as the time left allows at the cost per world of the run before (at most four times as
many, and while that is at least half as many again), each run aborted at the deadline,
and plays the last completed one. Once the contract is made or beaten, only PIMC's
tie-break is left, so it plays PIMC by time.

>>> import random
>>> from paston.deal import Deal
>>> deal = Deal.random(random.Random(3), dealer=0)
>>> bot = AlphaMuPlayer(seed=1, level=1)
>>> bot.choose(deal.view(deal.to_move)) in deal.legal_actions()
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from paston.actions import Action
from paston.bots.knowledge import World, WorldSampler
from paston.bots.pimc import (
    DEFAULT_LEVEL,
    LEVELS,
    MAX_WORLDS_FACTOR,
    TIME_BUDGETS,
    Option,
    PimcPlayer,
    Scored,
    first_option,
)
from paston.cards import ALL_CARDS
from paston.contracts import Contract
from paston.deal import Phase
from paston.scoring import DECLARER_NEEDS, declarer_score
from paston.solver import Position, Solver
from paston.tricks import playable, trick_winner
from paston.views import DealView

DEFAULT_DEPTH = 2
MAX_DEPTH = 3
WIDEN_FROM = 8
"""With a time budget, the first deep run searches this many worlds."""
WIDEN_SHARE = 0.7
"""The share of the time left that the next, larger deep run is sized to take."""
DEEP_SECONDS_CAP = 0.5
"""Without a time budget, a deep search still stops after this long and the card is
PIMC's on the same worlds (so the card-play target, 1 s at worst, holds)."""
WIDEN_GROWTH = 4
"""A deep run searches at most this many times the worlds of the run before."""


class SearchTimeout(Exception):
    """The deep search passed its deadline (the caller keeps its last completed result)."""


@dataclass(frozen=True, slots=True)
class Front:
    """A Pareto front over the worlds of a node: ``worlds`` (bit ``w`` for world ``w``)
    and the plans' results, each a mask of the worlds where the plan makes the contract;
    none is a subset of another."""

    worlds: int
    plans: tuple[int, ...]

    @classmethod
    def of(cls, worlds: int, plans: Iterable[int]) -> Front:
        """The front of ``plans``: those no other plan dominates (makes a superset of).

        >>> Front.of(0b111, [0b011, 0b001, 0b110, 0b011]).plans
        (3, 6)
        """
        out: list[int] = []
        for p in sorted(set(plans), key=lambda p: (-p.bit_count(), p)):  # dominators first
            if not any(not p & ~q for q in out):
                out.append(p)
        return cls(worlds, tuple(sorted(out)))

    def best(self) -> int:
        """The most worlds one plan makes."""
        return max(p.bit_count() for p in self.plans)

    def dominated_by(self, other: Front) -> bool:
        """Whether every plan here is dominated by one of ``other`` (over the same worlds)."""
        return self.worlds == other.worlds and all(any(not p & ~q for q in other.plans) for p in self.plans)


def front_max(a: Front | None, b: Front) -> Front:
    """The declarer's choice between two fronts over the same worlds: their union's front."""
    return b if a is None else Front.of(a.worlds, (*a.plans, *b.plans))


def front_min(a: Front | None, b: Front) -> Front:
    """The defenders' combination of two fronts (of two cards, each over the worlds where it
    may be played): every entry-wise minimum of a plan of each (a world only one of them
    covers keeps that one's result), reduced to its front.

    >>> front_min(Front(0b011, (0b001,)), Front(0b110, (0b100, 0b010))).plans
    (5,)
    """
    if a is None:
        return b
    only_a, only_b = a.worlds & ~b.worlds, b.worlds & ~a.worlds
    return Front.of(
        a.worlds | b.worlds, ((p & q) | (p & only_a) | (q & only_b) for p in a.plans for q in b.plans)
    )


def _trusted(pos: Position, **changes: object) -> Position:
    """A copy of ``pos`` with ``changes``, without validating it again: the search derives
    its positions by legal play from root positions that were validated (and the
    compiled core checks its arguments itself)."""
    out = object.__new__(Position)
    for name in ("hands", "contract", "declarer", "defenders", "leader", "trick", "tricks"):
        object.__setattr__(out, name, changes.get(name, getattr(pos, name)))
    return out


@dataclass(frozen=True, slots=True)
class Node:
    """A position of the search: the cards played since the root, the trick in progress
    (its leader and cards), and the tricks taken per seat."""

    played: int
    leader: int
    trick: tuple[int, ...]
    tricks: tuple[int, int, int]


Valued = dict[int, tuple[int, tuple[int, ...]]]
"""Per card index: the worlds made by its best plan, and its tricks in each world."""
Leaves = dict[tuple[int, Node], dict[int, int]]
"""Solved positions: (world, node) → each legal card's declarer tricks."""


class AlphaMu:
    """One αμ search from the declarer's view: the worlds (hands of seats 0–2, the passer's
    ignored) and the position the play has reached. ``deadline`` (``time.perf_counter``
    seconds) aborts the search with :class:`SearchTimeout`; ``leaves`` may carry solved
    positions from a search of the same root over a prefix of the same worlds."""

    def __init__(
        self,
        solver: Solver,
        worlds: Sequence[World],
        *,
        contract: Contract,
        declarer: int,
        defenders: tuple[int, ...],
        root: Node,
        deadline: float = float("inf"),
        leaves: Leaves | None = None,
    ) -> None:
        self.solver = solver
        self.active = tuple(sorted((declarer, *defenders)))
        self.hands = [tuple(w[s] if s in self.active else 0 for s in range(3)) for w in worlds]
        self.contract, self.declarer, self.defenders = contract, declarer, defenders
        self.trump = contract.trump_suit
        self.root_node = root
        self.deadline = deadline
        self.leaves: Leaves = {} if leaves is None else leaves
        self.solves = 0
        self.all_worlds = (1 << len(worlds)) - 1
        h = self.hands
        self._roots = [  # validated: the worlds must agree with the play so far
            Position(
                hands=(h[w][0], h[w][1], h[w][2]),
                contract=contract,
                declarer=declarer,
                defenders=defenders,
                leader=root.leader,
                trick=root.trick,
                tricks=root.tricks,
            )
            for w in range(len(worlds))
        ]

    # --- the rules of play ------------------------------------------------------------------
    def _next_seat(self, seat: int) -> int:
        s = (seat + 1) % 3
        while s not in self.active:
            s = (s + 1) % 3
        return s

    def _to_move(self, node: Node) -> int:
        seat = node.leader
        for _ in node.trick:
            seat = self._next_seat(seat)
        return seat

    def _legal(self, node: Node, world: int, seat: int) -> int:
        lead = node.trick[0] >> 3 if node.trick else None
        return playable(self.hands[world][seat] & ~node.played, lead, self.trump)

    def _play(self, node: Node, card: int) -> Node:
        trick = (*node.trick, card)
        played = node.played | 1 << card
        if len(trick) < len(self.active):
            return Node(played, node.leader, trick, node.tricks)
        order = [node.leader]
        while len(order) < len(trick):
            order.append(self._next_seat(order[-1]))
        winner = order[trick_winner(trick, self.trump)]
        tricks = list(node.tricks)
        tricks[winner] += 1
        return Node(played, winner, (), (tricks[0], tricks[1], tricks[2]))

    # --- the search ---------------------------------------------------------------------------
    def solve(self, node: Node, world: int) -> dict[int, int]:
        """Each legal card of the declarer (to move at ``node``) and the declarer's total
        tricks after it, double-dummy in ``world``."""
        key = (world, node)  # the cards played do not say who won which trick
        cards = self.leaves.get(key)
        if cards is None:
            root, p = self._roots[world], node.played
            pos = (
                root
                if not p
                else _trusted(
                    root,
                    hands=(root.hands[0] & ~p, root.hands[1] & ~p, root.hands[2] & ~p),
                    leader=node.leader,
                    trick=node.trick,
                    tricks=node.tricks,
                )
            )
            solution = self.solver.solve(pos)
            self.solves += 1
            cards = self.leaves[key] = {c.index: t for c, t in solution.card_values.items()}
        return cards

    def search(self, node: Node, depth: int, worlds: int, alpha: Front | None) -> Front:
        """The front of ``node`` over ``worlds`` (a mask) with ``depth`` declarer moves left
        to search. ``alpha`` is the front the declarer already has at the parent node (a
        defender's node whose front it dominates stops early: more cards only lower it)."""
        if time.perf_counter() > self.deadline:
            raise SearchTimeout
        own = node.tricks[self.declarer]
        if own >= DECLARER_NEEDS or own + 10 - sum(node.tricks) < DECLARER_NEEDS:
            return Front(worlds, (worlds if own >= DECLARER_NEEDS else 0,))  # made, or beaten
        ws = [w for w in range(len(self.hands)) if worlds >> w & 1]
        seat = self._to_move(node)
        if seat == self.declarer:
            if depth <= 1:  # the declarer's last move: every world solved double-dummy
                plans: dict[int, int] = {}
                for w in ws:
                    for c, t in self.solve(node, w).items():
                        plans[c] = plans.get(c, 0) | (t >= DECLARER_NEEDS) << w
                return Front.of(worlds, plans.values())
            front: Front | None = None
            for card in self.declarer_cards(node, ws[0]):
                front = front_max(front, self.search(self._play(node, card), depth - 1, worlds, front))
            assert front is not None
            return front
        cards: dict[int, int] = {}
        for w in ws:
            legal = self._legal(node, w, seat)
            while legal:
                c = (legal & -legal).bit_length() - 1
                legal &= legal - 1
                cards[c] = cards.get(c, 0) | 1 << w
        mini: Front | None = None
        for c, subset in sorted(cards.items()):
            mini = front_min(mini, self.search(self._play(node, c), depth, subset, None))
            if time.perf_counter() > self.deadline:
                raise SearchTimeout
            if alpha is not None and mini.dominated_by(alpha):
                break  # the declarer will not choose this card: its front adds nothing
        assert mini is not None
        return mini

    def declarer_cards(self, node: Node, world: int = 0) -> list[int]:
        """The declarer's legal cards at ``node`` (the same in every world)."""
        legal = self._legal(node, world, self.declarer)
        return [c for c in range(32) if legal >> c & 1]

    def root(self, depth: int) -> Valued:
        """Each legal card of the declarer at the root: the worlds its best plan of
        ``depth`` moves makes, and its double-dummy tricks in each world (PIMC's values)."""
        n = len(self.hands)
        per_world = [self.solve(self.root_node, w) for w in range(n)]
        tricks = {c: tuple(per_world[w][c] for w in range(n)) for c in per_world[0]}
        if depth <= 1:
            return {c: (sum(t >= DECLARER_NEEDS for t in v), v) for c, v in tricks.items()}
        return {
            c: (self.search(self._play(self.root_node, c), depth - 1, self.all_worlds, None).best(), v)
            for c, v in tricks.items()
        }


def rank(valued: Valued, contract: Contract) -> tuple[Option, ...]:
    """The declarer's options, best first: by the worlds made, then the tricks summed
    over the worlds, then the lower card (as ``pimc`` breaks ties). ``score`` is the
    expected declarer score of the best plan (R7.1), ``tricks`` the mean double-dummy tricks."""
    order = sorted(valued, key=lambda c: (valued[c][0], sum(valued[c][1]), -c), reverse=True)
    out = []
    for c in order:
        wins, v = valued[c]
        n = len(v)
        score = (wins * declarer_score(contract, True) + (n - wins) * declarer_score(contract, False)) / n
        out.append(Option(Action.play(ALL_CARDS[c]), score, sum(v) / n))
    return tuple(out)


def root_node(view: DealView) -> Node:
    """The search's root: where the seat's view says the play is."""
    leader = view.current_trick[0][0] if view.current_trick else view.to_move
    assert leader is not None
    return Node(0, leader, tuple(c.index for _, c in view.current_trick), view.tricks)


class AlphaMuPlayer:
    """``pimc`` whose declarer plays its cards by αμ of ``depth`` (1 to 3; 1 is PIMC).

    ``card_seconds`` (or level 5, with ``pimc``'s card budget) spends a time budget per
    declarer card instead of a fixed number of worlds (the level's card count, or
    ``worlds``), on at most ``max_worlds`` (default: pimc's cap, ``MAX_WORLDS_FACTOR``
    times the level's card count). Without a time budget it values the level's worlds at
    depth 1 first, and keeps that (PIMC's card) if the deep search passes
    ``DEEP_SECONDS_CAP``; so it is deterministic given a seed except in such rare slow
    positions.
    """

    name = "amu"

    def __init__(
        self,
        seed: int | None = None,
        *,
        level: int = DEFAULT_LEVEL,
        depth: int = DEFAULT_DEPTH,
        worlds: int | None = None,
        card_seconds: float | None = None,
        max_worlds: int | None = None,
        solver: Solver | None = None,
        time_budget: float | None = None,
        sampler: WorldSampler | None = None,
        threads: int | None = None,
    ) -> None:
        if type(depth) is not int or not 1 <= depth <= MAX_DEPTH:
            raise ValueError(f"amu depth must be 1 to {MAX_DEPTH}, not {depth!r}")
        if worlds is not None and (type(worlds) is not int or worlds < 1):
            raise ValueError(f"worlds must be a positive int, not {worlds!r}")
        if card_seconds is not None and not card_seconds > 0:
            raise ValueError(f"card_seconds must be a positive number of seconds, not {card_seconds!r}")
        self.pimc = PimcPlayer(
            seed=seed, level=level, solver=solver, time_budget=time_budget, sampler=sampler, threads=threads
        )
        self.level, self.depth = level, depth
        self.worlds = worlds if worlds is not None else LEVELS[level].play
        self.max_worlds = max_worlds if max_worlds is not None else self.worlds * MAX_WORLDS_FACTOR
        """With a time budget, the most worlds a declarer card is decided on."""
        timed = TIME_BUDGETS.play if LEVELS[level].timed else None
        budgets = [s for s in (card_seconds, timed, time_budget) if s is not None]
        self.card_seconds: float | None = min(budgets) if budgets else None
        self._rng = random.Random(None if seed is None else f"amu:{seed}")
        self.last_worlds = 0
        """Worlds the last declarer card was decided on (at ``last_depth``)."""
        self.last_depth = 0

    def sampler_in_use(self) -> WorldSampler:
        """The sampler of every decision's worlds (pimc's: uniform, or as given)."""
        return self.pimc.sampler

    def choose(self, view: DealView) -> Action:
        """Pick a legal action from the seat's view: αμ for the declarer's cards, else pimc."""
        return first_option(self.options, view)

    def options(self, view: DealView) -> Scored:
        """The options of the seat to move, its choice first (see :meth:`PimcPlayer.options`)."""
        if view.phase is Phase.PLAY and view.seat is not None and view.seat == view.declarer == view.to_move:
            return self._declarer_play(view)
        return self.pimc.options(view)

    def _search(
        self,
        view: DealView,
        worlds: Sequence[World],
        deadline: float = float("inf"),
        leaves: Leaves | None = None,
    ) -> AlphaMu:
        assert view.contract is not None and view.declarer is not None
        return AlphaMu(
            self.pimc.solver,
            worlds,
            contract=view.contract,
            declarer=view.declarer,
            defenders=view.defenders,
            root=root_node(view),
            deadline=deadline,
            leaves=leaves,
        )

    def _declarer_play(self, view: DealView) -> Scored:
        assert view.contract is not None
        sample = self.sampler_in_use()
        if self.card_seconds is None:
            worlds = sample(view, self.worlds, self._rng)
            leaves: Leaves = {}
            valued = self._search(view, worlds, leaves=leaves).root(1)
            self.last_worlds, self.last_depth = len(worlds), 1
            if self.depth > 1:
                deadline = time.perf_counter() + DEEP_SECONDS_CAP
                try:
                    valued = self._search(view, worlds, deadline, leaves).root(self.depth)
                    self.last_depth = self.depth
                except SearchTimeout:
                    pass  # a rare slow position: PIMC's answer on the same worlds
            return Scored(rank(valued, view.contract), len(worlds))
        start = time.perf_counter()
        deadline = start + self.card_seconds
        own, taken = view.tricks[view.declarer or 0], sum(view.tricks)
        decided = own >= DECLARER_NEEDS or own + 10 - taken < DECLARER_NEEDS
        depth = 1 if decided else self.depth  # a decided contract leaves only PIMC's tie-break
        floor = self.worlds if depth == 1 else min(self.worlds, WIDEN_FROM)
        worlds = sample(view, floor, self._rng)
        leaves = {}  # the deep runs search prefixes of the same worlds
        valued = self._search(view, worlds, leaves=leaves).root(1)
        self.last_worlds, self.last_depth = len(worlds), 1
        if depth == 1:  # PIMC by time: more worlds in batches while the budget lasts
            batch = max(2, floor // 2)
            while len(worlds) < self.max_worlds:
                now = time.perf_counter()
                if now + (now - start) / len(worlds) * batch > deadline:
                    break
                more = sample(view, batch, self._rng)
                extra = self._search(view, more).root(1)
                worlds.extend(more)
                valued = {c: (w + extra[c][0], v + extra[c][1]) for c, (w, v) in valued.items()}
            self.last_worlds = len(worlds)
            return Scored(rank(valued, view.contract), len(worlds))
        n = min(WIDEN_FROM, self.max_worlds)
        while True:
            now = time.perf_counter()
            while len(worlds) < n:
                worlds.extend(sample(view, n - len(worlds), self._rng))
            try:
                valued = self._search(view, worlds[:n], deadline, leaves).root(self.depth)
            except SearchTimeout:
                break
            self.last_worlds, self.last_depth = n, self.depth
            # the next run: as many worlds as WIDEN_SHARE of the time left allows at this
            # run's cost per world (a run costs about its worlds), at most WIDEN_GROWTH
            # times as many, if that is worth a run
            spent = max(time.perf_counter() - now, 1e-6)
            fit = int(n * WIDEN_SHARE * (deadline - time.perf_counter()) / spent)
            grow = min(self.max_worlds, WIDEN_GROWTH * n, fit)
            if grow < n * 3 // 2:
                break
            n = grow
        return Scored(rank(valued, view.contract), self.last_worlds)
