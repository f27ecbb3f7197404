"""What a seat knows, inferred from its view only: known cards, voids, hidden slots,
and random worlds (deals of the hidden cards) consistent with all of it.

>>> import random
>>> from paston.deal import Deal
>>> deal = Deal.random(random.Random(3), dealer=0)
>>> know = Knowledge.from_view(deal.view(1))
>>> [slot.size for slot in know.slots], know.unknown.bit_count()
([10, 10, 2], 22)
>>> world = know.sample(random.Random(0))
>>> world[1] == deal.hand_mask(1), bin(world[0] | world[2] | world[3]).count("1")
(True, 22)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from paston.cards import FULL_DECK_MASK, SUIT_MASKS
from paston.views import DealView

PRIKUP_SLOT = 3  # index in a world: hands of seats 0, 1, 2, then the hidden talon cards
World = tuple[int, int, int, int]
"""A world: the hands of seats 0, 1, 2 and the hidden talon cards, as card masks."""
WorldSampler = Callable[[DealView, int, random.Random], list[World]]
"""Draws ``n`` worlds for a seat's view with a random generator (pimc's pluggable sampler)."""


@dataclass(frozen=True, slots=True)
class Slot:
    """A place hidden cards may be: a seat's hand (``owner`` 0–2) or the talon
    (``owner`` 3: the prikup before it is taken, or another seat's discard)."""

    owner: int
    size: int
    void_mask: int  # cards this slot cannot hold (suits its owner showed void in)


def voids_from_view(view: DealView) -> tuple[int, int, int]:
    """Per seat, a mask of the suits it has shown void in (R6.2: not following shows a
    void in the led suit; not trumping as well shows a void in trumps)."""
    voids = [0, 0, 0]
    trump = view.contract.trump_suit if view.contract is not None else None
    tricks = [t.plays for t in view.completed_tricks]
    if view.current_trick:
        tricks.append(view.current_trick)
    for plays in tricks:
        lead = plays[0][1].suit
        for seat, card in plays[1:]:
            if card.suit != lead:
                voids[seat] |= SUIT_MASKS[lead]
                if trump is not None and card.suit != trump:
                    voids[seat] |= SUIT_MASKS[trump]
    return voids[0], voids[1], voids[2]


@dataclass(frozen=True, slots=True)
class Knowledge:
    """A seat's knowledge: its own cards, every card it has seen, and where the other
    cards may be."""

    seat: int
    hand: int
    known: int  # cards whose place this seat knows (own hand, played, own talon cards)
    unknown: int  # the rest: hidden in the slots
    slots: tuple[Slot, ...]
    voids: tuple[int, int, int]

    @classmethod
    def from_view(cls, view: DealView) -> Knowledge:
        """Build from a seat's view (never from the full state)."""
        if view.seat is None:
            raise ValueError("knowledge needs a seat's view, not the public view")
        seat = view.seat
        hand = view.hand.mask
        known = hand | view.played.mask
        if view.prikup is not None:
            known |= view.prikup.mask
        if view.discard is not None:
            known |= view.discard.mask
        voids = voids_from_view(view)
        slots = [Slot(s, view.hand_sizes[s], voids[s]) for s in range(3) if s != seat]
        unknown_count = (FULL_DECK_MASK & ~known).bit_count()
        # the untaken prikup, or another seat's discard
        talon_hidden = unknown_count - sum(s.size for s in slots)
        if talon_hidden:
            slots.append(Slot(PRIKUP_SLOT, talon_hidden, 0))
        unknown = FULL_DECK_MASK & ~known
        if sum(s.size for s in slots) != unknown.bit_count():
            raise ValueError("the view is inconsistent: hidden slots do not match unknown cards")
        return cls(seat, hand, known, unknown, tuple(slots), voids)

    def sample(self, rng: random.Random, attempts: int = 200) -> tuple[int, int, int, int]:
        """A random world: the hands of seats 0–2 and the hidden talon cards (masks),
        consistent with this knowledge (sizes and voids)."""
        cards = [i for i in range(32) if self.unknown >> i & 1]
        slots = sorted(self.slots, key=lambda s: -s.void_mask.bit_count())
        for _ in range(attempts):
            rng.shuffle(cards)
            world = self._fill(cards, slots, rng)
            if world is not None:
                return world
        world = self._fill_exact(cards, slots)
        if world is None:
            raise ValueError("no world is consistent with this view")
        return world

    def _base(self) -> list[int]:
        out = [0, 0, 0, 0]
        out[self.seat] = self.hand
        return out

    def _fill(
        self, cards: list[int], slots: list[Slot], rng: random.Random
    ) -> tuple[int, int, int, int] | None:
        out = self._base()
        room = [s.size for s in slots]
        for c in cards:
            bit = 1 << c
            choices = [i for i, s in enumerate(slots) if room[i] and not s.void_mask & bit]
            if not choices:
                return None
            # weight by room left so free slots fill evenly
            total = sum(room[i] for i in choices)
            pick = rng.randrange(total)
            for i in choices:
                pick -= room[i]
                if pick < 0:
                    break
            room[i] -= 1
            out[slots[i].owner] |= bit
        return out[0], out[1], out[2], out[3]

    def _fill_exact(self, cards: list[int], slots: list[Slot]) -> tuple[int, int, int, int] | None:
        """Backtracking fill (rarely needed: when random fills keep failing)."""
        out = self._base()
        room = [s.size for s in slots]
        order = sorted(cards)

        def place(k: int) -> bool:
            if k == len(order):
                return True
            bit = 1 << order[k]
            for i, s in enumerate(slots):
                if room[i] and not s.void_mask & bit:
                    room[i] -= 1
                    out[s.owner] |= bit
                    if place(k + 1):
                        return True
                    room[i] += 1
                    out[s.owner] &= ~bit
            return False

        return (out[0], out[1], out[2], out[3]) if place(0) else None

    def consistent(self, world: tuple[int, int, int, int]) -> bool:
        """Whether a world agrees with this knowledge (used by tests)."""
        if world[self.seat] != self.hand:
            return False
        if not any(slot.owner == PRIKUP_SLOT for slot in self.slots) and world[PRIKUP_SLOT]:
            return False
        placed = 0
        for slot in self.slots:
            m = world[slot.owner]
            if slot.owner != self.seat and (m.bit_count() != slot.size or m & slot.void_mask):
                return False
            placed |= m
        return placed & ~self.hand == self.unknown


def uniform_worlds(view: DealView, n: int, rng: random.Random) -> list[World]:
    """``n`` worlds drawn uniformly among those consistent with the view (pimc's default
    :data:`WorldSampler`; :mod:`paston.bots.inference` weights them by the actions seen)."""
    know = Knowledge.from_view(view)
    return [know.sample(rng) for _ in range(n)]
