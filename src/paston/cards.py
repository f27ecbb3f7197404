"""Cards and card sets (R0.2).

A card is an integer 0–31: ``suit * 8 + rank`` with suits ♠ ♣ ♦ ♥ = 0 1 2 3 and
ranks 7 8 9 T J Q K A = 0 … 7 (higher is stronger). A set of cards is a 32-bit
mask, so legality checks are a few bit operations. :class:`Card` and
:class:`CardSet` are the small frozen value types on top.

>>> Card.parse("TH")
Card.parse('TH')
>>> str(Card.parse("10♥")), Card.parse("a♠").pretty()
('TH', 'A♠')
>>> hand = CardSet.parse("AS KS 7H 10D")
>>> str(hand), len(hand), Card.parse("KS") in hand
('AS KS TD 7H', 4, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from paston.errors import ParseError

SPADES: Final = 0
CLUBS: Final = 1
DIAMONDS: Final = 2
HEARTS: Final = 3

SUIT_LETTERS: Final = "SCDH"
SUIT_SYMBOLS: Final = "♠♣♦♥"
SUIT_NAMES: Final = ("spades", "clubs", "diamonds", "hearts")
RANK_LETTERS: Final = "789TJQKA"
RANK_PRETTY: Final = ("7", "8", "9", "10", "J", "Q", "K", "A")

FULL_DECK_MASK: Final = (1 << 32) - 1
SUIT_MASKS: Final = (0xFF, 0xFF00, 0xFF0000, 0xFF000000)

_SUIT_PARSE = {
    "S": 0,
    "C": 1,
    "D": 2,
    "H": 3,
    "♠": 0,
    "♣": 1,
    "♦": 2,
    "♥": 3,
    "♤": 0,
    "♧": 1,
    "♢": 2,
    "♡": 3,
}
_RANK_PARSE = {"7": 0, "8": 1, "9": 2, "T": 3, "10": 3, "J": 4, "Q": 5, "K": 6, "A": 7}


def card_index(suit: int, rank: int) -> int:
    """The integer of the card of ``suit`` (0–3) and ``rank`` (0–7).

    >>> card_index(HEARTS, 3)
    27
    """
    return suit * 8 + rank


class Card:
    """One card. Instances are interned: ``Card.parse('AS') is Card.parse('AS')``.

    >>> c = Card.parse("JS")
    >>> c.index, c.suit, c.rank, c.pretty()
    (4, 0, 4, 'J♠')
    """

    __slots__ = ("_code", "index", "rank", "suit")

    index: int
    suit: int
    rank: int
    _code: str

    def __new__(cls, index: int) -> Card:
        if type(index) is not int or not 0 <= index < 32:
            raise ParseError("parse-card", f"card index must be an integer 0-31, not {index!r}")
        return ALL_CARDS[index]

    @classmethod
    def _make(cls, index: int) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "index", index)
        object.__setattr__(card, "suit", index >> 3)
        object.__setattr__(card, "rank", index & 7)
        object.__setattr__(card, "_code", RANK_LETTERS[index & 7] + SUIT_LETTERS[index >> 3])
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse any notation of R0.2: ``TH``, ``10H``, ``A♠``, ``10♥`` (any case).

        >>> Card.parse("10h") is Card.parse("T♥")
        True
        """
        if not isinstance(text, str):
            raise ParseError("parse-card", f"cannot parse card {text!r}: not text")
        t = text.strip().upper()
        rank = _RANK_PARSE.get(t[:-1]) if len(t) >= 2 else None
        suit = _SUIT_PARSE.get(t[-1]) if t else None
        if rank is None or suit is None:
            raise ParseError(
                "parse-card",
                f"cannot parse card {text!r}: expected a rank (7 8 9 T J Q K A, or 10) "
                "and a suit (S C D H or ♠ ♣ ♦ ♥)",
            )
        return ALL_CARDS[suit * 8 + rank]

    @property
    def bit(self) -> int:
        """The card's bit in a card mask."""
        return 1 << self.index

    def pretty(self) -> str:
        """The card with a suit symbol and ``10`` for ten: ``10♥``."""
        return RANK_PRETTY[self.rank] + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return self._code

    def __repr__(self) -> str:
        return f"Card.parse({self._code!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (self.index,))

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __int__(self) -> int:
        return self.index

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other


ALL_CARDS: Final[tuple[Card, ...]] = tuple(Card._make(i) for i in range(32))
SEVEN_OF_SPADES: Final = card_index(SPADES, 0)
JACK_OF_SPADES: Final = card_index(SPADES, 4)
KING_OF_SPADES: Final = card_index(SPADES, 6)
ACE_OF_SPADES: Final = card_index(SPADES, 7)

# For each suit and each 8-bit pattern, the card indices of that suit, ascending.
_BYTE_INDICES: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple(s * 8 + r for r in range(8) if b >> r & 1) for b in range(256)) for s in range(4)
)


def mask_indices(mask: int) -> tuple[int, ...]:
    """The card indices in ``mask``, ascending (suit order ♠ ♣ ♦ ♥, low to high).

    >>> mask_indices(0b101 | 1 << 31)
    (0, 2, 31)
    """
    t = _BYTE_INDICES
    return t[0][mask & 255] + t[1][mask >> 8 & 255] + t[2][mask >> 16 & 255] + t[3][mask >> 24 & 255]


def mask_of(cards: Iterable[Card | int]) -> int:
    """The mask of some cards (or card indices)."""
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def sorted_for_display(mask: int) -> list[Card]:
    """Cards grouped by suit in ladder order ♠ ♣ ♦ ♥, high to low inside a suit."""
    out: list[Card] = []
    for suit in range(4):
        out.extend(ALL_CARDS[i] for i in reversed(_BYTE_INDICES[suit][mask >> 8 * suit & 255]))
    return out


class CardSet:
    """An immutable set of cards backed by a 32-bit mask.

    Iterates and prints grouped by suit (♠ ♣ ♦ ♥), high to low.

    >>> s = CardSet.parse("7S, A♠ 10H")
    >>> list(s)
    [Card.parse('AS'), Card.parse('7S'), Card.parse('TH')]
    >>> s.pretty()
    '♠ A 7  ♥ 10'
    >>> s.mask == CardSet(s).mask
    True
    """

    __slots__ = ("mask",)

    mask: int

    def __init__(self, cards: Iterable[Card | int] | int | CardSet = 0) -> None:
        if isinstance(cards, CardSet):
            mask = cards.mask
        elif isinstance(cards, int):
            if not 0 <= cards <= FULL_DECK_MASK:
                raise ParseError("parse-cards", f"card mask out of range: {cards}")
            mask = cards
        else:
            mask = mask_of(cards)
        object.__setattr__(self, "mask", mask)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    def __reduce__(self) -> tuple[type[CardSet], tuple[int]]:
        return (CardSet, (self.mask,))

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Parse cards separated by spaces or commas; duplicates are an error."""
        mask = 0
        for token in text.replace(",", " ").split():
            card = Card.parse(token)
            if mask >> card.index & 1:
                raise ParseError("parse-cards", f"card {card} appears twice in {text!r}")
            mask |= 1 << card.index
        return cls(mask)

    def __iter__(self) -> Iterator[Card]:
        return iter(sorted_for_display(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self.mask >> card.index & 1)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(("CardSet", self.mask))

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def suit(self, suit: int) -> CardSet:
        """The cards of one suit."""
        return CardSet(self.mask & SUIT_MASKS[suit])

    def codes(self) -> list[str]:
        """Record codes in display order."""
        return [str(c) for c in self]

    def pretty(self) -> str:
        """Grouped by suit with symbols: ``♠ A K 7  ♥ 10 9``."""
        groups = []
        for suit in range(4):
            cards = [c for c in self if c.suit == suit]
            if cards:
                groups.append(SUIT_SYMBOLS[suit] + " " + " ".join(RANK_PRETTY[c.rank] for c in cards))
        return "  ".join(groups) if groups else "—"

    def __str__(self) -> str:
        return " ".join(self.codes())

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"
