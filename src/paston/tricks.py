"""Tricks (R6): which cards a seat may play to a trick, who wins it, and the finished trick.

:func:`playable` is the one statement of the follow-suit rule (R6.2); the engine, the
pure-Python reference solver and the solver's position checks all use it (the engine's
hot path inlines the same masks, and a test holds the two to agreement).

>>> from paston.cards import CardSet
>>> hand = CardSet.parse("AS 7H 8D").mask
>>> CardSet(playable(hand, lead_suit=3, trump=2))   # must follow hearts
CardSet.parse('7H')
>>> CardSet(playable(CardSet.parse("AS 8D").mask, lead_suit=3, trump=2))   # void: must trump
CardSet.parse('8D')
>>> from paston.cards import Card
>>> trick_winner([Card.parse(c).index for c in ("7H", "AH", "8C")], trump=1)   # clubs trump
2
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from paston.cards import SUIT_MASKS, Card


def playable(hand: int, lead_suit: int | None, trump: int | None) -> int:
    """R6.2: the cards of ``hand`` (a mask) that may be played to a trick led in
    ``lead_suit`` (``None`` when leading: any card): a card of the led suit if the hand
    has one; else a trump if it has one; else any card."""
    if lead_suit is None or lead_suit < 0:
        return hand
    follow = hand & SUIT_MASKS[lead_suit]
    if follow:
        return follow
    if trump is not None and trump >= 0:
        trumps = hand & SUIT_MASKS[trump]
        if trumps:
            return trumps
    return hand


def trick_winner(cards: Sequence[int], trump: int | None) -> int:
    """R6.3: the position (0-based, in order of play) of the card that wins a trick: the
    highest trump if any was played, else the highest card of the led suit."""
    best = 0
    win = cards[0]
    for k in range(1, len(cards)):
        c = cards[k]
        if (c >> 3 == win >> 3 and c > win) or (trump is not None and c >> 3 == trump and win >> 3 != trump):
            best, win = k, c
    return best


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick: who led, the cards in order of play with their seats, the winner."""

    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int
