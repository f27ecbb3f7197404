"""Play positions for the double-dummy solver: every active hand visible.

>>> from paston.cards import CardSet
>>> pos = Position.from_text(hands=["AS KS", "QS JS", "TS 9S"], trump="hearts", declarer=0, leader=0)
>>> pos.to_move, pos.cards_left, pos.active
(0, 2, (0, 1, 2))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from paston.cards import ALL_CARDS, SUIT_MASKS, SUIT_NAMES, Card, CardSet
from paston.contracts import Contract
from paston.deal import Deal, Phase
from paston.errors import PastonError
from paston.tricks import playable


class PositionError(PastonError, ValueError):
    """A position that cannot arise in Paston (duplicate cards, unequal hands, a revoke…)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _suit_of_trump(trump: int | str | Contract) -> tuple[int, Contract]:
    if isinstance(trump, Contract):
        return trump.trump_suit, trump
    if isinstance(trump, str):
        c = Contract.parse(trump)
        return c.trump_suit, c
    if type(trump) is int and 0 <= trump <= 3:
        return trump, Contract(trump)
    raise PositionError("bad-trump", f"trump must be a suit 0-3 or a contract, not {trump!r}")


@dataclass(frozen=True, slots=True)
class Position:
    """A position in the play of a deal.

    ``hands`` are the current cards of seats 0, 1, 2 (a passer's hand is empty: it is out
    of play); ``defenders`` the seats that said whist; ``leader`` led the trick in
    progress, whose cards so far are ``trick`` (in order of play); ``tricks`` are the
    tricks taken so far by each seat; ``contract`` gives trump and, for scores, the
    multiplier (best spades is played with spades as trump).
    """

    hands: tuple[int, int, int]
    contract: Contract
    declarer: int
    defenders: tuple[int, ...]
    leader: int
    trick: tuple[int, ...] = ()
    tricks: tuple[int, int, int] = (0, 0, 0)

    def __post_init__(self) -> None:
        self._validate()

    # --- construction -------------------------------------------------------------------
    @classmethod
    def from_text(
        cls,
        *,
        hands: Sequence[str],
        trump: str | int | Contract,
        declarer: int,
        leader: int,
        defenders: Sequence[int] | None = None,
        trick: str = "",
        tricks: Sequence[int] = (0, 0, 0),
    ) -> Position:
        """Build from card text: ``hands=["AS KS", "QS JS", ""]``. Without ``defenders``,
        the seats other than the declarer that hold cards defend (an empty hand is the
        passer's)."""
        if (
            not isinstance(hands, (list, tuple))
            or len(hands) != 3
            or not all(isinstance(h, str) for h in hands)
        ):
            raise PositionError(
                "bad-hands", "give three hands as text (seats 0, 1, 2); an empty one for a passer"
            )
        if not isinstance(tricks, (list, tuple)) or len(tricks) != 3:
            raise PositionError("bad-tricks", "tricks taken must be three counts (seats 0, 1, 2)")
        masks = tuple(CardSet.parse(h).mask for h in hands)
        _, contract = _suit_of_trump(trump)
        if not isinstance(trick, str):
            raise PositionError("bad-trick", "the trick is given as text, e.g. 'KH 9H'")
        trick_cards = tuple(Card.parse(t).index for t in trick.replace(",", " ").split())
        if defenders is None:
            defenders = tuple(s for s in range(3) if s != declarer and masks[s])
        return cls(
            hands=(masks[0], masks[1], masks[2]),
            contract=contract,
            declarer=declarer,
            defenders=tuple(defenders) if isinstance(defenders, (list, tuple)) else defenders,  # type: ignore[arg-type]
            leader=leader,
            trick=trick_cards,
            tricks=(tricks[0], tricks[1], tricks[2]),
        )

    @classmethod
    def from_deal(cls, deal: Deal) -> Position:
        """The position of a deal in its play phase."""
        if deal.phase is not Phase.PLAY:
            raise PositionError("not-in-play", f"the deal is in phase {deal.phase.name}, not PLAY")
        current = deal.current_trick
        leader = current[0][0] if current else deal.to_move
        assert leader is not None and deal.declarer is not None and deal.contract is not None
        hands = tuple(deal.hand_mask(s) if s in deal.active else 0 for s in range(3))
        return cls(
            hands=(hands[0], hands[1], hands[2]),
            contract=deal.contract,
            declarer=deal.declarer,
            defenders=deal.defenders,
            leader=leader,
            trick=tuple(c.index for _, c in current),
            tricks=deal.tricks,
        )

    # --- derived ----------------------------------------------------------------------
    @property
    def trump(self) -> int:
        """The trump suit 0–3."""
        return self.contract.trump_suit

    @property
    def active(self) -> tuple[int, ...]:
        """The seats that play, in seat order."""
        return tuple(sorted((self.declarer, *self.defenders)))

    def next_seat(self, seat: int) -> int:
        """The next active seat clockwise."""
        s = (seat + 1) % 3
        while s not in self.active:
            s = (s + 1) % 3
        return s

    @property
    def to_move(self) -> int:
        """The seat to play."""
        seat = self.leader
        for _ in self.trick:
            seat = self.next_seat(seat)
        return seat

    @property
    def cards_left(self) -> int:
        """Cards each active player held when the current trick began."""
        return self.hands[self.leader].bit_count() + (1 if self.trick else 0)

    def legal_cards(self) -> tuple[int, ...]:
        """The legal cards of the player to move (R6.2), as card indices."""
        allowed = playable(self.hands[self.to_move], self.trick[0] >> 3 if self.trick else None, self.trump)
        return tuple(i for i in range(32) if allowed >> i & 1)

    # --- validation -------------------------------------------------------------------
    def _validate(self) -> None:
        if not isinstance(self.contract, Contract):
            raise PositionError("bad-trump", f"contract must be a Contract, not {self.contract!r}")
        if not isinstance(self.hands, tuple) or len(self.hands) != 3:
            raise PositionError("bad-hands", "hands must be three card masks (seats 0, 1, 2)")
        if not isinstance(self.tricks, tuple) or len(self.tricks) != 3:
            raise PositionError("bad-tricks", "tricks taken must be three counts (seats 0, 1, 2)")
        if not isinstance(self.trick, tuple) or not isinstance(self.defenders, tuple):
            raise PositionError("bad-trick", "defenders and the trick must be tuples")
        if type(self.declarer) is not int or self.declarer not in (0, 1, 2):
            raise PositionError("bad-seat", f"declarer must be seat 0, 1 or 2, not {self.declarer!r}")
        if type(self.leader) is not int:
            raise PositionError("bad-leader", f"the leader must be a seat number, not {self.leader!r}")
        if any(type(d) is not int for d in self.defenders):
            raise PositionError("bad-defenders", "defenders must be seat numbers")
        defs = self.defenders
        if (
            not 1 <= len(defs) <= 2
            or len(set(defs)) != len(defs)
            or any(d not in (0, 1, 2) or d == self.declarer for d in defs)
        ):
            raise PositionError("bad-defenders", "one or two defenders, other seats than the declarer (R5.2)")
        active = self.active
        if self.leader not in active:
            raise PositionError(
                "bad-leader", f"the leader must be an active seat {active}, not {self.leader!r}"
            )
        seen = 0
        for s in range(3):
            h = self.hands[s]
            if type(h) is not int or not 0 <= h < 1 << 32:
                raise PositionError("bad-hands", f"hand of seat {s} is not a card mask")
            if h & seen:
                raise PositionError("duplicate-card", f"card {CardSet(h & seen)} is in two hands")
            seen |= h
            if s not in active and h:
                raise PositionError(
                    "passer-cards", f"seat {s} passed: its hand is out of play (R5.2) and must be empty"
                )
        if len(self.trick) >= len(active):
            raise PositionError("bad-trick", "the trick in progress has too many cards")
        for c in self.trick:
            if type(c) is not int or not 0 <= c < 32:
                raise PositionError("bad-trick", f"bad card in the trick: {c!r}")
            if seen >> c & 1:
                raise PositionError(
                    "duplicate-card", f"card {ALL_CARDS[c]} is both in a hand and in the trick"
                )
            seen |= 1 << c
        # hand sizes: those who played to the trick hold one card fewer
        seat = self.leader
        order = []
        for _ in active:
            order.append(seat)
            seat = self.next_seat(seat)
        n = self.hands[order[-1]].bit_count()
        for i, s in enumerate(order):
            expected = n - 1 if i < len(self.trick) else n
            if self.hands[s].bit_count() != expected:
                raise PositionError(
                    "unequal-hands",
                    f"seat {s} holds {self.hands[s].bit_count()} cards but should hold {expected}",
                )
        if n == 0:
            raise PositionError("no-cards", "there is nothing left to play")
        if len(self.tricks) != 3 or any(type(t) is not int or t < 0 for t in self.tricks):
            raise PositionError("bad-tricks", "tricks taken must be three counts")
        if sum(self.tricks) + n > 10:
            raise PositionError("bad-tricks", "tricks taken plus tricks to play exceed 10")
        for s in range(3):
            if s not in active and self.tricks[s]:
                raise PositionError("bad-tricks", f"seat {s} passed and cannot have taken tricks")
        # revokes in the trick (R6.2): a card off the led suit while still holding it, or a
        # non-trump while holding trump and none of the led suit
        if self.trick:
            lead = self.trick[0] >> 3
            trump = self.trump
            for i, c in enumerate(self.trick[1:], start=1):
                s = order[i]
                hand = self.hands[s]
                if playable(hand | 1 << c, lead, trump) >> c & 1:
                    continue
                if hand & SUIT_MASKS[lead]:
                    raise PositionError(
                        "revoke", f"R6.2: seat {s} played {ALL_CARDS[c]} but still holds {SUIT_NAMES[lead]}"
                    )
                raise PositionError(
                    "revoke",
                    f"R6.2: seat {s} played {ALL_CARDS[c]} but had to trump (holds {SUIT_NAMES[trump]})",
                )
