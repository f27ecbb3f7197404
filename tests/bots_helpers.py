"""Deals and positions for the tests of the computer players: a shuffled deal in every
rule variant (``random_deal``), heuristic players playing a deal up to a phase
(``play_until``, ``_at``, ``PHASES``) or for a number of steps (``played_to``), and the
view-only check: a twin deal with other hidden cards and the same view for the seat to
move, on which a seeded player must choose the same action (``assert_same_choice``);
``swap_cards`` exchanges two cards in an action, as such twins are replayed."""

from __future__ import annotations

import random
from collections.abc import Callable

from paston.actions import Action, Kind
from paston.bots import make_player
from paston.bots.heuristic import HeuristicPlayer
from paston.bots.knowledge import Knowledge
from paston.cards import JACK_OF_SPADES, SEVEN_OF_SPADES
from paston.deal import Deal, Phase
from paston.rules import Rules

# Every combination of the switches that change a single deal (R3.4, R7.3, R7.7).
VARIANTS = tuple(
    Rules(lone_defender=lone, surrender_bonus=bonus, all_pass_declarer=all_pass)
    for lone in ("graded", "flat")
    for bonus in (2, 0)
    for all_pass in ("spade-jack", "first-bidder")
)


def random_deal(seed: int) -> Deal:
    """A shuffled deal; the seed also picks the rule variant, the dealer and whether it is
    the first deal of a game (R1.5, R2.1 and the first-bidder variant of R3.4 differ)."""
    return Deal.random(
        random.Random(seed),
        dealer=seed // 8 % 3,
        rules=VARIANTS[seed % len(VARIANTS)],
        first_deal=seed // 24 % 2 == 0,
    )


def play_until(seed: int, stop: Callable[[Deal], bool]) -> tuple[Deal, list[Action]] | None:
    """Play a deal of ``random_deal(seed)`` with heuristic players until ``stop`` holds
    (``None`` if the deal ends first)."""
    deal = random_deal(seed)
    players = [HeuristicPlayer(seed=s) for s in range(3)]
    actions: list[Action] = []
    while not deal.is_over:
        if stop(deal):
            return deal, actions
        seat = deal.to_move
        assert seat is not None
        action = players[seat].choose(deal.view(seat))
        actions.append(action)
        deal.apply(action)
    return None


def _dealt_place(deal: Deal, card: int) -> int:
    """Where a card was dealt: seat 0-2, or 3 for the prikup."""
    for seat in range(3):
        if deal.dealt[seat] >> card & 1:
            return seat
    assert deal.prikup >> card & 1
    return 3


def hidden_state(deal: Deal) -> tuple[object, ...]:
    """Where every card lies now: the hands, the prikup not yet taken, the discard."""
    talon = deal.prikup if deal.phase is Phase.AUCTION else 0
    return tuple(deal.hand_mask(s) for s in range(3)), talon, deal.discard


def twin(deal: Deal, actions: list[Action], viewer: int) -> Deal | None:
    """Another deal with different hidden cards that gives ``viewer`` exactly the same view.

    Two cards ``viewer`` cannot see, dealt to two different places, are exchanged in the
    deck and the same public actions are replayed (a hidden discard is mapped through
    the exchange). Once cards have been played only cards of one suit are exchanged, so
    every shown void and every replayed play stays legal. J♠ and 7♠ stay put: they decide
    the first bidder (R2.1) and the all-pass declarer (R3.4).
    """
    # what the seat may know by the rules (R4.1, R5.2), from the full state, not from the view
    known = deal.hand_mask(viewer) | deal.played_mask
    if deal.declarer == viewer:
        known |= deal.prikup | deal.discard.mask
    hidden = [c for c in range(32) if not known >> c & 1 and c not in (JACK_OF_SPADES, SEVEN_OF_SPADES)]
    played = deal.played_mask != 0
    for i, c1 in enumerate(hidden):
        for c2 in hidden[i + 1 :]:
            if played and c1 >> 3 != c2 >> 3:
                continue
            if _dealt_place(deal, c1) == _dealt_place(deal, c2):
                continue
            swap = {c1: c2, c2: c1}
            deck = [swap.get(c, c) for c in deal.deck]
            other = Deal(deck, dealer=deal.dealer, rules=deal.rules, first_deal=deal.first_deal)
            if other.redeal is not None:
                continue
            for action in actions:
                if action.kind is Kind.DISCARD:
                    a, b = (swap.get(c.index, c.index) for c in action.cards)
                    action = Action.discard(a, b)
                other.apply(action)
            if hidden_state(other) != hidden_state(deal):
                return other
    return None


def assert_same_choice(name: str, deal: Deal, actions: list[Action], seed: int) -> Action:
    seat = deal.to_move
    assert seat is not None
    other = twin(deal, actions, seat)
    assert other is not None, "no twin deal found"
    view, other_view = deal.view(seat), other.view(seat)
    assert view == other_view  # the test means something only if the views are equal
    assert hidden_state(other) != hidden_state(deal)  # … and the hidden cards differ
    assert Knowledge.from_view(view) == Knowledge.from_view(other_view)
    first = make_player(name, seed=seed).choose(view)
    second = make_player(name, seed=seed).choose(other_view)
    assert first is second, (name, deal.phase, str(first), str(second))
    return first


def _at(phase: Phase, plays: int = 0) -> Callable[[Deal], bool]:
    def stop(deal: Deal) -> bool:
        if deal.phase is not phase:
            return False
        if phase is Phase.PLAY:
            return deal.played_mask.bit_count() >= plays
        return True

    return stop


PHASES = [
    (Phase.AUCTION, 0),
    (Phase.DISCARD, 0),
    (Phase.TRUMP, 0),
    (Phase.DEFENCE, 0),
    (Phase.PLAY, 0),
    (Phase.PLAY, 7),
]


def played_to(deck: list[int], dealer: int, steps: int, seed: int) -> tuple[Deal, list[Action]]:
    """A deal from ``deck`` after up to ``steps`` actions of seeded heuristic players."""
    deal = Deal(deck, dealer=dealer)
    bots = [HeuristicPlayer(seed=seed + s) for s in range(3)]
    actions: list[Action] = []
    while len(actions) < steps and deal.to_move is not None and not deal.is_over:
        action = bots[deal.to_move].choose(deal.view(deal.to_move))
        deal.apply(action)
        actions.append(action)
    return deal, actions


def swap_cards(action: Action, x: int, y: int) -> Action:
    """The action with cards ``x`` and ``y`` exchanged."""
    if not action.cards:
        return action
    swap = {x: y, y: x}
    idx = [swap.get(c.index, c.index) for c in action.cards]
    return Action.play(idx[0]) if action.kind is Kind.PLAY else Action.discard(idx[0], idx[1])
