"""The quick hand evaluation: the tabulated ``declarer_tricks`` equals the sum of its
parts (trump tricks and side-suit tricks) for every hand and trump."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from paston.bots.evaluation import declarer_tricks, side_tricks, trump_tricks

hands = st.lists(st.integers(0, 31), min_size=10, max_size=12, unique=True).map(
    lambda cards: sum(1 << c for c in cards)
)


@given(hand=hands, trump=st.integers(0, 3))
def test_declarer_tricks_is_trump_tricks_plus_side_tricks(hand: int, trump: int) -> None:
    expected = trump_tricks(hand, trump)
    for suit in range(4):
        if suit != trump:
            expected += side_tricks(hand, suit, trump)
    assert declarer_tricks(hand, trump) == expected  # the very same float


def test_declarer_tricks_for_every_trump_length() -> None:
    # every length of trumps (0–8) with every holding of one side suit
    for trumps in range(9):
        trump_bits = (0xFF >> (8 - trumps)) << 24 if trumps else 0
        for side in range(256):
            hand = trump_bits | side
            expected = trump_tricks(hand, 3) + side_tricks(hand, 0, 3) + side_tricks(hand, 1, 3)
            expected += side_tricks(hand, 2, 3)
            assert declarer_tricks(hand, 3) == expected
