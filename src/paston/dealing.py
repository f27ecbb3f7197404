"""Shuffling and dealing (R1.2–R1.5).

Randomness is always the caller's: pass a :class:`random.Random` (or anything with
``shuffle`` and ``randrange``).

>>> import random
>>> deck = shuffled_deck(random.Random(7))
>>> len(deck), deck[31] != SEVEN_OF_SPADES
(32, True)
>>> hands, prikup = deal_cards(deck, dealer=0)
>>> [h.bit_count() for h in hands], prikup.bit_count()
([10, 10, 10], 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from paston.cards import ALL_CARDS, JACK_OF_SPADES, SEVEN_OF_SPADES, Card
from paston.errors import ParseError

SPADE_SEQUENCE_MASK = sum(1 << i for i in range(6))  # 7♠ … Q♠
HIGH_SPADES_MASK = (1 << 6) | (1 << 7)  # K♠ A♠


class DeckRandom(Protocol):
    """What the dealer needs from a random source (``random.Random`` has it)."""

    def shuffle(self, x: list[int]) -> None: ...

    def randrange(self, start: int, stop: int) -> int: ...


_EVERY_INDEX = frozenset(range(32))


def shuffled_deck(rng: DeckRandom) -> list[int]:
    """R1.2: shuffle, cut, and repeat while the bottom card is 7♠.

    Returns card indices in dealing order (``deck[0]`` dealt first).
    """
    deck = list(range(32))
    while True:
        rng.shuffle(deck)
        cut = rng.randrange(1, 32)
        deck = deck[cut:] + deck[:cut]
        if deck[31] != SEVEN_OF_SPADES:
            return deck


def check_deck(deck: Sequence[int | Card]) -> tuple[int, ...]:
    """Validate a deck (32 different cards, bottom card not 7♠) and return indices."""
    if len(deck) != 32:
        raise ParseError("deck-size", f"a deck has 32 cards, not {len(deck)}")
    out = tuple(map(int, deck))
    if set(out) != _EVERY_INDEX:  # 32 entries: each card exactly once
        raise ParseError("deck-cards", "a deck must hold each of the 32 cards exactly once")
    if out[31] == SEVEN_OF_SPADES:
        raise ParseError("deck-bottom", "R1.2: the bottom card of a dealt deck is never 7S")
    return out


# Positions in the deck for L (dealer+1), M (dealer+2), D (dealer), prikup (R1.3).
_POSITIONS: tuple[tuple[int, ...], ...] = (
    (0, 1, 8, 9, 14, 15, 20, 21, 26, 27),
    (2, 3, 10, 11, 16, 17, 22, 23, 28, 29),
    (4, 5, 12, 13, 18, 19, 24, 25, 30, 31),
)
PRIKUP_POSITIONS: tuple[int, int] = (6, 7)


def hand_positions(seat: int, dealer: int) -> tuple[int, ...]:
    """Deck positions of the cards ``seat`` receives when ``dealer`` deals."""
    return _POSITIONS[(seat - dealer - 1) % 3]


def deal_cards(deck: Sequence[int], dealer: int) -> tuple[tuple[int, int, int], int]:
    """R1.3: the three hands (masks, by seat) and the prikup mask."""
    masks = [0, 0, 0]
    for offset, positions in enumerate(_POSITIONS):
        m = 0
        for p in positions:
            m |= 1 << deck[p]
        masks[(dealer + 1 + offset) % 3] = m
    prikup = 1 << deck[6] | 1 << deck[7]
    return (masks[0], masks[1], masks[2]), prikup


def dealt_order(deck: Sequence[int], seat: int, dealer: int) -> list[Card]:
    """The seat's cards in the order they were dealt."""
    return [ALL_CARDS[deck[p]] for p in hand_positions(seat, dealer)]


def has_spade_sequence(hand: int) -> bool:
    """R1.4: 7♠ 8♠ 9♠ 10♠ J♠ Q♠ held, with neither K♠ nor A♠."""
    return hand & SPADE_SEQUENCE_MASK == SPADE_SEQUENCE_MASK and not hand & HIGH_SPADES_MASK


def jack_seven_in_prikup(prikup: int) -> bool:
    """R1.5 and R3.4: both J♠ and 7♠ lie in the prikup."""
    both = 1 << JACK_OF_SPADES | 1 << SEVEN_OF_SPADES
    return prikup & both == both


def spade_jack_holder(hands: Sequence[int]) -> int | None:
    """R2.1 / R3.4: the holder of J♠, else of 7♠, else ``None``."""
    for card in (JACK_OF_SPADES, SEVEN_OF_SPADES):
        for seat, hand in enumerate(hands):
            if hand >> card & 1:
                return seat
    return None
