"""The world sampler of the computer players: every sampled world agrees with what the
seat's view shows, and only with that (the sampler takes a view, never the full state).

The checks below are written from RULES.md and the view, independently of
:mod:`paston.bots.knowledge`: sizes, exact own hand, no seen card elsewhere, voids shown
by not following suit (R6.2), every unseen card placed exactly once.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import act, make_deal, play_cards
from paston.actions import Action, Kind
from paston.bots import RandomPlayer
from paston.bots.knowledge import PRIKUP_SLOT, Knowledge, voids_from_view
from paston.cards import JACK_OF_SPADES, SEVEN_OF_SPADES, SUIT_MASKS, Card
from paston.deal import Deal, Phase
from paston.rules import Rules
from paston.views import DealView

FULL = (1 << 32) - 1
World = tuple[int, int, int, int]
VARIANTS = (Rules(), Rules(all_pass_declarer="first-bidder", lone_defender="flat"))


def random_deal(seed: int) -> Deal:
    return Deal.random(
        random.Random(seed), dealer=seed % 3, rules=VARIANTS[seed // 3 % 2], first_deal=seed // 6 % 2 == 0
    )


def positions(seeds: range) -> Iterator[tuple[Deal, DealView]]:
    """Every state of deals played by random players, seen by each of the three seats."""
    for seed in seeds:
        deal = random_deal(seed)
        bot = RandomPlayer(seed=seed)
        while deal.redeal is None:
            for seat in range(3):
                yield deal, deal.view(seat)
            if deal.is_over:
                break
            seat = deal.to_move
            assert seat is not None
            deal.apply(bot.choose(deal.view(seat)))


def shown_voids(view: DealView) -> list[int]:
    """Per seat, the cards it cannot hold: R6.2 read backwards (not following the led suit
    shows a void in it; not trumping either shows a void in trumps)."""
    voids = [0, 0, 0]
    if view.contract is None:
        return voids
    trump = view.contract.trump_suit
    tricks = [t.plays for t in view.completed_tricks]
    if view.current_trick:
        tricks.append(view.current_trick)
    for plays in tricks:
        led = plays[0][1].suit
        for seat, card in plays[1:]:
            if card.suit != led:
                voids[seat] |= SUIT_MASKS[led]
                if card.suit != trump:
                    voids[seat] |= SUIT_MASKS[trump]
    return voids


def hidden_talon_size(view: DealView) -> int:
    """Cards in no hand that the seat cannot see: the prikup until the declarer takes it,
    then (for the others) the discard (R4.1)."""
    if view.phase is Phase.AUCTION:
        return 2
    if view.prikup is not None or view.phase is Phase.DISCARD:
        return 0
    return 2


def known_mask(view: DealView) -> int:
    mask = view.hand.mask | view.played.mask
    if view.prikup is not None:
        mask |= view.prikup.mask
    if view.discard is not None:
        mask |= view.discard.mask
    return mask


def world_problems(view: DealView, world: World) -> list[str]:
    """What is wrong with a world (hands of seats 0-2, hidden talon) for this view."""
    assert view.seat is not None
    out = []
    if world[view.seat] != view.hand.mask:
        out.append("own hand")
    for s in range(3):
        if world[s].bit_count() != view.hand_sizes[s]:
            out.append(f"size of seat {s}")
    if world[PRIKUP_SLOT].bit_count() != hidden_talon_size(view):
        out.append("talon size")
    for i in range(4):
        for j in range(i + 1, 4):
            if world[i] & world[j]:
                out.append(f"card in two places {i}, {j}")
    union = world[0] | world[1] | world[2] | world[3]
    known = known_mask(view)
    if union & known != view.hand.mask:
        out.append("a seen card placed")
    if union | known != FULL:
        out.append("an unseen card missing")
    for s, void in enumerate(shown_voids(view)):
        if s != view.seat and world[s] & void:
            out.append(f"void of seat {s}")
    return out


def true_world(deal: Deal, seat: int) -> World:
    """The real placement of the cards as a world of ``seat``."""
    if deal.phase is Phase.AUCTION:
        talon = deal.prikup
    elif deal.declarer == seat or deal.phase is Phase.DISCARD:
        talon = 0
    else:
        talon = deal.discard.mask
    return deal.hand_mask(0), deal.hand_mask(1), deal.hand_mask(2), talon


# --- sampled worlds agree with the view -----------------------------------------------------------
def test_sampled_worlds_agree_with_the_view_at_every_phase() -> None:
    rng = random.Random(0)
    phases: Counter[Phase] = Counter()
    shapes: Counter[int] = Counter()
    for deal, view in positions(range(120)):
        assert view.seat is not None
        know = Knowledge.from_view(view)
        # the real deal is one of the worlds this view allows
        real = true_world(deal, view.seat)
        assert world_problems(view, real) == []
        assert know.consistent(real)
        for _ in range(2):
            world = know.sample(rng)
            assert world_problems(view, world) == [], (deal, view.seat)
            assert know.consistent(world)
        phases[view.phase] += 1
        if view.phase is Phase.PLAY:
            shapes[len(view.defenders)] += 1
    assert set(phases) == {Phase.AUCTION, Phase.DISCARD, Phase.TRUMP, Phase.DEFENCE, Phase.PLAY, Phase.OVER}
    assert shapes[1] and shapes[2]


def test_knowledge_slots_match_the_view() -> None:
    for _deal, view in positions(range(30)):
        assert view.seat is not None
        know = Knowledge.from_view(view)
        assert know.seat == view.seat
        assert know.hand == view.hand.mask
        assert know.known == known_mask(view)
        assert know.unknown == FULL & ~known_mask(view)
        sizes = {slot.owner: slot.size for slot in know.slots}
        for s in range(3):
            if s != view.seat:
                assert sizes[s] == view.hand_sizes[s]
        assert sizes.get(PRIKUP_SLOT, 0) == hidden_talon_size(view)
        assert list(know.voids) == shown_voids(view)


def test_voids_force_the_placement_of_cards() -> None:
    """Positions with shown voids: the sampler must put each card where the voids allow,
    which it can only do by respecting them. Many samples, no violation."""
    rng = random.Random(1)
    with_voids = 0
    for _deal, view in positions(range(200)):
        assert view.seat is not None
        voids = shown_voids(view)
        if not any(v for s, v in enumerate(voids) if s != view.seat):
            continue
        with_voids += 1
        know = Knowledge.from_view(view)
        for _ in range(3):
            assert world_problems(view, know.sample(rng)) == []
    assert with_voids > 300


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 45), seat=st.integers(0, 2))
def test_sampler_property(seed: int, steps: int, seat: int) -> None:
    deal = random_deal(seed)
    bot = RandomPlayer(seed=seed)
    for _ in range(steps):
        if deal.is_over:
            break
        deal.apply(bot.choose(deal.view(deal.to_move or 0)))
    if deal.redeal is not None:
        return
    view = deal.view(seat)
    know = Knowledge.from_view(view)
    rng = random.Random(seed)
    for _ in range(3):
        world = know.sample(rng)
        assert world_problems(view, world) == []
        assert know.consistent(world)


# --- consistent() agrees with the independent check ---------------------------------------------
def perturbations(world: World, rng: random.Random) -> Iterator[World]:
    """Worlds near a good one: two cards exchanged between two places, a card moved."""
    for _ in range(12):
        w = list(world)
        i, j = rng.sample(range(4), 2)
        if w[i] and w[j]:
            a = rng.choice([c for c in range(32) if w[i] >> c & 1])
            b = rng.choice([c for c in range(32) if w[j] >> c & 1])
            w[i] ^= 1 << a | 1 << b
            w[j] ^= 1 << a | 1 << b
            yield w[0], w[1], w[2], w[3]
        if w[i]:
            a = rng.choice([c for c in range(32) if w[i] >> c & 1])
            w = list(world)
            w[i] &= ~(1 << a)
            w[j] |= 1 << a
            yield w[0], w[1], w[2], w[3]


def test_consistent_agrees_with_the_independent_check() -> None:
    rng = random.Random(2)
    verdicts: Counter[bool] = Counter()
    for _deal, view in positions(range(60)):
        know = Knowledge.from_view(view)
        world = know.sample(rng)
        for other in perturbations(world, rng):
            ok = world_problems(view, other) == []
            assert know.consistent(other) == ok, (view.seat, view.phase, world_problems(view, other))
            verdicts[ok] += 1
    assert verdicts[True] and verdicts[False]


def test_consistent_rejects_cards_in_a_talon_the_seat_does_not_have() -> None:
    found = next(
        (deal, view)
        for deal, view in positions(range(40))
        if view.phase is Phase.PLAY and view.prikup is not None
    )
    _deal, view = found
    know = Knowledge.from_view(view)
    assert not any(slot.owner == PRIKUP_SLOT for slot in know.slots)
    world = know.sample(random.Random(0))
    other_seat = next(s for s in range(3) if s != view.seat and world[s])
    card = world[other_seat] & -world[other_seat]
    bad = (world[0], world[1], world[2], card)  # the card now lies in two places
    assert world_problems(view, bad)
    assert not know.consistent(bad)


# --- the sampler uses the view only ----------------------------------------------------------------
def test_knowledge_is_built_from_a_view_not_a_deal() -> None:
    deal = random_deal(4)
    with pytest.raises(ValueError):
        Knowledge.from_view(deal.public_view())


def test_same_view_same_knowledge_and_same_samples() -> None:
    """Two deals that differ only in cards seat 0 cannot see (exchanged between the other
    two hands before anything is played, then the same public actions) give seat 0 the
    same view, hence the same knowledge and, with the same seed, the same worlds."""
    checked = 0
    for seed in range(30):
        deal = random_deal(seed)
        if deal.redeal is not None:
            continue
        viewer = 0
        a, b = (s for s in range(3) if s != viewer)
        # exchange two cards of one suit between the other two hands (J♠ and 7♠ stay put)
        pair = next(
            (
                (x, y)
                for x in range(32)
                for y in range(32)
                if deal.dealt[a] >> x & 1
                and deal.dealt[b] >> y & 1
                and x >> 3 == y >> 3
                and {x, y}.isdisjoint({JACK_OF_SPADES, SEVEN_OF_SPADES})
            ),
            None,
        )
        if pair is None:
            continue
        swap = {pair[0]: pair[1], pair[1]: pair[0]}
        other = Deal(
            [swap.get(c, c) for c in deal.deck],
            dealer=deal.dealer,
            rules=deal.rules,
            first_deal=deal.first_deal,
        )
        if other.redeal is not None:
            continue
        bot = RandomPlayer(seed=seed)
        for step in range(40):
            if deal.is_over:
                break
            view, other_view = deal.view(viewer), other.view(viewer)
            assert view == other_view
            know = Knowledge.from_view(view)
            assert know == Knowledge.from_view(other_view)
            assert know.sample(random.Random(step)) == Knowledge.from_view(other_view).sample(
                random.Random(step)
            )
            action = bot.choose(deal.view(deal.to_move or 0))
            if action.kind is Kind.PLAY and action.cards[0].index in swap:
                break  # the exchanged card becomes visible
            deal.apply(action)
            if action.kind is Kind.DISCARD:
                action = Action.discard(*(swap.get(c.index, c.index) for c in action.cards))
            other.apply(action)
            checked += 1
    assert checked > 200


# --- voids from a hand-made play sequence -----------------------------------------------------------
def test_voids_from_view_on_a_hand_made_sequence() -> None:
    """Spades are trump. Trick 1: seat 0 leads A♥, seat 1 cannot follow and has no trump
    (plays 7♦: void in hearts and spades), seat 2 cannot follow and ruffs (7♠: void in
    hearts only). Trick 2, in progress: seat 2 leads K♣, seat 0 ruffs with A♠ (void in
    clubs)."""
    deal = make_deal(
        dealer=2,
        hands={
            0: "AH KH QH JH TH 9H 8H 7H AS KS",
            1: "7D 8D 9D TD JD QD KD AD 7C 8C",
            2: "7S 8S 9S TS 9C TC JC QC KC AC",
        },
        prikup="JS QS",
    )
    act(deal, "bid spades; pass; pass; discard JS QS; trump spades; whist; whist")
    hearts, spades, clubs = SUIT_MASKS[3], SUIT_MASKS[0], SUIT_MASKS[1]
    for seat in range(3):
        assert voids_from_view(deal.view(seat)) == (0, 0, 0)
    play_cards(deal, "AH 7D 7S")
    after_one = (0, hearts | spades, hearts)
    for seat in range(3):
        assert voids_from_view(deal.view(seat)) == after_one
    assert voids_from_view(deal.public_view()) == after_one
    play_cards(deal, "KC")
    assert voids_from_view(deal.view(1)) == after_one  # leading shows nothing
    play_cards(deal, "AS")
    expected = (clubs, hearts | spades, hearts)
    for seat in range(3):
        view = deal.view(seat)
        assert voids_from_view(view) == expected
        assert tuple(shown_voids(view)) == expected
    # seat 1 (to move) samples: seat 0 gets no clubs, seat 2 no hearts
    know = Knowledge.from_view(deal.view(1))
    for k in range(50):
        world = know.sample(random.Random(k))
        assert not world[0] & clubs
        assert not world[2] & hearts
        assert world[2].bit_count() == 8 and world[0].bit_count() == 8
    assert Card.parse("AS") in deal.view(1).played
