"""What a person types, read as an action of the current phase.

People do not type record text. At a prompt they write ``clubs`` for a bid in the
auction and for trump after the discard, ``AH`` or ``10♥`` for a card, two cards (or
two numbers from the listed hand) for a discard, or the number of one of the listed
choices. :func:`parse_typed` reads all of that, and the canonical text of every action
(``bid clubs``, ``play AH``, ``discard 7D 8D``) and its pretty form (``bid glitch (♣)``,
``play 10♥``) in any phase. It only reads: whether the action is legal is the deal's
question (``why_illegal``), so a user interface can report the rule.

>>> import random
>>> from paston.deal import Deal
>>> deal = Deal.random(random.Random(3), dealer=0)
>>> view = deal.view(deal.to_move)
>>> parse_typed("spades", view), parse_typed("2", view, choices=view.legal_actions)
(Action.parse('bid spades'), Action.parse('bid spades'))
>>> parse_typed("-1", view, choices=view.legal_actions)
Traceback (most recent call last):
...
paston.errors.ParseError: choose a number from 1 to 2, not -1
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from paston.actions import PASS, SURRENDER, WHIST, Action
from paston.cards import Card
from paston.contracts import LADDER, Contract
from paston.errors import ParseError
from paston.phases import Phase

if TYPE_CHECKING:
    from paston.views import DealView

_NUMBER = re.compile(r"[+-]?[0-9]+", flags=re.ASCII)
_PRETTY_CONTRACT = re.compile(r"(.+?)\s*\(([^()]*)\)")
_REVERSED_CARD = re.compile(r"([SCDH♠♣♦♥])(10|[789TJQKA])", flags=re.IGNORECASE)
_WORDS = {"pass": PASS, "whist": WHIST, "surrender": SURRENDER}
_KEYWORDS = frozenset({"pass", "whist", "surrender", "bid", "trump", "play", "discard"})
_CONTRACTS = ", ".join(c.name_in_record for c in LADDER)

_EXPECTED = {
    Phase.AUCTION: f"in the auction type pass, a contract ({_CONTRACTS}) or the number of a choice",
    Phase.DISCARD: "give two cards to discard: codes such as 7D 8D, or two numbers from the listed cards",
    Phase.TRUMP: f"name trump ({_CONTRACTS}), or surrender, or type the number of a choice",
    Phase.DEFENCE: "say whist or pass, or type the number of a choice",
    Phase.PLAY: "type a card, rank then suit (AH, 10♥, 8D), or the number of a choice",
}
_OTHER = "type pass, bid CONTRACT, discard CARD CARD, trump CONTRACT, surrender, whist or a card"


def parse_typed(
    text: str,
    view: DealView,
    *,
    choices: Sequence[Action] | None = None,
    cards: Sequence[Card] | None = None,
) -> Action:
    """The action ``text`` means in ``view``'s phase; :class:`ParseError` if it means none.

    ``choices`` is the numbered list shown to the person (``1`` is the first); ``cards``
    the numbered cards shown at the discard (by default the hand, in display order), where
    two numbers pick two cards and one number picks from ``choices``. The action is not
    checked against the rules.

    >>> import random
    >>> from paston.deal import Deal
    >>> deal = Deal.random(random.Random(3), dealer=0)
    >>> view = deal.view(deal.to_move)
    >>> parse_typed("bid glitch (♣)", view), parse_typed("play 10♥", view), parse_typed("WHIST", view)
    (Action.parse('bid clubs'), Action.parse('play TH'), Action.parse('whist'))
    """
    if not isinstance(text, str):
        raise ParseError("parse-typed", f"cannot read {text!r}: not text")
    words = text.replace(",", " ").split()
    phase = view.phase
    if not words:
        raise ParseError("parse-typed", f"nothing typed: {_EXPECTED.get(phase, _OTHER)}")
    head = words[0].lower()
    if len(words) == 1 and _NUMBER.fullmatch(words[0]) and (choices or phase is not Phase.DISCARD):
        return _choice(words[0], choices)
    if phase is Phase.DISCARD and (head == "discard" or head not in _KEYWORDS):
        return _discard(words, tuple(view.hand) if cards is None else cards)
    if head in _KEYWORDS:
        return _keyword(head, words[1:], text)
    if phase in (Phase.AUCTION, Phase.TRUMP):
        contract = _contract(text)
        return Action.bid(contract) if phase == Phase.AUCTION else Action.trump(contract)
    if len(words) == 1:
        try:
            return Action.play(Card.parse(words[0]))
        except ParseError:
            raise ParseError("parse-card", _card_problem(words[0], phase)) from None
    joined = "".join(words)
    if len(words) == 2 and _is_card(joined):
        raise ParseError(
            "parse-card",
            f"cannot parse {text!r}: write a card as one word, e.g. '{Card.parse(joined)}' for "
            f"{Card.parse(joined).pretty()}",
        )
    raise ParseError("parse-typed", f"cannot parse {text!r}: {_EXPECTED.get(phase, _OTHER)}")


def _choice(word: str, choices: Sequence[Action] | None) -> Action:
    if not choices:
        raise ParseError("parse-choice", f"{word!r} picks nothing: no numbered choices are listed")
    if len(word.lstrip("+-")) <= 6:
        k = int(word)
        if 1 <= k <= len(choices):
            return choices[k - 1]
    raise ParseError("parse-choice", f"choose a number from 1 to {len(choices)}, not {word}")


def _keyword(head: str, rest: list[str], text: str) -> Action:
    if head in _WORDS:
        if rest:
            raise ParseError("parse-action", f"cannot parse action {text!r}: {head} takes nothing after it")
        return _WORDS[head]
    if not rest:
        example = {
            "bid": "bid spades",
            "trump": "trump hearts",
            "play": "play AH",
            "discard": "discard 7D 8D",
        }
        raise ParseError(
            "parse-action", f"cannot parse action {text!r}: say what to {head}, e.g. '{example[head]}'"
        )
    if head in ("bid", "trump"):
        contract = _contract(" ".join(rest))
        return Action.bid(contract) if head == "bid" else Action.trump(contract)
    if head == "play":
        if len(rest) != 1:
            raise ParseError("parse-action", f"cannot parse action {text!r}: play one card, e.g. 'play AH'")
        return Action.play(_card(rest[0]))
    if len(rest) != 2:
        raise ParseError("parse-action", "give exactly two cards to discard")
    return Action.discard(_card(rest[0]), _card(rest[1]))


def _discard(words: list[str], cards: Sequence[Card]) -> Action:
    if words[0].lower() == "discard":
        words = words[1:]
    if len(words) != 2:
        raise ParseError("parse-action", "give exactly two cards to discard")
    picked = []
    for word in words:
        if _NUMBER.fullmatch(word):
            k = int(word) if len(word.lstrip("+-")) <= 6 else 0
            if not 1 <= k <= len(cards):
                raise ParseError("parse-choice", f"choose numbers from 1 to {len(cards)}, not {word}")
            picked.append(cards[k - 1])
        else:
            picked.append(_card(word))
    return Action.discard(picked[0], picked[1])


def _contract(text: str) -> Contract:
    """A contract by any name, or in its pretty form ``gupa (♥)``."""
    pretty = _PRETTY_CONTRACT.fullmatch(text.strip())
    if pretty is not None:
        try:
            word, symbol = Contract.parse(pretty.group(1)), Contract.parse(pretty.group(2))
        except ParseError:
            pass
        else:
            if word is symbol:
                return word
    return Contract.parse(text)


def _card(word: str) -> Card:
    try:
        return Card.parse(word)
    except ParseError:
        raise ParseError("parse-card", _card_problem(word, Phase.DISCARD)) from None


def _is_card(word: str) -> bool:
    try:
        Card.parse(word)
    except ParseError:
        return False
    return True


def _card_problem(word: str, phase: Phase) -> str:
    reversed_ = _REVERSED_CARD.fullmatch(word.strip())
    if reversed_ is not None:
        card = Card.parse(reversed_.group(2) + reversed_.group(1))
        return (
            f"cannot parse card {word!r}: write the rank before the suit, e.g. '{card}' for {card.pretty()}"
        )
    if phase == Phase.PLAY or phase == Phase.DISCARD:
        return (
            f"cannot parse card {word!r}: a card is a rank (7 8 9 10 J Q K A) then a suit "
            "(S C D H or ♠ ♣ ♦ ♥), e.g. AH or 10♥"
        )
    return f"cannot parse {word!r}: {_EXPECTED.get(phase, _OTHER)}"
