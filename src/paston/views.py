"""Per-seat and public views: exactly what one seat (or a spectator) may know.

A seat sees its own hand; the prikup and the discard only if it is the declarer
(after taking the prikup); every public action (a discard is public as an act, its
cards are not); the cards played. It never sees another seat's hand, nor the
passer's hand. A spectator sees only public information. Bots, servers and user
interfaces only ever get views.

>>> import random
>>> from paston.deal import Deal
>>> deal = Deal.random(random.Random(3), dealer=0)
>>> view = deal.view(1)
>>> view.seat, len(view.hand), view.prikup, [str(a) for a in view.legal_actions]
(1, 10, None, ['pass', 'bid spades'])
>>> deal.public_view().hand
CardSet.parse('')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple
from weakref import WeakKeyDictionary

from paston.actions import Action, Kind
from paston.cards import Card, CardSet
from paston.contracts import Contract
from paston.deal_state import DealState
from paston.phases import Phase
from paston.result import DealResult, Redeal
from paston.rules import Rules
from paston.tricks import Trick


class ViewEvent(NamedTuple):
    """An action as a seat saw it; ``action`` is ``None`` where its content is hidden
    (another seat's discard)."""

    seat: int
    kind: Kind
    action: Action | None

    def __str__(self) -> str:
        shown = str(self.action) if self.action is not None else f"{self.kind.value} (hidden)"
        return f"seat {self.seat}: {shown}"


@dataclass(frozen=True, slots=True)
class DealView:
    """A seat's (or a spectator's, ``seat is None``) knowledge of a deal."""

    seat: int | None
    rules: Rules
    dealer: int
    first_deal: bool
    first_bidder: int | None
    redeal: Redeal | None
    phase: Phase
    to_move: int | None
    hand: CardSet
    hand_sizes: tuple[int, int, int]
    prikup: CardSet | None
    discard: CardSet | None
    history: tuple[ViewEvent, ...]
    high_bid: Contract | None
    in_auction: tuple[bool, bool, bool]
    declarer: int | None
    contract: Contract | None
    whist_answers: tuple[bool, ...]
    defenders: tuple[int, ...]
    current_trick: tuple[tuple[int, Card], ...]
    completed_tricks: tuple[Trick, ...]
    tricks: tuple[int, int, int]
    played: CardSet
    legal_actions: tuple[Action, ...]
    totals: tuple[int, int, int]
    result: DealResult | None

    def known_cards(self) -> CardSet:
        """Every card this view reveals the location of."""
        mask = self.hand.mask | self.played.mask
        if self.prikup is not None:
            mask |= self.prikup.mask
        if self.discard is not None:
            mask |= self.discard.mask
        return CardSet(mask)

    @property
    def is_my_turn(self) -> bool:
        """True when this view's seat is to move."""
        return self.seat is not None and self.seat == self.to_move


# Per deal: (events seen, history as everybody sees it, history as the declarer sees it).
# Immutable tuples, extended as the deal goes on; kept only while the deal lives.
_SHOWN: WeakKeyDictionary[DealState, tuple[int, tuple[ViewEvent, ...], tuple[ViewEvent, ...]]] = (
    WeakKeyDictionary()
)
_EMPTY: tuple[int, tuple[ViewEvent, ...], tuple[ViewEvent, ...]] = (0, (), ())


def shown_history(deal: DealState, seat: int | None) -> tuple[ViewEvent, ...]:
    """The deal's actions as ``seat`` saw them (``None``: a spectator). Another seat's
    discard is an act without its cards (R4.1); the declarer sees its own. Built once per
    new action for every view of the deal.

    >>> import random
    >>> from paston.actions import Action
    >>> from paston.deal import Deal
    >>> deal = Deal.random(random.Random(3), dealer=0)
    >>> _ = deal.apply(Action.parse("bid spades"))
    >>> [str(e) for e in shown_history(deal, None)]
    ['seat 1: bid spades']
    """
    n, public, full = _SHOWN.get(deal, _EMPTY)
    count = deal.event_count
    if n != count:
        new = deal.events_since(n)
        public = public + tuple(
            ViewEvent(e.seat, e.action.kind, None if e.action.kind is Kind.DISCARD else e.action) for e in new
        )
        full = full + tuple(ViewEvent(e.seat, e.action.kind, e.action) for e in new)
        _SHOWN[deal] = (count, public, full)
    return full if seat is not None and seat == deal.declarer else public


def release_history(deal: DealState) -> None:
    """Drop the shown history built for ``deal`` (it is built again if a view asks): a
    game lets go of the memos of its older deals, which nobody views any more."""
    _SHOWN.pop(deal, None)


def seat_view(deal: DealState, seat: int | None, totals: tuple[int, int, int]) -> DealView:
    """Build the view of ``seat`` (``None`` for the public view)."""
    if seat is not None and (type(seat) is not int or not 0 <= seat <= 2):
        raise ValueError(f"seat must be 0, 1 or 2, not {seat!r}")
    declarer = deal.declarer
    is_declarer = seat is not None and seat == declarer
    history = shown_history(deal, seat)
    has_prikup = is_declarer
    sizes = tuple(deal.hand_mask(s).bit_count() for s in range(3))
    return DealView(
        seat=seat,
        rules=deal.rules,
        dealer=deal.dealer,
        first_deal=deal.first_deal,
        first_bidder=deal.first_bidder,
        redeal=deal.redeal,
        phase=deal.phase,
        to_move=deal.to_move,
        hand=deal.hand(seat) if seat is not None else CardSet(),
        hand_sizes=(sizes[0], sizes[1], sizes[2]),
        prikup=CardSet(deal.prikup) if has_prikup else None,
        discard=deal.discard if has_prikup else None,
        history=history,
        high_bid=deal.high_bid,
        in_auction=deal.in_auction,
        declarer=declarer,
        contract=deal.contract,
        whist_answers=deal.whist_answers,
        defenders=deal.defenders,
        current_trick=deal.current_trick,
        completed_tricks=deal.completed_tricks,
        tricks=deal.tricks,
        played=CardSet(deal.played_mask),
        legal_actions=deal.legal_actions() if seat is not None and seat == deal.to_move else (),
        totals=totals,
        result=deal.result,
    )
