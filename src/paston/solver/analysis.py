"""Post-game analysis: the tricks each played card cost against double-dummy play."""

from __future__ import annotations

from dataclasses import dataclass

from paston.actions import Kind
from paston.cards import Card
from paston.contracts import Contract
from paston.deal import Deal, Phase
from paston.solver.api import Solver
from paston.solver.position import Position


@dataclass(frozen=True, slots=True)
class PlayedCard:
    """One card of the play with its double-dummy cost in tricks (0 = a best card)."""

    seat: int
    card: Card
    value: int  # declarer's total tricks after this card, with best play from then on
    best: int  # the same after the best card
    cost: int


@dataclass(frozen=True, slots=True)
class DealAnalysis:
    """Every card of a deal's play, grouped by trick, and the cost per seat."""

    deal_index: int
    contract: Contract
    declarer: int
    active: tuple[int, ...]
    start_value: int
    tricks: tuple[tuple[PlayedCard, ...], ...]
    cost: tuple[int, int, int]


def analyze_deal(played: Deal, deal_index: int, solver: Solver) -> DealAnalysis:
    """Replay a deal and value each card played (declarer against cooperating defenders).

    The cost of a card is how many tricks it gave away: for the declarer the best
    value minus the card's value, for a defender the card's value minus the best.
    """
    cards: list[PlayedCard] = []
    start_value: int | None = None
    deal = played.restarted()
    for state, e in played.states():
        deal = state
        if e is None:
            break
        if e.action.kind is Kind.PLAY and deal.phase is Phase.PLAY:
            pos = Position.from_deal(deal)
            solution = solver.solve(pos)
            if start_value is None:
                start_value = solution.value
            card = e.action.cards[0]
            value = solution.card_values[card]
            lost = solution.value - value if e.seat == pos.declarer else value - solution.value
            cards.append(PlayedCard(e.seat, card, value, solution.value, lost))
    assert deal.declarer is not None and deal.contract is not None
    n = len(deal.active) or 1 + len(played.defenders)
    groups = tuple(tuple(cards[i : i + n]) for i in range(0, len(cards), n))
    cost = [0, 0, 0]
    for c in cards:
        cost[c.seat] += c.cost
    active = tuple(sorted((deal.declarer, *deal.defenders)))
    return DealAnalysis(
        deal_index,
        deal.contract,
        deal.declarer,
        active,
        start_value if start_value is not None else 0,
        groups,
        (cost[0], cost[1], cost[2]),
    )
