"""Fixed-size encodings for learning programs: actions, legal masks and observations.

The action space has :data:`ACTION_COUNT` (541) actions: the 45 non-discard actions with
the engine's own ids (32 cards, pass, 5 bids, 5 trumps, surrender, whist), then every
discard pair once, in the order (7♠ 8♠), (7♠ 9♠), … (K♥ A♥). A discard is one action,
not two card actions (decision N1; docs/ENCODING.md draws the layout).

An observation is a flat float32 array written into the caller's buffer: what one seat
may know, read from its :class:`~paston.views.DealView` (:func:`observe`), or everything
for critics trained with privileged information (:func:`observe_full`). Seats are
relative: 0 is the observing seat, 1 the seat on its left (the next to act after it), 2
the seat on its right.

>>> import random
>>> from paston.deal import Deal
>>> deal = Deal.random(random.Random(3), dealer=0)
>>> view = deal.view(1)
>>> mask = legal_mask(view)
>>> [str(index_action(int(i))) for i in mask.nonzero()[0]]
['pass', 'bid spades']
>>> action_index(Action.parse("discard 7S 8S")), str(index_action(ACTION_COUNT - 1))
(45, 'discard KH AH')
>>> obs = observe(view)
>>> obs.shape, obs.dtype.name, int(obs[HAND : HAND + 32].sum())
((423,), 'float32', 10)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import numpy as np
from numpy.typing import NDArray

from paston.actions import DISCARD_BASE, NUM_ACTION_IDS, Action, Kind
from paston.cards import mask_indices
from paston.errors import ParseError
from paston.result import Redeal
from paston.views import DealView

if TYPE_CHECKING:
    from paston.deal import Deal

__all__ = [
    "ACTION_COUNT",
    "FULL_OBSERVATION_SIZE",
    "OBSERVATION_SIZE",
    "action_index",
    "discard_index",
    "index_action",
    "legal_mask",
    "observation_bounds",
    "observe",
    "observe_full",
]

Observation = NDArray[np.float32]
Mask = NDArray[np.int8]

# --- actions -------------------------------------------------------------------------------
DISCARD_OFFSET: Final = 45
"""The index of the first discard pair; indices below it equal the engine's action ids."""
_ROW_START: Final = tuple(DISCARD_OFFSET + sum(31 - k for k in range(lo)) for lo in range(32))
ACTION_COUNT: Final = DISCARD_OFFSET + 32 * 31 // 2


def discard_index(first: int, second: int) -> int:
    """The action index of discarding cards ``first`` and ``second`` (card indices, any order).

    >>> discard_index(1, 0), discard_index(30, 31)
    (45, 540)
    """
    lo, hi = (first, second) if first < second else (second, first)
    return _ROW_START[lo] + hi - lo - 1


_INDEX_OF_ID: list[int] = [-1] * NUM_ACTION_IDS
_ACTIONS: list[Action] = []
for _i in range(DISCARD_OFFSET):
    _INDEX_OF_ID[_i] = _i
    _ACTIONS.append(Action.from_id(_i))
for _lo in range(32):
    for _hi in range(_lo + 1, 32):
        _INDEX_OF_ID[DISCARD_BASE + 32 * _lo + _hi] = len(_ACTIONS)
        _ACTIONS.append(Action.discard(_lo, _hi))
assert len(_ACTIONS) == ACTION_COUNT
ACTIONS: Final[tuple[Action, ...]] = tuple(_ACTIONS)
"""Every action, by index."""
INDEX_OF_ID: Final[tuple[int, ...]] = tuple(_INDEX_OF_ID)
"""The action index of each engine action id (-1 for the ids no action has)."""


def action_index(action: Action) -> int:
    """The index (0 … ``ACTION_COUNT - 1``) of an action.

    >>> action_index(Action.parse("AH")), action_index(Action.parse("whist"))
    (31, 44)
    """
    return INDEX_OF_ID[action.id]


def index_action(index: int | np.integer) -> Action:
    """The action with this index; a clear error for anything else.

    >>> index_action(32)
    Action.parse('pass')
    """
    if isinstance(index, (int, np.integer)) and not isinstance(index, bool) and 0 <= index < ACTION_COUNT:
        return ACTIONS[index]
    raise ParseError("parse-action", f"no action has index {index!r} (0 to {ACTION_COUNT - 1})")


def _checked(out: np.ndarray | None, size: int, dtype: type[np.generic]) -> np.ndarray:
    if out is None:
        return np.zeros(size, dtype)
    if out.dtype != dtype or out.shape != (size,) or not out.flags.writeable:
        raise ValueError(
            f"out must be a writeable {np.dtype(dtype).name} array of shape ({size},), "
            f"not {out.dtype.name} {out.shape}"
        )
    out.fill(0)
    return out


def legal_mask(view: DealView, out: Mask | None = None) -> Mask:
    """1 for each legal action of the view's seat (all 0 when it is not to move), as int8.

    Written into ``out`` (an int8 array of ``ACTION_COUNT``) when given, else a new array.
    """
    mask = _checked(out, ACTION_COUNT, np.int8)
    index = INDEX_OF_ID
    for action in view.legal_actions:
        mask[index[action.id]] = 1
    return mask


# --- observations ----------------------------------------------------------------------------
# Card planes (32 each, card index order 7♠ … A♥), then one-hot and flag groups, then scalars.
HAND: Final = 0
"""Own hand (32)."""
PRIKUP: Final = 32
"""The prikup, for the declarer once taken (32)."""
DISCARD: Final = 64
"""The declarer's own discard (32)."""
PLAYED: Final = 96
"""Cards played by relative seat 0, 1, 2 (3 × 32), the trick in progress included."""
TRICK: Final = 192
"""The trick in progress: each relative seat's card (3 × 32)."""
PHASE: Final = 288
"""Phase one-hot: auction, discard, trump, defence, play, over, redeal (7)."""
TO_MOVE: Final = 295
"""Relative seat to move (3; none when the deal is over)."""
DEALER: Final = 298
"""Relative seat of the dealer (3)."""
FIRST_BIDDER: Final = 301
"""Relative seat of the first bidder (3)."""
FIRST_DEAL: Final = 304
"""1 in the first deal of a game (R1.5, R2.1)."""
BID_BY: Final = 305
"""Who bid each step of the ladder: step × 3 + relative seat (5 × 3)."""
PASSED_AT: Final = 320
"""An auction pass: relative seat × 6 + (high bid when passing + 1) (3 × 6)."""
HIGH_BID: Final = 338
"""High bid one-hot: none, spades … best spades (6)."""
IN_AUCTION: Final = 344
"""Relative seats still in the auction (3)."""
DECLARER: Final = 347
"""Relative seat of the declarer (3)."""
CONTRACT: Final = 350
"""The named contract (5)."""
WHIST_ANSWER: Final = 355
"""Defence answers: relative seat × 2 + (0 whist, 1 pass) (3 × 2)."""
LEADER: Final = 361
"""Relative seat that led the trick in progress (3)."""
VOID: Final = 364
"""Suits a seat has shown it lacks (R6.2): relative seat × 4 + suit (3 × 4)."""
TRICKS: Final = 376
"""Tricks taken, one-hot 0–10 per relative seat (3 × 11)."""
REDEAL: Final = 409
"""Why the deal is void: spade sequence, jack-seven prikup, no jack no seven (3)."""
RULES: Final = 412
"""Rule switches away from the defaults: flat lone defender, no surrender bonus, all-pass
declarer is the first bidder, rotating second dealer (4)."""
TOTALS: Final = 416
"""Game totals per relative seat, divided by the target (3)."""
SCORES: Final = 419
"""The finished deal's R7 scores per relative seat, divided by :data:`SCORE_SCALE` (3)."""
TARGET: Final = 422
"""The game's target divided by 121 (1)."""
OBSERVATION_SIZE: Final = 423
FULL_HANDS: Final = OBSERVATION_SIZE
"""(Full observation only) the current hands of relative seats 1 and 2 (2 × 32)."""
FULL_PRIKUP: Final = FULL_HANDS + 64
"""(Full observation only) the prikup (32)."""
FULL_DISCARD: Final = FULL_PRIKUP + 32
"""(Full observation only) the discard (32)."""
FULL_OBSERVATION_SIZE: Final = FULL_DISCARD + 32
SCORE_SCALE: Final = 40.0
"""The deal scores are divided by this (the most a seat can lose in one deal)."""
DEFAULT_TARGET: Final = 121.0

_REDEALS: Final = {r: i for i, r in enumerate(Redeal)}


def observation_bounds(full: bool = False) -> tuple[Observation, Observation]:
    """The lowest and highest value of each entry (for an observation space): 0 and 1 but
    for the totals (unbounded), the scores (−1 to 8: −40 to +320 points) and the target.

    >>> low, high = observation_bounds()
    >>> float(low[SCORES]), float(high[SCORES]), float(high[HAND])
    (-1.0, 8.0, 1.0)
    """
    size = FULL_OBSERVATION_SIZE if full else OBSERVATION_SIZE
    low = np.zeros(size, np.float32)
    high = np.ones(size, np.float32)
    low[TOTALS : TOTALS + 3] = -np.inf
    high[TOTALS : TOTALS + 3] = np.inf
    low[SCORES : SCORES + 3] = -1.0
    high[SCORES : SCORES + 3] = 8.0
    high[TARGET] = np.inf
    return low, high


def _cards(out: Observation, base: int, mask: int) -> None:
    for c in mask_indices(mask):
        out[base + c] = 1.0


def observe(view: DealView, out: Observation | None = None) -> Observation:
    """What the view's seat may know, as float32 (:data:`OBSERVATION_SIZE`); written into
    ``out`` when given, else a new array. Reads nothing but the view."""
    me = view.seat
    if me is None:
        raise ValueError("observe needs a seat's view, not a spectator's")
    obs = _checked(out, OBSERVATION_SIZE, np.float32)
    _cards(obs, HAND, view.hand.mask)
    if view.prikup is not None:
        _cards(obs, PRIKUP, view.prikup.mask)
    if view.discard is not None:
        _cards(obs, DISCARD, view.discard.mask)
    obs[PHASE + int(view.phase)] = 1.0
    if view.to_move is not None:
        obs[TO_MOVE + (view.to_move - me) % 3] = 1.0
    obs[DEALER + (view.dealer - me) % 3] = 1.0
    if view.first_bidder is not None:
        obs[FIRST_BIDDER + (view.first_bidder - me) % 3] = 1.0
    if view.first_deal:
        obs[FIRST_DEAL] = 1.0
    high = -1
    auction = True
    for event in view.history:
        kind = event.kind
        if kind is Kind.BID:
            assert event.action is not None and event.action.contract is not None
            high = int(event.action.contract)
            obs[BID_BY + 3 * high + (event.seat - me) % 3] = 1.0
        elif kind is Kind.PASS and auction:
            obs[PASSED_AT + 6 * ((event.seat - me) % 3) + high + 1] = 1.0
        elif kind is Kind.DISCARD:
            auction = False
    obs[HIGH_BID + (0 if view.high_bid is None else int(view.high_bid) + 1)] = 1.0
    for seat in range(3):
        if view.in_auction[seat]:
            obs[IN_AUCTION + (seat - me) % 3] = 1.0
    declarer = view.declarer
    if declarer is not None:
        obs[DECLARER + (declarer - me) % 3] = 1.0
        for k, whist in enumerate(view.whist_answers):
            obs[WHIST_ANSWER + 2 * ((declarer + 1 + k - me) % 3) + (0 if whist else 1)] = 1.0
    trump = None
    if view.contract is not None:
        obs[CONTRACT + int(view.contract)] = 1.0
        trump = view.contract.trump_suit
    for trick in (*(t.plays for t in view.completed_tricks), view.current_trick):
        if not trick:
            continue
        lead = trick[0][1].suit
        for seat, card in trick:
            rel = (seat - me) % 3
            obs[PLAYED + 32 * rel + card.index] = 1.0
            if card.suit != lead:
                obs[VOID + 4 * rel + lead] = 1.0
                if trump is not None and card.suit != trump:
                    obs[VOID + 4 * rel + trump] = 1.0
    if view.current_trick:
        obs[LEADER + (view.current_trick[0][0] - me) % 3] = 1.0
        for seat, card in view.current_trick:
            obs[TRICK + 32 * ((seat - me) % 3) + card.index] = 1.0
    for seat in range(3):
        rel = (seat - me) % 3
        obs[TRICKS + 11 * rel + view.tricks[seat]] = 1.0
    if view.redeal is not None:
        obs[REDEAL + _REDEALS[view.redeal]] = 1.0
    _write_game(obs, view, me)
    return obs


def _write_game(obs: Observation, view: DealView, me: int) -> None:
    rules = view.rules
    if rules.lone_defender == "flat":
        obs[RULES] = 1.0
    if rules.surrender_bonus == 0:
        obs[RULES + 1] = 1.0
    if rules.all_pass_declarer == "first-bidder":
        obs[RULES + 2] = 1.0
    if rules.second_dealer == "rotate":
        obs[RULES + 3] = 1.0
    target = rules.target
    result = view.result
    for seat in range(3):
        rel = (seat - me) % 3
        obs[TOTALS + rel] = view.totals[seat] / target
        if result is not None:
            obs[SCORES + rel] = result.scores[seat] / SCORE_SCALE
    obs[TARGET] = target / DEFAULT_TARGET


def observe_full(
    deal: Deal, seat: int, out: Observation | None = None, *, totals: tuple[int, int, int] = (0, 0, 0)
) -> Observation:
    """Everything (:data:`FULL_OBSERVATION_SIZE` float32): ``seat``'s observation, then the
    other two hands, the prikup and the discard. For critics trained with privileged
    information, never for a player's policy.

    >>> import random
    >>> from paston.deal import Deal
    >>> full = observe_full(Deal.random(random.Random(3), dealer=0), 1)
    >>> int(full[FULL_HANDS : FULL_HANDS + 64].sum()), int(full[FULL_PRIKUP : FULL_PRIKUP + 32].sum())
    (20, 2)
    """
    obs = _checked(out, FULL_OBSERVATION_SIZE, np.float32)
    observe(deal.view(seat, totals), obs[:OBSERVATION_SIZE])
    _cards(obs, FULL_HANDS, deal.hand_mask((seat + 1) % 3))
    _cards(obs, FULL_HANDS + 32, deal.hand_mask((seat + 2) % 3))
    _cards(obs, FULL_PRIKUP, deal.prikup)
    _cards(obs, FULL_DISCARD, deal.discard.mask)
    return obs
