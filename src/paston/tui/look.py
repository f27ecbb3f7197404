"""How the full-screen app draws cards, seats and the ladder: Rich text, no widgets.

>>> card_text(Card.parse("AH")).plain, card_text(Card.parse("10S")).plain
('A♥', '10♠')
>>> str(card_text(Card.parse("7D"), four_colour=True).style)
'bold bright_blue'
>>> [c.pretty() for c in by_suit(CardSet.parse("7H AS 9S 8C"))]
['A♠', '9♠', '8♣', '7♥']
>>> role_of(Role.DECLARER, 6, 4)
'declarer · 4 of 6 tricks'
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum

from rich.text import Text

from paston.actions import Kind
from paston.cards import Card, CardSet
from paston.contracts import Contract
from paston.phases import Phase
from paston.scoring import DECLARER_NEEDS, whist_quota
from paston.views import DealView

__all__ = ["Role", "by_suit", "card_text", "fan", "ladder_lines", "needs", "role_of", "seat_role"]

#: Two colours: red hearts and diamonds. Four colours (the web's four-colour deck): each suit its own.
_TWO = ("bold", "bold", "bold red", "bold red")
_FOUR = ("bold", "bold green", "bold bright_blue", "bold red")


def card_text(card: Card, *, four_colour: bool = False) -> Text:
    """A card as coloured text (``A♥`` in red)."""
    return Text(card.pretty(), style=(_FOUR if four_colour else _TWO)[card.suit])


def cards_text(cards: Iterable[Card], *, four_colour: bool = False, sep: str = " ") -> Text:
    """Cards in a row, each in its colour."""
    out = Text()
    for i, card in enumerate(cards):
        if i:
            out.append(sep)
        out.append_text(card_text(card, four_colour=four_colour))
    return out


def by_suit(cards: CardSet) -> list[Card]:
    """A hand sorted for showing: by suit (♠ ♣ ♦ ♥), high to low."""
    return list(cards)


def fan(count: int) -> str:
    """The backs of an opponent's cards, one mark per card."""
    return "▮" * count


class Role(Enum):
    """What a seat is doing in the deal."""

    BIDDING = "bidding"
    PASSED = "passed"
    DECLARER = "declarer"
    DEFENDER = "whist"
    OUT = "passed whist"


def seat_role(view: DealView, seat: int) -> Role:
    """The seat's part in the deal as its view shows it."""
    if view.declarer is not None:
        if seat == view.declarer:
            return Role.DECLARER
        if view.phase >= Phase.PLAY and seat not in view.defenders:
            return Role.OUT
        if seat in view.defenders:
            return Role.DEFENDER
    if view.phase is Phase.AUCTION and view.in_auction[seat]:
        return Role.BIDDING
    return Role.PASSED if view.declarer is None or seat != view.declarer else Role.DECLARER


def needs(view: DealView, seat: int) -> int | None:
    """The tricks the seat needs in the card play (R6.3, R5.2), or ``None``."""
    if (view.phase is not Phase.PLAY and view.phase is not Phase.OVER) or view.declarer is None:
        return None
    if seat == view.declarer:
        return DECLARER_NEEDS
    if seat in view.defenders:
        return whist_quota(lone=len(view.defenders) == 1)
    return None


def role_of(role: Role, need: int | None, tricks: int) -> str:
    """The seat's role and its tricks against what it needs, in a few words."""
    if need is None:
        return role.value if role is not Role.OUT or tricks == 0 else f"{role.value} · {tricks} tricks"
    return f"{role.value} · {tricks} of {need} tricks"


def last_said(view: DealView, seat: int) -> str | None:
    """What the seat said last in the auction or the whist round (``bid gupa (♥)``)."""
    for event in reversed(view.history):
        if (
            event.seat == seat
            and event.action is not None
            and event.kind in (Kind.BID, Kind.PASS, Kind.WHIST)
        ):
            return event.action.pretty()
    return None


def ladder_lines() -> list[str]:
    """The ladder's words explained (R3.1, R7): each step, its trump and multiplier."""
    lines = ["The ladder, lowest first (bid higher to outbid; R3.1):"]
    for contract in Contract:
        trump = (
            "spades, and it outranks plain paston"
            if contract is Contract.BEST_SPADES
            else (("spades", "clubs", "diamonds", "hearts")[contract.trump_suit])
        )
        lines.append(
            f"  {contract.word:<13} {contract.symbol:<2}  trump {trump}; scores × {contract.multiplier}"
        )
    lines.append(
        f"The declarer needs {DECLARER_NEEDS} of the 10 tricks. A defender who says whist needs "
        f"{whist_quota(lone=False)} tricks when both defend, {whist_quota(lone=True)} when alone."
    )
    return lines
