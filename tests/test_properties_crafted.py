"""Property tests over crafted decks (hypothesis): the redeals and the all-pass declarer,
rare in random games, on decks built to hit them, in lockstep with the reference model."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from helpers import DEAL_GROUPS, round_trip, weighted_choice
from paston.cards import Card
from paston.deal import Deal
from paston.match import Match
from paston.rules import Rules
from property_helpers import (
    CHEAP,
    FAST,
    agree,
    check_views,
    dealers,
    rules_st,
    seeds,
)
from reference_model import ALL_CODES, RefDeal, RefGame, action_key

# --------------------------------------------------------------------------------------
# Crafted decks: the redeals and the all-pass declarer are rare in random games.

FORCES = ("none", "jack-seven-prikup", "jack-prikup", "seven-prikup", "spade-sequence")


@st.composite
def crafted_decks(draw: st.DrawFn) -> list[str]:
    deck = list(draw(st.permutations(sorted(ALL_CODES))))
    force = draw(st.sampled_from(FORCES))

    def put(card: str, pos: int) -> None:
        i = deck.index(card)
        deck[i], deck[pos] = deck[pos], deck[i]

    if force == "jack-seven-prikup":
        put("JS", 6)
        put("7S", 7)
    elif force == "jack-prikup":
        put("JS", 6)
        if deck[7] == "7S":
            put("7S", 0)
    elif force == "seven-prikup":
        put("7S", 7)
        if deck[6] == "JS":
            put("JS", 0)
    elif force == "spade-sequence":
        group = DEAL_GROUPS[draw(st.integers(0, 2))]  # the dealer's left, right, the dealer
        for card, pos in zip(("7S", "8S", "9S", "TS", "JS", "QS"), group, strict=False):
            put(card, pos)
        spare = [p for g in DEAL_GROUPS if g is not group for p in g]
        for high, pos in zip(("KS", "AS"), spare, strict=False):
            if deck.index(high) in group:
                put(high, pos)
    if deck[31] == "7S":
        deck[30], deck[31] = deck[31], deck[30]  # both go to the dealer: same hands
    return deck


def play_deal_in_lockstep(deal: Deal, ref: RefDeal, rng: random.Random, bid_prob: float) -> None:
    agree(deal, ref)
    while not deal.is_over:
        action = weighted_choice(rng, deal, bid_prob=bid_prob)
        seat = deal.to_move
        assert seat is not None
        deal.apply(action, seat)
        ref.apply(action_key(action), seat)
        agree(deal, ref)
        check_views(Match(first_dealer=0), deal, ref)
    assert ref.over


@CHEAP
@given(
    deck=crafted_decks(),
    dealer=dealers,
    rules=rules_st,
    first_deal=st.booleans(),
    bid_prob=st.sampled_from([0.0, 0.2, 0.55]),
    seed=seeds,
)
def test_crafted_deals_agree_with_model(
    deck: list[str], dealer: int, rules: Rules, first_deal: bool, bid_prob: float, seed: int
) -> None:
    """R1.4, R1.5, R2.1, R3.4 on decks built to hit them, all-pass auctions included."""
    deal = Deal([Card.parse(c) for c in deck], dealer=dealer, rules=rules, first_deal=first_deal)
    ref = RefDeal(deck, dealer, rules, first_deal)
    play_deal_in_lockstep(deal, ref, random.Random(seed), bid_prob)


@FAST
@given(
    decks=st.lists(crafted_decks(), min_size=1, max_size=6),
    first_dealer=dealers,
    rules=rules_st,
    bid_prob=st.sampled_from([0.0, 0.3, 0.55]),
    seed=seeds,
)
def test_crafted_matches_agree_with_model(
    decks: list[list[str]], first_dealer: int, rules: Rules, bid_prob: float, seed: int
) -> None:
    """Dealer rotation across redeals (R1.6, R2.2, R2.3), totals and winners (R8)."""
    rng = random.Random(seed)
    match = Match(first_dealer=first_dealer, rules=rules)
    game = RefGame(first_dealer, rules)
    for deck in decks:
        if match.is_over:
            break
        assert match.next_dealer == game.next_dealer
        deal = match.deal_next([Card.parse(c) for c in deck])
        ref = game.new_deal(deck)
        accounted = ref.over  # a redeal found at dealing time is accounted at once
        assert deal.dealer == ref.dealer and deal.first_deal == ref.first_deal
        agree(deal, ref)
        while not deal.is_over:
            action = weighted_choice(rng, deal, bid_prob=bid_prob)
            seat = deal.to_move
            assert seat is not None
            match.apply(action, seat)
            ref.apply(action_key(action), seat)
            agree(deal, ref)
        if not accounted:
            game.account(ref)
        assert list(match.totals) == game.totals
        assert list(match.winners) == game.winners
        assert match.next_dealer == game.next_dealer
        assert match.completed_deals == game.completed
    round_trip(match)
