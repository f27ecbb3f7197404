"""Helpers for the solver tests: seeded random play positions and card relabelling.

``random_position`` builds a legal position of the play (R6) from a ``random.Random``:
equal hands for the active seats, an empty hand for a passer, a trick in progress
whose cards follow R6.2, and tricks taken so far that make a 10-trick deal (so that
max^n applies). The legality rule is written out here from RULES.md R6.2 on purpose,
not taken from the engine.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from paston.contracts import Contract
from paston.solver import Position

SUIT = 0xFF


def suit_mask(suit: int) -> int:
    return SUIT << (8 * suit)


def legal_mask(hand: int, trick: list[int] | tuple[int, ...], trump: int) -> int:
    """R6.2: follow suit; else trump if you can; else anything."""
    if trick:
        follow = hand & suit_mask(trick[0] >> 3)
        if follow:
            return follow
        trumps = hand & suit_mask(trump)
        if trumps:
            return trumps
    return hand


def cards_of(mask: int) -> list[int]:
    return [c for c in range(32) if mask >> c & 1]


def play_order(leader: int, active: list[int] | tuple[int, ...]) -> list[int]:
    """Active seats clockwise from the leader (R0.1, R6.1)."""
    order = [leader]
    while len(order) < len(active):
        s = (order[-1] + 1) % 3
        while s not in active:
            s = (s + 1) % 3
        order.append(s)
    return order


def random_position(
    rng: random.Random,
    *,
    cards: int | None = None,
    three_hand: bool | None = None,
    contract: Contract | None = None,
    trick_len: int | None = None,
    full: bool = True,
) -> Position:
    """A random legal position with ``cards`` cards per active hand at the start of the
    current trick (1-5 if not given). ``trick_len`` cards are already in the trick
    (clipped to the number of active seats minus one). With ``full``, the tricks taken
    so far complete a 10-trick deal."""
    if contract is None:
        contract = Contract(rng.randrange(5))
    if three_hand is None:
        three_hand = rng.random() < 0.6
    if cards is None:
        cards = rng.randint(1, 5)
    declarer = rng.randrange(3)
    others = [s for s in range(3) if s != declarer]
    defenders = tuple(others) if three_hand else (rng.choice(others),)
    active = sorted((declarer, *defenders))
    # deal from a few suits now and then, so that following suit, ruffing and
    # discarding all happen often
    suits = rng.sample(range(4), rng.choice((1, 2, 2, 3, 3, 4, 4, 4)))
    pool = [s * 8 + r for s in suits for r in range(8)]
    need = cards * len(active)
    for s in range(4):
        if len(pool) >= need:
            break
        if s not in suits:
            pool += [s * 8 + r for r in range(8)]
    dealt = rng.sample(pool, need)
    hands = [0, 0, 0]
    for i, seat in enumerate(active):
        for c in dealt[i * cards : (i + 1) * cards]:
            hands[seat] |= 1 << c
    leader = rng.choice(active)
    n_trick = rng.randrange(len(active)) if trick_len is None else min(trick_len, len(active) - 1)
    trick: list[int] = []
    for seat in play_order(leader, active)[:n_trick]:
        c = rng.choice(cards_of(legal_mask(hands[seat], trick, contract.trump_suit)))
        hands[seat] ^= 1 << c
        trick.append(c)
    tricks = [0, 0, 0]
    if full:
        for _ in range(10 - cards):
            tricks[rng.choice(active)] += 1
    return Position(
        hands=(hands[0], hands[1], hands[2]),
        contract=contract,
        declarer=declarer,
        defenders=defenders,
        leader=leader,
        trick=tuple(trick),
        tricks=(tricks[0], tricks[1], tricks[2]),
    )


def relabel(pos: Position, card_map: Mapping[int, int], contract: Contract | None = None) -> Position:
    """The same position with every card ``c`` (in the hands and the trick) replaced by
    ``card_map[c]``."""

    def m(mask: int) -> int:
        out = 0
        for c in cards_of(mask):
            out |= 1 << card_map[c]
        return out

    return Position(
        hands=(m(pos.hands[0]), m(pos.hands[1]), m(pos.hands[2])),
        contract=pos.contract if contract is None else contract,
        declarer=pos.declarer,
        defenders=pos.defenders,
        leader=pos.leader,
        trick=tuple(card_map[c] for c in pos.trick),
        tricks=pos.tricks,
    )


def suit_permutation(perm: Mapping[int, int]) -> dict[int, int]:
    """The card map that sends suit ``s`` to ``perm[s]`` (ranks kept)."""
    return {c: perm[c >> 3] * 8 + (c & 7) for c in range(32)}


def in_play(pos: Position) -> int:
    """Mask of the cards still in play: the hands and the trick in progress."""
    mask = pos.hands[0] | pos.hands[1] | pos.hands[2]
    for c in pos.trick:
        mask |= 1 << c
    return mask


def rank_preserving_map(pos: Position, rng: random.Random) -> dict[int, int]:
    """A random map of the cards in play to other ranks of the same suit that keeps
    their order within each suit (so every trick is won by the same seat)."""
    mask = in_play(pos)
    out: dict[int, int] = {}
    for suit in range(4):
        here = [c for c in cards_of(mask) if c >> 3 == suit]
        ranks = sorted(rng.sample(range(8), len(here)))
        for c, r in zip(here, ranks, strict=True):
            out[c] = suit * 8 + r
    return out
