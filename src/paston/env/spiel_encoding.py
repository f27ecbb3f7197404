"""The OpenSpiel game's numbers: action indices, the observation and information-state tensors.

The actions and the observation are :mod:`paston.encoding`'s (every wrapper shares them).
The observation is what the seat knows now; the information-state tensor appends the
order in which things happened, which the observation leaves out, so that it is perfect
recall within a deal:

=============  =========  ===========================================================
part           floats     content
=============  =========  ===========================================================
observation    ``OBS``    :func:`paston.encoding.observe` of the seat's view
dealt          32         the seat's hand as dealt
said           12 × 17    each auction, discard, trump/surrender and whist act in
                          order: seat (3) and what (pass, 5 bids, 5 trumps,
                          surrender, whist, discard: 14)
plays          30 × 35    each card played in order: seat (3) and card (32)
=============  =========  ===========================================================

Across the deals of a whole game the tensor holds the current deal and the totals (in
the observation); the information-state *string* keeps every deal.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from paston.actions import BID_BASE, PASS_ID, SURRENDER_ID, TRUMP_BASE, WHIST_ID, Action, Kind
from paston.env.spiel_table import SpielTable

# --- temporary local numbering until paston.encoding lands ------------------------------
_NON_DISCARD = 45  # engine ids 0..44: 32 plays, pass, 5 bids, 5 trumps, surrender, whist
_PAIRS = [(lo, hi) for lo in range(32) for hi in range(lo + 1, 32)]
_PAIR_INDEX = {p: i for i, p in enumerate(_PAIRS)}
ACTION_COUNT: Final = _NON_DISCARD + len(_PAIRS)


def action_index(action: Action) -> int:
    """The OpenSpiel action number of an engine action."""
    if action.kind is Kind.DISCARD:
        return _NON_DISCARD + _PAIR_INDEX[(action.cards[0].index, action.cards[1].index)]
    return action.id


def index_action(index: int) -> Action:
    """The engine action of an OpenSpiel action number."""
    if not 0 <= index < ACTION_COUNT:
        raise ValueError(f"no action has number {index!r}")
    if index < _NON_DISCARD:
        return Action.from_id(index)
    lo, hi = _PAIRS[index - _NON_DISCARD]
    return Action.discard(lo, hi)


OBSERVATION_SIZE: Final = 32 + 32 + 96 + 3


def _observe(table: SpielTable, seat: int, out: np.ndarray[Any, np.dtype[np.float32]]) -> None:
    view = table.view(seat)
    if view is None:
        return
    for c in view.hand:
        out[c.index] = 1.0
    if view.prikup is not None:
        for c in view.prikup:
            out[32 + c.index] = 1.0
    for t in view.completed_tricks:
        for s, c in t.plays:
            out[64 + 32 * s + c.index] = 1.0
    for s, c in view.current_trick:
        out[64 + 32 * s + c.index] = 1.0
    if view.to_move is not None:
        out[160 + view.to_move] = 1.0


# --- the information-state extension -----------------------------------------------------
SAID_SLOTS: Final = 12
SAID_WIDTH: Final = 3 + 14
PLAY_SLOTS: Final = 30
PLAY_WIDTH: Final = 3 + 32
_DEALT = OBSERVATION_SIZE
_SAID = _DEALT + 32
_PLAYS = _SAID + SAID_SLOTS * SAID_WIDTH
INFO_STATE_SIZE: Final = _PLAYS + PLAY_SLOTS * PLAY_WIDTH


def _said_code(action: Action | None, kind: Kind) -> int:
    if kind is Kind.DISCARD:
        return 13
    assert action is not None
    aid = action.id
    if aid == PASS_ID:
        return 0
    if kind is Kind.BID:
        return 1 + aid - BID_BASE
    if kind is Kind.TRUMP:
        return 6 + aid - TRUMP_BASE
    if aid == SURRENDER_ID:
        return 11
    assert aid == WHIST_ID
    return 12


def write_observation(table: SpielTable, seat: int, out: np.ndarray[Any, np.dtype[np.float32]]) -> None:
    """Write the seat's observation into ``out`` (zeros while the first deck is dealt)."""
    out.fill(0.0)
    _observe(table, seat, out)


def write_info_state(table: SpielTable, seat: int, out: np.ndarray[Any, np.dtype[np.float32]]) -> None:
    """Write the seat's information state (observation, hand as dealt, the order of
    every act) into ``out``."""
    out.fill(0.0)
    _observe(table, seat, out[:OBSERVATION_SIZE])
    deal = table.deal
    view = table.view(seat)
    if deal is None or view is None:
        return
    dealt = deal.dealt[seat]
    for c in range(32):
        if dealt >> c & 1:
            out[_DEALT + c] = 1.0
    said = plays = 0
    for event in view.history:
        if event.kind is Kind.PLAY:
            assert event.action is not None
            base = _PLAYS + PLAY_WIDTH * plays
            out[base + event.seat] = 1.0
            out[base + 3 + event.action.cards[0].index] = 1.0
            plays += 1
        else:
            base = _SAID + SAID_WIDTH * said
            out[base + event.seat] = 1.0
            out[base + 3 + _said_code(event.action, event.kind)] = 1.0
            said += 1
