"""Worlds a seat cannot tell apart: the OpenSpiel state's ``resample_from_infostate``.

Information-set search (OpenSpiel's Python ``ismcts``) asks for a state drawn from the
seat's information set: the same information state for that seat, the hidden cards dealt
anew. :func:`resample` draws the hidden cards with :class:`~paston.bots.knowledge.Knowledge`
(sizes and the voids the play has shown), makes a deck that deals them (R1.3), replays the
deal's actions on it, and keeps the world only if the seat's information state is the
same there (a world in which an action would be illegal, or in which another seat would
hold J♠ after an all-pass auction, is drawn again).

>>> import random
>>> from paston.actions import Action
>>> from paston.env.spiel_table import SpielConfig, SpielTable
>>> from paston.env.spiel_text import information_text
>>> table = SpielTable(SpielConfig())
>>> rng = random.Random(2)
>>> while table.is_chance:
...     table.apply_chance(rng.choice(table.chance_cards()))
>>> table.apply(Action.parse("pass"))
>>> other = resample(table, 2, random.Random(0))
>>> information_text(other, 2) == information_text(table, 2), other.deal.deck != table.deal.deck
(True, True)
"""

from __future__ import annotations

import random

from paston.actions import Kind
from paston.bots.knowledge import PRIKUP_SLOT, Knowledge
from paston.cards import SEVEN_OF_SPADES, mask_indices
from paston.dealing import PRIKUP_POSITIONS, hand_positions
from paston.env.spiel_table import SpielTable, replay
from paston.env.spiel_text import information_text
from paston.errors import PastonError

ATTEMPTS = 2000


def _deck(dealt: list[int], prikup: int, dealer: int) -> list[int] | None:
    """A deck (dealing order) that deals ``dealt`` hands and ``prikup`` (R1.3), with a
    bottom card other than 7♠ (R1.2); ``None`` if the sizes are wrong."""
    deck = [-1] * 32
    for seat in range(3):
        cards = list(mask_indices(dealt[seat]))
        positions = hand_positions(seat, dealer)
        if len(cards) != len(positions):
            return None
        if 31 in positions and cards[-1] == SEVEN_OF_SPADES:
            cards.reverse()  # 7S is the lowest card: put it first, away from the bottom
        for p, c in zip(positions, cards, strict=True):
            deck[p] = c
    cards = list(mask_indices(prikup))
    if len(cards) != 2:
        return None
    for p, c in zip(PRIKUP_POSITIONS, cards, strict=True):
        deck[p] = c
    return deck


def _world_deck(table: SpielTable, seat: int, rng: random.Random) -> list[int] | None:
    """One draw of the hidden cards as a deck, or ``None`` when it cannot be dealt."""
    deal = table.deal
    view = table.view(seat)
    assert deal is not None and view is not None
    world = Knowledge.from_view(view).sample(rng)
    played = [0, 0, 0]
    for event in view.history:
        if event.kind is Kind.PLAY:
            assert event.action is not None
            played[event.seat] |= 1 << event.action.cards[0].index
    dealt = [world[s] | played[s] for s in range(3)]
    declarer = deal.declarer
    if declarer is None:  # before the prikup is taken, the hidden talon cards are the prikup
        return _deck(dealt, world[PRIKUP_SLOT], deal.dealer)
    # the declarer's twelve cards: its hand, its cards played and its discard
    discard = view.discard.mask if view.discard is not None else world[PRIKUP_SLOT]
    twelve = dealt[declarer] | discard
    if view.prikup is not None:  # the seat is the declarer: it knows the prikup
        prikup = view.prikup.mask
    else:
        prikup = 0
        for c in rng.sample(mask_indices(twelve), 2):
            prikup |= 1 << c
    dealt[declarer] = twelve & ~prikup
    return _deck(dealt, prikup, deal.dealer)


def resample(table: SpielTable, seat: int, rng: random.Random) -> SpielTable:
    """A table that ``seat`` cannot tell from ``table``: the same actions, the hidden cards
    of the current deal drawn anew (earlier deals of a game stay as they were)."""
    deal = table.deal
    if deal is None or table.is_chance:
        raise ValueError("a world is drawn at a decision of a dealt deal, not while dealing")
    start = len(table.moves) - len(deal.events) - 32
    before, actions = tuple(table.moves[:start]), tuple(table.moves[start + 32 :])
    wanted = information_text(table, seat)
    for _ in range(ATTEMPTS):
        deck = _world_deck(table, seat, rng)
        if deck is None:
            continue
        try:
            other = replay(table.config, (*before, deck[31], *deck[:31], *actions))
        except (PastonError, ValueError):
            continue  # an action was illegal in that world
        if information_text(other, seat) == wanted:
            return other
    raise ValueError(f"no world for seat {seat} was found in {ATTEMPTS} draws")
