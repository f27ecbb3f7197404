"""Actions: small frozen, interned value types with one canonical text form.

Every action has a stable integer ``id`` (0–1087) for fast tables and learning
code: plays are the card index 0–31, then pass, bids, trumps, surrender, whist,
and discards ``64 + 32·low + high``.

>>> a = Action.parse("bid glitch")
>>> a, str(a), a.id
(Action.parse('bid clubs'), 'bid clubs', 34)
>>> Action.parse("AH") is Action.play(Card.parse("AH"))
True
>>> str(Action.parse("discard 8D 7D"))
'discard 7D 8D'
>>> Action.from_record({"seat": 1, "type": "bid", "value": "spades"})
(1, Action.parse('bid spades'))
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Final, NamedTuple

from paston.cards import ALL_CARDS, Card
from paston.contracts import Contract
from paston.errors import ParseError, json_kind, json_text


class Kind(StrEnum):
    """The seven action types of a record."""

    BID = "bid"
    PASS = "pass"
    DISCARD = "discard"
    TRUMP = "trump"
    SURRENDER = "surrender"
    WHIST = "whist"
    PLAY = "play"

    def __str__(self) -> str:
        return self.value


PASS_ID: Final = 32
BID_BASE: Final = 33
TRUMP_BASE: Final = 38
SURRENDER_ID: Final = 43
WHIST_ID: Final = 44
DISCARD_BASE: Final = 64
NUM_ACTION_IDS: Final = DISCARD_BASE + 32 * 32


class Action:
    """One action. Build with the class methods or :meth:`parse`; never mutate.

    ``kind`` is a :class:`Kind`; ``contract`` is set for bids and trumps;
    ``cards`` holds the played card (one) or the discard (two, ascending).
    """

    __slots__ = ("cards", "contract", "id", "kind")

    id: int
    kind: Kind
    contract: Contract | None
    cards: tuple[Card, ...]

    @classmethod
    def _make(cls, id_: int, kind: Kind, contract: Contract | None, cards: tuple[Card, ...]) -> Action:
        a = object.__new__(cls)
        object.__setattr__(a, "id", id_)
        object.__setattr__(a, "kind", kind)
        object.__setattr__(a, "contract", contract)
        object.__setattr__(a, "cards", cards)
        return a

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Action is immutable")

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        return (Action.from_id, (self.id,))

    # --- constructors -------------------------------------------------------------
    @staticmethod
    def play(card: Card | int) -> Action:
        """Play a card."""
        return _ACTIONS[int(card)]

    @staticmethod
    def bid(contract: Contract) -> Action:
        """Bid a step of the ladder."""
        return _ACTIONS[BID_BASE + int(contract)]

    @staticmethod
    def trump(contract: Contract) -> Action:
        """Name trump (a contract)."""
        return _ACTIONS[TRUMP_BASE + int(contract)]

    @staticmethod
    def discard(first: Card | int, second: Card | int) -> Action:
        """Discard two different cards (order does not matter)."""
        a, b = int(first), int(second)
        if a == b:
            raise ParseError("parse-action", f"a discard needs two different cards, not {ALL_CARDS[a]} twice")
        lo, hi = (a, b) if a < b else (b, a)
        return _ACTIONS[DISCARD_BASE + 32 * lo + hi]

    @staticmethod
    def from_id(action_id: int) -> Action:
        """The action with this integer id."""
        if type(action_id) is not int or not 0 <= action_id < NUM_ACTION_IDS:
            raise ParseError("parse-action", f"no action has id {action_id!r}")
        found = _ACTIONS[action_id]
        if found is None:
            raise ParseError("parse-action", f"no action has id {action_id!r}")
        return found

    @staticmethod
    def parse(text: str) -> Action:
        """Parse ``pass``, ``bid clubs``, ``discard 7D 8D``, ``trump hearts``,
        ``surrender``, ``whist``, ``play AH`` or a bare card ``AH``.
        """
        if not isinstance(text, str):
            raise ParseError("parse-action", f"cannot parse action {text!r}: not text")
        words = text.replace(",", " ").split()
        if not words:
            raise ParseError("parse-action", "cannot parse an empty action")
        head = words[0].lower()
        rest = words[1:]
        if head in ("pass", "surrender", "whist") and not rest:
            return _ACTIONS[{"pass": PASS_ID, "surrender": SURRENDER_ID, "whist": WHIST_ID}[head]]
        if head in ("bid", "trump") and rest:
            contract = Contract.parse(" ".join(rest))
            return Action.bid(contract) if head == "bid" else Action.trump(contract)
        if head == "play" and len(rest) == 1:
            return Action.play(Card.parse(rest[0]))
        if head == "discard" and len(rest) == 2:
            return Action.discard(Card.parse(rest[0]), Card.parse(rest[1]))
        if len(words) == 1:
            try:
                return Action.play(Card.parse(words[0]))
            except ParseError:
                pass
        raise ParseError(
            "parse-action",
            f"cannot parse action {text!r}: expected pass, bid CONTRACT, discard CARD CARD, "
            "trump CONTRACT, surrender, whist, or play CARD",
        )

    # --- records --------------------------------------------------------------------
    def to_record(self, seat: int) -> dict[str, Any]:
        """The record object of this action by ``seat``."""
        d: dict[str, Any] = {"seat": seat, "type": self.kind.value}
        if self.kind is Kind.BID or self.kind is Kind.TRUMP:
            assert self.contract is not None
            d["value"] = self.contract.name_in_record
        elif self.kind is Kind.PLAY:
            d["card"] = str(self.cards[0])
        elif self.kind is Kind.DISCARD:
            d["cards"] = [str(c) for c in self.cards]
        return d

    @staticmethod
    def from_record(obj: object) -> tuple[int, Action]:
        """Read a record action object; returns ``(seat, action)``. Strict about keys."""
        if not isinstance(obj, dict):
            raise ParseError("parse-action", f"an action must be an object, not {json_kind(obj)}")
        seat = obj.get("seat")
        if type(seat) is not int or not 0 <= seat <= 2:
            raise ParseError("parse-action", f"action seat must be 0, 1 or 2, not {json_text(seat)}")
        kind_text = obj.get("type")
        try:
            kind = Kind(str(kind_text))
        except ValueError:
            raise ParseError("parse-action", f"unknown action type {json_text(kind_text)}") from None
        expected = {"seat", "type"} | _EXTRA_KEY.get(kind, set())
        if set(obj) != expected:
            raise ParseError(
                "parse-action",
                f"a {kind.value} action has keys {sorted(expected)}, not {sorted(obj)}",
            )
        if kind is Kind.BID or kind is Kind.TRUMP:
            value = obj["value"]
            if not isinstance(value, str) or value not in _RECORD_CONTRACTS:
                raise ParseError("parse-contract", f"cannot parse contract {json_text(value)}")
            contract = _RECORD_CONTRACTS[value]
            return seat, Action.bid(contract) if kind is Kind.BID else Action.trump(contract)
        if kind is Kind.PLAY:
            return seat, Action.play(_record_card(obj["card"]))
        if kind is Kind.DISCARD:
            cards = obj["cards"]
            if not isinstance(cards, list) or len(cards) != 2:
                raise ParseError("parse-action", f"a discard has exactly 2 cards, not {json_text(cards)}")
            return seat, Action.discard(_record_card(cards[0]), _record_card(cards[1]))
        return seat, _ACTIONS[{Kind.PASS: PASS_ID, Kind.SURRENDER: SURRENDER_ID, Kind.WHIST: WHIST_ID}[kind]]

    # --- text -------------------------------------------------------------------------
    def __str__(self) -> str:
        k = self.kind
        if k is Kind.BID or k is Kind.TRUMP:
            assert self.contract is not None
            return f"{k.value} {self.contract.name_in_record}"
        if k is Kind.PLAY:
            return f"play {self.cards[0]}"
        if k is Kind.DISCARD:
            return f"discard {self.cards[0]} {self.cards[1]}"
        return k.value

    def pretty(self) -> str:
        """For people: ``bid glitch (♣)``, ``play 10♥``, ``discard 7♦ 8♦``."""
        k = self.kind
        if k is Kind.BID or k is Kind.TRUMP:
            assert self.contract is not None
            return f"{k.value} {self.contract.pretty()}"
        if k is Kind.PLAY:
            return f"play {self.cards[0].pretty()}"
        if k is Kind.DISCARD:
            return f"discard {self.cards[0].pretty()} {self.cards[1].pretty()}"
        return k.value

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    def __hash__(self) -> int:
        return self.id

    def __eq__(self, other: object) -> bool:
        return self is other

    def __lt__(self, other: Action) -> bool:
        return self.id < other.id


def _record_card(value: object) -> Card:
    if not isinstance(value, str) or value not in _RECORD_CARDS:
        raise ParseError("parse-card", f"cannot parse card {json_text(value)}: records use codes like 'TH'")
    return _RECORD_CARDS[value]


_EXTRA_KEY: dict[Kind, set[str]] = {
    Kind.BID: {"value"},
    Kind.TRUMP: {"value"},
    Kind.PLAY: {"card"},
    Kind.DISCARD: {"cards"},
}
_RECORD_CONTRACTS = {c.name_in_record: c for c in Contract}
_RECORD_CARDS = {str(c): c for c in ALL_CARDS}

_ACTIONS: list[Action] = [None] * NUM_ACTION_IDS  # type: ignore[list-item]  # unused ids stay None
for _i in range(32):
    _ACTIONS[_i] = Action._make(_i, Kind.PLAY, None, (ALL_CARDS[_i],))
_ACTIONS[PASS_ID] = Action._make(PASS_ID, Kind.PASS, None, ())
for _c in Contract:
    _ACTIONS[BID_BASE + _c] = Action._make(BID_BASE + _c, Kind.BID, _c, ())
    _ACTIONS[TRUMP_BASE + _c] = Action._make(TRUMP_BASE + _c, Kind.TRUMP, _c, ())
_ACTIONS[SURRENDER_ID] = Action._make(SURRENDER_ID, Kind.SURRENDER, None, ())
_ACTIONS[WHIST_ID] = Action._make(WHIST_ID, Kind.WHIST, None, ())
for _lo in range(32):
    for _hi in range(_lo + 1, 32):
        _id = DISCARD_BASE + 32 * _lo + _hi
        _ACTIONS[_id] = Action._make(_id, Kind.DISCARD, None, (ALL_CARDS[_lo], ALL_CARDS[_hi]))

PASS: Final = Action.from_id(PASS_ID)
SURRENDER: Final = Action.from_id(SURRENDER_ID)
WHIST: Final = Action.from_id(WHIST_ID)
PLAYS: Final[tuple[Action, ...]] = tuple(Action.from_id(i) for i in range(32))
BIDS: Final[tuple[Action, ...]] = tuple(Action.bid(c) for c in Contract)
TRUMPS: Final[tuple[Action, ...]] = tuple(Action.trump(c) for c in Contract)


class Event(NamedTuple):
    """An applied action: who did what. The list of events is a deal's log."""

    seat: int
    action: Action

    def to_record(self) -> dict[str, Any]:
        """The record object of this event."""
        return self.action.to_record(self.seat)
