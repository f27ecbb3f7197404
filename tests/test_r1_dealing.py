"""R1: dealing — first dealer, shuffle and cut, the dealing pattern, redeals."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import (
    D_POSITIONS,
    L_POSITIONS,
    M_POSITIONS,
    PRIKUP_POSITIONS,
    assert_illegal,
    cards,
    code_set,
    hand_codes,
    idx,
    make_deal,
    make_deck,
)
from paston.actions import PASS, Action
from paston.cards import CardSet
from paston.deal import Deal, Phase
from paston.dealing import dealt_order, shuffled_deck
from paston.errors import IllegalActionError, ParseError
from paston.match import Match

SEQUENCE = "7S 8S 9S TS JS QS"


# --- R1.1 first dealer -------------------------------------------------------------------------


@pytest.mark.parametrize("first_dealer", [0, 1, 2])
def test_r1_1_first_dealer_is_chosen_freely(first_dealer):
    match = Match(first_dealer=first_dealer)
    assert match.next_dealer == first_dealer
    deal = match.deal_next(make_deck(dealer=first_dealer))
    assert deal.dealer == first_dealer
    assert deal.first_deal


@pytest.mark.parametrize("bad", [-1, 3, "0", None])
def test_r1_1_first_dealer_must_be_a_seat(bad):
    with pytest.raises(ValueError):
        Match(first_dealer=bad)
    with pytest.raises(ValueError):
        Deal(list(range(32)), dealer=bad)


def test_r1_1_first_dealer_with_random_source():
    for dealer in range(3):
        match = Match(first_dealer=dealer, rng=random.Random(dealer))
        assert match.deals[0].dealer == dealer


# --- R1.2 shuffle, cut, bottom card ------------------------------------------------------------


@settings(max_examples=200)
@given(st.integers(0, 2**32))
def test_r1_2_shuffled_deck_bottom_card_is_never_seven_of_spades(seed):
    deck = shuffled_deck(random.Random(seed))
    assert sorted(deck) == list(range(32))
    assert deck[31] != idx("7S")


class _RiggedRandom:
    """Shuffling puts the cards in index order (7S on top); the cuts are given in advance."""

    def __init__(self, cuts):
        self.cuts = list(cuts)
        self.shuffles = 0

    def shuffle(self, x):
        self.shuffles += 1
        x[:] = range(32)

    def randrange(self, start, stop):
        return self.cuts.pop(0)


def test_r1_2_seven_of_spades_at_the_bottom_means_shuffle_and_cut_again():
    # Order 0..31 (7S is card 0) cut at 1 puts 7S at the bottom: shuffle and cut again.
    rng = _RiggedRandom([1, 1, 5])
    deck = shuffled_deck(rng)
    assert rng.shuffles == 3
    assert deck[31] != idx("7S")
    assert deck == [*range(5, 32), *range(5)]


def test_r1_2_a_deck_with_seven_of_spades_at_the_bottom_is_rejected():
    deck = make_deck(dealer=0)
    i = deck.index(idx("7S"))
    deck[i], deck[31] = deck[31], deck[i]
    with pytest.raises(ParseError) as info:
        Deal(deck, dealer=0)
    assert info.value.code == "deck-bottom"
    assert str(info.value).startswith("R1.2")


@pytest.mark.parametrize(
    ("deck", "code"),
    [
        (list(range(31)), "deck-size"),
        ([*range(31), 30], "deck-cards"),
        ([*range(1, 32), 32], "deck-cards"),
        ([*range(31), 31, 0], "deck-size"),
    ],
)
def test_r1_2_a_deck_holds_each_card_once(deck, code):
    with pytest.raises(ParseError) as info:
        Deal(deck, dealer=0)
    assert info.value.code == code


# --- R1.3 dealing pattern ----------------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_r1_3_dealing_pattern(dealer):
    deck = list(range(32))
    random.Random(dealer).shuffle(deck)
    if deck[31] == idx("7S"):
        deck[30], deck[31] = deck[31], deck[30]
    deal = Deal(deck, dealer=dealer)
    left, middle = (dealer + 1) % 3, (dealer + 2) % 3
    assert deal.hand(left) == CardSet(deck[p] for p in L_POSITIONS)
    assert deal.hand(middle) == CardSet(deck[p] for p in M_POSITIONS)
    assert deal.hand(dealer) == CardSet(deck[p] for p in D_POSITIONS)
    assert deal.prikup == 1 << deck[6] | 1 << deck[7]
    assert [len(deal.hand(s)) for s in range(3)] == [10, 10, 10]
    assert [c.index for c in dealt_order(deck, left, dealer)] == [deck[p] for p in L_POSITIONS]


def test_r1_3_dealing_pattern_explicit_slices():
    deck = list(range(32))
    deal = Deal(deck, dealer=0)
    # L = seat 1: [0:2] + [8:10] + [14:16] + [20:22] + [26:28]
    assert deal.hand(1) == CardSet([0, 1, 8, 9, 14, 15, 20, 21, 26, 27])
    assert deal.hand(2) == CardSet([2, 3, 10, 11, 16, 17, 22, 23, 28, 29])
    assert deal.hand(0) == CardSet([4, 5, 12, 13, 18, 19, 24, 25, 30, 31])
    assert deal.prikup == 1 << 6 | 1 << 7
    assert PRIKUP_POSITIONS == (6, 7)


def test_r1_3_helper_builds_requested_hands():
    hands = {
        0: "AS KS QS JS TS 9S 8S AH KH QH",
        1: "AC KC QC JC TC 9C 8C 7C JH TH",
        2: "AD KD QD JD TD 9D 8D 7D 9H 8H",
    }
    for dealer in range(3):
        deal = make_deal(dealer=dealer, hands=hands, prikup="7S 7H")
        for s in range(3):
            assert hand_codes(deal, s) == code_set(hands[s])
        assert CardSet(deal.prikup) == CardSet(cards("7S 7H"))


# --- R1.4 spade-sequence redeal ------------------------------------------------------------------


@pytest.mark.parametrize("holder", [0, 1, 2])
@pytest.mark.parametrize("first_deal", [True, False])
def test_r1_4_spade_sequence_without_king_and_ace_is_redealt(holder, first_deal):
    deal = make_deal(
        dealer=0, hands={holder: SEQUENCE + " AC KC QC JC"}, prikup="AH KH", first_deal=first_deal
    )
    assert deal.phase is Phase.REDEAL
    assert deal.redeal == "spade-sequence"
    assert deal.is_over
    assert deal.to_move is None
    assert deal.legal_actions() == ()
    assert deal.first_bidder is None  # no bidding takes place
    assert deal.result is None
    err = assert_illegal(deal, "pass", "R1.4", "redeal")
    assert "spade-sequence" in str(err)
    assert_illegal(deal, "bid spades", "R1.4", "redeal")


@pytest.mark.parametrize("extra", ["KS", "AS"])
def test_r1_4_spade_sequence_with_king_or_ace_is_played(extra):
    deal = make_deal(dealer=0, hands={1: f"{SEQUENCE} {extra} AC KC QC"}, prikup="AH KH")
    assert deal.redeal is None
    assert deal.phase is Phase.AUCTION


@pytest.mark.parametrize("missing", SEQUENCE.split())
def test_r1_4_incomplete_sequence_is_played(missing):
    hand = [c for c in SEQUENCE.split() if c != missing]
    hands = {1: " ".join(hand) + " AC KC QC JC AD", 2: f"{missing} AS KS 7C 8C 9C TC 7D 8D 9D"}
    deal = make_deal(dealer=0, hands=hands, prikup="AH KH")
    assert deal.redeal is None
    assert deal.phase is Phase.AUCTION


def test_r1_4_sequence_split_with_prikup_is_played():
    deal = make_deal(dealer=0, hands={1: "7S 8S 9S TS JS AC KC QC JC TC"}, prikup="QS AH")
    assert deal.redeal is None


def test_r1_4_in_a_match_the_same_dealer_deals_again():
    match = Match(first_dealer=1)
    deck = make_deck(dealer=1, hands={2: SEQUENCE + " AC KC QC JC"})
    deal = match.deal_next(deck)
    assert deal.redeal == "spade-sequence"
    assert match.needs_deck
    assert match.next_dealer == 1
    assert match.completed_deals == 0
    assert match.totals == (0, 0, 0)
    with pytest.raises(IllegalActionError) as info:
        match.apply(PASS)
    assert info.value.code == "no-deal"


# --- R1.5 jack-seven-prikup redeal ------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_r1_5_jack_and_seven_in_prikup_first_deal_is_redealt(dealer):
    deal = make_deal(dealer=dealer, prikup="JS 7S", first_deal=True)
    assert deal.phase is Phase.REDEAL
    assert deal.redeal == "jack-seven-prikup"
    assert deal.to_move is None
    assert deal.first_bidder is None
    assert deal.legal_actions() == ()
    assert_illegal(deal, "pass", "R1.5", "redeal")


def test_r1_5_jack_and_seven_in_prikup_later_deal_is_played():
    deal = make_deal(dealer=0, prikup="JS 7S", first_deal=False)
    assert deal.redeal is None
    assert deal.phase is Phase.AUCTION
    assert deal.to_move == 1


@pytest.mark.parametrize("prikup", ["JS AH", "7S AH", "QS 8S", "JS 8S", "7S 8S"])
def test_r1_5_only_both_cards_trigger_the_redeal(prikup):
    deal = make_deal(dealer=0, prikup=prikup, first_deal=True)
    assert deal.redeal is None
    assert deal.phase is Phase.AUCTION


def test_r1_5_redealt_first_deal_is_still_the_first_deal():
    match = Match(first_dealer=2)
    first = match.deal_next(make_deck(dealer=2, prikup="JS 7S"))
    assert first.redeal == "jack-seven-prikup"
    # again jack and seven in the prikup: still the first deal, so again a redeal
    second = match.deal_next(make_deck(dealer=2, prikup="7S JS"))
    assert second.first_deal
    assert second.redeal == "jack-seven-prikup"
    third = match.deal_next(make_deck(dealer=2, hands={0: "JS AS KS QS AH KH QH JH TH 9H"}))
    assert third.dealer == 2
    assert third.first_deal
    assert third.redeal is None
    assert third.first_bidder == 0  # R2.1 applies to the redealt first deal


# --- R1.6 a redeal never counts --------------------------------------------------------------


def test_r1_6_redeals_keep_dealer_and_first_deal():
    match = Match(first_dealer=0)
    kinds = []
    deal = match.deal_next(make_deck(dealer=0, hands={1: SEQUENCE + " AC KC QC JC"}))
    kinds.append(deal.redeal)
    deal = match.deal_next(make_deck(dealer=0, prikup="JS 7S"))
    kinds.append(deal.redeal)
    assert kinds == ["spade-sequence", "jack-seven-prikup"]
    assert match.completed_deals == 0
    assert match.next_dealer == 0
    assert match.deal_totals == [None, None]
    deal = match.deal_next(make_deck(dealer=0, hands={2: "JS AS KS QS AH KH QH JH TH 9H"}))
    assert deal.first_deal and deal.dealer == 0 and deal.first_bidder == 2


def test_r1_6_no_jack_no_seven_redeal_keeps_the_dealer():
    # A completed first deal (surrender), then a second deal whose auction is all-pass with
    # J and 7 of spades in the prikup (R3.4): redeal, same dealer, still the second deal.
    match = Match(first_dealer=0)
    first = match.deal_next(make_deck(dealer=0, hands={1: "JS AS KS QS AH KH QH JH TH 9H"}))
    assert first.first_bidder == 1
    for text in ["bid spades", "pass", "pass"]:
        match.apply(Action.parse(text))
    hand = sorted(first.hand(1), key=lambda c: c.index)
    match.apply(Action.parse(f"discard {hand[0]} {hand[1]}"))
    match.apply(Action.parse("surrender"))
    assert match.completed_deals == 1
    assert match.totals == (2, -10, 2)
    assert match.next_dealer == 1  # R2.2: the first bidder deals the second deal
    second = match.deal_next(make_deck(dealer=1, prikup="JS 7S"))
    assert not second.first_deal
    assert second.redeal is None
    for _ in range(3):
        match.apply(Action.parse("pass"))
    assert second.redeal == "no-jack-no-seven"
    assert match.completed_deals == 1
    assert match.next_dealer == 1
    assert match.totals == (2, -10, 2)
    third = match.deal_next(make_deck(dealer=1))
    assert third.dealer == 1 and not third.first_deal
    assert third.first_bidder == 2


def test_r1_6_deal_next_refuses_while_a_deal_is_in_progress():
    match = Match(first_dealer=0)
    match.deal_next(make_deck(dealer=0))
    with pytest.raises(IllegalActionError) as info:
        match.deal_next(make_deck(dealer=0))
    assert info.value.rule == "R1.6"
    assert info.value.code == "deal-in-progress"
