"""The encodings of one deal kept up to date action by action: the fast path of the environments.

:mod:`paston.encoding` builds an observation from a seat's view; building the view and then
the array costs tens of microseconds a decision. A :class:`DealEncoder` follows a deal
instead: it holds the full observation of every seat (:data:`~paston.encoding.FULL_OBSERVATION_SIZE`
each, the seat's own observation being its first :data:`~paston.encoding.OBSERVATION_SIZE`
entries) and the legal mask of the seat to move, and changes only the entries an action
changes. Tests hold it, on every state of thousands of random deals and for every seat,
to :func:`~paston.encoding.observe` of the seat's view (which decides what is hidden),
:func:`~paston.encoding.observe_full` and :func:`~paston.encoding.legal_mask`.

>>> import random
>>> from paston.deal import Deal
>>> deal = Deal.random(random.Random(3), dealer=0)
>>> encoder = DealEncoder()
>>> encoder.start(deal)
>>> event = deal.apply(deal.legal_actions()[1])
>>> encoder.push(deal, event)
>>> from paston import encoding
>>> (encoder.observation(0) == encoding.observe(deal.view(0))).all()
np.True_
>>> int(encoder.mask.sum()), deal.legal_actions()
(2, (Action.parse('pass'), Action.parse('bid clubs')))
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from paston.actions import BID_BASE, DISCARD_BASE, PASS_ID, TRUMP_BASE, WHIST_ID, Event
from paston.cards import SUIT_MASKS, mask_indices
from paston.contracts import Contract
from paston.encoding import (
    _ROW_START,
    ACTION_COUNT,
    BID_BY,
    CONTRACT,
    DEALER,
    DECLARER,
    DEFAULT_TARGET,
    DISCARD,
    FIRST_BIDDER,
    FIRST_DEAL,
    FULL_DISCARD,
    FULL_HANDS,
    FULL_OBSERVATION_SIZE,
    FULL_PRIKUP,
    HAND,
    HIGH_BID,
    IN_AUCTION,
    LEADER,
    OBSERVATION_SIZE,
    PASSED_AT,
    PHASE,
    PLAYED,
    PRIKUP,
    REDEAL,
    RULES,
    SCORE_SCALE,
    SCORES,
    TARGET,
    TO_MOVE,
    TOTALS,
    TRICK,
    TRICKS,
    VOID,
    WHIST_ANSWER,
    Mask,
    Observation,
)
from paston.phases import Phase
from paston.result import Redeal
from paston.rules import Rules
from paston.tricks import playable

if TYPE_CHECKING:
    from paston.deal import Deal

__all__ = ["DealEncoder"]

W: Final = FULL_OBSERVATION_SIZE
_AUCTION, _DISCARD, _TRUMP, _DEFENCE, _PLAY, _OVER, _REDEAL = (int(p) for p in Phase)
_REDEALS: Final = {r: i for i, r in enumerate(Redeal)}


@cache
def _at(base: int, size: int, seat: int, k: int) -> tuple[int, int, int]:
    """The flat positions, in the rows of seats 0, 1, 2, of entry ``k`` of absolute
    ``seat``'s group in a block of per-relative-seat groups of ``size``."""
    return tuple(s * W + base + size * ((seat - s) % 3) + k for s in range(3))  # type: ignore[return-value]


_PLAYED_AT = tuple(tuple(_at(PLAYED, 32, a, c) + _at(TRICK, 32, a, c) for c in range(32)) for a in range(3))
_TRICK_AT = tuple(tuple(_at(TRICK, 32, a, c) for c in range(32)) for a in range(3))


def _held_at(seat: int, card: int) -> tuple[int, int, int]:
    """Where ``seat`` holding ``card`` shows: its own hand, and the full observations'
    hidden hands of the other two seats."""
    before, after = (seat - 1) % 3, (seat + 1) % 3  # they see ``seat`` as relative seat 1, 2
    return seat * W + HAND + card, before * W + FULL_HANDS + card, after * W + FULL_HANDS + 32 + card


_HELD_AT = tuple(tuple(_held_at(a, c) for c in range(32)) for a in range(3))
_LEADER_AT = tuple(_at(LEADER, 1, a, 0) for a in range(3))
_VOID_AT = tuple(tuple(_at(VOID, 4, a, suit) for suit in range(4)) for a in range(3))
_TRICKS_AT = tuple(tuple(_at(TRICKS, 11, a, k) for k in range(11)) for a in range(3))
_PASSED_AT_AT = tuple(tuple(_at(PASSED_AT, 6, a, k) for k in range(6)) for a in range(3))
_IN_AUCTION_AT = tuple(_at(IN_AUCTION, 1, a, 0) for a in range(3))
_BID_BY_AT = tuple(tuple(_at(BID_BY + 3 * level, 1, a, 0) for a in range(3)) for level in range(5))
_TO_MOVE_AT = tuple(_at(TO_MOVE, 1, a, 0) for a in range(3))
_BYTES8 = tuple(bytes((b >> i) & 1 for i in range(8)) for b in range(256))
_PLAY_BLOCK: Final = tuple(range(32))  # the mask holds the play block (indices 0-31)
_NO_ACTION: Final = bytes(ACTION_COUNT)
_FLOATS8 = tuple(np.array([(b >> i) & 1 for i in range(8)], np.float32).tobytes() for b in range(256))
# byte offsets of the planes showing a seat's hand: its own, and the other two's hidden hands
_HAND_PLANES = tuple(tuple(4 * i for i in _held_at(seat, 0)) for seat in range(3))


def _plane(mask: int) -> bytes:
    """A card plane (32 float32, 1.0 for each card of ``mask``) as bytes."""
    f = _FLOATS8
    return f[mask & 255] + f[mask >> 8 & 255] + f[mask >> 16 & 255] + f[mask >> 24]


_TEMPLATES: dict[tuple[Rules, bool], Observation] = {}


def _template(rules: Rules, first_deal: bool) -> Observation:
    """What every deal under these rules shows before the cards: nobody has passed, no
    bid, no trick taken, the rule switches and the target."""
    key = (rules, first_deal)
    found = _TEMPLATES.get(key)
    if found is not None:
        return found
    rows = np.zeros((3, W), np.float32)
    for seat in range(3):
        rows[seat, IN_AUCTION : IN_AUCTION + 3] = 1.0
        rows[seat, TRICKS : TRICKS + 33 : 11] = 1.0
        rows[seat, HIGH_BID] = 1.0
        rows[seat, FIRST_DEAL] = float(first_deal)
        rows[seat, RULES : RULES + 4] = (
            rules.lone_defender == "flat",
            rules.surrender_bonus == 0,
            rules.all_pass_declarer == "first-bidder",
            rules.second_dealer == "rotate",
        )
        rows[seat, TARGET] = rules.target / DEFAULT_TARGET
    if len(_TEMPLATES) < 64:
        _TEMPLATES[key] = rows
    return rows


class DealEncoder:
    """Every seat's full observation (``full``, shape 3 × FULL_OBSERVATION_SIZE) and the
    legal mask of the seat to move (``mask``) of one deal, kept up to date by :meth:`push`
    after each action. The arrays are the encoder's own and change as the deal goes on:
    copy what you keep (:meth:`observation` and :meth:`full_observation` copy)."""

    __slots__ = (
        "_high",
        "_lead",
        "_legal",
        "_m",
        "_phase",
        "_rows",
        "_to_move",
        "_totals_shown",
        "_trick",
        "_tricks",
        "_trump",
        "_w",
        "_wb",
        "full",
        "mask",
    )

    def __init__(self) -> None:
        self.full = np.zeros((3, W), np.float32)
        self.mask: Mask = np.zeros(ACTION_COUNT, np.int8)
        # memoryviews: item writes cost half of an ndarray's
        self._w: Any = self.full.reshape(-1).data
        self._wb: Any = self._w.cast("B")
        self._m: Any = self.mask.data.cast("B")
        self._rows: tuple[Observation, ...] = tuple(self.full[s, :OBSERVATION_SIZE] for s in range(3))
        self._legal: tuple[int, ...] = ()
        self._phase = self._to_move = self._high = self._lead = self._trump = -1
        self._totals_shown = False
        self._tricks = [0, 0, 0]
        self._trick: list[int] = []

    # --- writing --------------------------------------------------------------------------
    def _shared(self, offset: int, value: float) -> None:
        w = self._w
        w[offset] = w[W + offset] = w[2 * W + offset] = value

    def _seats(self, base: int, size: int, seat: int, k: int, value: float) -> None:
        w = self._w
        a, b, c = _at(base, size, seat, k)
        w[a] = w[b] = w[c] = value

    def start(self, deal: Deal, totals: tuple[int, int, int] = (0, 0, 0)) -> None:
        """Begin a deal (dealt, no action yet); ``totals`` are the game's before it."""
        if deal.event_count:
            raise ValueError("DealEncoder.start needs a deal before its first action")
        np.copyto(self.full, _template(deal.rules, deal.first_deal))
        self._totals_shown = False
        wb = self._wb
        for seat in range(3):
            plane = _plane(deal.hand_mask(seat))
            for offset in _HAND_PLANES[seat]:
                wb[offset : offset + 128] = plane
        plane = _plane(deal.prikup)
        for row in range(3):
            offset = 4 * (row * W + FULL_PRIKUP)
            wb[offset : offset + 128] = plane
        self._seats(DEALER, 1, deal.dealer, 0, 1.0)
        if deal.first_bidder is not None:
            self._seats(FIRST_BIDDER, 1, deal.first_bidder, 0, 1.0)
        self.set_totals(totals, deal.rules.target)
        self._phase = self._to_move = -1
        self._high = self._lead = self._trump = -1
        self._tricks = [0, 0, 0]
        self._trick = []
        self._legal = ()
        self._m[:] = _NO_ACTION
        self._after(deal)

    def set_totals(self, totals: tuple[int, int, int], target: int) -> None:
        """Show the game's totals (after a deal is scored, the new ones)."""
        if totals != (0, 0, 0) or self._totals_shown:
            self._totals_shown = totals != (0, 0, 0)
            for seat in range(3):
                self._seats(TOTALS, 1, seat, 0, totals[seat] / target)

    def push(self, deal: Deal, event: Event) -> None:
        """Take in ``event``, just applied to ``deal`` (the deal given to :meth:`start`)."""
        w = self._w
        seat = event.seat
        aid = event.action.id
        if aid < 32:  # the hot path: one card, about 15 entries change
            x, y, z = _HELD_AT[seat][aid]
            w[x] = w[y] = w[z] = 0.0
            x, y, z, x2, y2, z2 = _PLAYED_AT[seat][aid]
            w[x] = w[y] = w[z] = w[x2] = w[y2] = w[z2] = 1.0
            trick = self._trick
            suit = aid >> 3
            if not trick:
                self._lead = suit
                x, y, z = _LEADER_AT[seat]
                w[x] = w[y] = w[z] = 1.0
            elif suit != self._lead:  # R6.2: void in the led suit, and in trump unless trumping
                x, y, z = _VOID_AT[seat][self._lead]
                w[x] = w[y] = w[z] = 1.0
                if suit != self._trump:
                    x, y, z = _VOID_AT[seat][self._trump]
                    w[x] = w[y] = w[z] = 1.0
            trick.append(seat << 5 | aid)
            # The deal's own state is read directly here (the encoder is the engine's fast
            # path, like Deal.apply's; the tests hold it to the views on every state).
            if not deal._trick:  # the trick is complete
                self._end_trick(deal)
                if deal._phase != _PLAY:
                    self._after(deal)
                    return
            mover = deal._to_move
            if mover != self._to_move:
                x, y, z = _TO_MOVE_AT[self._to_move]
                w[x] = w[y] = w[z] = 0.0
                x, y, z = _TO_MOVE_AT[mover]
                w[x] = w[y] = w[z] = 1.0
                self._to_move = mover
            bits = deal._hands[mover]
            lead = deal._lead_suit
            if lead >= 0:  # R6.2, as tricks.playable says: follow suit, else trump, else any
                bits = bits & SUIT_MASKS[lead] or bits & SUIT_MASKS[self._trump] or bits
            b = _BYTES8
            self._m[0:32] = b[bits & 255] + b[bits >> 8 & 255] + b[bits >> 16 & 255] + b[bits >> 24]
            return
        elif self._phase == _AUCTION:
            if aid == PASS_ID:
                x, y, z = _PASSED_AT_AT[seat][self._high + 1]
                w[x] = w[y] = w[z] = 1.0
                x, y, z = _IN_AUCTION_AT[seat]
                w[x] = w[y] = w[z] = 0.0
            else:
                level = aid - BID_BASE
                x, y, z = _BID_BY_AT[level][seat]
                w[x] = w[y] = w[z] = 1.0
                self._shared(HIGH_BID + self._high + 1, 0.0)
                self._shared(HIGH_BID + level + 1, 1.0)
                self._high = level
            declarer = deal._declarer
            if declarer >= 0:
                self._seats(DECLARER, 1, declarer, 0, 1.0)
                for card in mask_indices(deal.prikup):
                    for i in _HELD_AT[declarer][card]:
                        w[i] = 1.0
                    w[declarer * W + PRIKUP + card] = 1.0
        elif aid >= DISCARD_BASE:
            for held in event.action.cards:
                x = held.index
                for i in _HELD_AT[seat][x]:
                    w[i] = 0.0
                w[seat * W + DISCARD + x] = 1.0
                self._shared(FULL_DISCARD + x, 1.0)
        elif TRUMP_BASE <= aid < TRUMP_BASE + 5:
            contract = aid - TRUMP_BASE
            self._shared(CONTRACT + contract, 1.0)
            self._trump = Contract(contract).trump_suit
        elif aid in (WHIST_ID, PASS_ID):
            self._seats(WHIST_ANSWER, 2, seat, 0 if aid == WHIST_ID else 1, 1.0)
        self._after(deal)

    def _end_trick(self, deal: Deal) -> None:
        w = self._w
        trick = self._trick
        for packed in trick:
            x, y, z = _TRICK_AT[packed >> 5][packed & 31]
            w[x] = w[y] = w[z] = 0.0
        x, y, z = _LEADER_AT[trick[0] >> 5]
        w[x] = w[y] = w[z] = 0.0
        self._trick = []
        winner = deal._done[-1][2]
        taken = self._tricks[winner]
        x, y, z = _TRICKS_AT[winner][taken]
        w[x] = w[y] = w[z] = 0.0
        x, y, z = _TRICKS_AT[winner][taken + 1]
        w[x] = w[y] = w[z] = 1.0
        self._tricks[winner] = taken + 1

    def _after(self, deal: Deal) -> None:
        """The phase, the seat to move, the end of the deal and the legal mask."""
        phase = deal._phase
        if phase != self._phase:
            if self._phase >= 0:
                self._shared(PHASE + self._phase, 0.0)
            self._shared(PHASE + phase, 1.0)
            self._phase = phase
            if phase == _OVER:
                result = deal.result
                assert result is not None
                for seat in range(3):
                    self._seats(SCORES, 1, seat, 0, result.scores[seat] / SCORE_SCALE)
            elif phase == _REDEAL:
                assert deal.redeal is not None
                self._shared(REDEAL + _REDEALS[deal.redeal], 1.0)
        mover = deal._to_move if phase < _OVER else -1
        if mover != self._to_move:
            w = self._w
            if self._to_move >= 0:
                x, y, z = _TO_MOVE_AT[self._to_move]
                w[x] = w[y] = w[z] = 0.0
            if mover >= 0:
                x, y, z = _TO_MOVE_AT[mover]
                w[x] = w[y] = w[z] = 1.0
            self._to_move = mover
        m = self._m
        if phase == _PLAY:
            bits = playable(deal._hands[mover], deal._lead_suit, self._trump)
            if self._legal is not _PLAY_BLOCK:
                for i in self._legal:
                    m[i] = 0
                self._legal = _PLAY_BLOCK
            b = _BYTES8
            m[0:32] = b[bits & 255] + b[bits >> 8 & 255] + b[bits >> 16 & 255] + b[bits >> 24]
            return
        for i in self._legal:
            m[i] = 0
        if phase == _DISCARD:  # the 66 pairs of the declarer's 12 cards
            held = mask_indices(deal.hand_mask(self._to_move))
            legal = [_ROW_START[lo] - lo - 1 + hi for k, lo in enumerate(held) for hi in held[k + 1 :]]
        else:  # below the discards an index is the engine's action id
            legal = [a.id for a in deal.legal_actions()]
        for i in legal:
            m[i] = 1
        self._legal = tuple(legal)

    # --- reading --------------------------------------------------------------------------
    def observation(self, seat: int, out: Observation | None = None) -> Observation:
        """A copy of ``seat``'s observation (into ``out`` when given)."""
        row = self._rows[seat]
        if out is None:
            return row.copy()
        np.copyto(out, row)
        return out

    def full_observation(self, seat: int, out: Observation | None = None) -> Observation:
        """A copy of ``seat``'s full (perfect-information) observation."""
        row: Observation = self.full[seat]
        if out is None:
            return row.copy()
        np.copyto(out, row)
        return out

    @property
    def legal_view(self) -> Any:
        """The mask as a memoryview of bytes (quicker to index than the array)."""
        return self._m

    @property
    def to_move(self) -> int | None:
        """The seat whose legal actions :attr:`mask` holds (``None`` once the deal ends)."""
        return self._to_move if self._to_move >= 0 else None
