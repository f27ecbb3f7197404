"""The deal state machine: dealing, auction, prikup, trump, defence, play, scoring.

One source of legality: :meth:`Deal.legal_actions` and :meth:`Deal.apply`. An
illegal action raises :class:`~paston.errors.IllegalActionError` naming the rule
and leaves the deal exactly as it was.

>>> import random
>>> from paston.actions import Action
>>> deal = Deal.random(random.Random(3), dealer=0)
>>> deal.phase, deal.to_move
(<Phase.AUCTION: 0>, 1)
>>> [str(a) for a in deal.legal_actions()]
['pass', 'bid spades']
>>> deal.apply(Action.parse("bid clubs"))
Traceback (most recent call last):
...
paston.errors.IllegalActionError: R3.2: the first bid of a deal must be spades, not clubs
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from paston.actions import (
    BID_BASE,
    BIDS,
    DISCARD_BASE,
    PASS,
    PASS_ID,
    PLAYS,
    SURRENDER,
    SURRENDER_ID,
    TRUMP_BASE,
    TRUMPS,
    WHIST,
    WHIST_ID,
    Action,
    Event,
)
from paston.cards import SUIT_MASKS, Card, mask_indices
from paston.contracts import Contract, allowed_trumps
from paston.deal_state import DealState
from paston.dealing import (
    DeckRandom,
    check_deck,
    deal_cards,
    has_spade_sequence,
    jack_seven_in_prikup,
    shuffled_deck,
    spade_jack_holder,
)
from paston.errors import IllegalActionError
from paston.legality import why_illegal
from paston.phases import Phase
from paston.result import DealResult, Redeal
from paston.rules import Rules
from paston.tricks import Trick, playable
from paston.views import DealView, seat_view

__all__ = ["JACK_SEVEN_PRIKUP", "NO_JACK_NO_SEVEN", "SPADE_SEQUENCE", "Deal", "DealResult", "Phase", "Trick"]


_AUCTION, _DISCARD, _TRUMP, _DEFENCE, _PLAY, _OVER, _REDEAL = range(7)

# Redeal reasons as written in records (kept as names for older imports).
SPADE_SEQUENCE = Redeal.SPADE_SEQUENCE
JACK_SEVEN_PRIKUP = Redeal.JACK_SEVEN_PRIKUP
NO_JACK_NO_SEVEN = Redeal.NO_JACK_NO_SEVEN

_PLAY_BYTES: tuple[tuple[tuple[Action, ...], ...], ...] = tuple(
    tuple(tuple(PLAYS[s * 8 + r] for r in range(8) if b >> r & 1) for b in range(256)) for s in range(4)
)
_AUCTION_CHOICES: tuple[tuple[Action, ...], ...] = tuple(
    (PASS, BIDS[level + 1]) for level in range(-1, 4)
)  # indexed by high bid + 1
_DEFENCE_CHOICES = (WHIST, PASS)
_TRUMP_CHOICES: tuple[tuple[Action, ...], ...] = tuple(
    (*(TRUMPS[c] for c in allowed_trumps(None if bid < 0 else Contract(bid))), SURRENDER)
    for bid in range(-1, 5)
)  # R4.2, indexed by the declarer's bid + 1
_DISCARD_ROWS: tuple[tuple[Action, ...], ...] = tuple(
    tuple(Action.from_id(DISCARD_BASE + 32 * a + b) if b > a else PASS for b in range(32)) for a in range(32)
)  # the discard of cards a < b is _DISCARD_ROWS[a][b] (R4.1); entries b <= a are never read


def _plays_of_mask(mask: int) -> tuple[Action, ...]:
    t = _PLAY_BYTES
    return t[0][mask & 255] + t[1][mask >> 8 & 255] + t[2][mask >> 16 & 255] + t[3][mask >> 24 & 255]


class Deal(DealState):
    """One deal of Paston, from the dealt deck to the scores.

    Build with ``Deal(deck, dealer=…)`` or :meth:`Deal.random`. ``first_deal``
    selects the first-deal rules (R1.5, R2.1). A deal that must be dealt again
    ends at once in :attr:`Phase.REDEAL` with :attr:`redeal` giving the reason.
    The state and every read-only question are in :class:`~paston.deal_state.DealState`.
    """

    __slots__ = ()

    def __init__(
        self,
        deck: Sequence[int | Card],
        *,
        dealer: int,
        rules: Rules | None = None,
        first_deal: bool = False,
    ) -> None:
        if type(dealer) is not int or not 0 <= dealer <= 2:
            raise ValueError(f"dealer must be seat 0, 1 or 2, not {dealer!r}")
        self.rules = rules if rules is not None else Rules()
        self.dealer = dealer
        self.deck = check_deck(deck)
        self.first_deal = first_deal
        self.dealt, self.prikup = deal_cards(self.deck, dealer)
        self._hands = list(self.dealt)
        self._phase = _AUCTION
        self._in_auction = [True, True, True]
        self._n_in = 3
        self._high = -1
        self._high_bidder = -1
        self._declarer = -1
        self._bid = -1
        self._contract = -1
        self._trump = -1
        self._discard = 0
        self._answers = []
        self._defenders = ()
        self._next = [1, 2, 0]
        self._n_active = 3
        self._trick = []
        self._leader = -1
        self._lead_suit = -1
        self._win_seat = -1
        self._win_card = -1
        self._tricks = [0, 0, 0]
        self._done = []
        self._log = []
        # memo of the finished tricks: an immutable tuple replaced (never changed) as the
        # deal goes on, so a clone may share it
        self._tricks_memo = (0, ())
        self._result = None
        self.redeal = None
        self.first_bidder = None
        if any(has_spade_sequence(h) for h in self.dealt):
            self._set_redeal(SPADE_SEQUENCE)
            return
        if first_deal:
            if jack_seven_in_prikup(self.prikup):
                self._set_redeal(JACK_SEVEN_PRIKUP)
                return
            holder = spade_jack_holder(self.dealt)
            assert holder is not None
            self.first_bidder = holder
        else:
            self.first_bidder = (dealer + 1) % 3
        self._to_move = self.first_bidder

    @classmethod
    def random(
        cls, rng: DeckRandom, *, dealer: int, rules: Rules | None = None, first_deal: bool = False
    ) -> Deal:
        """A deal from a freshly shuffled deck (R1.2)."""
        return cls(shuffled_deck(rng), dealer=dealer, rules=rules, first_deal=first_deal)

    def _set_redeal(self, reason: Redeal) -> None:
        self.redeal = reason
        self._phase = _REDEAL
        self._to_move = -1

    # --- legality -----------------------------------------------------------------
    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions of the seat to move (empty when the deal is over)."""
        phase = self._phase
        if phase == _PLAY:
            hand = self._hands[self._to_move]
            lead = self._lead_suit
            if lead >= 0:
                f = hand >> (lead << 3) & 255
                if f:
                    return _PLAY_BYTES[lead][f]
                t = self._trump
                f = hand >> (t << 3) & 255
                if f:
                    return _PLAY_BYTES[t][f]
            return _plays_of_mask(hand)
        if phase == _AUCTION:
            return _AUCTION_CHOICES[self._high + 1]
        if phase == _DEFENCE:
            return _DEFENCE_CHOICES
        if phase == _DISCARD:
            cards = mask_indices(self._hands[self._declarer])
            rows = _DISCARD_ROWS
            return tuple([rows[a][b] for i, a in enumerate(cards) for b in cards[i + 1 :]])
        if phase == _TRUMP:
            return _TRUMP_CHOICES[self._bid + 1]
        return ()

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is legal for the seat to move."""
        return why_illegal(self, action) is None

    def why_illegal(self, action: Action, seat: int | None = None) -> IllegalActionError | None:
        """``None`` if ``action`` is legal (for ``seat``, if given), else the error that
        :meth:`apply` would raise (see :mod:`paston.legality`)."""
        return why_illegal(self, action, seat)

    def legal_play_mask(self) -> int:
        """In the play phase, the legal cards of the seat to move as a mask."""
        if self._phase != _PLAY:
            return 0
        return playable(self._hands[self._to_move], self._lead_suit, self._trump)

    # --- applying -------------------------------------------------------------------
    def apply(self, action: Action, seat: int | None = None) -> Event:
        """Apply ``action`` for the seat to move (checked against ``seat`` if given).

        Raises :class:`~paston.errors.IllegalActionError` and changes nothing if the
        action is illegal.
        """
        phase = self._phase
        to_move = self._to_move
        aid = action.id
        if phase == _PLAY and aid < 32 and (seat is None or seat == to_move):
            # Fast path of the hot loop: R6.2 inlined (tests hold it to tricks.playable);
            # anything else goes through legality.why_illegal.
            hand = self._hands[to_move]
            bit = 1 << aid
            lead = self._lead_suit
            if hand & bit and (
                lead < 0
                or bit & SUIT_MASKS[lead]
                or (
                    not hand & SUIT_MASKS[lead]
                    and (bit & SUIT_MASKS[self._trump] or not hand & SUIT_MASKS[self._trump])
                )
            ):
                self._hands[to_move] = hand ^ bit
                self._play(to_move, aid)
                event = Event(to_move, action)
                self._log.append(event)
                return event
        legal = seat is None or seat == to_move
        if legal:
            if phase == _DISCARD:
                pair = 1 << action.cards[0].index | 1 << action.cards[1].index if aid >= DISCARD_BASE else -1
                legal = pair >= 0 and pair & self._hands[to_move] == pair
            else:  # a card here failed the fast path; the other choices are a few
                legal = phase != _PLAY and action in self.legal_actions()
        if not legal:
            # legality.why_illegal explains the refusal (a test holds it to legal_actions)
            error = why_illegal(self, action, seat)
            if error is not None:
                raise error
        event = Event(to_move, action)
        if phase == _PLAY:
            self._hands[to_move] ^= 1 << aid
            self._play(to_move, aid)
        elif phase == _AUCTION:
            self._log.append(event)
            self._auction(to_move, aid)
            return event
        elif phase == _DISCARD:
            mask = 1 << action.cards[0].index | 1 << action.cards[1].index
            self._hands[to_move] &= ~mask
            self._discard = mask
            self._phase = _TRUMP
        elif phase == _TRUMP:
            if aid == SURRENDER_ID:
                self._log.append(event)
                self._finish(DealResult.surrender(declarer=to_move, rules=self.rules))
                return event
            self._contract = aid - TRUMP_BASE
            self._trump = Contract(self._contract).trump_suit
            self._phase = _DEFENCE
            self._to_move = (to_move + 1) % 3
        else:
            self._log.append(event)
            self._defence(to_move, aid == WHIST_ID)
            return event
        self._log.append(event)
        return event

    def _auction(self, seat: int, aid: int) -> None:
        if aid == PASS_ID:
            self._in_auction[seat] = False
            self._n_in -= 1
        else:
            self._high = aid - BID_BASE
            self._high_bidder = seat
            if self._high == 4:
                self._declare(seat, 4)
                return
        n_in = self._n_in
        if n_in == 0:
            self._all_passed()
            return
        if n_in == 1 and self._high >= 0:
            self._declare(self._high_bidder, self._high)
            return
        nxt = (seat + 1) % 3
        while not self._in_auction[nxt]:
            nxt = (nxt + 1) % 3
        self._to_move = nxt

    def _all_passed(self) -> None:
        if self.rules.all_pass_declarer == "first-bidder" and not self.first_deal:
            assert self.first_bidder is not None
            self._declare(self.first_bidder, -1)
            return
        holder = spade_jack_holder(self.dealt)
        if holder is None:
            self._set_redeal(NO_JACK_NO_SEVEN)
            return
        self._declare(holder, -1)

    def _declare(self, seat: int, bid: int) -> None:
        self._declarer = seat
        self._bid = bid
        self._hands[seat] |= self.prikup
        self._phase = _DISCARD
        self._to_move = seat

    def _defence(self, seat: int, whist: bool) -> None:
        self._answers.append(whist)
        if len(self._answers) == 1:
            self._to_move = (seat + 1) % 3
            return
        d = self._declarer
        self._defenders = tuple(
            s for s, w in zip(((d + 1) % 3, (d + 2) % 3), self._answers, strict=True) if w
        )
        contract = Contract(self._contract)
        if not self._defenders:
            self._finish(DealResult.uncontested(contract, declarer=d))
            return
        if len(self._defenders) == 1:
            other = self._defenders[0]
            nxt = [0, 0, 0]
            nxt[d] = other
            nxt[other] = d
            self._next = nxt
            self._n_active = 2
        self._phase = _PLAY
        self._to_move = d
        self._leader = d

    def _play(self, seat: int, card: int) -> None:
        trick = self._trick
        trick.append(card)
        if len(trick) == 1:
            self._lead_suit = card >> 3
            self._win_seat = seat
            self._win_card = card
        else:
            win = self._win_card
            if card >> 3 == win >> 3:
                if card > win:
                    self._win_card = card
                    self._win_seat = seat
            elif card >> 3 == self._trump:
                self._win_card = card
                self._win_seat = seat
        if len(trick) < self._n_active:
            self._to_move = self._next[seat]
            return
        winner = self._win_seat
        self._tricks[winner] += 1
        self._done.append((self._leader, tuple(trick), winner))
        self._trick = []
        self._lead_suit = -1
        if len(self._done) == 10:
            d = self._declarer
            contract = Contract(self._contract)
            self._finish(
                DealResult.played(
                    contract, declarer=d, defenders=self._defenders, tricks=self._tricks, rules=self.rules
                )
            )
            return
        self._leader = winner
        self._to_move = winner

    def _finish(self, result: DealResult) -> None:
        self._result = result
        self._phase = _OVER
        self._to_move = -1

    # --- going back ------------------------------------------------------------------
    def restarted(self) -> Deal:
        """The same deal back at its start: same deck, dealer, rules and first-deal rules,
        no action applied."""
        return Deal(self.deck, dealer=self.dealer, rules=self.rules, first_deal=self.first_deal)

    def state_at(self, index: int) -> Deal:
        """The state just before action ``index`` (0 … ``len(events)``; the last is the
        state now, as an independent copy).

        >>> import random
        >>> from paston.actions import Action
        >>> deal = Deal.random(random.Random(3), dealer=0)
        >>> _ = deal.apply(Action.parse("bid spades"))
        >>> deal.state_at(0).high_bid is None, deal.state_at(1).high_bid.word
        (True, 'paston')
        """
        events = self._log
        if type(index) is not int or not 0 <= index <= len(events):
            raise ValueError(
                f"a deal with {len(events)} action(s) has states 0 to {len(events)}, not {index!r}"
            )
        deal = self.restarted()
        for event in events[:index]:
            deal.apply(event.action, event.seat)
        return deal

    def states(self) -> Iterator[tuple[Deal, Event | None]]:
        """Every state of the deal from its start: ``(state, the event applied next)``
        for each action in turn, then ``(the final state, None)``. Each state is an
        independent copy.

        >>> import random
        >>> from paston.actions import Action
        >>> deal = Deal.random(random.Random(3), dealer=0)
        >>> _ = deal.apply(Action.parse("pass"))
        >>> [(d.to_move, None if e is None else str(e.action)) for d, e in deal.states()]
        [(1, 'pass'), (2, None)]
        """
        deal = self.restarted()
        for event in self._log:
            yield deal.clone(), event
            deal.apply(event.action, event.seat)
        yield deal, None

    # --- views ----------------------------------------------------------------------
    def view(self, seat: int, totals: tuple[int, int, int] = (0, 0, 0)) -> DealView:
        """What ``seat`` may know now (built by :mod:`paston.views`, which owns what is hidden)."""
        return seat_view(self, seat, totals)

    def public_view(self, totals: tuple[int, int, int] = (0, 0, 0)) -> DealView:
        """What a spectator may know now."""
        return seat_view(self, None, totals)
