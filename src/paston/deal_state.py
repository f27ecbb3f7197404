"""What a deal holds and what anyone may ask of it: the read side of :class:`~paston.deal.Deal`.

:class:`DealState` keeps the state of one deal (hands, auction, contract, tricks, the log
of actions) and answers questions about it; :class:`~paston.deal.Deal` adds the rules in
motion (legal actions and applying them). Views of a seat are built by
:mod:`paston.views`, which owns what is hidden.

>>> import random
>>> from paston.deal import Deal
>>> deal = Deal.random(random.Random(3), dealer=0)
>>> deal.phase.name, deal.to_move, deal.tricks, deal.hand(1).mask.bit_count()
('AUCTION', 1, (0, 0, 0), 10)
"""

from __future__ import annotations

from typing import Self

from paston.actions import Action, Event
from paston.cards import ALL_CARDS, Card, CardSet
from paston.contracts import Contract
from paston.phases import Phase
from paston.result import DealResult, Outcome, Redeal
from paston.rules import Rules
from paston.tricks import Trick

_PHASES = tuple(Phase)
_CONTRACTS = tuple(Contract)
_PLAY, _OVER = Phase.PLAY.value, Phase.OVER.value


class DealState:
    """The state of one deal and every read-only question about it (see :class:`~paston.deal.Deal`)."""

    __slots__ = (
        "__weakref__",
        "_answers",
        "_bid",
        "_contract",
        "_declarer",
        "_defenders",
        "_discard",
        "_done",
        "_hands",
        "_high",
        "_high_bidder",
        "_in_auction",
        "_lead_suit",
        "_leader",
        "_log",
        "_n_active",
        "_n_in",
        "_next",
        "_phase",
        "_result",
        "_to_move",
        "_trick",
        "_tricks",
        "_tricks_memo",
        "_trump",
        "_win_card",
        "_win_seat",
        "dealer",
        "dealt",
        "deck",
        "first_bidder",
        "first_deal",
        "prikup",
        "redeal",
        "rules",
    )

    rules: Rules
    dealer: int
    deck: tuple[int, ...]
    first_deal: bool
    dealt: tuple[int, int, int]
    prikup: int
    first_bidder: int | None
    redeal: Redeal | None
    # the state proper, set by Deal.__init__ and changed only by Deal's moves
    _hands: list[int]
    _phase: int
    _in_auction: list[bool]
    _n_in: int
    _high: int
    _high_bidder: int
    _declarer: int
    _bid: int
    _contract: int
    _trump: int
    _discard: int
    _answers: list[bool]
    _defenders: tuple[int, ...]
    _next: list[int]
    _n_active: int
    _trick: list[int]
    _leader: int
    _lead_suit: int
    _win_seat: int
    _win_card: int
    _tricks: list[int]
    _done: list[tuple[int, tuple[int, ...], int]]
    _log: list[Event]
    _tricks_memo: tuple[int, tuple[Trick, ...]]
    _result: DealResult | None
    _to_move: int

    # --- read-only state -----------------------------------------------------------
    @property
    def phase(self) -> Phase:
        """The current phase."""
        return _PHASES[self._phase]

    @property
    def to_move(self) -> int | None:
        """The seat to act, or ``None`` when the deal is over or void."""
        return self._to_move if self._phase < _OVER else None

    @property
    def is_over(self) -> bool:
        """True once the deal is scored or void (redeal)."""
        return self._phase >= _OVER

    @property
    def declarer(self) -> int | None:
        """The declarer, once the auction has ended."""
        return self._declarer if self._declarer >= 0 else None

    @property
    def high_bid(self) -> Contract | None:
        """The highest bid so far (``None`` before any bid)."""
        return _CONTRACTS[self._high] if self._high >= 0 else None

    @property
    def contract(self) -> Contract | None:
        """The named trump contract, once named."""
        return Contract(self._contract) if self._contract >= 0 else None

    @property
    def defenders(self) -> tuple[int, ...]:
        """Seats that said whist (final once the defence phase is over)."""
        return self._defenders

    @property
    def in_auction(self) -> tuple[bool, bool, bool]:
        """Which seats have not passed in the auction."""
        a = self._in_auction
        return a[0], a[1], a[2]

    @property
    def whist_answers(self) -> tuple[bool, ...]:
        """The whist (True) / pass (False) answers given so far, in order."""
        return tuple(self._answers)

    @property
    def active(self) -> tuple[int, ...]:
        """Seats that play cards (empty until play begins)."""
        if self._phase < _PLAY or (self._result is not None and self._result.outcome is not Outcome.PLAYED):
            return ()
        return (self._declarer, *self._defenders)

    def hand(self, seat: int) -> CardSet:
        """The seat's current cards (the full state: hidden information included)."""
        return CardSet(self._hands[seat])

    def hand_mask(self, seat: int) -> int:
        """The seat's current cards as a mask."""
        return self._hands[seat]

    @property
    def discard(self) -> CardSet:
        """The declarer's discard (empty before it is made)."""
        return CardSet(self._discard)

    @property
    def tricks(self) -> tuple[int, int, int]:
        """Tricks taken per seat so far."""
        t = self._tricks
        return t[0], t[1], t[2]

    @property
    def current_trick(self) -> tuple[tuple[int, Card], ...]:
        """The trick in progress: ``(seat, card)`` in order of play."""
        seat = self._leader
        out = []
        for c in self._trick:
            out.append((seat, ALL_CARDS[c]))
            seat = self._next[seat]
        return tuple(out)

    @property
    def completed_tricks(self) -> tuple[Trick, ...]:
        """The finished tricks in order."""
        n, known = self._tricks_memo
        if n == len(self._done):
            return known
        out = list(known)
        for leader, cards, winner in self._done[n:]:
            seat = leader
            plays = []
            for c in cards:
                plays.append((seat, ALL_CARDS[c]))
                seat = self._next[seat]
            out.append(Trick(leader, tuple(plays), winner))
        self._tricks_memo = (len(self._done), tuple(out))
        return self._tricks_memo[1]

    @property
    def trump_suit(self) -> int | None:
        """The trump suit (0–3) once named."""
        return self._trump if self._trump >= 0 else None

    @property
    def played_mask(self) -> int:
        """Every card played so far, as a mask."""
        m = 0
        for _leader, cards, _winner in self._done:
            for c in cards:
                m |= 1 << c
        for c in self._trick:
            m |= 1 << c
        return m

    @property
    def events(self) -> tuple[Event, ...]:
        """Every applied action in order."""
        return tuple(self._log)

    @property
    def event_count(self) -> int:
        """How many actions have been applied."""
        return len(self._log)

    def events_since(self, start: int) -> tuple[Event, ...]:
        """The actions applied from index ``start`` on."""
        return tuple(self._log[start:])

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions of the seat to move: the deal's rules decide them
        (:meth:`paston.deal.Deal.legal_actions`); a bare state does not know them."""
        raise NotImplementedError("a DealState's legal actions are its Deal's")

    @property
    def result(self) -> DealResult | None:
        """The result, once the deal is scored."""
        return self._result

    @property
    def scores(self) -> tuple[int, int, int] | None:
        """The deal scores, once the deal is scored."""
        return self._result.scores if self._result is not None else None

    # --- copies and views -----------------------------------------------------------
    def clone(self) -> Self:
        """An independent copy (cheap: shares immutable parts)."""
        new = object.__new__(type(self))
        for name in _SHARED_SLOTS:
            object.__setattr__(new, name, getattr(self, name))
        new._hands = self._hands.copy()
        new._in_auction = self._in_auction.copy()
        new._answers = self._answers.copy()
        new._next = self._next.copy()
        new._trick = self._trick.copy()
        new._tricks = self._tricks.copy()
        new._done = self._done.copy()
        new._log = self._log.copy()
        return new

    def __repr__(self) -> str:
        return f"<{type(self).__name__} dealer={self.dealer} phase={self.phase.name} to_move={self.to_move}>"


_COPIED = {"_hands", "_in_auction", "_answers", "_next", "_trick", "_tricks", "_done", "_log", "__weakref__"}
_SHARED_SLOTS = tuple(s for s in DealState.__slots__ if s not in _COPIED)
