"""How the full-screen app draws cards, seats, the ladder and a deal's end: Rich text in
the player's language (:class:`~paston.tui.words.Words`), no widgets.

>>> en = Words("en")
>>> card_text(Card.parse("AH"), en).plain, card_text(Card.parse("10S"), Words("ru")).plain
('A♥', '10♠')
>>> str(card_text(Card.parse("7D"), en, four_colour=True).style)
'bold bright_blue'
>>> [c.pretty() for c in by_suit(CardSet.parse("7H AS 9S 8C"))]
['A♠', '9♠', '8♣', '7♥']
>>> role_of(Role.DECLARER, 6, 4, en)
'declarer · tricks 4 of 6'
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum

from rich.text import Text

from paston.actions import Kind
from paston.cards import Card, CardSet
from paston.contracts import Contract
from paston.phases import Phase
from paston.result import Outcome
from paston.scoring import DECLARER_NEEDS, whist_quota
from paston.summary import DealSummary
from paston.tui.words import Words
from paston.views import DealView

__all__ = [
    "Role",
    "by_suit",
    "card_text",
    "cards_text",
    "deal_end_lines",
    "fan",
    "ladder_lines",
    "last_said",
    "needs",
    "role_of",
    "seat_role",
]

#: Two colours: red hearts and diamonds. Four colours (the web's four-colour deck): each suit its own.
_TWO = ("bold", "bold", "bold red", "bold red")
_FOUR = ("bold", "bold green", "bold bright_blue", "bold red")


def card_text(card: Card, words: Words, *, four_colour: bool = False) -> Text:
    """A card as coloured text (``A♥`` in red; ``Т♥`` in Russian)."""
    return Text(words.card(card), style=(_FOUR if four_colour else _TWO)[card.suit])


def cards_text(cards: Iterable[Card], words: Words, *, four_colour: bool = False) -> Text:
    """Cards in a row, each in its colour."""
    out = Text()
    for i, card in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(card_text(card, words, four_colour=four_colour))
    return out


def by_suit(cards: CardSet) -> list[Card]:
    """A hand sorted for showing: by suit (♠ ♣ ♦ ♥), high to low."""
    return list(cards)


def fan(count: int) -> str:
    """The backs of an opponent's cards, one mark per card."""
    return "▮" * count


class Role(Enum):
    """What a seat is doing in the deal, by the key of its word."""

    BIDDING = "term_bidding"
    PASSED = "endRole_passed"
    DECLARER = "endRole_declarer"
    DEFENDER = "endRole_defender"
    LONE_DEFENDER = "endRole_lone-defender"


def seat_role(view: DealView, seat: int) -> Role:
    """The seat's part in the deal as its view shows it."""
    if view.declarer is not None:
        if seat == view.declarer:
            return Role.DECLARER
        if seat in view.defenders:
            return (
                Role.LONE_DEFENDER if len(view.defenders) == 1 and view.phase >= Phase.PLAY else Role.DEFENDER
            )
        return Role.PASSED
    if view.phase is Phase.AUCTION and view.in_auction[seat]:
        return Role.BIDDING
    return Role.PASSED


def needs(view: DealView, seat: int) -> int | None:
    """The tricks the seat needs in the card play (R6.3, R5.2), or ``None``."""
    if view.phase not in (Phase.PLAY, Phase.OVER) or view.declarer is None:
        return None
    if seat == view.declarer:
        return DECLARER_NEEDS
    if seat in view.defenders:
        return whist_quota(lone=len(view.defenders) == 1)
    return None


def role_of(role: Role, need: int | None, tricks: int, words: Words) -> str:
    """The seat's role and its tricks against what it needs, in a few words."""
    if need is None:
        return words(role.value) if tricks == 0 else f"{words(role.value)} · {words('tricksShort', n=tricks)}"
    return f"{words(role.value)} · {words('tricksOfNeeded', n=tricks, need=need)}"


def last_said(view: DealView, seat: int, words: Words) -> str | None:
    """What the seat said last in the auction or the whist round (``Bid gupa (♥)``)."""
    for event in reversed(view.history):
        if (
            event.seat == seat
            and event.action is not None
            and event.kind in (Kind.BID, Kind.PASS, Kind.WHIST)
        ):
            phase = Phase.DEFENCE if event.kind is Kind.WHIST or view.declarer is not None else Phase.AUCTION
            return words.action(event.action, phase)
    return None


def ladder_lines(words: Words) -> list[str]:
    """The ladder's words explained (R3.1, R7): each step, its trump and multiplier."""
    lines = [words("term_ladderTitle")]
    for contract in Contract:
        word = words.game[contract.name_in_record]
        if contract is Contract.BEST_SPADES:
            lines.append(
                "  "
                + words(
                    "term_ladderBest",
                    word=word,
                    symbol="★",
                    m=contract.multiplier,
                    spades=words.game["spades"],
                )
            )
        else:
            lines.append(
                "  "
                + words(
                    "term_ladderStep",
                    word=word,
                    symbol=contract.symbol,
                    suit=contract.symbol,
                    m=contract.multiplier,
                )
            )
    lines.append(words("term_needs"))
    return lines


def deal_end_lines(s: DealSummary, names: tuple[str, str, str], words: Words, target: int) -> list[str]:
    """A finished deal told as the web's end panel tells it: the outcome, each seat's role,
    tricks against what it needed, score with the rule's words and new total, and the
    cards as dealt (the deck is no longer secret)."""
    if s.redeal is not None:
        return [words(f"redeal_{s.redeal}")]
    assert s.outcome is not None and s.declarer is not None
    name = names[s.declarer]
    contract = "" if s.contract is None else words.contract(s.contract)
    if s.outcome is Outcome.SURRENDER:
        head = words("endSurrender", name=name)
    elif s.outcome is Outcome.UNCONTESTED:
        head = words("endUncontested", name=name, contract=contract)
    else:
        tricks = s.seats[s.declarer].tricks or 0
        head = words(
            "endMade" if s.made else "endFailed", name=name, contract=contract, tricks=tricks, short=s.short
        )
    out = [head]
    if s.all_passed:
        out.append(words("endAllPassed"))
    width = max(len(n) for n in names)
    for line in s.seats:
        taken = "" if line.tricks is None else words("endTricksOf", n=line.tricks, need=line.needed)
        reason = words(f"scoreLine_{line.words}", **dict(line.params)) if line.words else line.text
        reset = f" ({words('endReset', n=target)})" if line.reset else ""
        out.append(
            f"  {names[line.seat]:>{width}}  {words(f'endRole_{line.role}'):<12} {taken:>8}  "
            f"{line.score:+4d} → {line.total}{reset}  ({line.rule}: {reason})"
        )
    out.append(words("endHands") + ":")
    for line in s.seats:
        out.append(f"  {names[line.seat]:>{width}}: {words.cards(line.hand)}")
    if len(s.prikup):
        out.append(f"  {words.game['prikup']}: {words.cards(s.prikup)}")
    if len(s.discard):
        out.append(f"  {words('endDiscard', name=name)}: {words.cards(s.discard)}")
    return out
