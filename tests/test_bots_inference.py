"""Inference (:mod:`paston.bots.inference`): worlds weighted by what the other seats did.

- the weighted sampler only produces worlds consistent with the seat's view;
- a deal the seat cannot tell apart (hidden cards swapped consistently with its view)
  gives the same weights and marginals for the same seed;
- a bid is more likely in worlds where the bidder holds strong cards, a pass in worlds
  where it holds weak ones; a card followed low says the seat had no lower card;
- ``infer`` plays legal moves through whole games and decides from its view only.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from tests.bots_helpers import PHASES, _at, assert_same_choice, play_until, played_to, swap_cards

from helpers import act, make_deal, play_cards
from paston.bots import make_player
from paston.bots.inference import (
    InferenceSampler,
    InferPlayer,
    log_likelihood,
    marginals,
    observe,
    weighted_worlds,
)
from paston.bots.knowledge import Knowledge
from paston.bots.pimc import PimcPlayer
from paston.bots.runner import seeded_game
from paston.cards import JACK_OF_SPADES, SEVEN_OF_SPADES, CardSet
from paston.deal import Deal, Phase
from paston.dealing import shuffled_deck
from paston.rules import Rules


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deck_seed=st.integers(0, 10_000), steps=st.integers(0, 34), seed=st.integers(0, 1000))
def test_weighted_worlds_are_consistent_with_the_view(deck_seed: int, steps: int, seed: int) -> None:
    deal, _ = played_to(shuffled_deck(random.Random(deck_seed)), deck_seed % 3, steps, deck_seed)
    for seat in range(3):
        view = deal.view(seat)
        know = Knowledge.from_view(view)
        worlds = InferenceSampler()(view, 6, random.Random(seed))
        assert len(worlds) == 6
        assert all(know.consistent(w) for w in worlds)
        weighted = weighted_worlds(view, 20, random.Random(seed))
        assert all(know.consistent(w) for w, _ in weighted)
        assert sum(x for _, x in weighted) == pytest.approx(1.0)
        assert all(x >= 0 for _, x in weighted)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    deck_seed=st.integers(0, 10_000),
    dealer=st.integers(0, 2),
    steps=st.integers(0, 34),
    viewer=st.integers(0, 2),
    pick=st.integers(0, 10_000),
    seed=st.integers(0, 100),
)
def test_same_marginals_for_deals_the_seat_cannot_tell_apart(
    deck_seed: int, dealer: int, steps: int, viewer: int, pick: int, seed: int
) -> None:
    deck = shuffled_deck(random.Random(deck_seed))
    deal, actions = played_to(deck, dealer, steps, deck_seed)
    assume(deal.redeal is None)  # R1.4: a redeal ends the deal before anyone acts
    view = deal.view(viewer)
    hidden = [c for c in range(32) if not view.known_cards().mask >> c & 1]
    # same suit (the plays stay legal, R6.2); never J♠ or 7♠ (R2.1, R3.4 tell where they are)
    pairs = [
        (x, y)
        for x in hidden
        for y in hidden
        if x < y and x >> 3 == y >> 3 and not {x, y} & {JACK_OF_SPADES, SEVEN_OF_SPADES}
    ]
    assume(pairs)
    x, y = pairs[pick % len(pairs)]
    other = list(deck)
    i, j = other.index(x), other.index(y)
    other[i], other[j] = other[j], other[i]
    try:
        twin = Deal(other, dealer=dealer)
    except ValueError:  # R1.2: the swap put 7♠ at the bottom of the deck
        assume(False)
        raise
    assume(twin.redeal is None)
    for action in actions:
        twin.apply(swap_cards(action, x, y))
    assert twin.view(viewer) == view, "the seat cannot tell the two deals apart"
    first = weighted_worlds(view, 30, random.Random(seed))
    second = weighted_worlds(twin.view(viewer), 30, random.Random(seed))
    assert first == second
    assert marginals(first) == marginals(second)
    assert InferenceSampler()(view, 5, random.Random(seed)) == InferenceSampler()(
        twin.view(viewer), 5, random.Random(seed)
    )


# --- the likelihood ------------------------------------------------------------------------------
HANDS = {
    0: "AH KH QH AD KD AC KC AS KS QS",
    1: "7H 8H 9H 7D 8D 9D 7C 8C 9C 7S",
    2: "TH JH TD JD QD TC JC QC 8S 9S",
}
PRIKUP = "TS JS"


def world_with(deal: Deal, seat: int, swap: dict[int, str]) -> tuple[int, int, int, int]:
    """The true world of the deal, with the hands of the other two seats as given."""
    hands = [deal.hand_mask(s) for s in range(3)]
    for s, text in swap.items():
        hands[s] = CardSet.parse(text).mask
    talon = 0xFFFFFFFF & ~(hands[0] | hands[1] | hands[2] | deal.played_mask)
    return hands[0], hands[1], hands[2], talon


def test_r3_a_bid_is_likelier_when_the_bidder_is_strong() -> None:
    """Seat 0 (first to speak, dealer 2) bids spades; seat 1 sees it. The world where
    seat 0 holds the aces and kings explains the bid better than the world where those
    cards are seat 2's (R3.2: a bid promises a hand worth declaring)."""
    deal = make_deal(dealer=2, hands=HANDS, prikup=PRIKUP)
    act(deal, "bid spades")
    obs = observe(deal.view(1))
    strong = world_with(deal, 1, {})
    weak = world_with(deal, 1, {0: HANDS[2], 2: HANDS[0]})
    assert Knowledge.from_view(deal.view(1)).consistent(weak)
    assert log_likelihood(obs, strong) > log_likelihood(obs, weak) + 1.0


def test_r3_a_pass_is_likelier_when_the_passer_is_weak() -> None:
    """Seat 0 passes; seat 2 sees it: the weak seat-0 world explains the pass better."""
    deal = make_deal(dealer=2, hands={0: HANDS[2], 1: HANDS[1], 2: HANDS[0]}, prikup=PRIKUP)
    act(deal, "pass")
    obs = observe(deal.view(2))
    # seat 2 holds the strong cards here; compare seat 0 holding HANDS[2] vs HANDS[1]
    weakish = world_with(deal, 2, {})
    weakest = world_with(deal, 2, {0: HANDS[1], 1: HANDS[2]})
    assert log_likelihood(obs, weakest) >= log_likelihood(obs, weakish)
    # and a bid by the same seat would be the other way round
    other = make_deal(dealer=2, hands={0: HANDS[0], 1: HANDS[1], 2: HANDS[2]}, prikup=PRIKUP)
    act(other, "pass")
    passed = observe(other.view(1))
    strong = world_with(other, 1, {})
    weak = world_with(other, 1, {0: HANDS[2], 2: HANDS[0]})
    assert log_likelihood(passed, weak) > log_likelihood(passed, strong)


def test_r6_following_low_says_no_lower_card() -> None:
    """Hearts trump; seat 0 leads A♣ and seat 1 follows with 9♣ without winning: the
    world where seat 1 also held 7♣ (it would have played it) is less likely."""
    hands = {
        0: "AC KC QC AH KH QH JH AD KD QD",
        1: "9C 8C TH 9H 8H 7H TD 9D 8D 7D",
        2: "7C TC JC JD AS KS QS JS TS 9S",
    }
    deal = make_deal(dealer=2, hands=hands, prikup="8S 7S")
    act(deal, "bid spades; pass; pass; discard 8S 7S; trump hearts; whist; whist")
    play_cards(deal, "AC 9C")
    view = deal.view(2)
    obs = observe(view)
    true = world_with(deal, 2, {})
    # seat 1 keeps 8♣ in the true world; in the other it holds 7♣... which seat 2 holds:
    # swap seat 1's 8♣ with seat 0's Q♣ instead (both hidden from seat 2)
    swapped = world_with(
        deal,
        2,
        {0: "KC 8C AH KH QH JH AD KD QD", 1: "QC TH 9H 8H 7H TD 9D 8D 7D"},
    )
    assert Knowledge.from_view(view).consistent(swapped)
    assert log_likelihood(obs, swapped) > log_likelihood(obs, true)


def swapped_world(world: tuple[int, int, int, int], a: str, b: str) -> tuple[int, int, int, int]:
    """The world with cards ``a`` and ``b`` exchanged between their places."""
    x, y = CardSet.parse(a).mask, CardSet.parse(b).mask
    return (
        world[0] ^ (x | y) if world[0] & (x | y) in (x, y) else world[0],
        world[1] ^ (x | y) if world[1] & (x | y) in (x, y) else world[1],
        world[2] ^ (x | y) if world[2] & (x | y) in (x, y) else world[2],
        world[3] ^ (x | y) if world[3] & (x | y) in (x, y) else world[3],
    )


def test_r2_1_the_first_bidder_of_a_first_deal_held_the_jack_or_the_seven() -> None:
    """J♠ is in the prikup, so seat 1 (holding 7♠) bids first in the first deal (R2.1):
    seat 2 knows seat 1 holds 7♠ or J♠, and worlds where it holds neither are all but
    excluded."""
    deal = make_deal(dealer=2, hands=HANDS, prikup=PRIKUP, first_deal=True)
    assert deal.first_bidder == 1
    view = deal.view(2)
    obs = observe(view)
    true = world_with(deal, 2, {})
    other = swapped_world(true, "7S", "AS")  # seat 0 gets 7♠, seat 1 the A♠
    assert Knowledge.from_view(view).consistent(other)
    assert log_likelihood(obs, true) > log_likelihood(obs, other) + 20
    for world, weight in weighted_worlds(view, 200, random.Random(3)):
        held = world[1] & CardSet.parse("JS 7S").mask
        if weight > 1e-6:
            assert held & CardSet.parse("JS").mask or (held and world[3] & CardSet.parse("JS").mask)


def test_r3_4_after_three_passes_the_declarer_held_the_jack_or_the_seven() -> None:
    """Three passes (not the first deal): the holder of J♠ declares, or of 7♠ when J♠ is
    in the prikup (R3.4). Either way J♠ is among the declarer's twelve cards."""
    deal = make_deal(dealer=2, hands=HANDS, prikup=PRIKUP)
    act(deal, "pass; pass; pass")
    assert deal.declarer == 1
    view = deal.view(2)
    true = world_with(deal, 2, {})
    other = swapped_world(true, "JS", "AS")  # J♠ with seat 0, A♠ in the declarer's twelve
    assert Knowledge.from_view(view).consistent(other)
    assert log_likelihood(observe(view), true) > log_likelihood(observe(view), other) + 20


# --- the infer player ----------------------------------------------------------------------------
def test_infer_is_registered_with_levels() -> None:
    bot = make_player("infer:2", seed=1)
    assert isinstance(bot, InferPlayer) and bot.name == "infer" and bot.level == 2
    assert isinstance(bot.sampler, InferenceSampler)


def test_infer_plays_legal_moves_through_whole_games() -> None:
    """Games to a short target (R8.3) with infer among other players: every action goes
    through ``Match.apply``, which refuses an illegal one."""
    rules = Rules.parse("target=21")
    for seed, names in enumerate((["infer:3", "heuristic", "pimc:1"], ["random", "infer:1", "infer:1"])):
        match = seeded_game(seed, names, rules=rules, max_deals=8)
        assert match.completed_deals >= 1
        assert match.is_over or match.completed_deals == 8


@pytest.mark.parametrize(("phase", "plays"), PHASES, ids=[f"{p.name}-{n}" for p, n in PHASES])
def test_infer_decides_from_the_view_only(phase: Phase, plays: int) -> None:
    """With the same seed infer picks the same action in two deals that differ only in
    cards its seat cannot see."""
    done = 0
    for seed in range(100):
        found = play_until(seed, _at(phase, plays))
        if found is None:
            continue
        deal, actions = found
        if len(deal.legal_actions()) < 2:
            continue
        assert_same_choice("infer:3", deal, actions, seed)  # level 1 in test_bots_ladder
        done += 1
        if done == 2:
            return
    pytest.fail(f"no position found at {phase.name}")


def test_pimc_default_sampler_is_unchanged() -> None:
    """pimc without a sampler draws the worlds it always drew: uniform consistent worlds
    from its own random generator, in the same order; infer draws others."""
    deal = Deal.random(random.Random(8), dealer=1)
    act(deal, "bid spades")
    view = deal.view(deal.to_move or 0)
    know = Knowledge.from_view(view)
    rng = random.Random(4)
    expected = [know.sample(rng) for _ in range(12)]
    pimc = make_player("pimc:1", seed=4)
    assert isinstance(pimc, PimcPlayer)
    assert pimc._worlds(view, 12) == expected
    infer = make_player("infer:1", seed=4)
    assert isinstance(infer, InferPlayer)
    assert infer._worlds(view, 12) != expected
