"""Post-game analysis: what each played card cost against perfect play.

Two measures per card. **Tricks**: the double-dummy value (declarer against the
cooperating defenders) of the best card minus that of the card played, from the
player's side. **Points** (with ``scores=True``): max^n with the scores of R7 — every
active player maximises their own deal score — the player's own score after the best
card minus their own score after the card played. Both are 0 for a best card and never
negative.

>>> import random
>>> from paston.solver import Solver
>>> from paston.deal import Deal
>>> deal = Deal.random(random.Random(4), dealer=0)
>>> while not deal.is_over:
...     _ = deal.apply(deal.legal_actions()[0])
>>> a = analyze_deal(deal, 0, Solver(memory_mb=4), scores=True)
>>> all(c.cost >= 0 and c.cost_points >= 0 for t in a.tricks for c in t)
True
"""

from __future__ import annotations

from dataclasses import dataclass

from paston.actions import Kind
from paston.cards import Card
from paston.contracts import Contract
from paston.deal import Deal, Phase
from paston.rules import Rules
from paston.solver.api import Solver
from paston.solver.position import Position


@dataclass(frozen=True, slots=True)
class PlayedCard:
    """One card of the play with its cost against perfect play (0 = a best card).

    ``value``/``best``/``cost``: declarer's total tricks after this card, after the best
    card, and the tricks the card gave away. ``index`` is the action's index in the deal.
    With scores: ``scores`` the max^n score vector after the card, ``cost_points`` the
    player's own points lost, ``best_cards`` the cards that keep the player's own max^n
    score (else the double-dummy best cards)."""

    seat: int
    card: Card
    value: int
    best: int
    cost: int
    index: int = -1
    scores: tuple[int, int, int] | None = None
    cost_points: int = 0
    best_cards: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class DealAnalysis:
    """Every card of a deal's play, grouped by trick, and the cost per seat
    (``cost`` in tricks, ``cost_points`` in R7 points, zeros without scores)."""

    deal_index: int
    contract: Contract
    declarer: int
    active: tuple[int, ...]
    start_value: int
    tricks: tuple[tuple[PlayedCard, ...], ...]
    cost: tuple[int, int, int]
    cost_points: tuple[int, int, int] = (0, 0, 0)
    start_scores: tuple[int, int, int] | None = None


def _card(deal: Deal, index: int, seat: int, card: Card, solver: Solver, rules: Rules | None) -> PlayedCard:
    """The cost of ``card`` played by ``seat`` in the play position ``deal``."""
    pos = Position.from_deal(deal)
    solution = solver.solve(pos)
    value = solution.card_values[card]
    lost = solution.value - value if seat == pos.declarer else value - solution.value
    if rules is None:
        best = tuple(solution.best_cards(seat == pos.declarer))
        return PlayedCard(seat, card, value, solution.value, lost, index, best_cards=best)
    maxn = solver.maxn(pos, rules)
    own = {c: v[seat] for c, v in maxn.card_scores.items()}
    top = max(own.values())
    best = tuple(c for c, v in own.items() if v == top)
    return PlayedCard(
        seat, card, value, solution.value, lost, index, maxn.card_scores[card], top - own[card], best
    )


def analyze_deal(
    played: Deal, deal_index: int, solver: Solver, *, scores: bool = False, rules: Rules | None = None
) -> DealAnalysis:
    """Replay a deal and value each card played.

    The cost of a card in tricks is how many tricks it gave away (declarer against
    cooperating defenders): for the declarer the best value minus the card's value, for a
    defender the card's value minus the best. With ``scores`` each card also gets its
    max^n cost in the player's own R7 points (``rules``: the deal's rules by default);
    the solver then needs at least ``MAXN_MIN_MEMORY_MB``.
    """
    cards: list[PlayedCard] = []
    start_value: int | None = None
    start_scores: tuple[int, int, int] | None = None
    rule_set = (rules or played.rules) if scores else None
    deal = played.restarted()
    for k, (state, e) in enumerate(played.states()):
        deal = state
        if e is None:
            break
        if e.action.kind is Kind.PLAY and deal.phase is Phase.PLAY:
            if start_value is None:
                pos = Position.from_deal(deal)
                start_value = solver.solve(pos).value
                if rule_set is not None:
                    start_scores = solver.maxn(pos, rule_set).scores
            cards.append(_card(deal, k, e.seat, e.action.cards[0], solver, rule_set))
    assert deal.declarer is not None and deal.contract is not None
    n = len(deal.active) or 1 + len(played.defenders)
    groups = tuple(tuple(cards[i : i + n]) for i in range(0, len(cards), n))
    cost = [0, 0, 0]
    points = [0, 0, 0]
    for c in cards:
        cost[c.seat] += c.cost
        points[c.seat] += c.cost_points
    active = tuple(sorted((deal.declarer, *deal.defenders)))
    return DealAnalysis(
        deal_index,
        deal.contract,
        deal.declarer,
        active,
        start_value if start_value is not None else 0,
        groups,
        (cost[0], cost[1], cost[2]),
        (points[0], points[1], points[2]),
        start_scores,
    )
