"""Why an action is illegal: the error, naming the rule, that :meth:`Deal.apply` raises.

Reads the deal only through its public state. The legal actions themselves are the
deal's (:meth:`~paston.deal.Deal.legal_actions`); this module explains a refusal.

>>> import random
>>> from paston.actions import Action
>>> from paston.deal import Deal
>>> deal = Deal.random(random.Random(3), dealer=0)
>>> str(why_illegal(deal, Action.parse("bid clubs")))
'R3.2: the first bid of a deal must be spades, not clubs'
>>> why_illegal(deal, Action.parse("bid spades")) is None
True
"""

from __future__ import annotations

from paston.actions import BID_BASE, DISCARD_BASE, PASS_ID, SURRENDER_ID, TRUMP_BASE, WHIST_ID, Action
from paston.cards import SUIT_MASKS, SUIT_NAMES, CardSet
from paston.contracts import Contract, allowed_trumps
from paston.deal_state import DealState
from paston.errors import IllegalActionError
from paston.phases import Phase
from paston.tricks import playable


def why_illegal(deal: DealState, action: Action, seat: int | None = None) -> IllegalActionError | None:
    """``None`` if ``action`` is legal for the seat to move (and that is ``seat``, when
    given), else the error explaining why. Nothing is changed."""
    phase = deal.phase
    if phase >= Phase.OVER:
        if deal.redeal is not None:
            reason = f"this deal is void ({deal.redeal}); deal again"
            return IllegalActionError(deal.redeal.rule, "redeal", reason)
        return IllegalActionError("R6.3", "deal-over", "the deal is over")
    to_move = deal.to_move
    assert to_move is not None
    if seat is not None and seat != to_move:
        return IllegalActionError(
            phase.rule, "not-your-turn", f"it is seat {to_move}'s turn, not seat {seat}'s", seat
        )
    if phase is Phase.PLAY:
        return _play_error(deal, action, to_move)
    if phase is Phase.AUCTION:
        return _auction_error(deal, action, to_move)
    if phase is Phase.DISCARD:
        return _discard_error(deal, action, to_move)
    if phase is Phase.TRUMP:
        return _trump_error(deal, action, to_move)
    if action.id in (WHIST_ID, PASS_ID):
        return None
    return _phase_error(phase, action, to_move)


def _phase_error(phase: Phase, action: Action, to_move: int) -> IllegalActionError:
    return IllegalActionError(
        phase.rule, "wrong-phase", f"{phase.duty} (seat {to_move}); '{action}' is not possible now", to_move
    )


def _play_error(deal: DealState, action: Action, to_move: int) -> IllegalActionError | None:
    if action.id >= 32:
        return _phase_error(Phase.PLAY, action, to_move)
    hand = deal.hand_mask(to_move)
    card = action.cards[0]
    if not hand & card.bit:
        return IllegalActionError("R6.2", "card-not-held", f"seat {to_move} does not hold {card}", to_move)
    current = deal.current_trick
    lead = current[0][1].suit if current else None
    trump = deal.trump_suit
    if card.bit & playable(hand, lead, trump):
        return None
    assert lead is not None and trump is not None
    follow = hand & SUIT_MASKS[lead]
    if follow:
        return IllegalActionError(
            "R6.2",
            "must-follow-suit",
            f"seat {to_move} must follow {SUIT_NAMES[lead]} (holds {CardSet(follow)})",
            to_move,
        )
    return IllegalActionError(
        "R6.2",
        "must-trump",
        f"seat {to_move} cannot follow {SUIT_NAMES[lead]} and must play a trump "
        f"(holds {CardSet(playable(hand, lead, trump))})",
        to_move,
    )


def _auction_error(deal: DealState, action: Action, to_move: int) -> IllegalActionError | None:
    aid = action.id
    if aid == PASS_ID:
        return None
    if not BID_BASE <= aid < BID_BASE + 5:
        return _phase_error(Phase.AUCTION, action, to_move)
    level = aid - BID_BASE
    high = deal.high_bid
    if high is None and level != 0:
        return IllegalActionError(
            "R3.2",
            "first-bid-spades",
            f"the first bid of a deal must be spades, not {Contract(level).name_in_record}",
            to_move,
        )
    step = 0 if high is None else high + 1
    if level != step:
        return IllegalActionError(
            "R3.2",
            "bid-not-next-step",
            f"the next bid must be {Contract(step).name_in_record}, "
            f"not {Contract(level).name_in_record} (no jumps, no repeats)",
            to_move,
        )
    return None


def _discard_error(deal: DealState, action: Action, to_move: int) -> IllegalActionError | None:
    if action.id < DISCARD_BASE:
        return _phase_error(Phase.DISCARD, action, to_move)
    hand = deal.hand_mask(to_move)
    missing = [c for c in action.cards if not hand & c.bit]
    if missing:
        return IllegalActionError(
            "R4.1",
            "discard-not-held",
            f"seat {to_move} cannot discard {missing[0]}: it is not among their 12 cards",
            to_move,
        )
    return None


def _trump_error(deal: DealState, action: Action, to_move: int) -> IllegalActionError | None:
    aid = action.id
    if aid == SURRENDER_ID:
        return None
    if not TRUMP_BASE <= aid < TRUMP_BASE + 5:
        return _phase_error(Phase.TRUMP, action, to_move)
    named = Contract(aid - TRUMP_BASE)
    bid = deal.high_bid
    if named in allowed_trumps(bid):
        return None
    name = named.name_in_record
    if named is Contract.BEST_SPADES:
        if bid is None:
            return IllegalActionError(
                "R4.2",
                "best-spades-after-all-pass",
                "after an all-pass auction best spades may not be named",
                to_move,
            )
        return IllegalActionError(
            "R4.2", "best-spades-not-bid", "best spades may be named only if it was bid", to_move
        )
    assert bid is not None
    if bid is Contract.BEST_SPADES:
        return IllegalActionError(
            "R4.2",
            "best-spades-bid",
            f"best spades was bid, so trump must be best-spades, not {name}",
            to_move,
        )
    return IllegalActionError(
        "R4.2", "trump-below-bid", f"trump must be {bid.name_in_record} or higher, not {name}", to_move
    )
