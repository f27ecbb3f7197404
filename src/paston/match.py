"""A whole game: deals in turn, dealer rotation, running totals, the end (R2, R8).

>>> import random
>>> from paston.bots import RandomPlayer
>>> match = Match(first_dealer=0, rng=random.Random(1))
>>> bot = RandomPlayer(seed=1)
>>> while not match.is_over:
...     seat = match.to_move
...     _ = match.apply(bot.choose(match.view(seat)))
>>> len(match.winners) >= 1, max(match.totals) >= 121
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence

from paston.actions import Action, Event
from paston.cards import Card
from paston.deal import Deal
from paston.dealing import DeckRandom, shuffled_deck
from paston.errors import IllegalActionError
from paston.rules import Rules
from paston.scoring import apply_totals, winners
from paston.views import DealView, release_history

Totals = tuple[int, int, int]


def dealer_after(dealer: int, first_bidder: int, completed_deals: int, rules: Rules) -> int:
    """R2.2–R2.3: who deals after a scored deal by ``dealer`` (``completed_deals`` scored
    before it): after the first deal, its first bidder (or the next seat, under
    ``second_dealer="rotate"``); then the next seat in turn.

    >>> dealer_after(0, 2, 0, Rules()), dealer_after(0, 2, 0, Rules(second_dealer="rotate"))
    (2, 1)
    """
    if completed_deals == 0 and rules.second_dealer == "first-bidder":
        return first_bidder
    return (dealer + 1) % 3


class Match:
    """A game of Paston to the target (R8), across deals and redeals.

    With ``rng`` the match shuffles every deal itself (R1.2) and a seed reproduces
    the whole game; without it, call :meth:`deal_next` with each deck (replaying a
    record, a real table).
    """

    def __init__(
        self,
        *,
        first_dealer: int,
        rules: Rules | None = None,
        seats: Sequence[str] = ("Seat 0", "Seat 1", "Seat 2"),
        rng: DeckRandom | None = None,
    ) -> None:
        if type(first_dealer) is not int or not 0 <= first_dealer <= 2:
            raise ValueError(f"first_dealer must be seat 0, 1 or 2, not {first_dealer!r}")
        if len(seats) != 3 or not all(isinstance(s, str) for s in seats):
            raise ValueError("a match has exactly three seat names")
        self.rules = rules if rules is not None else Rules()
        self.seats: tuple[str, str, str] = (seats[0], seats[1], seats[2])
        self.first_dealer = first_dealer
        self.rng = rng
        self.deals: list[Deal] = []
        self.deal_totals: list[Totals | None] = []
        self.totals: Totals = (0, 0, 0)
        self.winners: tuple[int, ...] = ()
        self.completed_deals = 0
        #: Whether a person could take back their own moves (a game against computer
        #: players; written as the record's optional ``undo``).
        self.undo_allowed = False
        self._next_dealer = first_dealer
        if rng is not None:
            self._auto_deal()

    # --- dealing ----------------------------------------------------------------------
    @property
    def next_dealer(self) -> int:
        """Who deals the next deal (R1.6, R2.2, R2.3)."""
        return self._next_dealer

    @property
    def needs_deck(self) -> bool:
        """True when the game goes on but the next deal has not been dealt."""
        return not self.is_over and (not self.deals or self.deals[-1].is_over)

    def deal_next(self, deck: Sequence[int | Card]) -> Deal:
        """Deal the next deal from an explicit deck (dealing order, R1.2–R1.3)."""
        if self.is_over:
            raise IllegalActionError("R8.3", "game-over", "the game is over")
        if not self.needs_deck:
            raise IllegalActionError("R1.6", "deal-in-progress", "the current deal is not finished")
        deal = Deal(deck, dealer=self._next_dealer, rules=self.rules, first_deal=self.completed_deals == 0)
        if len(self.deals) >= 2:
            release_history(self.deals[-2])  # the last deal stays on show (its final trick)
        self.deals.append(deal)
        self.deal_totals.append(None)
        if deal.is_over:  # void at once: spade sequence or jack-seven prikup
            self._after_deal(deal)
        return deal

    def _auto_deal(self) -> None:
        assert self.rng is not None
        while self.needs_deck:
            self.deal_next(shuffled_deck(self.rng))

    def _after_deal(self, deal: Deal) -> None:
        if deal.redeal is not None:
            return  # R1.6: the same dealer deals again; it does not count as a deal
        result = deal.result
        assert result is not None
        self.totals = apply_totals(self.totals, result.scores, rules=self.rules)
        self.deal_totals[-1] = self.totals
        assert deal.first_bidder is not None
        self._next_dealer = dealer_after(deal.dealer, deal.first_bidder, self.completed_deals, self.rules)
        self.completed_deals += 1
        self.winners = winners(self.totals, rules=self.rules)

    # --- playing ----------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        """True once someone reached the target (R8.3)."""
        return bool(self.winners)

    @property
    def deal(self) -> Deal | None:
        """The deal being played, or ``None`` between deals and after the end."""
        if self.deals and not self.deals[-1].is_over:
            return self.deals[-1]
        return None

    @property
    def to_move(self) -> int | None:
        """The seat to act, or ``None``."""
        d = self.deal
        return d.to_move if d is not None else None

    def legal_actions(self) -> tuple[Action, ...]:
        """Legal actions of the seat to move (empty between deals and at the end)."""
        d = self.deal
        return d.legal_actions() if d is not None else ()

    def why_illegal(self, action: Action, seat: int | None = None) -> IllegalActionError | None:
        """``None`` if ``action`` is legal now (for ``seat``, if given), else the error
        :meth:`apply` would raise: the game is over (R8.3), no deal is dealt, or the
        deal's own reason.

        >>> import random
        >>> m = Match(first_dealer=0, rng=random.Random(3))
        >>> str(m.why_illegal(Action.parse("bid clubs")))
        'R3.2: the first bid of a deal must be spades, not clubs'
        """
        d = self.deal
        if d is None:
            if self.is_over:
                return IllegalActionError("R8.3", "game-over", "the game is over")
            return IllegalActionError("R1.2", "no-deal", "the next deal has not been dealt")
        return d.why_illegal(action, seat)

    def apply(self, action: Action, seat: int | None = None) -> Event:
        """Apply an action to the current deal; finishes and deals on as needed."""
        d = self.deal
        if d is None:
            error = self.why_illegal(action, seat)
            assert error is not None
            raise error
        event = d.apply(action, seat)
        if d.is_over:
            self._after_deal(d)
            if self.rng is not None:
                self._auto_deal()
        return event

    def drop_unplayed_deals(self) -> int:
        """Remove trailing deals nobody has acted in (dealt automatically after the
        last completed deal, redeals included), so a stopped game ends cleanly after a
        completed deal. Returns how many were removed."""
        removed = 0
        while self.deals and not self.deals[-1].events and self.deal_totals[-1] is None:
            if self.deals[-1].redeal is None and self.deals[-1].is_over:
                break
            self.deals.pop()
            self.deal_totals.pop()
            removed += 1
        return removed

    def view(self, seat: int | None) -> DealView:
        """A seat's view of the current (or last) deal, with the running totals."""
        if not self.deals:
            raise IllegalActionError("R1.2", "no-deal", "no deal has been dealt yet")
        deal = self.deals[-1]
        return deal.view(seat, self.totals) if seat is not None else deal.public_view(self.totals)

    def clone(self) -> Match:
        """An independent copy; the random source is copied too when it allows."""
        new = object.__new__(Match)
        new.__dict__.update(self.__dict__)
        new.deals = [*self.deals[:-1], self.deals[-1].clone()] if self.deals else []
        new.deal_totals = self.deal_totals.copy()
        rng = self.rng
        if rng is not None and hasattr(rng, "getstate"):
            copy = type(rng)()
            copy.setstate(rng.getstate())  # type: ignore[attr-defined]
            new.rng = copy
        return new

    def __repr__(self) -> str:
        return (
            f"<Match deals={self.completed_deals} totals={self.totals} "
            f"winners={self.winners} to_move={self.to_move}>"
        )
