"""Quick hand evaluation shared by the computer players: expected tricks of a hand as
declarer in a trump suit, defensive tricks, and a sensible discard.

Ranks are 0–7 (7, 8, 9, 10, J, Q, K, A).

>>> from paston.cards import CardSet
>>> hand = CardSet.parse("AH KH QH JH 9H AS KC 7D 8D 9D").mask
>>> round(declarer_tricks(hand, 3), 1)
6.9
>>> [str(c) for c in best_discard(CardSet.parse("AH KH QH JH 9H AS KC 7D 8D 9D 7S 8C").mask, 3)]
['7S', '7D']
"""

from __future__ import annotations

from paston.cards import ALL_CARDS, SUIT_MASKS, Card

ACE, KING, QUEEN, JACK = 7, 6, 5, 4


def _ranks(hand: int, suit: int) -> list[int]:
    """Ranks held in a suit, high to low."""
    byte = hand >> (8 * suit) & 0xFF
    return [r for r in range(7, -1, -1) if byte >> r & 1]


def trump_tricks(hand: int, trump: int) -> float:
    """Tricks expected from the trump suit: honours plus length."""
    ranks = _ranks(hand, trump)
    n = len(ranks)
    t = 0.0
    if ACE in ranks:
        t += 1.0
    if KING in ranks:
        t += 0.9 if n >= 2 or ACE in ranks else 0.4
    if QUEEN in ranks:
        t += 0.7 if n >= 3 else 0.3
    if JACK in ranks:
        t += 0.4 if n >= 4 else 0.1
    # long trumps: of 8, the opponents hold 8 - n; every trump beyond their longest holding wins
    t += max(0.0, n - 3) * 0.9
    return t


def side_tricks(hand: int, suit: int, trump: int | None) -> float:
    """Tricks expected from a side suit (aces, guarded kings, a ruffing value)."""
    ranks = _ranks(hand, suit)
    n = len(ranks)
    t = 0.0
    if ACE in ranks:
        t += 0.95
    if KING in ranks:
        t += 0.7 if ACE in ranks else (0.5 if n >= 2 else 0.15)
    if QUEEN in ranks and n >= 3:
        t += 0.3 if (ACE in ranks or KING in ranks) else 0.15
    if trump is not None and n <= 1:
        trumps = (hand & SUIT_MASKS[trump]).bit_count()
        t += (0.5 if n == 0 else 0.25) * min(2, max(0, trumps - 3))
    return t


# The two functions above depend only on one suit's byte (and, for a side suit, on the
# trump length): tabulated once, so that valuing thousands of sampled hands (inference)
# costs a few lookups each. The tables hold the functions' own values, added in the same
# order, so the sums are the very same floats.
_TRUMP_TABLE: tuple[float, ...] = tuple(trump_tricks(byte, 0) for byte in range(256))
_SIDE_TABLE: tuple[tuple[float, ...], ...] = tuple(
    tuple(side_tricks(byte | (0xFF >> (8 - trumps)) << 8 if trumps else byte, 0, 1) for trumps in range(9))
    for byte in range(256)
)


def declarer_tricks(hand: int, trump: int) -> float:
    """Expected tricks of a (10- or 12-card) hand as declarer with this trump suit.

    >>> from paston.cards import CardSet
    >>> hand = CardSet.parse("AS KS QS 7S AH 9H KD 8D 7C 8C").mask
    >>> declarer_tricks(hand, 0) == trump_tricks(hand, 0) + sum(side_tricks(hand, s, 0) for s in (1, 2, 3))
    True
    """
    trump_byte = hand >> (8 * trump) & 0xFF
    trumps = trump_byte.bit_count()
    t = _TRUMP_TABLE[trump_byte]
    for suit in range(4):
        if suit != trump:
            t += _SIDE_TABLE[hand >> (8 * suit) & 0xFF][trumps]
    return t


def defence_tricks(hand: int, trump: int) -> float:
    """Expected tricks of a hand defending against this trump suit."""
    ranks = _ranks(hand, trump)
    t = 0.0
    if ACE in ranks:
        t += 1.0
    if KING in ranks and len(ranks) >= 2:
        t += 0.7
    if QUEEN in ranks and len(ranks) >= 3:
        t += 0.4
    t += max(0, len(ranks) - 3) * 0.5
    for suit in range(4):
        if suit == trump:
            continue
        side = _ranks(hand, suit)
        if ACE in side:
            t += 0.9 if len(side) <= 5 else 0.6
        if KING in side and len(side) >= 2:
            t += 0.45 if ACE in side else 0.35
    return t


def best_discard(hand: int, trump: int) -> tuple[Card, Card]:
    """Two cards to discard from 12 for this trump: low cards of short side suits first
    (creating voids), never trumps or aces unless forced."""
    scored = []
    for i in range(32):
        if not hand >> i & 1:
            continue
        suit, rank = i >> 3, i & 7
        length = (hand & SUIT_MASKS[suit]).bit_count()
        cost = rank * 2.0 + length * 1.5
        if suit == trump:
            cost += 100
        if rank == ACE:
            cost += 40
        if rank == KING and length >= 2:
            cost += 15
        scored.append((cost, i))
    scored.sort()
    a, b = scored[0][1], scored[1][1]
    return ALL_CARDS[min(a, b)], ALL_CARDS[max(a, b)]


def discard_candidates(hand: int, trumps: list[int], limit: int) -> list[tuple[Card, Card]]:
    """Plausible discards (pairs of non-trump low cards), best first, for a search to try."""
    seen: list[tuple[float, tuple[Card, Card]]] = []
    cards = [i for i in range(32) if hand >> i & 1]
    for ai, a in enumerate(cards):
        for b in cards[ai + 1 :]:
            pair_cost = 0.0
            for c in (a, b):
                suit, rank = c >> 3, c & 7
                length = (hand & SUIT_MASKS[suit]).bit_count()
                pair_cost += rank * 2.0 + length * 1.5 + (40 if rank == ACE else 0)
                if all(suit == t for t in trumps):
                    pair_cost += 100
            if a >> 3 == b >> 3 and (hand & SUIT_MASKS[a >> 3]).bit_count() == 2:
                pair_cost -= 6  # discarding a whole doubleton makes a void
            seen.append((pair_cost, (ALL_CARDS[a], ALL_CARDS[b])))
    seen.sort(key=lambda x: x[0])
    return [p for _, p in seen[:limit]]
