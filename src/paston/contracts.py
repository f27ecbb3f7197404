"""The bidding ladder and contracts (R3.1, R4.2, R7).

>>> Contract.parse("gupa"), Contract.parse("best-spades").word
(<Contract.HEARTS: 3>, 'paston grkha')
>>> Contract.BEST_SPADES.trump_suit, Contract.DIAMONDS.multiplier
(0, 3)
"""

from __future__ import annotations

from enum import IntEnum

from paston.errors import ParseError


class Contract(IntEnum):
    """A step of the ladder, low to high (R3.1). The value is the step."""

    SPADES = 0
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3
    BEST_SPADES = 4

    @property
    def name_in_record(self) -> str:
        """The name used in records and the API: ``spades`` … ``best-spades``."""
        return _RECORD_NAMES[self]

    @property
    def word(self) -> str:
        """The game's own word: paston, glitch, dineri, gupa, paston grkha."""
        return _WORDS[self]

    @property
    def trump_suit(self) -> int:
        """The trump suit (best spades is played with spades as trump)."""
        return 0 if self is Contract.BEST_SPADES else int(self)

    @property
    def multiplier(self) -> int:
        """The score multiplier m of R7: 1, 2, 3, 4, 4."""
        return _MULTIPLIERS[self]

    @property
    def symbol(self) -> str:
        """Suit symbol, with ``★`` marking best spades."""
        return "♠★" if self is Contract.BEST_SPADES else "♠♣♦♥"[self]

    def pretty(self) -> str:
        """``gupa (♥)``."""
        return f"{self.word} ({self.symbol})"

    def __str__(self) -> str:
        return self.name_in_record

    @classmethod
    def parse(cls, text: str) -> Contract:
        """Accept the record name, the ladder word, or a suit symbol/letter.

        >>> Contract.parse("♦"), Contract.parse("Paston Grkha")
        (<Contract.DIAMONDS: 2>, <Contract.BEST_SPADES: 4>)
        """
        if not isinstance(text, str):
            raise ParseError("parse-contract", f"cannot parse contract {text!r}: not text")
        key = " ".join(text.strip().lower().replace("_", "-").split())
        found = _PARSE.get(key)
        if found is None:
            raise ParseError(
                "parse-contract",
                f"cannot parse contract {text!r}: expected one of "
                "spades, clubs, diamonds, hearts, best-spades "
                "(or paston, glitch, dineri, gupa, paston grkha); there is no no-trump",
            )
        return found


_RECORD_NAMES = {
    Contract.SPADES: "spades",
    Contract.CLUBS: "clubs",
    Contract.DIAMONDS: "diamonds",
    Contract.HEARTS: "hearts",
    Contract.BEST_SPADES: "best-spades",
}
_WORDS = {
    Contract.SPADES: "paston",
    Contract.CLUBS: "glitch",
    Contract.DIAMONDS: "dineri",
    Contract.HEARTS: "gupa",
    Contract.BEST_SPADES: "paston grkha",
}
_MULTIPLIERS = {
    Contract.SPADES: 1,
    Contract.CLUBS: 2,
    Contract.DIAMONDS: 3,
    Contract.HEARTS: 4,
    Contract.BEST_SPADES: 4,
}
_PARSE: dict[str, Contract] = {}
for _c in Contract:
    _PARSE[_RECORD_NAMES[_c]] = _c
    _PARSE[_WORDS[_c]] = _c
    _PARSE[_WORDS[_c].replace(" ", "-")] = _c
for _i, (_letter, _sym) in enumerate(zip("scdh", "♠♣♦♥", strict=True)):
    _PARSE[_letter] = Contract(_i)
    _PARSE[_sym] = Contract(_i)
_PARSE["best spades"] = Contract.BEST_SPADES
_PARSE["bs"] = Contract.BEST_SPADES
_PARSE["♠★"] = Contract.BEST_SPADES

LADDER: tuple[Contract, ...] = tuple(Contract)

_ORDINARY = (Contract.SPADES, Contract.CLUBS, Contract.DIAMONDS, Contract.HEARTS)


def allowed_trumps(bid: Contract | None) -> tuple[Contract, ...]:
    """R4.2: the contracts the declarer may name after winning the auction with ``bid``
    (``None`` after an all-pass auction, R3.4): the bid suit or any higher ordinary suit;
    best spades only when it was bid, and then nothing else.

    >>> [c.name_in_record for c in allowed_trumps(Contract.DIAMONDS)]
    ['diamonds', 'hearts']
    >>> allowed_trumps(None) == _ORDINARY, allowed_trumps(Contract.BEST_SPADES)
    (True, (<Contract.BEST_SPADES: 4>,))
    """
    if bid is None:
        return _ORDINARY
    if bid is Contract.BEST_SPADES:
        return (Contract.BEST_SPADES,)
    return _ORDINARY[bid:]
