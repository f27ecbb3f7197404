"""The OpenSpiel game's numbers: action indices, the observation and information-state tensors.

The actions and the observation are :mod:`paston.encoding`'s, which every wrapper shares
(seats relative to the observer: 0 itself, 1 on its left, 2 on its right). The
observation already holds the whole public auction and defence (who bid each step, where
each seat passed, the whist answers), the seat's hand, prikup and discard, and the cards
each seat has played; what it leaves out is the *order* of the cards played. The
information-state tensor appends that order (and the hand as dealt), which makes it
perfect recall within a deal:

===========  ==========================  ====================================================
part         floats                      content
===========  ==========================  ====================================================
observation  ``OBSERVATION_SIZE`` (423)  :func:`paston.encoding.observe` of the seat's view
dealt        32                          the seat's hand as dealt
plays        30 × 35                     each card played, in order: the relative seat that
                                         played it (3) and the card (32)
===========  ==========================  ====================================================

Across the deals of a whole game the tensor holds the current deal and the totals (in
the observation); the information-state *string* keeps every deal.

>>> INFO_STATE_SIZE == OBSERVATION_SIZE + 32 + 30 * 35
True
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from paston.actions import Kind
from paston.cards import mask_indices
from paston.encoding import ACTION_COUNT, OBSERVATION_SIZE, action_index, index_action, observe
from paston.env.spiel_table import SpielTable

__all__ = [
    "ACTION_COUNT",
    "INFO_STATE_SIZE",
    "OBSERVATION_SIZE",
    "action_index",
    "index_action",
    "write_info_state",
    "write_observation",
]

Tensor = np.ndarray[Any, np.dtype[np.float32]]

PLAY_SLOTS: Final = 30
PLAY_WIDTH: Final = 3 + 32
DEALT: Final = OBSERVATION_SIZE
"""Where the hand as dealt starts (32)."""
PLAYS: Final = DEALT + 32
"""Where the cards played in order start (30 × 35)."""
INFO_STATE_SIZE: Final = PLAYS + PLAY_SLOTS * PLAY_WIDTH


def write_observation(table: SpielTable, seat: int, out: Tensor) -> bool:
    """Write the seat's observation into ``out`` (zeros while the first deck is dealt):
    from the table's :class:`~paston.encoding_fast.DealEncoder` when it has one (tests
    hold the two equal), else from the seat's view. False while the first deck is dealt."""
    encoder = table.encoder
    if encoder is not None:
        encoder.observation(seat, out)
        return True
    view = table.view(seat)
    if view is None:
        out.fill(0.0)
        return False
    observe(view, out)
    return True


def write_info_state(table: SpielTable, seat: int, out: Tensor) -> None:
    """Write the seat's information state (observation, hand as dealt, every card played
    in order) into ``out``."""
    out[OBSERVATION_SIZE:] = 0.0
    if not write_observation(table, seat, out[:OBSERVATION_SIZE]):
        return
    deal = table.deal
    assert deal is not None
    for c in mask_indices(deal.dealt[seat]):
        out[DEALT + c] = 1.0
    base = PLAYS
    for event in deal.events:  # the cards played are public: every seat saw them in order
        action = event.action
        if action.kind is Kind.PLAY:
            out[base + (event.seat - seat) % 3] = 1.0
            out[base + 3 + action.id] = 1.0
            base += PLAY_WIDTH
